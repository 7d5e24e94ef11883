"""The crosstable image, decoded by Pillow: its size, a mark in every finished game's cell
and none in an unfinished one, the players' own cells filled, in English and Japanese; and
its text for screen readers in both languages."""

from __future__ import annotations

import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.services.tournaments.pairings import Entrant, round_robin
from bot.services.tournaments.ranking import Game, Result, standings
from bot.services.tournaments.tables import crosstable
from bot.ui.text.tournaments.crosstable import crosstable_words
from render.crosstable import (
    BACKGROUND,
    CELL,
    MAX_PLAYERS,
    NAME_MAX,
    PAD,
    ROW,
    SELF,
    STRIPE,
    Crosstable,
    Grid,
    Mark,
    Row,
    Words,
    describe_crosstable,
    render_crosstable,
)

NAMES = {1: "山田太郎", 2: "Alice", 3: "はなこ🌸", 4: "Dvořák", 5: "佐藤花子", 6: "Bob"}
LANGUAGES = ["en", "ja"]


def six_player_table(*, double: bool, finished: int) -> tuple[Crosstable, list[Game]]:
    """A six-player round robin whose first `finished` games are over (results in turn:
    sente wins, gote wins, draw)."""
    entrants = [Entrant(p, 1800 - 50 * p) for p in NAMES]
    schedule = [g for r in round_robin(list(NAMES), double=double) for g in r.games]
    cycle = [Result.SENTE_WINS, Result.GOTE_WINS, Result.DRAW]
    games = [
        Game(g.sente, g.gote, cycle[i % 3] if i < finished else None)
        for i, g in enumerate(schedule)
    ]
    table = standings(entrants, games)
    drawn = crosstable(table, games, NAMES, games_per_pair=2 if double else 1, title="Club")
    return drawn, games


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels in `box` (inset by 3, off the grid lines) are neither background,
    stripe, nor the own-cell fill: the drawn text."""
    left, top, right, bottom = box
    crop = image.crop((left + 3, top + 3, right - 3, bottom - 3))
    plain = {bytes(colour) for colour in (BACKGROUND, STRIPE, SELF)}
    data = crop.tobytes()
    return sum(1 for at in range(0, len(data), 3) if data[at : at + 3] not in plain)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("double", [False, True])
def test_every_finished_game_has_its_mark_and_no_other_cell_has_one(
    lang: str, double: bool
) -> None:
    table, _ = six_player_table(double=double, finished=11 if not double else 20)
    words = crosstable_words(lang)
    image = decoded(render_crosstable(table, words=words))
    grid = Grid(table, words)
    assert image.size == (grid.width, grid.height)
    assert image.height == PAD + 18 + 16 + ROW * 7 + PAD
    assert grid.pair_width == CELL * table.games_per_pair
    for r, row in enumerate(table.rows):
        for c, games in enumerate(row.results):
            if c == r:
                own = image.crop(grid.cell(r, c)).getcolors()
                assert own is not None and max(own)[1] == SELF
                continue
            for g, mark in enumerate(games):
                if mark is None:
                    assert ink(image, grid.cell(r, c, g)) == 0, (r, c, g)
                else:
                    assert ink(image, grid.cell(r, c, g)) > 5, (r, c, g, mark)


def test_the_headings_are_in_the_readers_language() -> None:
    table, _ = six_player_table(double=False, finished=15)
    english = decoded(render_crosstable(table, words=crosstable_words("en")))
    japanese = decoded(render_crosstable(table, words=crosstable_words("ja")))
    grid = Grid(table, crosstable_words("ja"))
    heading = (grid.left, grid.top, grid.cells_left, grid.top + ROW)
    assert ink(japanese, heading) > 20
    # The cells are the same; the headings differ.
    cells = (grid.cells_left, grid.top + ROW, grid.points_left, grid.height - PAD)
    english_grid = Grid(table, crosstable_words("en"))
    english_cells = (
        english_grid.cells_left,
        english_grid.top + ROW,
        english_grid.points_left,
        english_grid.height - PAD,
    )
    assert japanese.crop(cells).tobytes() == english.crop(english_cells).tobytes()
    assert japanese.crop(heading).tobytes() != english.crop(heading).tobytes()


def test_a_thirty_player_double_round_robin_fits_one_image() -> None:
    players = list(range(1, 31))
    entrants = [Entrant(p, 2000 - p) for p in players]
    games = [
        Game(g.sente, g.gote, Result.SENTE_WINS)
        for r in round_robin(players, double=True)
        for g in r.games
    ]
    table = crosstable(
        standings(entrants, games), games, {p: f"Player {p}" for p in players}, games_per_pair=2
    )
    image = decoded(render_crosstable(table))
    assert image.width < 2000 and image.height < 1000
    grid = Grid(table, Words())
    assert ink(image, grid.cell(0, 29, 1)) > 5


def test_any_name_is_drawn_within_its_column() -> None:
    hostile = {1: "x" * 100_000, 2: "\u202eevil\u202c" + "\u0301" * 500, 3: "🌸" * 300, 4: ""}
    entrants = [Entrant(p, 1500) for p in hostile]
    games = [Game(1, 2, Result.DRAW), Game(3, 4, Result.SENTE_WINS)]
    table = crosstable(standings(entrants, games), games, hostile)
    grid = Grid(table, Words())
    assert grid.name_width <= NAME_MAX
    assert decoded(render_crosstable(table)).width == grid.width


@pytest.mark.parametrize(
    "rows",
    [
        (Row("A", ((),), Fraction(0), Fraction(0), 1),),  # one player
        (  # a missing cell
            Row("A", ((), ()), Fraction(0), Fraction(0), 1),
            Row("B", ((Mark.LOSS,), ()), Fraction(0), Fraction(0), 2),
        ),
        (  # a result against oneself
            Row("A", ((Mark.WIN,), (Mark.WIN,)), Fraction(0), Fraction(0), 1),
            Row("B", ((Mark.LOSS,), ()), Fraction(0), Fraction(0), 2),
        ),
    ],
)
def test_a_malformed_table_is_refused(rows: tuple[Row, ...]) -> None:
    with pytest.raises(ValueError):
        Crosstable(rows)


def test_too_many_players_are_refused() -> None:
    count = MAX_PLAYERS + 1
    rows = tuple(
        Row(
            str(i),
            tuple(() if j == i else (None,) for j in range(count)),
            Fraction(0),
            Fraction(0),
            1,
        )
        for i in range(count)
    )
    with pytest.raises(ValueError):
        Crosstable(rows)


def test_the_text_crosstable_in_english_and_japanese() -> None:
    entrants = [Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1400)]
    games = [Game(1, 2, Result.DRAW), Game(3, 1, Result.GOTE_WINS, forfeit=True), Game(2, 3)]
    names = {1: "Ann", 2: "山田", 3: "Bo"}
    table = crosstable(standings(entrants, games), games, names)
    assert describe_crosstable(table, words=crosstable_words("en")) == (
        "Crosstable of 3 players.\n"
        "1. Ann: score 1½, Sonneborn-Berger ¼. Against 山田: drew. Against Bo: won by forfeit.\n"
        "2. 山田: score ½, Sonneborn-Berger ¾. Against Ann: drew. Against Bo: not played yet.\n"
        "3. Bo: score 0, Sonneborn-Berger 0. Against Ann: lost by forfeit. "
        "Against 山田: not played yet."
    )
    assert describe_crosstable(table, words=crosstable_words("ja")) == (
        "対戦表（3人）。\n"
        "1位 Ann：得点1½、SB ¼。対山田：引き分け。対Bo：不戦勝。\n"
        "2位 山田：得点½、SB ¾。対Ann：引き分け。対Bo：未対局。\n"
        "3位 Bo：得点0、SB 0。対Ann：不戦敗。対山田：未対局。"
    )


def test_a_double_round_robin_says_both_games_of_a_pair() -> None:
    table, _ = six_player_table(double=True, finished=16)
    text = describe_crosstable(table, words=crosstable_words("en"))
    lines = text.splitlines()
    assert len(lines) == 7
    assert all(line.count("Against") == 5 for line in lines[1:])
    assert ", not played yet." in text and "won, " in text


def test_a_withdrawn_players_annulled_row_says_so() -> None:
    entrants = [Entrant(p, 1500 - p) for p in (1, 2, 3, 4)]
    games = [Game(1, 4, Result.SENTE_WINS), Game(2, 3, Result.DRAW), Game(4, 3), Game(1, 2)]
    games += [Game(2, 4), Game(3, 1)]
    table = crosstable(
        standings(entrants, games, withdrawn=[4]),
        games,
        {1: "A", 2: "B", 3: "C", 4: "D"},
        withdrawn=[4],
    )
    # D finished 1 of 3 games: all annulled, A's win over D too. B and C drew: level on
    # points, SB and head to head, no wins; B is rated higher.
    assert describe_crosstable(table, words=crosstable_words("ja")).splitlines() == [
        "対戦表（4人）。",
        "1位 B：得点½、SB ¼。対C：引き分け。対A：未対局。",
        "2位 C：得点½、SB ¼。対B：引き分け。対A：未対局。",
        "3位 A：得点0、SB 0。対B：未対局。対C：未対局。",
        "D：棄権（対局はすべて無効）。",
    ]


def test_a_player_who_withdrew_after_half_is_ranked_and_marked() -> None:
    entrants = [Entrant(p, 1500 - p) for p in (1, 2, 3)]
    games = [Game(1, 3, Result.SENTE_WINS), Game(3, 2), Game(2, 1, Result.DRAW)]
    table = crosstable(
        standings(entrants, games, withdrawn=[1]), games, {1: "A", 2: "B", 3: "C"}, withdrawn=[1]
    )
    assert describe_crosstable(table).splitlines()[1] == (
        "1. A (withdrawn): score 1½, Sonneborn-Berger ¼. Against B: drew. Against C: won."
    )


def test_braces_in_a_name_or_title_are_only_text() -> None:
    entrants = [Entrant(1, 1600), Entrant(2, 1500)]
    games = [Game(1, 2, Result.SENTE_WINS)]
    names = {1: "{rank}{0}", 2: "{name"}
    table = crosstable(standings(entrants, games), games, names, title="{count}}")
    assert describe_crosstable(table).splitlines() == [
        "{count}}: crosstable of 2 players.",
        "1. {rank}{0}: score 1, Sonneborn-Berger 0. Against {name: won.",
        "2. {name: score 0, Sonneborn-Berger 0. Against {rank}{0}: lost.",
    ]
    assert decoded(render_crosstable(table)).size == Grid(table, Words()).image().size

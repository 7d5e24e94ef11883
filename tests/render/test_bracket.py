"""The knockout bracket image, decoded by Pillow: its size for 2 to 64 players, the winner's
name and line in the winner's ink and an undecided pairing's in the grid's, a bye, games'
marks, a hostile name kept in its box at bounded cost, its rounds named in English and
Japanese; and its text for screen readers in both languages."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from bot.services.tournaments.pairings import Entrant, knockout_bracket
from bot.ui.text.tournaments.bracket import bracket_words
from render.bracket import (
    BOX,
    GAP,
    LINE,
    MARK_WIDTH,
    MAX_MARKS,
    MAX_PLAYERS,
    NAME_WIDTH,
    PAD,
    SEED_WIDTH,
    Bracket,
    Game,
    Layout,
    Outcome,
    Pairing,
    Player,
    Side,
    describe_bracket,
    forget_fitted_names,
    render_bracket,
    round_name,
)
from render.crosstable import BACKGROUND, FAINT, GRID, TEXT, WIN

#: The largest bracket image posted: Discord shows it whole, and its encoding stays quick.
BOUND = (2400, 2000)
NAMES = ["山田太郎", "Alice", "はなこ🌸", "Dvořák", "佐藤花子", "Bob", "鈴木一郎", "Eve"]


def field(count: int, names: list[str] | None = None) -> dict[int, Player]:
    """`count` players by seed (1 the highest rating), named in turn from `names`."""
    chosen = NAMES if names is None else names
    return {
        seed: Player(chosen[(seed - 1) % len(chosen)] + str(seed), seed, 2000 - 10 * seed)
        for seed in range(1, count + 1)
    }


def first_round(
    count: int,
    games: tuple[Game, ...] = (),
    *,
    decided: bool = True,
    names: list[str] | None = None,
) -> tuple[Pairing, ...]:
    """The first round of `count` players seeded as the service seeds them, each pairing
    won by its upper seed with `games` (or undecided)."""
    players = field(count, names)
    entrants = [Entrant(seed, -seed) for seed in players]
    pairings = []
    for match in knockout_bracket(entrants):
        upper = players[match.upper]
        if match.lower is None:
            pairings.append(Pairing(upper))
            continue
        winner = Side.UPPER if decided else None
        pairings.append(Pairing(upper, players[match.lower], games, winner))
    return tuple(pairings)


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def inked(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """How many pixels of `box` are exactly `colour`."""
    counts = image.crop(box).getcolors(maxcolors=1 << 24) or []
    return sum(count for count, found in counts if found == colour)


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many pixels of `box` differ from the background."""
    (width, height) = (box[2] - box[0], box[3] - box[1])
    return width * height - inked(image, box, BACKGROUND)


ONE_WIN = (Game(True, Outcome.UPPER_WON),)


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 16, 33, 64])
def test_every_size_draws_one_image_within_the_bound(count: int) -> None:
    replays = tuple(Game(k % 2 == 0, Outcome.REPLAYED) for k in range(6)) + ONE_WIN
    bracket = Bracket((first_round(count, replays),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    assert image.size == (layout.width, layout.height)
    assert image.width <= BOUND[0] and image.height <= BOUND[1]
    assert layout.marks == MAX_MARKS  # seven games, the last three shown


def test_more_than_the_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="1 to 32 pairings"):
        Bracket((first_round(MAX_PLAYERS + 1),))
    with pytest.raises(ValueError, match="half the pairings"):
        Bracket((first_round(8), first_round(8)))


def test_the_winners_line_is_in_the_winners_ink_and_an_undecided_ones_is_not() -> None:
    decided = Pairing(Player("Ann", 1, 1800), Player("Dan", 4, 1500), ONE_WIN, Side.UPPER)
    undecided = Pairing(
        Player("Bo", 2, 1700), Player("Cy", 3, 1600), (Game(False, Outcome.PLAYING),)
    )
    bracket = Bracket(((decided, undecided),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    for index, ours in ((0, True), (1, False)):
        _, top, right, bottom = layout.box(0, index)
        middle = (top + bottom) // 2
        onward = (right + 2, middle - 1, right + GAP // 2 - 2, middle + 1)
        expected = WIN if ours else GRID
        assert inked(image, onward, expected) >= onward[2] - onward[0], index
        assert inked(image, onward, WIN if not ours else GRID) == 0, index
    # The winner's name in the winner's ink, the loser's and the undecided ones' not.
    left, top, _, _ = layout.box(0, 0)
    upper = (left + SEED_WIDTH, top + 1, left + SEED_WIDTH + NAME_WIDTH, top + LINE)
    lower = (left + SEED_WIDTH, top + LINE + 1, left + SEED_WIDTH + NAME_WIDTH, top + BOX)
    assert inked(image, upper, WIN) > 10
    assert inked(image, lower, WIN) == 0 and ink(image, lower) > 10
    left, top, _, _ = layout.box(0, 1)
    both = (left + SEED_WIDTH, top + 1, left + SEED_WIDTH + NAME_WIDTH, top + BOX)
    assert inked(image, both, WIN) == 0 and ink(image, both) > 20
    # The final is not played: the line to the champion's box is the grid's.
    final = layout.box(1, 0)
    champion_line = (final[2] + 2, (final[1] + final[3]) // 2 - 1, final[2] + 20, final[3])
    assert inked(image, champion_line, WIN) == 0


def test_the_champions_line_and_name_are_in_the_winners_ink() -> None:
    ann, bo = Player("Ann", 1, 1800), Player("Bo", 2, 1700)
    bracket = Bracket(((Pairing(ann, bo, ONE_WIN, Side.LOWER),),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    final = layout.box(0, 0)
    centre = (final[1] + final[3]) // 2
    assert inked(image, (final[2] + 2, centre - 1, final[2] + 20, centre + 1), WIN) >= 18
    champion = (final[2] + GAP, centre - LINE // 2 + 1, layout.width - PAD, centre + LINE // 2)
    assert inked(image, champion, WIN) > 10
    assert bracket.champion() == bo


def test_a_later_round_shows_who_is_through_before_it_is_paired() -> None:
    bracket = Bracket((first_round(8, ONE_WIN),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    for index in range(2):  # the semifinals' boxes hold the quarterfinals' winners
        left, top, _, _ = layout.box(1, index)
        assert ink(image, (left + SEED_WIDTH, top + 2, left + SEED_WIDTH + 60, top + BOX - 2)) > 30
    left, top, right, _ = layout.box(2, 0)  # the final: nobody is through yet
    assert ink(image, (left + 2, top + 2, right - 2, top + LINE - 2)) == 0


def test_a_byes_box_and_the_games_marks() -> None:
    bracket = Bracket((first_round(3, (Game(False, Outcome.REPLAYED), *ONE_WIN)),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    left, top, right, bottom = layout.box(0, 0)  # seed 1's bye
    assert ink(image, (left + SEED_WIDTH, top + LINE + 2, right - 2, bottom - 2)) > 10
    for line_top in (top, top + LINE):  # no game marks in a bye's box
        assert (
            ink(image, (right - MARK_WIDTH * 2, line_top + 2, right - 2, line_top + LINE - 2)) == 0
        )
    left, top, right, bottom = layout.box(0, 1)  # two games: replayed, then won
    for slot in range(2):
        mark = (
            right - MARK_WIDTH * (2 - slot),
            top + 2,
            right - MARK_WIDTH * (1 - slot),
            top + LINE,
        )
        assert ink(image, mark) > 10, slot
    won = (right - MARK_WIDTH, top + 2, right - 2, top + LINE)
    assert inked(image, won, WIN) > 5


def test_a_six_thousand_character_name_stays_in_its_box_at_bounded_cost() -> None:
    hostile = ["W" * 6000, "山" * 6000, "🌸" * 6000]
    long_ones = Bracket((first_round(64, ONE_WIN, names=hostile),))
    cut_ones = Bracket((first_round(64, ONE_WIN, names=["W" * 40, "山" * 40, "🌸" * 40]),))
    ordinary = Bracket((first_round(64, ONE_WIN),))
    render_bracket(ordinary)  # warm the fonts and the marks' masks
    timings = {}
    for label, bracket in (("long", long_ones), ("cut", cut_ones), ("ordinary", ordinary)):
        best = float("inf")
        for _ in range(3):
            forget_fitted_names()  # every name fitted afresh, as in a new knockout's post
            started = time.perf_counter()
            png = render_bracket(bracket)
            best = min(best, time.perf_counter() - started)
        timings[label] = best, png
    # Cut to their box: the same picture as names of 40 characters, at about the cost of
    # ordinary names.
    assert timings["long"][1] == timings["cut"][1]
    assert timings["long"][0] < 4 * timings["ordinary"][0] + 0.1
    image = decoded(timings["long"][1])
    layout = Layout(long_ones, bracket_words("en"))
    left, top, _, _ = layout.box(0, 0)
    rating = left + SEED_WIDTH + NAME_WIDTH
    assert ink(image, (rating - 4, top + 2, rating + 2, top + LINE - 2)) == 0  # a gap remains


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Round 1", "Round 2", "Quarterfinals", "Semifinals", "Final"]),
        ("ja", ["1回戦", "2回戦", "準々決勝", "準決勝", "決勝"]),
    ],
)
def test_rounds_are_named_in_the_readers_language(lang: str, names: list[str]) -> None:
    words = bracket_words(lang)
    assert [round_name(words, number, 5) for number in range(1, 6)] == names
    assert round_name(words, 1, 1) == names[-1]


def test_the_headings_are_in_the_readers_language_and_the_boxes_the_same() -> None:
    bracket = Bracket((first_round(8, ONE_WIN),))
    english = decoded(render_bracket(bracket, words=bracket_words("en")))
    japanese = decoded(render_bracket(bracket, words=bracket_words("ja")))
    layout = Layout(bracket, bracket_words("ja"))
    assert english.size == japanese.size
    heading = (PAD, layout.top - 28, english.width - PAD, layout.top)
    boxes = (PAD, layout.top, english.width - PAD, english.height)
    assert english.crop(heading).tobytes() != japanese.crop(heading).tobytes()
    assert english.crop(boxes).tobytes() == japanese.crop(boxes).tobytes()


def two_rounds() -> Bracket:
    ann, bo, cy = Player("Ann", 1, 1800), Player("Bo", 2, 1700), Player("Cy", 3, 1600)
    semifinals = (
        Pairing(ann),
        Pairing(bo, cy, (Game(True, Outcome.REPLAYED), Game(False, Outcome.UPPER_WON)), Side.UPPER),
    )
    final = (Pairing(ann, bo, (Game(False, Outcome.LOWER_WON),), Side.LOWER),)
    return Bracket((semifinals, final), title="Club Cup")


def test_the_text_in_english() -> None:
    said = describe_bracket(two_rounds(), words=bracket_words("en"))
    assert said.splitlines() == [
        "Club Cup: knockout bracket of 3 players.",
        "Bo is the champion.",
        "Final:",
        "Ann (seed 1) against Bo (seed 2): Bo won Game 1 with Sente. Bo goes through.",
        "Semifinals:",
        "Ann has a bye.",
        "Bo (seed 2) against Cy (seed 3): Game 1 drawn and replayed, "
        "Bo won Game 2 with Gote. Bo goes through.",
    ]


def test_the_text_in_japanese() -> None:
    said = describe_bracket(two_rounds(), words=bracket_words("ja"))
    assert said.splitlines() == [
        "Club Cup：トーナメント表（3人）。",
        "優勝はBo。",
        "決勝：",
        "Ann（シード1） 対 Bo（シード2）：第1局はBoが先手で勝ち。Boが勝ち上がり。",
        "準決勝：",
        "Annは不戦勝。",
        "Bo（シード2） 対 Cy（シード3）：第1局は引き分けで指し直し、"
        "第2局はBoが後手で勝ち。Boが勝ち上がり。",
    ]


def test_the_text_counts_many_replays_instead_of_naming_each() -> None:
    ann, bo = Player("Ann", 1), Player("Bo", 2)
    games = tuple(Game(k % 2 == 0, Outcome.REPLAYED) for k in range(500))
    said = describe_bracket(Bracket(((Pairing(ann, bo, games),),)))
    assert "496 games before" in said and "Game 500 drawn and replayed" in said
    assert len(said) < 400


def test_a_withdrawn_players_name_is_fainter_and_the_text_says_so() -> None:
    gone = Player("Ann", 1, 1800, withdrawn=True)
    pairing = Pairing(gone, Player("Bo", 2, 1700), (Game(True, Outcome.PLAYING),))
    bracket = Bracket(((pairing,),))
    layout = Layout(bracket, bracket_words("en"))
    image = decoded(render_bracket(bracket))
    left, top, _, _ = layout.box(0, 0)
    upper = (left + SEED_WIDTH, top + 1, left + SEED_WIDTH + NAME_WIDTH, top + LINE)
    lower = (left + SEED_WIDTH, top + LINE + 1, left + SEED_WIDTH + NAME_WIDTH, top + BOX)
    assert inked(image, upper, TEXT) == 0 and inked(image, upper, FAINT) > 5
    assert inked(image, lower, TEXT) > 5
    assert "Ann（シード1、棄権） 対 Bo（シード2）" in describe_bracket(
        bracket, words=bracket_words("ja")
    )

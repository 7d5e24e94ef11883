"""A team match's scoreboard, decoded by Pillow: its size, a mark in every finished game's
cell and none in an unfinished one, the headings in the reader's language, any name
drawn within its column; and its text for screen readers in English and Japanese."""

from __future__ import annotations

import doctest
import io
from fractions import Fraction

import pytest
from PIL import Image

from bot.services.tournaments.pairings import Entrant
from bot.services.tournaments.ranking import Game, Result
from bot.services.tournaments.teams import lineup, score, scoreboard
from bot.ui.text.tournaments.team_matches import scoreboard_words
from render import team_match
from render.crosstable import BACKGROUND, STRIPE
from render.team_match import (
    MAX_BOARDS,
    NAME_MAX,
    PAD,
    ROW,
    Layout,
    Scoreboard,
    Words,
    describe_scoreboard,
    render_scoreboard,
)

RED = [Entrant(1, 1900), Entrant(2, 1700), Entrant(3, 1500), Entrant(4, 1300)]
BLUE = [Entrant(11, 1800), Entrant(12, 1750), Entrant(13, 1600)]
NAMES = {1: "山田太郎", 2: "Alice", 3: "はなこ🌸", 4: "Dvořák", 11: "佐藤花子", 12: "Bob", 13: "Cy"}
PLAYED = [
    Game(1, 11, Result.SENTE_WINS),
    Game(11, 1, Result.DRAW),
    Game(12, 2, Result.SENTE_WINS),
    Game(2, 12, Result.SENTE_WINS),
    Game(3, 13, Result.GOTE_WINS, forfeit=True),
    Game(13, 3),
]


def board(played: list[Game] = PLAYED, names: dict[int, str] = NAMES) -> Scoreboard:
    return scoreboard(score(lineup(RED, BLUE), played), names, ("赤組", "Blue"))


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels in `box` (inset by 3, off the grid lines) that are neither background nor
    stripe: the drawn text."""
    left, top, right, bottom = box
    data = image.crop((left + 3, top + 3, right - 3, bottom - 3)).tobytes()
    plain = {bytes(BACKGROUND), bytes(STRIPE)}
    return sum(1 for at in range(0, len(data), 3) if data[at : at + 3] not in plain)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_finished_game_has_its_mark_and_the_unfinished_one_none(lang: str) -> None:
    drawn = board()
    words = scoreboard_words(lang)
    image = decoded(render_scoreboard(drawn, words=words))
    layout = Layout(drawn, words)
    assert image.size == (layout.width, layout.height)
    # The title, the status line, the headings, 3 boards, 2 totals and who sits out.
    assert image.height == PAD + 20 + 12 + ROW + ROW * (1 + 3 + 2 + 1) + PAD
    for index, line in enumerate(drawn.lines):
        for side, marks in enumerate((line.first_marks, line.second_marks)):
            for game, mark in enumerate(marks):
                cell = layout.game_cell(index, side, game)
                if mark is None:
                    assert ink(image, cell) == 0, (index, side, game)
                else:
                    assert ink(image, cell) > 5, (index, side, game, mark)
    assert drawn.lines[2].first_marks[1] is None  # the game still being played


def test_the_headings_are_in_the_readers_language() -> None:
    drawn = board()
    english = decoded(render_scoreboard(drawn, words=scoreboard_words("en")))
    japanese = decoded(render_scoreboard(drawn, words=scoreboard_words("ja")))
    layout = Layout(drawn, scoreboard_words("ja"))
    heading = (layout.left, layout.row_top(0), layout.width - PAD, layout.row_top(1))
    assert ink(japanese, heading) > 20
    assert english.tobytes() != japanese.tobytes()
    assert scoreboard_words("ja").game.format(game=1) == "第1局"


def test_any_name_is_drawn_within_its_column() -> None:
    hostile = {
        1: "x" * 100_000,
        2: "\u202eevil\u202c" + "\u0301" * 500,
        3: "🌸" * 300,
        4: "",
        11: "{team}{0}",
        12: "\x00\n\t",
        13: "ｗ" * 1000,
    }
    drawn = scoreboard(score(lineup(RED, BLUE), PLAYED), hostile, ("{first}" * 500, ""))
    layout = Layout(drawn, Words())
    assert layout.name_width <= NAME_MAX
    image = decoded(render_scoreboard(drawn))
    assert image.size == (layout.width, layout.height)
    assert image.width < 1400
    text = describe_scoreboard(drawn)
    assert "{team}{0}" in text and len(text) < 5000


def test_the_most_boards_fit_one_image_and_one_more_is_refused() -> None:
    first = [Entrant(p, 2000 - p) for p in range(1, MAX_BOARDS + 1)]
    second = [Entrant(1000 + p, 2000 - p) for p in range(1, MAX_BOARDS + 1)]
    match = lineup(first, second)
    played = [Game(g.sente, g.gote, Result.SENTE_WINS) for g in match.games()]
    names = {e.player: f"Player {e.player}" for e in first + second}
    drawn = scoreboard(score(match, played), names, ("A", "B"))
    image = decoded(render_scoreboard(drawn))
    assert image.height < 2000 and image.width < 1400
    line = drawn.lines[0]
    too_many = (line,) * (MAX_BOARDS + 1)
    with pytest.raises(ValueError):
        Scoreboard("A", "B", too_many, *(Fraction(0),) * 4, None, False, 0)


def test_the_text_in_english_and_japanese() -> None:
    drawn = board()
    assert describe_scoreboard(drawn, words=scoreboard_words("en")).splitlines() == [
        "Team match: 赤組 v Blue. Game points: 赤組 2½, Blue 2½. "
        "Board points: 赤組 1½, Blue ½. 赤組 leads (games left: 1).",
        "Board 1: 山田太郎 against 佐藤花子, 1½ to ½. Game 1, 山田太郎 with Sente: 山田太郎 won. "
        "Game 2, 佐藤花子 with Sente: drawn.",
        "Board 2: Alice against Bob, 1 to 1. Game 1, Bob with Sente: Bob won. "
        "Game 2, Alice with Sente: Alice won.",
        "Board 3: はなこ🌸 against Cy, 0 to 1. Game 1, はなこ🌸 with Sente: Cy won by forfeit. "
        "Game 2, Cy with Sente: not played yet.",
        "Sitting out: Dvořák.",
    ]
    assert describe_scoreboard(drawn, words=scoreboard_words("ja")).splitlines() == [
        "団体戦：赤組 対 Blue。対局の得点：赤組 2½、Blue 2½。将ごとの勝ち点：赤組 1½、Blue ½。"
        "赤組がリード（残り1局）。",
        "1将：山田太郎 対 佐藤花子、1½対½。第1局（先手 山田太郎）：山田太郎の勝ち。"
        "第2局（先手 佐藤花子）：引き分け。",
        "2将：Alice 対 Bob、1対1。第1局（先手 Bob）：Bobの勝ち。第2局（先手 Alice）：Aliceの勝ち。",
        "3将：はなこ🌸 対 Cy、0対1。第1局（先手 はなこ🌸）：Cyの不戦勝。第2局（先手 Cy）：未対局。",
        "控え：Dvořák。",
    ]


@pytest.mark.parametrize(
    ("last", "english", "japanese"),
    [
        (Result.GOTE_WINS, "赤組 has won the match.", "赤組の勝利。"),
        (Result.SENTE_WINS, "Blue has won the match.", "Blueの勝利。"),
        (Result.DRAW, "The match is drawn.", "引き分け。"),
    ],
)
def test_the_final_status_says_the_winner(last: Result, english: str, japanese: str) -> None:
    drawn = board([*PLAYED[:5], Game(13, 3, last)])
    assert team_match.status(drawn, scoreboard_words("en")) == english
    assert team_match.status(drawn, scoreboard_words("ja")) == japanese


def test_an_early_decision_and_a_forfeit_by_both_are_said() -> None:
    match = lineup(RED[:3], BLUE)
    games = match.games()
    won = [
        Game(g.sente, g.gote, Result.SENTE_WINS if g.sente < 10 else Result.GOTE_WINS)
        for g in games
    ]
    both = Game(games[4].sente, games[4].gote, None, forfeit=True)
    drawn = scoreboard(score(match, [*won[:4], both]), NAMES, ("Red", "Blue"))
    assert team_match.status(drawn, scoreboard_words("en")) == (
        "Red has won the match (games left: 1)."
    )
    assert "lost by both" in describe_scoreboard(drawn)
    assert "両者不戦敗" in describe_scoreboard(drawn, words=scoreboard_words("ja"))


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(team_match)
    assert result.failed == 0 and result.attempted > 0

"""Team matches: boards paired by rating from hand-made teams (the extra players named as
sitting out), both colours on every board, the score against a hand computation, and the
match decided exactly when every way the games left can end gives the same outcome
(checked by playing out every completion with an independent count)."""

from __future__ import annotations

import doctest
import itertools
import random
from fractions import Fraction

import pytest

from bot.services.tournaments import teams
from bot.services.tournaments.pairings import Entrant
from bot.services.tournaments.ranking import Game, Result
from bot.services.tournaments.teams import MAX_TEAM, Side, lineup, score, scoreboard

RED = [Entrant(1, 1900), Entrant(2, 1700), Entrant(3, 1500), Entrant(4, 1300)]
BLUE = [Entrant(11, 1800), Entrant(12, 1750), Entrant(13, 1600)]


def test_boards_pair_the_teams_strongest_first_and_the_extra_player_sits_out() -> None:
    shuffled = [RED[2], RED[0], RED[3], RED[1]]
    match = lineup(shuffled, list(reversed(BLUE)))
    assert [(b.number, b.first, b.second) for b in match.boards] == [
        (1, 1, 11),
        (2, 2, 12),
        (3, 3, 13),
    ]
    assert match.sitting_out == (4,)
    assert match.sitting_side is Side.FIRST
    swapped = lineup(BLUE, RED)
    assert [(b.first, b.second) for b in swapped.boards] == [(11, 1), (12, 2), (13, 3)]
    assert (swapped.sitting_out, swapped.sitting_side) == ((4,), Side.SECOND)


def test_two_extra_players_sit_out_strongest_first_and_equal_ratings_keep_their_order() -> None:
    first = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1600), Entrant(4, 1400)]
    second = [Entrant(10, 1000), Entrant(20, 1000)]
    match = lineup(first, second)
    assert [(b.first, b.second) for b in match.boards] == [(3, 10), (1, 20)]
    assert match.sitting_out == (2, 4)


def test_equal_teams_leave_nobody_out() -> None:
    match = lineup(RED[:3], BLUE)
    assert match.sitting_out == () and match.sitting_side is None


def test_every_pair_plays_both_colours_and_each_game_gives_half_the_boards_sente() -> None:
    first = [Entrant(p, 2000 - p) for p in range(1, 8)]
    second = [Entrant(p, 2000 - p) for p in range(101, 108)]
    match = lineup(first, second)
    games = match.games()
    assert len(games) == 14
    for board in match.boards:
        one, two = board.games()
        assert {one.sente, one.gote} == {board.first, board.second}
        assert (two.sente, two.gote) == (one.gote, one.sente)
        assert (one.round, two.round) == (1, 2) and one.board == two.board == board.number
    for number in (1, 2):
        first_sente = sum(g.sente < 100 for g in games if g.round == number)
        assert first_sente in (3, 4)  # 7 boards: the teams have sente on 4 and 3
    assert [g.round for g in games] == [1] * 7 + [2] * 7


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ([], BLUE),  # an empty team
        (RED, [Entrant(1, 1500)]),  # a player in both teams
        ([Entrant(5, 1500), Entrant(5, 1400)], BLUE),  # entered twice
        ([Entrant(p, 1500) for p in range(MAX_TEAM + 1)], [Entrant(-1, 1500)]),
    ],
)
def test_malformed_teams_are_refused(first: list[Entrant], second: list[Entrant]) -> None:
    with pytest.raises(ValueError):
        lineup(first, second)


def hand_played() -> list[Game]:
    """Board 1: 1 beats 11, then they draw (1½–½). Board 2: each wins with sente (12 in
    game 1, 2 in game 2): 1–1. Board 3: 13 wins game 1 by forfeit; game 2
    is still being played."""
    return [
        Game(1, 11, Result.SENTE_WINS),
        Game(11, 1, Result.DRAW),
        Game(12, 2, Result.SENTE_WINS),
        Game(2, 12, Result.SENTE_WINS),
        Game(3, 13, Result.GOTE_WINS, forfeit=True),
        Game(13, 3),
    ]


def test_the_score_equals_a_hand_computation() -> None:
    match = lineup(RED, BLUE)
    now = score(match, hand_played())
    # Game points: red 1½ + 1 + 0 = 2½, blue ½ + 1 + 1 = 2½. Board points (boards with
    # both games over): red 1 + ½, blue 0 + ½. Level on games, red ahead on boards.
    per_board = [
        (b.first_points, b.second_points, b.first_board_point, b.second_board_point)
        for b in now.boards
    ]
    half = Fraction(1, 2)
    assert per_board == [
        (Fraction(3, 2), half, Fraction(1), Fraction(0)),
        (Fraction(1), Fraction(1), half, half),
        (Fraction(0), Fraction(1), None, None),
    ]
    assert (now.first_points, now.second_points) == (Fraction(5, 2), Fraction(5, 2))
    assert (now.first_boards, now.second_boards) == (Fraction(3, 2), half)
    assert (now.finished, now.total, now.remaining) == (5, 6, 1)
    assert now.leader is Side.FIRST
    assert not now.decided and now.winner is None
    assert now.sitting_out == (4,)


@pytest.mark.parametrize(
    ("last", "winner", "boards"),
    [
        # 3 wins: 3½–2½ on games; board 3 is 1–1, ½ each.
        (Result.GOTE_WINS, Side.FIRST, (Fraction(2), Fraction(1))),
        # 13 wins: 2½–3½.
        (Result.SENTE_WINS, Side.SECOND, (Fraction(3, 2), Fraction(3, 2))),
        # A draw: 3–3 on games, 1½–1½ on boards (13 takes board 3 by 1½–½): drawn.
        (Result.DRAW, None, (Fraction(3, 2), Fraction(3, 2))),
    ],
)
def test_each_way_the_last_game_ends_gives_the_hand_computed_outcome(
    last: Result, winner: Side | None, boards: tuple[Fraction, Fraction]
) -> None:
    played = [*hand_played()[:5], Game(13, 3, last)]
    final = score(lineup(RED, BLUE), played)
    assert final.decided and final.remaining == 0
    assert final.winner is winner
    assert final.leader is winner
    assert (final.first_boards, final.second_boards) == boards


def test_a_match_is_decided_before_its_last_games() -> None:
    match = lineup(RED[:3], BLUE)
    games = match.games()
    wins = [Game(g.sente, g.gote, _won_by(g.sente, g.gote, 1, 2, 3)) for g in games]
    # The first team wins game after game: with 3 won of 6 it could still be caught.
    assert not score(match, wins[:3]).decided
    decided = score(match, wins[:4])
    assert decided.decided and decided.winner is Side.FIRST and decided.remaining == 2


def _won_by(sente: int, gote: int, *first: int) -> Result:
    return Result.SENTE_WINS if sente in first else Result.GOTE_WINS


def test_an_unscheduled_or_repeated_game_is_refused() -> None:
    match = lineup(RED, BLUE)
    with pytest.raises(ValueError, match="not scheduled"):
        score(match, [Game(1, 12, Result.DRAW)])
    with pytest.raises(ValueError, match="twice"):
        score(match, [Game(1, 11, Result.DRAW), Game(1, 11, Result.DRAW)])
    with pytest.raises(ValueError, match="not scheduled"):
        score(match, [Game(4, 11, Result.DRAW)])  # 4 sits out


def final_outcome(boards: list[tuple[int, int]], results: dict[tuple[int, int], str]) -> str:
    """An independent count of a finished match: 'first', 'second' or 'draw'. `results`
    maps (sente, gote) to 'f' (the first team's player won), 's' or 'd'."""
    games = [0, 0]  # half points
    won_boards = [0, 0]  # half board points
    for first, second in boards:
        mine = theirs = 0
        for key in ((first, second), (second, first)):
            outcome = results[key]
            mine += {"f": 2, "s": 0, "d": 1}[outcome]
            theirs += {"f": 0, "s": 2, "d": 1}[outcome]
        games[0] += mine
        games[1] += theirs
        won_boards[0] += 2 if mine > theirs else 1 if mine == theirs else 0
        won_boards[1] += 2 if theirs > mine else 1 if mine == theirs else 0
    if games[0] != games[1]:
        return "first" if games[0] > games[1] else "second"
    if won_boards[0] != won_boards[1]:
        return "first" if won_boards[0] > won_boards[1] else "second"
    return "draw"


def _result(sente: int, first_players: set[int], outcome: str) -> Result:
    if outcome == "d":
        return Result.DRAW
    first_won = outcome == "f"
    return Result.SENTE_WINS if (sente in first_players) == first_won else Result.GOTE_WINS


@pytest.mark.parametrize("seed", range(40))
def test_decided_exactly_when_every_completion_gives_the_same_outcome(seed: int) -> None:
    rng = random.Random(seed)
    first = [Entrant(p, 1500 + rng.random()) for p in (1, 2, 3)]
    second = [Entrant(p, 1500 + rng.random()) for p in (11, 12, 13)]
    match = lineup(first, second)
    pairs = [(board.first, board.second) for board in match.boards]
    keys = [(g.sente, g.gote) for g in match.games()]
    known = {key: rng.choice("fsd") for key in keys if rng.random() < 0.6}
    first_players = {1, 2, 3}
    played = [Game(*key, _result(key[0], first_players, outcome)) for key, outcome in known.items()]
    now = score(match, played)
    open_keys = [key for key in keys if key not in known]
    outcomes = {
        final_outcome(pairs, {**known, **dict(zip(open_keys, rest, strict=True))})
        for rest in itertools.product("fsd", repeat=len(open_keys))
    }
    assert now.decided == (len(outcomes) == 1), (known, outcomes)
    if now.decided:
        expected = {"first": Side.FIRST, "second": Side.SECOND, "draw": None}[outcomes.pop()]
        assert now.winner is expected


def test_the_scoreboard_names_everyone_and_says_the_leader() -> None:
    names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di", 11: "Ed", 12: "Fay", 13: "Gus"}
    drawn = scoreboard(score(lineup(RED, BLUE), hand_played()), names, ("Red", "Blue"))
    assert [(line.first, line.second) for line in drawn.lines] == [
        ("Ann", "Ed"),
        ("Bo", "Fay"),
        ("Cy", "Gus"),
    ]
    assert drawn.sitting_out == ("Di",)
    assert drawn.leader == 0 and not drawn.decided and drawn.remaining == 1
    assert [line.first_marks for line in drawn.lines][2][0] is not None


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(teams)
    assert result.failed == 0 and result.attempted > 0

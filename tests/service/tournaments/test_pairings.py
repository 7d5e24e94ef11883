"""Pairings: the round-robin tables equal FIDE's printed Berger tables, every table from 3 to
30 players has the properties a round robin needs, groups are seeded in a serpentine, and
knockout brackets are seeded 1 v N with 1 and 2 meeting only in the final."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from pathlib import Path

import pytest

from bot.services.tournaments import handicaps, pairings, ranking
from bot.services.tournaments.pairings import (
    Entrant,
    Match,
    MatchGame,
    berger_table,
    bracket_seeds,
    knockout_bracket,
    match_state,
    next_round,
    round_robin,
    seeded_groups,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "berger-tables.txt"


def published_tables() -> dict[int, list[list[tuple[int, int]]]]:
    """The printed tables in `tests/data/berger-tables.txt`, by number of players."""
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    current: list[list[tuple[int, int]]] = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("players "):
            current = tables.setdefault(int(line.split()[1]), [])
            continue
        pairs = [pair.split("-") for pair in line.split()]
        current.append([(int(sente), int(gote)) for sente, gote in pairs])
    return tables


@pytest.mark.parametrize("players", [4, 6, 8, 10, 12, 14])
def test_the_tables_are_fides_printed_ones(players: int) -> None:
    printed = published_tables()[players]
    assert len(printed) == players - 1
    assert [list(pairs) for pairs in berger_table(players)] == printed
    # An odd count plays the next even table, its last number the bye.
    assert berger_table(players - 1) == berger_table(players)


def test_an_odd_count_sits_out_whoever_meets_the_dummy() -> None:
    printed = published_tables()[6]
    rounds = round_robin([1, 2, 3, 4, 5])
    for played, pairs in zip(rounds, printed, strict=True):
        (bye,) = [min(pair) for pair in pairs if 6 in pair]
        assert played.bye == bye
        assert [(g.sente, g.gote) for g in played.games] == [p for p in pairs if 6 not in p]


def colours(rounds: tuple[pairings.Round, ...], players: int) -> dict[int, str]:
    """Each player's colours round by round: S sente, G gote, - a bye."""
    seen = {player: "" for player in range(1, players + 1)}
    for played in rounds:
        for game in played.games:
            seen[game.sente] += "S"
            seen[game.gote] += "G"
        if played.bye is not None:
            seen[played.bye] += "-"
    return seen


def longest_run(sequence: str) -> int:
    """The most games in a row with one colour (a bye does not break a run)."""
    games = sequence.replace("-", "")
    longest = run = 0
    for before, colour in zip(" " + games, games, strict=False):
        run = run + 1 if colour == before else 1
        longest = max(longest, run)
    return longest


@pytest.mark.parametrize("players", range(3, 31))
def test_single_round_robin_properties(players: int) -> None:
    ids = list(range(1, players + 1))
    rounds = round_robin(ids)
    assert len(rounds) == players - 1 + players % 2
    met = Counter(frozenset((g.sente, g.gote)) for r in rounds for g in r.games)
    assert set(met) == {frozenset((a, b)) for a in ids for b in ids if a < b}
    assert set(met.values()) == {1}
    for played in rounds:  # everyone plays once a round, or sits out once
        seated = [p for g in played.games for p in (g.sente, g.gote)]
        seated += [] if played.bye is None else [played.bye]
        assert sorted(seated) == ids
        assert [g.board for g in played.games] == list(range(1, len(played.games) + 1))
    seen = colours(rounds, players)
    # What the Berger tables give: an even count, one colour more than the other for each
    # player (n - 1 games); an odd count, as many of each; nobody three in a row.
    for sequence in seen.values():
        difference = abs(sequence.count("S") - sequence.count("G"))
        assert difference == (1 if players % 2 == 0 else 0)
        assert longest_run(sequence) <= 2
        assert sequence.count("-") == players % 2


@pytest.mark.parametrize("players", range(3, 31))
def test_double_round_robin_properties(players: int) -> None:
    ids = list(range(1, players + 1))
    rounds = round_robin(ids, double=True)
    cycle = players - 1 + players % 2
    assert len(rounds) == 2 * cycle
    games = [(g.sente, g.gote) for r in rounds for g in r.games]
    assert len(games) == players * (players - 1)
    # every ordered pair once: each two meet twice, once with each colour
    assert Counter(games) == Counter((a, b) for a in ids for b in ids if a != b)
    first = {(g.sente, g.gote) for r in rounds[:cycle] for g in r.games}
    second = {(g.gote, g.sente) for r in rounds[cycle:] for g in r.games}
    assert first == second
    for sequence in colours(rounds, players).values():
        assert sequence.count("S") == sequence.count("G")
        # The Handbook's reversed last two rounds: nobody gets one colour three times in a
        # row across the cycles' seam (plain concatenation gives player 1 three gotes).
        assert longest_run(sequence) <= 2


def test_without_the_reversed_rounds_a_double_cycle_repeats_a_colour_three_times() -> None:
    table = berger_table(10)
    plain = list(table) + [tuple((b, a) for a, b in pairs) for pairs in table]
    sequence = ""
    for pairs in plain:
        (pair,) = [p for p in pairs if 1 in p]
        sequence += "S" if pair[0] == 1 else "G"
    assert longest_run(sequence) == 3  # what the reversal in `round_robin` avoids


def test_players_keep_their_drawn_numbers() -> None:
    rounds = round_robin([501, 502, 503, 504])
    assert [(g.sente, g.gote) for g in rounds[1].games] == [(504, 503), (501, 502)]


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        # 8 players by rating (1 strongest), groups of 4: 1 8 / 2 7 ... the serpentine.
        (8, 4, ((1, 4, 5, 8), (2, 3, 6, 7))),
        (9, 3, ((1, 6, 7), (2, 5, 8), (3, 4, 9))),
        (10, 4, ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))),
        (5, 8, ((1, 2, 3, 4, 5),)),
    ],
)
def test_groups_are_seeded_in_a_serpentine(
    players: int, size: int, expected: tuple[tuple[int, ...], ...]
) -> None:
    entrants = [Entrant(p, 2000 - 10 * p) for p in range(1, players + 1)]
    random.Random(players).shuffle(entrants)
    groups = seeded_groups(entrants, size)
    assert groups == expected
    assert max(map(len, groups)) - min(map(len, groups)) <= 1
    assert all(len(group) <= size for group in groups)


def test_equal_ratings_keep_the_registration_order() -> None:
    entrants = [Entrant(7, 1500), Entrant(3, 1500), Entrant(9, 1600), Entrant(1, 1500)]
    assert seeded_groups(entrants, 2) == ((9, 1), (7, 3))


def test_the_bracket_seeds_are_the_usual_ones() -> None:
    assert bracket_seeds(2) == (1, 2)
    assert bracket_seeds(4) == (1, 4, 2, 3)
    assert bracket_seeds(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def play_out(matches: tuple[Match, ...], winner_of: dict[int, float]) -> list[list[Match]]:
    """Every round of a knockout, the better seed (smaller `winner_of` value) winning."""
    rounds = [list(matches)]
    while True:
        winners = [
            m.upper if m.lower is None or winner_of[m.upper] < winner_of[m.lower] else m.lower
            for m in rounds[-1]
        ]
        if len(winners) == 1:
            return rounds
        rounds.append(list(next_round(winners)))


@pytest.mark.parametrize("players", range(2, 65))
def test_knockout_brackets_are_seeded_one_against_n(players: int) -> None:
    # Player p has seed p (rating falls with p); the entrants come in any order.
    entrants = [Entrant(p, 3000 - p) for p in range(1, players + 1)]
    random.Random(players).shuffle(entrants)
    first = knockout_bracket(entrants)
    size = 1 << (players - 1).bit_length()
    assert len(first) == size // 2
    byes = sorted(m.upper for m in first if m.lower is None)
    assert byes == list(range(1, size - players + 1))  # the byes go to the top seeds
    for match in first:
        if match.lower is not None:
            assert match.upper + match.lower == size + 1  # 1 v N, 2 v N-1, ...
    everyone = sorted(p for m in first for p in (m.upper, m.lower) if p is not None)
    assert everyone == list(range(1, players + 1))
    # Seeds 1 and 2 in different halves, 1-4 in different quarters: whatever the results,
    # 1 and 2 can meet only in the final. With the better seed winning, they do.
    half = len(first) // 2
    if players > 2:
        top = {p for m in first[:half] for p in (m.upper, m.lower)}
        assert (1 in top) != (2 in top)
    rounds = play_out(first, {p: float(p) for p in range(1, players + 1)})
    assert len(rounds) == (players - 1).bit_length()
    assert rounds[-1] == [Match(1, 2)]
    for played in rounds[:-1]:
        assert all({m.upper, m.lower} != {1, 2} for m in played)
    upset = play_out(first, {p: random.Random(p * players).random() for p in range(1, players + 1)})
    for played in upset[:-1]:
        assert all({m.upper, m.lower} != {1, 2} for m in played)


def test_a_single_game_pairing_replays_a_draw_with_colours_swapped() -> None:
    pair = Match(1, 2)
    start = match_state(pair, games=1, first_sente=1, played=[])
    assert (start.winner, start.next_sente, start.next_gote) == (None, 1, 2)
    draws = [MatchGame(1, 2, None), MatchGame(2, 1, None)]
    again = match_state(pair, games=1, first_sente=1, played=draws)
    assert (again.winner, again.next_sente, again.next_gote) == (None, 1, 2)
    done = match_state(pair, games=1, first_sente=1, played=[*draws, MatchGame(1, 2, 2)])
    assert done.winner == 2 and done.next_sente is None


def test_a_two_game_pairing_plays_both_colours_then_a_decider_when_level() -> None:
    pair = Match(5, 9)
    second = match_state(pair, games=2, first_sente=9, played=[MatchGame(9, 5, 9)])
    assert (second.winner, second.next_sente, second.next_gote) == (None, 5, 9)
    assert (
        match_state(
            pair, games=2, first_sente=9, played=[MatchGame(9, 5, 9), MatchGame(5, 9, 9)]
        ).winner
        == 9
    )
    level = [MatchGame(9, 5, 9), MatchGame(5, 9, 5)]
    decider = match_state(pair, games=2, first_sente=9, played=level)
    assert (decider.winner, decider.next_sente) == (None, 9)
    drawn_decider = [*level, MatchGame(9, 5, None)]
    assert match_state(pair, games=2, first_sente=9, played=drawn_decider).next_sente == 5
    won = [*drawn_decider, MatchGame(5, 9, 5)]
    assert match_state(pair, games=2, first_sente=9, played=won).winner == 5


def test_a_bye_is_won_without_a_game() -> None:
    assert match_state(Match(3, None), games=2, first_sente=3, played=[]).winner == 3


@pytest.mark.parametrize(
    ("played", "reason"),
    [
        ([MatchGame(1, 2, 1)], "swaps the colours"),  # the first game had 2 as sente
        ([MatchGame(2, 1, 3)], "one of the pairing's players"),
        ([MatchGame(2, 1, 1), MatchGame(1, 2, None)], "after the pairing was decided"),
    ],
)
def test_a_match_history_that_breaks_the_rules_is_refused(
    played: list[MatchGame], reason: str
) -> None:
    with pytest.raises(ValueError, match=reason):
        match_state(Match(1, 2), games=1, first_sente=2, played=played)


@pytest.mark.parametrize("call", [
    lambda: round_robin([1]),
    lambda: round_robin([1, 1, 2]),
    lambda: round_robin(list(range(pairings.MAX_PLAYERS + 1))),
    lambda: seeded_groups([Entrant(1, 1), Entrant(2, 2)], 1),
    lambda: knockout_bracket([Entrant(1, 1)]),
    lambda: next_round([1, 2, 3]),
    lambda: bracket_seeds(6),
])  # fmt: skip
def test_impossible_requests_are_refused(call: object) -> None:
    assert callable(call)
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("module", [pairings, ranking, handicaps])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
    assert result.attempted > 0

"""Who plays whom, in which round and with which colour: round robin by FIDE's Berger
tables, groups seeded by rating, knockout brackets seeded by rating, and the games of one
knockout pairing with its replays.

In shogi the colours are sente (moves first, chess's white) and gote. A player is an `int`
(the service's entrant: a member's id); the functions only compare and copy them.

Round robin follows the Berger tables of FIDE's Handbook (C.05, Annex 1), which every
arbiter's program prints the same way: for an odd number of players a dummy makes the
count even and whoever meets it has a bye that round. In a double round robin the second
cycle repeats the first with colours swapped and, as the Handbook recommends, the last two
rounds of the first cycle are played in reverse order, so that nobody meets the same colour
three times running across the cycles' seam.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The most players one round robin or bracket takes: a table of 100 players is 4,950
#: games a cycle, far past what a server runs, and keeps every table small to compute.
MAX_PLAYERS = 256


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player and the rating they are seeded by.

    >>> Entrant(42, 1650.0)
    Entrant(player=42, rating=1650.0)
    """

    player: int
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a schedule: its round and board (both from 1) and who has which colour."""

    round: int
    board: int
    sente: int
    gote: int


@dataclass(frozen=True, slots=True)
class Round:
    """The games of one round, board by board, and who sits out (a bye) if anyone does."""

    number: int
    games: tuple[Pairing, ...]
    bye: int | None = None


def berger_table(players: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """FIDE's Berger table for `players` numbered from 1: each round's pairs as printed,
    (sente, gote), board by board. An odd count is paired as the next even one, whose last
    number is the dummy: meeting it is a bye.

    >>> berger_table(4)
    (((1, 4), (2, 3)), ((4, 3), (1, 2)), ((2, 4), (3, 1)))
    """
    _check_count(players, least=2)
    even = players + players % 2
    rounds = []
    for number in range(1, even):
        # The last number's opponent walks round the others by half the table each round;
        # it has gote in odd rounds, sente in even ones; the other boards pair the numbers
        # on either side of that opponent, the one after it with sente.
        faced = (number - 1) * (even // 2) % (even - 1) + 1
        first = (faced, even) if number % 2 else (even, faced)
        pairs = [first]
        for step in range(1, even // 2):
            pairs.append((_wrap(faced + step, even - 1), _wrap(faced - step, even - 1)))
        rounds.append(tuple(pairs))
    return tuple(rounds)


def _wrap(number: int, count: int) -> int:
    return (number - 1) % count + 1


def round_robin(players: Sequence[int], *, double: bool = False) -> tuple[Round, ...]:
    """Every round of a round robin among `players`, in their drawn order (the first has
    Berger number 1): n - 1 rounds for an even n, n for an odd n (one bye a round); a
    double round robin plays a second cycle with colours swapped.

    >>> [(g.sente, g.gote) for g in round_robin([10, 20, 30])[0].games]
    [(20, 30)]
    >>> round_robin([10, 20, 30])[0].bye
    10
    """
    _check_players(players, least=2)
    table = berger_table(len(players))
    first = list(table)
    if double and len(first) >= 2:
        first[-2], first[-1] = first[-1], first[-2]
    cycles = [first]
    if double:
        cycles.append([tuple((gote, sente) for sente, gote in pairs) for pairs in table])
    rounds: list[Round] = []
    for pairs in (pairs for cycle in cycles for pairs in cycle):
        number = len(rounds) + 1
        games: list[Pairing] = []
        bye = None
        for sente, gote in pairs:
            if max(sente, gote) > len(players):  # the dummy of an odd count
                bye = players[min(sente, gote) - 1]
                continue
            games.append(Pairing(number, len(games) + 1, players[sente - 1], players[gote - 1]))
        rounds.append(Round(number, tuple(games), bye))
    return tuple(rounds)


def by_rating(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """The entrants strongest first; equal ratings keep the order given (registration)."""
    return tuple(sorted(entrants, key=lambda entrant: -entrant.rating))


def seeded_groups(entrants: Sequence[Entrant], size: int) -> tuple[tuple[int, ...], ...]:
    """The entrants split into groups of at most `size`, seeded by rating in a serpentine:
    seeds 1..g go to groups 1..g, seeds g+1..2g back from group g to 1, and so on, so every
    group gets one of each tier and no group is much stronger. Group sizes differ by one
    at most; each group lists its players strongest first (their Berger numbers).

    >>> seeded_groups([Entrant(p, 2000 - p) for p in range(1, 9)], 4)
    ((1, 4, 5, 8), (2, 3, 6, 7))
    """
    _check_players([entrant.player for entrant in entrants], least=2)
    if size < 2:
        raise ValueError("a group needs at least two players")
    count = math.ceil(len(entrants) / size)
    groups: list[list[int]] = [[] for _ in range(count)]
    for seed, entrant in enumerate(by_rating(entrants)):
        tier, place = divmod(seed, count)
        groups[place if tier % 2 == 0 else count - 1 - place].append(entrant.player)
    return tuple(tuple(group) for group in groups)


@dataclass(frozen=True, slots=True)
class Match:
    """One pairing of a knockout round: the upper-seeded player and the other, or None
    when the upper player has a bye into the next round."""

    upper: int
    lower: int | None


def bracket_seeds(size: int) -> tuple[int, ...]:
    """The seeds of a bracket of `size` slots (a power of two) in slot order, adjacent
    slots meeting in the first round: 1 v size, 2 v size - 1, ..., placed so that seeds 1
    and 2 are in different halves (they can meet only in the final), 1 to 4 in different
    quarters, and so on.

    >>> bracket_seeds(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two slots, not {size}")
    seeds = [1]
    while len(seeds) < size:
        total = 2 * len(seeds) + 1
        seeds = [seed for upper in seeds for seed in (upper, total - upper)]
    return tuple(seeds)


def knockout_bracket(entrants: Sequence[Entrant]) -> tuple[Match, ...]:
    """The first round of a knockout seeded by rating: the bracket is the next power of two
    and its empty slots are byes, which fall to the top seeds (seed 1 meets the weakest
    entrant or has a bye). The matches are in bracket order: winners of adjacent matches
    meet next (`next_round`).

    >>> knockout_bracket([Entrant(p, 2000 - p) for p in (1, 2, 3)])
    (Match(upper=1, lower=None), Match(upper=2, lower=3))
    """
    _check_players([entrant.player for entrant in entrants], least=2)
    seeded = by_rating(entrants)
    size = 1 << (len(seeded) - 1).bit_length()
    slots = [
        seeded[seed - 1].player if seed <= len(seeded) else None for seed in bracket_seeds(size)
    ]
    matches = []
    for upper, lower in zip(slots[::2], slots[1::2], strict=True):
        assert upper is not None  # the smaller seed of a pair is always an entrant
        matches.append(Match(upper, lower))
    return tuple(matches)


def next_round(winners: Sequence[int]) -> tuple[Match, ...]:
    """The next knockout round: the winners of the last one, in its match order, paired two
    by two (the winner of the upper match is the upper player).

    >>> next_round([1, 4, 2, 3])
    (Match(upper=1, lower=4), Match(upper=2, lower=3))
    """
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("a knockout round pairs an even number of winners, at least two")
    return tuple(
        Match(upper, lower) for upper, lower in zip(winners[::2], winners[1::2], strict=True)
    )


@dataclass(frozen=True, slots=True)
class MatchGame:
    """A finished game of a knockout pairing: who had sente, who had gote, and the winner
    (None for a sennichite or impasse draw, which is replayed: 指し直し)."""

    sente: int
    gote: int
    winner: int | None


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a knockout pairing stands: its winner once decided, else who has sente and
    gote in the next game."""

    winner: int | None
    next_sente: int | None = None
    next_gote: int | None = None


def match_state(
    match: Match, *, games: int, first_sente: int, played: Sequence[MatchGame]
) -> MatchState:
    """The state of a knockout pairing of `games` games (1 or 2) after the games `played`.

    Every game swaps the colours of the one before it: the second game of a two-game
    pairing, a replayed draw (指し直し: a sennichite or impasse game counts for nobody and
    is played again with colours swapped) and, when two games leave the players level, the
    deciding games, played until one of them wins one. `first_sente` (chosen by lot,
    furigoma, by the caller) has sente in the first game. A bye is won without a game.

    >>> m = Match(1, 2)
    >>> match_state(m, games=1, first_sente=2, played=[MatchGame(2, 1, None)])
    MatchState(winner=None, next_sente=1, next_gote=2)
    >>> match_state(m, games=1, first_sente=2, played=[MatchGame(2, 1, None), MatchGame(1, 2, 2)])
    MatchState(winner=2, next_sente=None, next_gote=None)
    """
    if games not in (1, 2):
        raise ValueError("a knockout pairing is one game or two")
    if match.lower is None:
        return MatchState(match.upper)
    pair = {match.upper, match.lower}
    if first_sente not in pair:
        raise ValueError("the first sente must be one of the pairing's players")
    sente = first_sente
    wins = dict.fromkeys(pair, 0)
    for index, game in enumerate(played):
        if (game.sente, game.gote) != (sente, _other(pair, sente)):
            raise ValueError("each game of a pairing swaps the colours of the game before")
        if game.winner is not None:
            if game.winner not in pair:
                raise ValueError("the winner must be one of the pairing's players")
            wins[game.winner] += 1
        decided = sum(wins.values())
        if decided >= games and wins[match.upper] != wins[match.lower]:
            if index != len(played) - 1:
                raise ValueError("games were played after the pairing was decided")
            return MatchState(max(pair, key=wins.__getitem__))
        sente = game.gote
    return MatchState(None, sente, _other(pair, sente))


def _other(pair: set[int], player: int) -> int:
    (other,) = pair - {player}
    return other


def _check_count(count: int, *, least: int) -> None:
    if not least <= count <= MAX_PLAYERS:
        raise ValueError(f"between {least} and {MAX_PLAYERS} players, not {count}")


def _check_players(players: Sequence[int], *, least: int) -> None:
    _check_count(len(players), least=least)
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")

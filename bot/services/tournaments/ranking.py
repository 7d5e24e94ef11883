"""The standings of a round robin: points, tie-breaks and ranks, from the games' results.

Points are a win 1, a draw ½ and a loss 0 unless the event counts differently (`Scoring`).
Ties are broken in this order: Sonneborn-Berger, head to head, wins, then rating; players
still equal share their rank.

- Sonneborn-Berger: for each game, the opponent's final points times the game's result
  (1 for a win, ½ for a draw, 0 for a loss, whatever the event's scoring).
- Head to head: among players equal on points and Sonneborn-Berger, the points each scored
  in the games among them, counted only once every two of them have finished a game
  against each other (before that it separates nobody).
- Wins: games won, forfeits included.

Forfeits follow FIDE's convention for round robins: an unplayed game counts as played for
the tie-breaks, so a forfeit win is a win against that opponent in every figure.

Withdrawal (the rule this module applies): a player who withdraws before finishing half of
their games has all their games annulled, as if they had never entered (those played
included), and is listed without a rank; a player who withdraws after that keeps the games
played, and each of their unfinished games is forfeited to the opponent (an unfinished game
between two players who both keep their results that way is lost by both).

This module holds no state: the service recomputes the table from the games it stores
after every result, which is cheap (a 30-player double round robin is 870 games).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from .pairings import Entrant


class Result(Enum):
    """How a game of the tournament ended, seen from the board."""

    SENTE_WINS = "sente_wins"
    GOTE_WINS = "gote_wins"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Game:
    """A scheduled game: its players, its result once finished (None until then), and
    whether the result was a forfeit (a no-show or a withdrawal) rather than played."""

    sente: int
    gote: int
    result: Result | None = None
    forfeit: bool = False

    def score_of(self, player: int) -> Fraction | None:
        """The game's result for `player`: 1, ½ or 0; None while it is unfinished."""
        if self.result is None:
            return None
        if self.result is Result.DRAW:
            return HALF
        won = Result.SENTE_WINS if player == self.sente else Result.GOTE_WINS
        return Fraction(1) if self.result is won else Fraction(0)

    def opponent_of(self, player: int) -> int:
        return self.gote if player == self.sente else self.sente


HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class Scoring:
    """The points of a win, a draw and a loss (a forfeit loss scores `loss` too).

    >>> Scoring(win=Fraction(3), draw=Fraction(1)).points(HALF)
    Fraction(1, 1)
    """

    win: Fraction = Fraction(1)
    draw: Fraction = HALF
    loss: Fraction = Fraction(0)

    def points(self, result: Fraction) -> Fraction:
        """The event's points for a game's result (1, ½ or 0)."""
        return self.win if result == 1 else self.draw if result == HALF else self.loss


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table. `rank` is None for a player whose games were annulled."""

    player: int
    rank: int | None
    points: Fraction
    sonneborn_berger: Fraction
    head_to_head: Fraction
    wins: int
    played: int
    rating: float
    withdrawn: bool


def counted_games(games: Iterable[Game], withdrawn: Collection[int] = ()) -> tuple[Game, ...]:
    """The games as the table counts them once the withdrawal rule is applied: a withdrawn
    player's games annulled (before half of them were finished) or their unfinished games
    forfeited (after); every other game as it is.

    >>> counted = counted_games([Game(1, 2, Result.DRAW), Game(1, 3), Game(2, 3)], withdrawn=[1])
    >>> [(game.sente, game.gote, game.result, game.forfeit) for game in counted][1:]
    [(1, 3, <Result.GOTE_WINS: 'gote_wins'>, True), (2, 3, None, False)]
    """
    return _withdrawals(tuple(games), set(withdrawn))[0]


def _withdrawals(games: tuple[Game, ...], gone: set[int]) -> tuple[tuple[Game, ...], set[int]]:
    """The counted games, and the withdrawn players whose games were annulled."""
    if not gone:
        return games, set()
    total: dict[int, int] = defaultdict(int)
    finished: dict[int, int] = defaultdict(int)
    for game in games:
        for player in (game.sente, game.gote):
            total[player] += 1
            finished[player] += game.result is not None
    annulled = {player for player in gone if 2 * finished[player] < total[player]}
    counted = []
    for game in games:
        if game.sente in annulled or game.gote in annulled:
            continue
        if game.result is None and (game.sente in gone or game.gote in gone):
            game = _forfeited(game, gone)
        counted.append(game)
    return tuple(counted), annulled


def _forfeited(game: Game, gone: set[int]) -> Game:
    if game.sente in gone and game.gote in gone:
        return Game(game.sente, game.gote, None, forfeit=True)  # lost by both
    result = Result.GOTE_WINS if game.sente in gone else Result.SENTE_WINS
    return Game(game.sente, game.gote, result, forfeit=True)


#: A game's result for sente and for gote, in half points (2 a win, 1 a draw, 0 a loss).
_HALVES = {Result.SENTE_WINS: (2, 0), Result.GOTE_WINS: (0, 2), Result.DRAW: (1, 1)}


def standings(
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    *,
    scoring: Scoring = Scoring(),
    withdrawn: Collection[int] = (),
) -> tuple[Standing, ...]:
    """The table, best first, from the scheduled games (finished or not).

    The figures are counted in whole units (the event's points times the least common
    denominator of its scoring) and turned into fractions once, at the end: exact, and
    cheap enough to recompute after every result.

    >>> table = standings(
    ...     [Entrant(1, 1500), Entrant(2, 1600), Entrant(3, 1400)],
    ...     [Game(1, 2, Result.SENTE_WINS), Game(2, 3, Result.SENTE_WINS), Game(3, 1, Result.DRAW)],
    ... )
    >>> [(s.player, s.rank, str(s.points), str(s.sonneborn_berger)) for s in table]
    [(1, 1, '3/2', '5/4'), (2, 2, '1', '1/2'), (3, 3, '1/2', '3/4')]
    """
    players = {entrant.player: entrant for entrant in entrants}
    counted, annulled = _withdrawals(tuple(games), set(withdrawn))
    unit = math.lcm(scoring.win.denominator, scoring.draw.denominator, scoring.loss.denominator)
    value = (int(scoring.loss * unit), int(scoring.draw * unit), int(scoring.win * unit))
    results: dict[int, list[tuple[int, int]]] = {player: [] for player in players}
    points = dict.fromkeys(players, 0)
    for game in counted:
        if game.sente not in players or game.gote not in players:
            raise ValueError("a player plays a game but has not entered")
        if game.result is None:
            if game.forfeit:  # lost by both
                points[game.sente] += value[0]
                points[game.gote] += value[0]
            continue
        sente, gote = _HALVES[game.result]
        results[game.sente].append((game.gote, sente))
        results[game.gote].append((game.sente, gote))
        points[game.sente] += value[sente]
        points[game.gote] += value[gote]
    sb = {
        player: sum(half * points[opponent] for opponent, half in scored)
        for player, scored in results.items()
    }
    h2h = _head_to_head(results, points, sb, value)
    wins = {player: sum(half == 2 for _, half in scored) for player, scored in results.items()}

    def key(player: int) -> tuple[int, int, int, int, float]:
        return (points[player], sb[player], h2h[player], wins[player], players[player].rating)

    def line(player: int, rank: int | None) -> Standing:
        return Standing(
            player=player,
            rank=rank,
            points=Fraction(points[player], unit),
            sonneborn_berger=Fraction(sb[player], 2 * unit),
            head_to_head=Fraction(h2h[player], unit),
            wins=wins[player],
            played=len(results[player]),
            rating=players[player].rating,
            withdrawn=player in withdrawn,
        )

    ranked = sorted((p for p in players if p not in annulled), key=key, reverse=True)
    table: list[Standing] = []
    for place, player in enumerate(ranked, start=1):
        previous = table[-1] if table else None
        shared = previous is not None and key(previous.player) == key(player)
        table.append(line(player, previous.rank if shared and previous else place))
    table += [line(player, None) for player in sorted(annulled, key=lambda p: -players[p].rating)]
    return tuple(table)


def _head_to_head(
    results: dict[int, list[tuple[int, int]]],
    points: dict[int, int],
    sb: dict[int, int],
    value: tuple[int, int, int],
) -> dict[int, int]:
    """Each player's points (in units) against the others of their tie (equal points and
    SB), where every two of the tie have met; zero for everyone else."""
    ties: dict[tuple[int, int], list[int]] = defaultdict(list)
    for player in results:
        ties[(points[player], sb[player])].append(player)
    found = dict.fromkeys(results, 0)
    for tied in ties.values():
        if len(tied) < 2:
            continue
        group = set(tied)
        met = {
            frozenset((player, opponent))
            for player in tied
            for opponent, _ in results[player]
            if opponent in group
        }
        if len(met) < len(tied) * (len(tied) - 1) // 2:
            continue  # not everyone of the tie has met yet: it decides nothing
        for player in tied:
            found[player] = sum(
                value[half] for opponent, half in results[player] if opponent in group
            )
    return found

"""Team matches in a server: two teams paired board by board by rating, each pair playing
both colours, and the match's score as it stands.

Board 1 pairs the strongest player of each team, board 2 the next two, and so on; when one
team has more players, its weakest sit out (`Lineup.sitting_out` names them). Each board
plays two games with colours swapped. In the first game the first team has sente on odd
boards and the second team on even ones, so each team has sente on half the boards in each
of the two games (as team events alternate colours down the boards).

Scoring, the rule this module applies:

- a game won is 1 game point to its team, a draw (sennichite or impasse) ½ to each; it is
  not replayed, since the board's other game already swaps the colours; a forfeit counts as
  a win for the opponent, a game forfeited by both as a loss for both;
- a board is won by the player with more of its two games' points: 1 board point (the
  board's match point) to their team, ½ to each if level, counted once both of its games
  are over;
- the match is won by the team with more game points; level on game points, by the team
  with more board points; level on both, it is drawn.

The match is decided as soon as no result of the games still to play can change its
outcome. Both figures only grow with a team's wins, so the two extremes are the first team
winning every game left and the second team winning every game left: when both give the
same outcome, every result in between does too.

A player is an `int` (a member's id), as in `pairings`; the service maps its entrants.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from render.crosstable import Mark
from render.team_match import BoardLine, Scoreboard

from .pairings import Entrant, Pairing, by_rating
from .ranking import HALF, Game, Result
from .tables import _mark

#: The most players a team enters: past this a match is more games than a server runs at
#: once, and its scoreboard is no longer one readable image.
MAX_TEAM = 64

#: A game's points to the first team's player and to the second team's, once it is over.
Points = tuple[Fraction, Fraction]
#: Each team's game points, then each team's board points.
Totals = tuple[Fraction, Fraction, Fraction, Fraction]


class Side(Enum):
    """One of the two teams of a match."""

    FIRST = "first"
    SECOND = "second"


@dataclass(frozen=True, slots=True)
class Board:
    """One board: its number (from 1) and its two players, the first team's and the
    second's. `first_sente` says whether the first team's player has sente in the board's
    first game (they have gote in its second)."""

    number: int
    first: int
    second: int
    first_sente: bool

    def games(self) -> tuple[Pairing, Pairing]:
        """The board's two games, as `Pairing`s whose `round` is the game's number (1, 2).

        >>> [(g.round, g.sente, g.gote) for g in Board(2, 10, 20, False).games()]
        [(1, 20, 10), (2, 10, 20)]
        """
        sente, gote = (self.first, self.second) if self.first_sente else (self.second, self.first)
        return Pairing(1, self.number, sente, gote), Pairing(2, self.number, gote, sente)


@dataclass(frozen=True, slots=True)
class Lineup:
    """The boards of a match, board 1 first, and the players who sit out (the weakest of
    the larger team, strongest first; none when the teams are the same size)."""

    boards: tuple[Board, ...]
    sitting_out: tuple[int, ...] = ()
    sitting_side: Side | None = None

    def games(self) -> tuple[Pairing, ...]:
        """Every game of the match: the first game of each board, then the second."""
        pairs = [board.games() for board in self.boards]
        return tuple(pair[0] for pair in pairs) + tuple(pair[1] for pair in pairs)


def lineup(first: Sequence[Entrant], second: Sequence[Entrant]) -> Lineup:
    """The boards of a match between two teams: each team's players by rating (equal
    ratings in the order given), paired board by board; the larger team's extra players
    sit out.

    >>> match = lineup([Entrant(1, 1500), Entrant(2, 1700)],
    ...                [Entrant(3, 1600), Entrant(4, 1400), Entrant(5, 1800)])
    >>> [(b.number, b.first, b.second, b.first_sente) for b in match.boards]
    [(1, 2, 5, True), (2, 1, 3, False)]
    >>> match.sitting_out, match.sitting_side
    ((4,), <Side.SECOND: 'second'>)
    """
    players = [entrant.player for team in (first, second) for entrant in team]
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice, or in both teams")
    for team in (first, second):
        if not 1 <= len(team) <= MAX_TEAM:
            raise ValueError(f"a team has 1 to {MAX_TEAM} players, not {len(team)}")
    ordered = by_rating(first), by_rating(second)
    boards = tuple(
        Board(number, upper.player, lower.player, number % 2 == 1)
        for number, (upper, lower) in enumerate(zip(*ordered, strict=False), start=1)
    )
    if len(first) == len(second):
        return Lineup(boards)
    side = Side.FIRST if len(first) > len(second) else Side.SECOND
    larger = ordered[0] if side is Side.FIRST else ordered[1]
    return Lineup(boards, tuple(entrant.player for entrant in larger[len(boards) :]), side)


@dataclass(frozen=True, slots=True)
class BoardScore:
    """One board's score: its two games as played (`Game` of `ranking`, None while one is
    not over), the game points of the first and of the second team's player, and their
    board points once both games are over (None before)."""

    board: Board
    games: tuple[Game | None, Game | None]
    first_points: Fraction
    second_points: Fraction
    first_board_point: Fraction | None
    second_board_point: Fraction | None


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The match as it stands: each board's score, each team's game points and board
    points, how many games are over of how many, the team ahead now (None when level), and
    whether the outcome is settled: `decided` with `winner` (None for a drawn match)."""

    boards: tuple[BoardScore, ...]
    first_points: Fraction
    second_points: Fraction
    first_boards: Fraction
    second_boards: Fraction
    finished: int
    total: int
    leader: Side | None
    decided: bool
    winner: Side | None
    sitting_out: tuple[int, ...] = ()

    @property
    def remaining(self) -> int:
        """The games not over yet."""
        return self.total - self.finished


def score(match: Lineup, played: Iterable[Game]) -> MatchScore:
    """The match's score from the games `played` (finished or not; each one of the
    lineup's games, found by who had sente and gote, at most once).

    >>> match = lineup([Entrant(1, 1600), Entrant(2, 1500)], [Entrant(3, 1600), Entrant(4, 1500)])
    >>> now = score(match, [Game(1, 3, Result.SENTE_WINS), Game(3, 1, Result.DRAW)])
    >>> str(now.first_points), str(now.second_points), str(now.first_boards), now.leader
    ('3/2', '1/2', '1', <Side.FIRST: 'first'>)
    >>> now.decided, now.remaining
    (False, 2)
    """
    slots = {
        (game.sente, game.gote): game for pair in map(Board.games, match.boards) for game in pair
    }
    found: dict[tuple[int, int], Game] = {}
    for game in played:
        key = (game.sente, game.gote)
        if key not in slots:
            raise ValueError("a game was not scheduled in this match")
        if key in found:
            raise ValueError("a game of the match is given twice")
        found[key] = game
    boards = []
    for board in match.boards:
        games = tuple(found.get((pairing.sente, pairing.gote)) for pairing in board.games())
        over = tuple(game if game is not None and _over(game) else None for game in games)
        boards.append(_board_score(board, (over[0], over[1])))
    return _match_score(tuple(boards), match.sitting_out)


def _over(game: Game) -> bool:
    return game.result is not None or game.forfeit


def _points(board: Board, game: Game) -> Points:
    """A finished game's points to the board's first and second player."""
    if game.result is None:  # forfeited by both
        return Fraction(0), Fraction(0)
    if game.result is Result.DRAW:
        return HALF, HALF
    won = game.sente if game.result is Result.SENTE_WINS else game.gote
    return (Fraction(1), Fraction(0)) if won == board.first else (Fraction(0), Fraction(1))


def _board_points(first: Fraction, second: Fraction) -> Points:
    if first == second:
        return HALF, HALF
    return (Fraction(1), Fraction(0)) if first > second else (Fraction(0), Fraction(1))


def _board_score(board: Board, games: tuple[Game | None, Game | None]) -> BoardScore:
    scored = [_points(board, game) for game in games if game is not None]
    first = sum((points[0] for points in scored), Fraction(0))
    second = sum((points[1] for points in scored), Fraction(0))
    both = None if len(scored) < 2 else _board_points(first, second)
    return BoardScore(
        board,
        games,
        first,
        second,
        None if both is None else both[0],
        None if both is None else both[1],
    )


def _totals(boards: Sequence[BoardScore], fill: Side | None) -> Totals:
    """Game points and board points of each team, every game not over counted as won by
    `fill` (None: left out, the figures as they stand)."""
    first = second = first_boards = second_boards = Fraction(0)
    for board in boards:
        missing = sum(game is None for game in board.games)
        board_first, board_second = board.first_points, board.second_points
        if fill is Side.FIRST:
            board_first += missing
        elif fill is Side.SECOND:
            board_second += missing
        first, second = first + board_first, second + board_second
        if fill is not None or not missing:
            points = _board_points(board_first, board_second)
            first_boards, second_boards = first_boards + points[0], second_boards + points[1]
    return first, second, first_boards, second_boards


def _ahead(
    first: Fraction, second: Fraction, first_boards: Fraction, second_boards: Fraction
) -> Side | None:
    if (first, first_boards) == (second, second_boards):
        return None
    return Side.FIRST if (first, first_boards) > (second, second_boards) else Side.SECOND


def _match_score(boards: tuple[BoardScore, ...], sitting_out: tuple[int, ...]) -> MatchScore:
    now = _totals(boards, None)
    best, worst = _ahead(*_totals(boards, Side.FIRST)), _ahead(*_totals(boards, Side.SECOND))
    finished = sum(game is not None for board in boards for game in board.games)
    return MatchScore(
        boards,
        *now,
        finished=finished,
        total=2 * len(boards),
        leader=_ahead(*now),
        decided=best is worst,
        winner=best if best is worst else None,
        sitting_out=sitting_out,
    )


def scoreboard(match: MatchScore, names: Mapping[int, str], teams: tuple[str, str]) -> Scoreboard:
    """The match's scoreboard to draw or to read out (`render.team_match`), each player
    named by `names` and the teams by `teams` (the first's name, the second's)."""
    lines = []
    for board in match.boards:
        first, second = board.board.first, board.board.second
        lines.append(
            BoardLine(
                names[first],
                names[second],
                _marks(board.games, first),
                _marks(board.games, second),
                board.board.first_sente,
                board.first_points,
                board.second_points,
            )
        )
    sides = {Side.FIRST: 0, Side.SECOND: 1, None: None}
    return Scoreboard(
        teams[0],
        teams[1],
        tuple(lines),
        match.first_points,
        match.second_points,
        match.first_boards,
        match.second_boards,
        leader=sides[match.winner if match.decided else match.leader],
        decided=match.decided,
        remaining=match.remaining,
        sitting_out=tuple(names[player] for player in match.sitting_out),
    )


def _marks(games: tuple[Game | None, Game | None], player: int) -> tuple[Mark | None, Mark | None]:
    first, second = (None if game is None else _mark(game, player) for game in games)
    return first, second

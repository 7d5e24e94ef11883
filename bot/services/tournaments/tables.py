"""The crosstable the standings are drawn as: the standings' order, each pair's results
in the order the games were scheduled, after the withdrawal rule (`ranking`); and the
bracket a knockout is drawn as: its rounds so far, each pairing's players with their seeds
and ratings, its games and its winner (`schedule.bracket`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from render import bracket as drawing
from render.crosstable import Crosstable, Mark, Row

from .pairings import Entrant, by_rating
from .ranking import Game, Standing, counted_games
from .schedule import Bracket, MatchView


def crosstable(
    table: Sequence[Standing],
    games: Iterable[Game],
    names: Mapping[int, str],
    *,
    withdrawn: Collection[int] = (),
    games_per_pair: int = 1,
    title: str | None = None,
) -> Crosstable:
    """The crosstable of `table` (from `ranking.standings` over the same `games` and
    `withdrawn`), each player named by `names`.

    >>> from bot.services.tournaments.pairings import Entrant
    >>> from bot.services.tournaments.ranking import Result, standings
    >>> games = [Game(1, 2, Result.GOTE_WINS)]
    >>> drawn = crosstable(standings([Entrant(1, 1500), Entrant(2, 1500)], games), games,
    ...                    {1: "Ann", 2: "Bo"})
    >>> [(row.name, row.results) for row in drawn.rows]
    [('Bo', ((), (<Mark.WIN: '1'>,))), ('Ann', ((<Mark.LOSS: '0'>,), ()))]
    """
    order = {standing.player: place for place, standing in enumerate(table)}
    cells: list[list[list[Mark | None]]] = [[[] for _ in table] for _ in table]
    for game in counted_games(games, withdrawn):
        sente, gote = order[game.sente], order[game.gote]
        for row, column, player in ((sente, gote, game.sente), (gote, sente, game.gote)):
            cells[row][column].append(_mark(game, player))
    rows = []
    for place, standing in enumerate(table):
        results = tuple(
            () if column == place else tuple(marks + [None] * (games_per_pair - len(marks)))
            for column, marks in enumerate(cells[place])
        )
        rows.append(
            Row(
                names[standing.player],
                results,
                standing.points,
                standing.sonneborn_berger,
                standing.rank,
                standing.withdrawn,
            )
        )
    return Crosstable(tuple(rows), games_per_pair, title)


def _mark(game: Game, player: int) -> Mark | None:
    if game.forfeit and game.result is None:
        return Mark.FORFEIT_LOSS  # lost by both
    score = game.score_of(player)
    if score is None:
        return None
    if game.forfeit:
        return Mark.FORFEIT_WIN if score == 1 else Mark.FORFEIT_LOSS
    return Mark.WIN if score == 1 else Mark.LOSS if score == 0 else Mark.DRAW


def drawn_bracket(
    state: Bracket,
    entrants: Sequence[Entrant],
    names: Mapping[int, str],
    *,
    withdrawn: Collection[int] = (),
) -> drawing.Bracket | None:
    """The bracket of a knockout's `state` (from `schedule.bracket` over the same
    `entrants` and `withdrawn`), each player named by `names` with their seed and rating,
    those who withdrew marked; None past the players one image draws
    (`render.bracket.MAX_PLAYERS`).

    >>> from bot.services.tournaments.pairings import knockout_bracket
    >>> field = [Entrant(1, 1600.4), Entrant(2, 1500)]
    >>> views = tuple(MatchView(1, 1, m, (), None, None) for m in knockout_bracket(field))
    >>> drawn = drawn_bracket(Bracket((views,), None), field, {1: "Ann", 2: "Bo"})
    >>> drawn is not None and [(p.upper.name, p.upper.rating, p.lower) for p in drawn.rounds[0]]
    [('Ann', 1600, Player(name='Bo', seed=2, rating=1500, withdrawn=False))]
    """
    if len(state.rounds[0]) > drawing.MAX_PLAYERS // 2:
        return None
    players = {
        entrant.player: drawing.Player(
            names[entrant.player], seed, round(entrant.rating), entrant.player in withdrawn
        )
        for seed, entrant in enumerate(by_rating(entrants), start=1)
    }
    rounds = tuple(tuple(_pairing(view, players) for view in views) for views in state.rounds)
    return drawing.Bracket(rounds)


def _pairing(view: MatchView, players: Mapping[int, drawing.Player]) -> drawing.Pairing:
    upper, lower = view.match.upper, view.match.lower
    games = []
    for row in view.games:
        if row.result == "draw":
            outcome = drawing.Outcome.REPLAYED
        elif row.result in ("sente", "gote"):
            winner = row.game.sente_id if row.result == "sente" else row.game.gote_id
            up = winner == upper
            outcome = drawing.Outcome.UPPER_WON if up else drawing.Outcome.LOWER_WON
        elif row.result is None and row.game_id is not None:
            outcome = drawing.Outcome.PLAYING
        else:
            continue  # aborted (played again) or not opened yet: no game to show
        games.append(drawing.Game(row.game.sente_id == upper, outcome))
    side = None
    if view.winner is not None:
        side = drawing.Side.UPPER if view.winner == upper else drawing.Side.LOWER
    return drawing.Pairing(
        players[upper], None if lower is None else players[lower], tuple(games), side
    )

"""The crosstable the standings are drawn as: the standings' order, each pair's results
in the order the games were scheduled, after the withdrawal rule (`ranking`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from render.crosstable import Crosstable, Mark, Row

from .ranking import Game, Standing, counted_games


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

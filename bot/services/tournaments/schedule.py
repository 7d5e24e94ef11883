"""From a stored tournament to the pure core and back: seeding and the games of the first
schedule, a round robin's standings and what it still needs, a knockout's matches and
what they still need. No storage here: the lifecycle and results modules read the rows,
call these, and write what they return.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from bot.db import EntrantRow, NewScheduledGame, ScheduledGameRow, TournamentRow
from rules import Handicap

from .handicaps import HandicapTable
from .model import Format
from .pairings import (
    Entrant,
    Match,
    MatchGame,
    by_rating,
    knockout_bracket,
    match_state,
    next_round,
    round_robin,
    seeded_groups,
)
from .ranking import Game, Result, Scoring, Standing, standings

#: A finished game's result, by its stored name (`void`, an aborted game, is none).
RESULTS = {"sente": Result.SENTE_WINS, "gote": Result.GOTE_WINS, "draw": Result.DRAW}


@dataclass(frozen=True, slots=True)
class Seeding:
    """Each entrant's seed (1 the highest rating) and group (1 when there is one)."""

    seeds: dict[int, int]
    groups: dict[int, int]


def seeding(tournament: TournamentRow, entrants: Sequence[Entrant]) -> Seeding:
    """Seeds by rating, and a round robin's groups seeded from them (`seeded_groups`)."""
    ranked = by_rating(entrants)
    seeds = {entrant.player: number for number, entrant in enumerate(ranked, start=1)}
    size = tournament.setup.group_size
    if tournament.setup.format == Format.KNOCKOUT or size is None or size >= len(ranked):
        return Seeding(seeds, dict.fromkeys(seeds, 1))
    groups = seeded_groups(ranked, size)
    return Seeding(seeds, {p: number for number, g in enumerate(groups, start=1) for p in g})


@dataclass(frozen=True, slots=True)
class Field:
    """A started tournament's entrants as the core takes them: each with the rating they
    were seeded by (in seed order), who withdrew, and each one's group."""

    entrants: tuple[Entrant, ...]
    withdrawn: frozenset[int]
    groups: dict[int, int]


def field_of(stored: Sequence[EntrantRow]) -> Field:
    """The field of the entrants' rows (a row not seeded yet counts as rated 0, group 1)."""
    return Field(
        tuple(Entrant(e.user_id, 0.0 if e.rating is None else e.rating) for e in stored),
        frozenset(e.user_id for e in stored if e.withdrawn_at is not None),
        {e.user_id: 1 if e.group_number is None else e.group_number for e in stored},
    )


def first_schedule(
    tournament: TournamentRow,
    entrants: Sequence[Entrant],
    placed: Seeding,
    rng: random.Random,
) -> list[NewScheduledGame]:
    """Every game of a round robin (each group's Berger table), or a knockout's first
    round (sente of each match's first game by lot, furigoma)."""
    if tournament.setup.format == Format.KNOCKOUT:
        return pair_knockout_round(tournament, knockout_bracket(entrants), 1, rng)
    double = tournament.setup.format == Format.DOUBLE_ROUND_ROBIN
    table = _table(tournament)
    ratings = {entrant.player: entrant.rating for entrant in entrants}
    members: dict[int, list[int]] = defaultdict(list)
    for player in sorted(placed.seeds, key=placed.seeds.__getitem__):
        members[placed.groups[player]].append(player)
    games = []
    for group, players in sorted(members.items()):
        for played in round_robin(players, double=double):
            for pairing in played.games:
                sente, gote, handicap = _sides(
                    tournament, table, ratings, pairing.sente, pairing.gote
                )
                games.append(
                    NewScheduledGame(
                        tournament.id,
                        played.number,
                        group,
                        pairing.board,
                        0,
                        sente,
                        gote,
                        handicap,
                    )
                )
    return games


def _table(tournament: TournamentRow) -> HandicapTable | None:
    text = tournament.setup.handicap_table
    return None if text is None else HandicapTable.parse(text)


def _sides(
    tournament: TournamentRow,
    table: HandicapTable | None,
    ratings: dict[int, float],
    sente: int,
    gote: int,
) -> tuple[int, int, str]:
    """Who has which colour and the handicap: the Berger table's colours in an even game;
    with a handicap table, the stronger player gives the handicap it calls for and plays
    gote (上手), or in an even game with the weaker player's sente, that player has sente."""
    if table is None:
        return sente, gote, tournament.setup.terms.handicap
    terms = table.terms(sente, ratings[sente], gote, ratings[gote])
    if terms.handicap is not Handicap.EVEN:
        return terms.receiver, terms.giver, terms.handicap.id
    if terms.sente is not None:  # the weaker player, who receives
        return terms.sente, terms.giver, Handicap.EVEN.id
    return sente, gote, Handicap.EVEN.id


def pair_knockout_round(
    tournament: TournamentRow, matches: Sequence[Match], number: int, rng: random.Random
) -> list[NewScheduledGame]:
    """The first game of each match of a knockout round (a bye has none)."""
    games = []
    for board, match in enumerate(matches, start=1):
        if match.lower is None:
            continue
        sente = rng.choice((match.upper, match.lower))
        gote = match.lower if sente == match.upper else match.upper
        games.append(NewScheduledGame(tournament.id, number, 1, board, 0, sente, gote, "even"))
    return games


# --------------------------------------------------------------------- round robins


def latest_attempts(rows: Sequence[ScheduledGameRow]) -> list[ScheduledGameRow]:
    """Each pairing's latest game (a replayed game's replay), in schedule order."""
    latest: dict[tuple[int, int, int], ScheduledGameRow] = {}
    for row in rows:
        game = row.game
        key = (game.round, game.group_number, game.board)
        if key not in latest or latest[key].game.attempt < game.attempt:
            latest[key] = row
    return [latest[key] for key in sorted(latest)]


def scoring_of(tournament: TournamentRow) -> Scoring:
    win, draw, loss = (Fraction(text) for text in tournament.setup.scoring)
    return Scoring(win=win, draw=draw, loss=loss)


def group_standings(
    tournament: TournamentRow,
    entrants: Sequence[Entrant],
    groups: dict[int, int],
    rows: Sequence[ScheduledGameRow],
    withdrawn: Collection[int],
) -> dict[int, tuple[Standing, ...]]:
    """Each group's table (`ranking.standings`) from the pairings' latest games; an
    aborted game counts as unfinished."""
    scoring = scoring_of(tournament)
    games: dict[int, list[Game]] = defaultdict(list)
    for row in latest_attempts(rows):
        result = None if row.result is None else RESULTS.get(row.result)
        games[row.game.group_number].append(Game(row.game.sente_id, row.game.gote_id, result))
    tables = {}
    for group in sorted(set(groups.values())):
        members = [e for e in entrants if groups[e.player] == group]
        gone = [e.player for e in members if e.player in withdrawn]
        tables[group] = standings(members, games[group], scoring=scoring, withdrawn=gone)
    return tables


def round_robin_replays(
    rows: Sequence[ScheduledGameRow], withdrawn: Collection[int]
) -> list[NewScheduledGame]:
    """A new game for each pairing whose latest game was aborted (no result) between two
    players still in: played again with the same colours."""
    replays = []
    for row in latest_attempts(rows):
        game = row.game
        if row.result == "void" and not {game.sente_id, game.gote_id} & set(withdrawn):
            replays.append(replace(game, attempt=game.attempt + 1, replay_of=row.id))
    return replays


def round_robin_done(rows: Sequence[ScheduledGameRow], withdrawn: Collection[int]) -> bool:
    """Whether nothing is left to play: each pairing has a result, or a withdrawn player
    and no game under way."""
    for row in latest_attempts(rows):
        game = row.game
        if row.result in RESULTS:
            continue
        gone = bool({game.sente_id, game.gote_id} & set(withdrawn))
        if not gone or (row.game_id is not None and row.result is None):
            return False
    return True


# --------------------------------------------------------------------- knockouts


@dataclass(frozen=True, slots=True)
class MatchView:
    """A knockout match: its players, its games so far, its winner once decided, and the
    game it still needs (None when decided or while one is scheduled)."""

    round: int
    board: int
    match: Match
    games: tuple[ScheduledGameRow, ...]
    winner: int | None
    needs: NewScheduledGame | None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout's rounds so far, and what it still needs: games (a match's next game,
    or the next round's first games) and, once decided, its champion."""

    rounds: tuple[tuple[MatchView, ...], ...]
    champion: int | None
    next_round: tuple[Match, ...] = ()


def bracket(
    tournament: TournamentRow,
    entrants: Sequence[Entrant],
    rows: Sequence[ScheduledGameRow],
    withdrawn: Collection[int],
) -> Bracket:
    """Where a knockout stands, from its stored games (`match_state` on each match; a
    withdrawn player loses their match; an aborted game is played again, same colours)."""
    by_place: dict[tuple[int, int], list[ScheduledGameRow]] = defaultdict(list)
    for row in rows:
        by_place[(row.game.round, row.game.board)].append(row)
    matches = knockout_bracket(entrants)
    rounds: list[tuple[MatchView, ...]] = []
    number = 1
    while True:
        views = tuple(
            _match(tournament, number, board, match, by_place[(number, board)], withdrawn)
            for board, match in enumerate(matches, start=1)
        )
        rounds.append(views)
        winners = [view.winner for view in views]
        if any(winner is None for winner in winners):
            return Bracket(tuple(rounds), None)
        decided = [winner for winner in winners if winner is not None]
        if len(decided) == 1:
            return Bracket(tuple(rounds), decided[0])
        matches = next_round(decided)
        number += 1
        if not any(key[0] == number for key in by_place):  # the next round is to pair
            return Bracket(tuple(rounds), None, matches)


def _match(
    tournament: TournamentRow,
    number: int,
    board: int,
    match: Match,
    rows: list[ScheduledGameRow],
    withdrawn: Collection[int],
) -> MatchView:
    games = tuple(sorted(rows, key=lambda row: row.game.attempt))
    if match.lower is None:
        return MatchView(number, board, match, games, match.upper, None)
    played = [
        MatchGame(row.game.sente_id, row.game.gote_id, _winner(row))
        for row in games
        if row.result in RESULTS
    ]
    state = None
    if games:
        state = match_state(
            match,
            games=1 if tournament.setup.match_games is None else tournament.setup.match_games,
            first_sente=games[0].game.sente_id,
            played=played,
        )
        if state.winner is not None:  # decided on the board: a later withdrawal keeps it
            return MatchView(number, board, match, games, state.winner, None)
    pending = any(row.game_id is not None and row.result is None for row in games)
    gone = {match.upper, match.lower} & set(withdrawn)
    if gone:
        if pending:  # its game is being ended: the match is decided once it is
            return MatchView(number, board, match, games, None, None)
        staying = {match.upper, match.lower} - gone
        winner = staying.pop() if staying else match.upper
        return MatchView(number, board, match, games, winner, None)
    if state is None or (games and games[-1].result is None):
        return MatchView(number, board, match, games, None, None)
    last = games[-1]
    if last.result == "void":  # aborted: played again, same colours
        replay = replace(last.game, attempt=last.game.attempt + 1, replay_of=last.id)
        return MatchView(number, board, match, games, None, replay)
    assert state.next_sente is not None and state.next_gote is not None
    following = NewScheduledGame(
        tournament.id,
        number,
        1,
        board,
        last.game.attempt + 1,
        state.next_sente,
        state.next_gote,
        "even",
        replay_of=last.id if last.result == "draw" else None,
    )
    return MatchView(number, board, match, games, None, following)


def _winner(row: ScheduledGameRow) -> int | None:
    if row.result == "sente":
        return row.game.sente_id
    if row.result == "gote":
        return row.game.gote_id
    return None

"""Creating a tournament's scheduled games as normal games, in waves: at most the server's
cap of event games under way at once (`DEFAULT_GAME_CAP`; its team matches' games count
too, each with a thread the bot opens), the next waiting games created as games end. Each
game is created the way an accepted challenge creates one (`open_game`), but with its clock
waiting: its thread is the Discord layer's, opened at Discord's pace (minutes later, or days
at the cap on active threads), and its clock starts with its first post
(`Games.set_thread`), when its players can see it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import datetime

from bot.db import NewGame, ScheduledGameRow, Session, TournamentRow
from rules import Handicap

from ..play.new_games import open_game
from ..ratings.rated import may_be_rated
from .model import DEFAULT_GAME_CAP


def new_game(tournament: TournamentRow, scheduled: ScheduledGameRow, now: datetime) -> NewGame:
    """The game of a scheduled game: the tournament's terms with its handicap (a handicap
    game is never rated), in the tournament's channel, created `now`, its clock waiting
    for its first post."""
    setup = tournament.setup
    handicap = Handicap.parse(scheduled.game.handicap)
    terms = replace(
        setup.terms, handicap=handicap.id, rated=setup.terms.rated and may_be_rated(handicap, None)
    )
    return NewGame(
        guild_id=setup.guild_id,
        channel_id=setup.channel_id,
        sente_id=scheduled.game.sente_id,
        gote_id=scheduled.game.gote_id,
        terms=terms,
        start_sfen=handicap.sfen,
        started_at=now,
        clock_waits=True,
    )


async def fill(
    tx: Session, guild_id: int, now: datetime
) -> tuple[dict[int, list[int]], datetime | None]:
    """Inside `tx`: create waiting games of the server's running tournaments up to its
    cap; the games created by tournament, and the earliest first deadline among them
    (None: their clocks wait for their first posts, which set their deadlines).
    The server's games are counted under a lock of the server's, so two processes filling
    at once never pass the cap together."""
    await tx.tournaments.lock_server(guild_id)
    _, chosen = await tx.tournaments.settings(guild_id)
    cap = DEFAULT_GAME_CAP if chosen is None else chosen
    room = cap - await tx.tournaments.count_under_way(guild_id)
    created: dict[int, list[int]] = defaultdict(list)
    earliest: datetime | None = None
    if room <= 0:
        return created, None
    tournaments: dict[int, TournamentRow] = {}
    for scheduled in await tx.tournaments.waiting(guild_id, room):
        tournament_id = scheduled.game.tournament_id
        if tournament_id not in tournaments:
            found = await tx.tournaments.get(tournament_id)
            assert found is not None
            tournaments[tournament_id] = found
        game_id, due = await open_game(tx, new_game(tournaments[tournament_id], scheduled, now))
        if not await tx.tournaments.set_game(scheduled.id, game_id):
            raise RuntimeError(f"scheduled game {scheduled.id} got a game twice")
        created[tournament_id].append(game_id)
        if due is not None and (earliest is None or due < earliest):
            earliest = due
    return created, earliest

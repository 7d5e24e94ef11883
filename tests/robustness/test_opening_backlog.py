"""A member with a backlog of long games that finished before the bot named openings
mashes `/profile` and `/games`, which name those games a batch at a time, while two members
play: every answer comes, the players' move is answered with its board meanwhile, the event
loop never stalls for 100 ms, and each game is named once, so a later call names none."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.db import BulkGame, MoveRow, NewGame, PlayerRow, Terms
from rules import Game, Handicap
from tests.support.checks import assert_board
from tests.support.club import Club
from tests.support.long_game import long_game
from tests.support.stall import LoopProbe

GAMES = 30
PLIES = 240
MASHES = 3


async def _backlog(club: Club, user_id: int) -> list[int]:
    """`GAMES` finished games of `PLIES` quiet moves each, their endings posted, stored as
    a bot before naming stored them: without names."""
    now = datetime.now(UTC)
    terms = Terms(timedelta(), timedelta(days=3), Handicap.EVEN.id, "27")
    games = []
    for n in range(GAMES):
        rival = 20_000 + n
        moves = long_game(PLIES, seed=n)
        after = Game(moves=moves)
        rows = tuple(
            MoveRow(0, ply, move.usi(), user_id if ply % 2 else rival, now)
            for ply, move in enumerate(moves, start=1)
        )
        new = NewGame(
            club.guild.id, club.channel.id, user_id, rival, terms, Handicap.EVEN.sfen, now
        )
        games.append(BulkGame(new, rows, after.position.sfen(), now, "resignation", "sente"))
    async with club.service.store.db.transaction() as tx:
        await tx.players.upsert(PlayerRow(user_id, "carol"), now)
        for n in range(GAMES):
            await tx.players.upsert(PlayerRow(20_000 + n, f"rival{n}"), now)
        game_ids = await tx.games.bulk_insert(games)
        for game_id in game_ids:  # long over: their endings were posted at the time
            await tx.games.mark_end_announced(game_id, now)
        return game_ids


async def test_naming_a_backlog_stalls_nothing(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    await _backlog(club, carol.user.id)
    table = await club.new_game(alice, bob)

    async with LoopProbe() as probe:
        asked = [
            club.fake.slash("profile", {}, user=carol, channel=club.channel) for _ in range(MASHES)
        ]
        asked += [
            club.fake.slash("games", {"status": "finished"}, user=carol, channel=club.channel)
            for _ in range(MASHES)
        ]
        move = club.move(alice, "7g7f", table)
        *answers, played = await asyncio.gather(*asked, move)
    assert probe.worst < 0.1, probe.report()

    assert not played.ephemeral and played.content.startswith("1. ☗"), played.content
    assert_board(played.files)
    for answer in answers[:MASHES]:
        assert answer.ephemeral and "Games: 30 (30 won, 0 lost, 0 drawn)." in answer.content
    for answer in answers[MASHES:]:
        assert answer.ephemeral and "Finished games of carol" in answer.content
    # A batch per call: what the calls left is named later, and nothing twice.
    left = await club.service.openings.name_finished(limit=GAMES)
    assert 0 <= left < GAMES
    assert await club.service.openings.name_finished(limit=GAMES) == 0

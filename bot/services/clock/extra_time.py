"""Giving the opponent more time: a full period again, counted from now."""

from __future__ import annotations

from datetime import timedelta

from bot.db import DeadlineRow
from rules import Color, Sentence

from ..errors import PositionChanged, ServiceError
from ..play.advances import banks_after_turn
from ..play.game import GameSnapshot
from ..play.snapshots import away_of, player_ref
from ..play.store import MOVED_ON, GameStore
from .clocks import due_at, reminder_at

#: What "Give more time" must add to the deadline to be given: while the late player's bank
#: lasts, a fresh period changes nothing, and a second press a moment after the first would
#: only post the same extension again.
LEAST_GIFT = timedelta(minutes=1)


class ExtraTime:
    """A player giving their opponent, who is to move, more time."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def give(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Give the opponent (who is to move) a full period again, counted from now.

        Example: `await extra_time.give(game.id, alice.user_id)` while Bob is to move:
        his deadline is counted again from now (what is left of his bank, then a period)."""
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        row = loaded.row
        if row.terms.period is None:
            raise ServiceError(
                Sentence("This game has no time limit, so there is no time to give.")
            )
        self._store.require_clock_started(loaded)
        if loaded.game.position.turn is color:
            raise ServiceError(Sentence("It is your move; your opponent's clock is not running."))
        now = self._store.now()
        opponent = color.opponent
        away = away_of(row, opponent)
        if away is not None and now < away.ends_by:
            # Their clock stands still and their deadline already lies past the vacation's
            # latest end; a period "from now" would mean nothing until they are back, and
            # their vacation's end moves the deadline later by the time spent anyway.
            raise ServiceError(
                Sentence(
                    "{name} is on vacation; their clock is paused, so there is no time to "
                    "give until they are back.",
                    name=player_ref(row, opponent).name,
                )
            )
        # Not the time since the turn began: a vacation that ran out (and was not yet
        # ended by the deadline task) is no thinking time.
        banks = banks_after_turn(row, opponent, now)
        due = due_at(now, banks[opponent], row.terms.period)
        assert due is not None
        if loaded.deadline is not None and due < loaded.deadline + LEAST_GIFT:
            raise ServiceError(
                Sentence(
                    "Your opponent already has all the time you could give: their deadline "
                    "would not move."
                )
            )
        waiting = player_ref(row, opponent).user_id
        deadline = DeadlineRow(row.id, waiting, due, reminder_at(now, due))
        async with self._store.db.transaction() as tx:
            done = await tx.games.restart_clock(
                row.id,
                row.ply,
                sente_bank=banks[Color.SENTE],
                gote_bank=banks[Color.GOTE],
                turn_started_at=now,
            )
            if done:
                await tx.deadlines.set(deadline)
        if not done:
            self._store.require_active(await self._store.load(game_id))
            raise PositionChanged(MOVED_ON)
        self._store.deadline_set(due)
        return await self._store.load(game_id)

"""Game snapshots built the way the service builds them, for tests of the wording."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db import GameRow, PlayerRow, Terms
from bot.services import GameSnapshot, MoveText, PlayerRef
from bot.services.play.snapshots import color_name, snapshot
from rules import Game, Handicap, Outcome

ALICE = PlayerRef(1001, "alice")
BOB = PlayerRef(1002, "**@everyone** bob")
DEADLINE = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def game_view(
    game: Game | None = None,
    outcome: Outcome | None = None,
    *,
    sente: PlayerRef = ALICE,
    gote: PlayerRef = BOB,
    written: MoveText | None = None,
    handicap: Handicap = Handicap.EVEN,
) -> GameSnapshot:
    """A snapshot built the way the service builds one: from a row and a replayed game.
    The last move is written as `written`, by default as 7g7f (the test's usual move)."""
    game = game or Game(moves=["7g7f"])
    started = DEADLINE - timedelta(days=3)
    row = GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        message_id=None,
        sente=PlayerRow(sente.user_id, sente.name),
        gote=PlayerRow(gote.user_id, gote.name),
        terms=Terms(
            bank=timedelta(),
            period=None if outcome else DEADLINE - started,
            handicap=handicap.id,
            impasse_rule="27",
        ),
        start_sfen=game.start.sfen(),
        status="finished" if outcome else "active",
        termination=None if outcome is None else outcome.termination.value,
        winner=None if outcome is None else color_name(outcome.winner),
        ply=len(game.moves),
        sfen=game.position.sfen(),
        sente_bank=timedelta(),
        gote_bank=timedelta(),
        turn_started_at=started,
        count_proposed_by=None,
        started_at=started,
        finished_at=None,
        deadline=None,
    )
    if written is None and game.moves:
        written = MoveText("7g7f", "７六歩", "P-7f")
    return snapshot(row, game, written)

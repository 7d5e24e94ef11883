"""Takebacks by consent (待った): a player asks to take back their last move, the opponent
accepts or declines.

What is taken back depends on whose turn it is when asking: on the opponent's turn, the
asker's own last move; on the asker's turn, their last move and the opponent's reply.
Either way the asker is to move again. Only the opponent answers; a request holds only
for the position it was asked in, so a move by either player makes it lapse (in the
move's own transaction), as does the end of the game. One request per game may wait for
an answer at a time. Nothing is asked in a game whose challenge said `never`.

An accepted takeback removes the moves from the move list, so the game replays, exports
and repeats positions as if they had never been played; the `takebacks` table keeps the
request with those moves, so the history still says they were played and taken back.

Clocks: the game goes back to the clock it had at the start of the taken-back turn,
except that the turn restarts now. Both banks become what they were when the asker's
taken-back turn began (kept with the move before it; the full bank at the start of the
game), so nobody is charged for thinking on moves that no longer exist, the opponent's
running turn included, nor for the hours the request waited for an answer; and the
asker's deadline is counted from now (what is left of their bank, then a full period),
because counting it from the old turn's start could leave them late the moment the
takeback lands, which would punish the request the opponent just accepted. A takeback
cannot be used to gain time against the opponent's will: each one needs their consent.
Moves stored before banks were kept with them cannot tell their clock: the banks then
stay as they are.

Vacations: the restarted turn is a turn like any other. If the asker is on vacation it
is paused at once: their deadline lies past the vacation's latest end (`deadline_of`),
the deadline task skips it and sends no reminder, and the vacation's end moves the
turn's start later by the time spent, as for a move. If the one accepting is on
vacation, accepting does not end it: answering a request, like moving during a vacation,
is a player looking in, not coming back, and it is not their turn afterwards anyway.
The clock arithmetic is done again if a vacation began or ended between the checks and
the write, so the deadline written is the one the deadline task would compute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import NoReturn

from bot.db import Conflict, GameRewind, NewTakeback, Session, TakebackRow
from rules import Color, Game, Sentence

from ..errors import NotFound, PositionChanged, TakebackRefused
from .advances import deadline_starting
from .clock_races import require_same_clock, with_clock_retries
from .game import (
    GameSnapshot,
    MoveText,
    PlayerRef,
    TakebackPolicy,
)
from .snapshots import moves_written, player_ref
from .store import MOVED_ON, GameStore


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A request to take moves back, as the game's takeback history keeps it."""

    id: int
    game_id: int
    asked_by: int  # the user id of the player who asked
    ply: int  # the game's ply when it was asked: the buttons that answer it carry it
    plies: int  # how many moves it takes back: 1 (the asker's) or 2 (and the reply)
    usi: tuple[str, ...]  # those moves, in the order they were played
    status: str  # "pending", "accepted", "declined" or "lapsed"
    requested_at: datetime
    answered_at: datetime | None  # when it was answered or lapsed


@dataclass(frozen=True, slots=True)
class Takeback:
    """The answer to asking, accepting or declining a takeback: the request, the game as
    it stands now, who asked (and with which colour) and who answers, and the moves the
    request takes back, written as they were played."""

    request: TakebackRequest
    game: GameSnapshot
    asker: PlayerRef
    asker_color: Color
    answerer: PlayerRef
    moves: tuple[MoveText, ...]


NO_SUCH_REQUEST = Sentence("That takeback request does not exist in this game.")
#: A request answered after a move was played (or pressed on an old request's button).
LAPSED = Sentence(
    "A move was played after this takeback was asked, so the request no longer holds."
)
ALREADY_ANSWERED = {
    "accepted": Sentence("This takeback was already accepted."),
    "declined": Sentence("This takeback request was already declined."),
}


def _request(row: TakebackRow) -> TakebackRequest:
    return TakebackRequest(
        id=row.id,
        game_id=row.game_id,
        asked_by=row.asked_by,
        ply=row.ply,
        plies=row.plies,
        usi=row.moves,
        status=row.status,
        requested_at=row.requested_at,
        answered_at=row.answered_at,
    )


async def banks_at(tx: Session, loaded: GameSnapshot, ply: int) -> tuple[timedelta, timedelta]:
    """Sente's and gote's banks when the turn after `ply` began: kept with move `ply`, the
    full bank at the start, or (moves stored before banks were kept) the banks as they
    stand."""
    row = loaded.row
    if ply == 0:
        return row.terms.bank, row.terms.bank
    kept = await tx.moves.banks_after(row.id, ply)
    return kept if kept is not None else (row.sente_bank, row.gote_bank)


class _Lost(Exception):
    """The game or the request changed between the checks and the write."""


@dataclass(frozen=True, slots=True)
class _Answering:
    """Who answers which request of which game (`guild_id`: only in that server), and
    the game's ply their button carries."""

    game_id: int
    takeback_id: int
    user_id: int
    expected_ply: int
    guild_id: int | None


class Takebacks:
    """Asking to take moves back, and answering such a request."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def ask(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> Takeback:
        """Ask to take back `user_id`'s last move (on the opponent's turn) or their last
        move and the opponent's reply (on their own turn). Stored as pending until the
        opponent answers or a move is played.

        Example: after Alice's `7g7f`, `(await takebacks.ask(game.id, alice.user_id))
        .moves[0].japanese` is `"７六歩"` and Bob is asked to accept.
        """
        now = self._store.now()
        loaded = await self._store.current(game_id, guild_id=guild_id, now=now)
        color = self._store.player_color(loaded, user_id)
        self._store.require_active(loaded)
        if loaded.takebacks is TakebackPolicy.NEVER:
            raise TakebackRefused(
                Sentence("This game was agreed without takebacks, so none can be asked.")
            )
        plies = 1 if loaded.turn is not color else 2
        if loaded.ply < plies:
            raise TakebackRefused(Sentence("You have not played a move to take back yet."))
        opponent = loaded.player(color.opponent)
        new = NewTakeback(
            game_id=loaded.id,
            asked_by=user_id,
            ply=loaded.ply,
            plies=plies,
            moves=tuple(move.usi() for move in loaded.game.moves[loaded.ply - plies :]),
            requested_at=now,
        )

        async def store(tx: Session) -> TakebackRow | None:
            # Held, the game cannot move on before the request is stored (a move of it
            # waits, then lets the request lapse); read after the hold, it is as the last
            # move under way left it. The position too: the ply alone comes back after a
            # takeback, with other moves to take back.
            await tx.games.hold(loaded.id)
            row = await tx.games.get(loaded.id)
            if (
                row is None
                or row.status != "active"
                or (row.ply, row.sfen) != (loaded.ply, loaded.row.sfen)
            ):
                raise _Lost
            pending = await tx.takebacks.pending(loaded.id)
            if pending is not None:
                raise self._already_pending(pending, user_id, opponent.name)
            return await tx.takebacks.get(await tx.takebacks.create(new))

        try:
            stored = await self._store.db.run(store)
        except (_Lost, Conflict):
            await self._lost_ask(game_id, user_id, guild_id)
        assert stored is not None
        return self._answer(loaded, _request(stored), loaded.game)

    @staticmethod
    def _already_pending(pending: TakebackRow, user_id: int, opponent: str) -> TakebackRefused:
        if pending.asked_by == user_id:
            return TakebackRefused(
                Sentence(
                    "You have already asked for a takeback; wait for {name}'s answer.",
                    name=opponent,
                )
            )
        return TakebackRefused(
            Sentence("{name} has asked for a takeback; answer it first.", name=opponent)
        )

    async def _lost_ask(self, game_id: int, user_id: int, guild_id: int | None) -> NoReturn:
        """A request that lost a race (a move, or another request, landed first): the
        refusal the game as it now stands gives."""
        self._store.forget(game_id)
        fresh = await self._store.current(game_id, guild_id=guild_id)
        self._store.require_active(fresh)
        async with self._store.db.query() as q:
            pending = await q.takebacks.pending(game_id)
        if pending is not None:
            color = self._store.player_color(fresh, user_id)
            raise self._already_pending(pending, user_id, fresh.player(color.opponent).name)
        raise PositionChanged(MOVED_ON)

    async def answer(
        self,
        game_id: int,
        takeback_id: int,
        user_id: int,
        *,
        accept: bool,
        expected_ply: int,
        guild_id: int | None = None,
    ) -> Takeback:
        """The opponent's answer. Accepted, the moves leave the game, the asker is to move
        again at the earlier position, and the clocks are restored (see the module's
        docstring); declined, the game goes on as it stands and the asker may ask again.
        `expected_ply` is the ply the request's button carries; a move since makes the
        request void."""
        answering = _Answering(game_id, takeback_id, user_id, expected_ply, guild_id)
        if not accept:
            return await self._decline(answering)
        # Checked and counted again from a fresh moment when a vacation began or ended.
        return await with_clock_retries(self._store, game_id, lambda: self._accept(answering))

    async def _accept(self, answering: _Answering) -> Takeback:
        now = self._store.now()
        loaded, request = await self._answerable(answering, now)
        row = loaded.row
        back_to = request.ply - request.plies
        kept = [move.usi() for move in loaded.game.moves[:back_to]]
        earlier = Game.replay(loaded.game.start, kept)
        asker_color = loaded.color_of(request.asked_by)
        assert asker_color is not None  # only a player can ask

        async def store(tx: Session) -> datetime | None:
            await require_same_clock(tx, row)
            sente_bank, gote_bank = await banks_at(tx, loaded, back_to)
            rewind = GameRewind(
                game_id=row.id,
                expected_ply=request.ply,
                ply=back_to,
                sfen=earlier.position.sfen(),
                sente_bank=sente_bank,
                gote_bank=gote_bank,
                turn_started_at=now,
            )
            if not await tx.games.rewind(rewind):
                raise _Lost
            await tx.moves.delete_after(row.id, back_to)
            await tx.openings.forget_after(row.id, back_to)  # named again if played again
            if not await tx.takebacks.answer(request.id, "accepted", now):
                raise _Lost
            # Forecast lines were checked from a position that no longer stands.
            await tx.forecasts.clear(row.id)
            # The asker's turn, as a move would start it: paused if they are on vacation.
            banks = {Color.SENTE: sente_bank, Color.GOTE: gote_bank}
            deadline = deadline_starting(row, asker_color, banks, now)
            if deadline is None:
                await tx.deadlines.clear(row.id)
                return None
            await tx.deadlines.set(deadline)
            return deadline.due_at

        try:
            due = await self._store.db.run(store)
        except _Lost:
            raise await self._lost_answer(answering) from None
        self._store.forget(row.id)
        after = await self._store.load(row.id)
        if due is not None:
            self._store.deadline_set(due)
        accepted = replace(request, status="accepted", answered_at=now)
        return self._answer(after, accepted, loaded.game)

    async def _decline(self, answering: _Answering) -> Takeback:
        now = self._store.now()
        loaded, request = await self._answerable(answering, now)
        async with self._store.db.transaction() as tx:
            done = await tx.takebacks.answer(request.id, "declined", now)
        if not done:
            raise await self._lost_answer(answering)
        declined = replace(request, status="declined", answered_at=now)
        return self._answer(loaded, declined, loaded.game)

    async def _answerable(
        self, answering: _Answering, now: datetime
    ) -> tuple[GameSnapshot, TakebackRequest]:
        """The game and the request `answering.user_id` may answer now; refused otherwise: not
        a player, the game is over, the request is theirs or was answered, or a move was
        played since it was asked."""
        loaded = await self._store.current(answering.game_id, guild_id=answering.guild_id, now=now)
        color = self._store.player_color(loaded, answering.user_id)
        self._store.require_active(loaded)
        async with self._store.db.query() as q:
            stored = await q.takebacks.get(answering.takeback_id)
        if stored is None or stored.game_id != loaded.id:
            raise NotFound(NO_SUCH_REQUEST)
        request = _request(stored)
        if request.asked_by == answering.user_id:
            raise TakebackRefused(
                Sentence(
                    "You asked for this takeback; only {name} can accept or decline it.",
                    name=loaded.player(color.opponent).name,
                )
            )
        refusal = ALREADY_ANSWERED.get(request.status)
        if refusal is not None:
            raise TakebackRefused(refusal)
        lapsed = answering.expected_ply != loaded.ply or request.ply != loaded.ply
        if request.status != "pending" or lapsed:
            raise PositionChanged(LAPSED)
        return loaded, request

    async def _lost_answer(self, answering: _Answering) -> Exception:
        """The refusal for an answer that lost a race (a move, or another answer, landed
        first), as the game and the request now stand."""
        self._store.forget(answering.game_id)
        fresh = await self._store.current(answering.game_id, guild_id=answering.guild_id)
        try:
            await self._answerable(replace(answering, expected_ply=fresh.ply), self._store.now())
        except (TakebackRefused, PositionChanged, NotFound) as refusal:
            return refusal
        return PositionChanged(MOVED_ON)

    async def history(self, game_id: int, *, guild_id: int | None = None) -> list[TakebackRequest]:
        """Every takeback asked in the game, oldest first, with what became of it; the
        moves of accepted ones are here, no longer in the game's moves."""
        await self._store.current(game_id, guild_id=guild_id)
        async with self._store.db.query() as q:
            rows = await q.takebacks.for_game(game_id)
        return [_request(row) for row in rows]

    def _answer(self, game: GameSnapshot, request: TakebackRequest, played: Game) -> Takeback:
        """The `Takeback` for `request` in `game`; `played` is a game that still holds
        the request's moves (the game before an accepted takeback)."""
        asker_color = game.color_of(request.asked_by)
        assert asker_color is not None  # only a player can ask
        return Takeback(
            request=request,
            game=game,
            asker=player_ref(game.row, asker_color),
            asker_color=asker_color,
            answerer=player_ref(game.row, asker_color.opponent),
            moves=moves_written(played, request.ply - request.plies, request.ply),
        )

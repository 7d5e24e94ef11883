"""Challenges: offered, then accepted (a game starts), declined, cancelled or expired."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.db import ChallengeRow, DeadlineRow, NewChallenge, NewGame, PlayerRow, Session
from rules import Color, Game, Handicap, Sentence, SfenError
from rules.errors import quote

from .clocks import TimeControl, due_at, reminder_at
from .errors import NotAPlayer, NotFound, ServiceError
from .rated import may_be_rated
from .store import GameStore
from .values import Challenge, GameSnapshot, ImpasseRule, PlayerRef, TakebackPolicy

log = logging.getLogger(__name__)

CHALLENGE_LIFETIME = timedelta(days=7)
RANDOM = "random"
CHALLENGE_CLOSED = Sentence("This challenge was just answered or withdrawn.")
NO_SUCH_CHALLENGE = Sentence("That challenge no longer exists.")
#: Why a challenge cannot be answered any more, by its status.
NO_LONGER_OPEN = {
    "accepted": Sentence("This challenge is no longer open (it was accepted)."),
    "declined": Sentence("This challenge is no longer open (it was declined)."),
    "cancelled": Sentence("This challenge is no longer open (it was cancelled)."),
    "expired": Sentence("This challenge is no longer open (it expired)."),
}
COLOR_WISHES = (*(color.name.lower() for color in Color), RANDOM)


def _ref(player: PlayerRow) -> PlayerRef:
    return PlayerRef(player.user_id, player.name, player.is_bot)


def _challenge(record: ChallengeRow) -> Challenge:
    return Challenge(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        challenger=_ref(record.challenger),
        opponent=_ref(record.opponent),
        color=record.color,
        time_control=TimeControl(record.bank, record.period),
        handicap=Handicap.parse(record.handicap),
        impasse_rule=ImpasseRule(record.impasse_rule),
        status=record.status,
        expires_at=record.expires_at,
        message_id=record.message_id,
        game_id=record.game_id,
        start_sfen=record.start_sfen,
        takebacks=TakebackPolicy(record.takebacks),
        rated=record.rated,
    )


def _start_position(handicap: Handicap, start_sfen: str | None) -> tuple[Handicap, str | None]:
    """Check a set-up start position; a position that is a handicap start counts as one."""
    if start_sfen is None:
        return handicap, None
    if handicap is not Handicap.EVEN:
        raise ServiceError(Sentence("Give either a handicap or a start position, not both."))
    try:
        game = Game(start_sfen)
    except SfenError as error:
        raise ServiceError(
            Sentence("That start position cannot be used: {problem}", problem=error.sentence)
        ) from None
    if game.is_over:
        raise ServiceError(
            Sentence("That start position is already decided: the side to move has no move.")
        )
    normal = game.start.sfen()
    return Handicap.from_sfen(normal) or Handicap.EVEN, normal


class Challenges:
    """A challenge from its offer to its answer (a game starts), withdrawal or expiry."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def offer(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef,
        color: str = RANDOM,
        time_control: TimeControl | str = "3d",
        handicap: Handicap | str = "even",
        impasse_rule: ImpasseRule | str = "27",
        start_sfen: str | None = None,
        takebacks: TakebackPolicy | str = TakebackPolicy.ALLOWED,
        rated: bool = True,
    ) -> Challenge:
        """Offer a game. `color` is the challenger's side (in a handicap game gote gives
        the handicap); `start_sfen` starts from a set-up position instead of the usual one;
        `takebacks` says whether a player may ask to take a move back in the game;
        `rated`, whether it counts for ratings (a handicap game or a set-up position never
        does, whatever was asked: the challenge then says it is unrated).

        Example: `await challenges.offer(guild_id=1, channel_id=2, challenger=alice,
        opponent=bob, time_control="7d+1d", handicap="two_piece")`.
        """
        if challenger.user_id == opponent.user_id:
            raise ServiceError(Sentence("You cannot challenge yourself; pick another member."))
        if opponent.is_bot or challenger.is_bot:
            raise ServiceError(Sentence("Bots cannot play shogi here; challenge a member instead."))
        if color not in COLOR_WISHES:
            raise ServiceError(Sentence("The colour is sente, gote or random."))
        control = TimeControl.parse(time_control)
        try:
            chosen = Handicap.parse(handicap)
        except ValueError:
            raise ServiceError(
                Sentence("There is no handicap called '{handicap}'.", handicap=quote(str(handicap)))
            ) from None
        rule = ImpasseRule.parse(impasse_rule)
        policy = TakebackPolicy.parse(takebacks)
        chosen, start_sfen = _start_position(chosen, start_sfen)
        now = self._store.now()
        new = NewChallenge(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger.user_id,
            opponent_id=opponent.user_id,
            color=color,
            bank=control.bank,
            period=control.period,
            handicap=chosen.id,
            impasse_rule=rule.value,
            start_sfen=start_sfen,
            created_at=now,
            expires_at=now + CHALLENGE_LIFETIME,
            takebacks=policy.value,
            rated=rated
            and may_be_rated(chosen, start_sfen, bots=challenger.is_bot or opponent.is_bot),
        )

        async def store(tx: Session) -> ChallengeRow | None:
            for player in (challenger, opponent):
                await tx.players.upsert(PlayerRow(player.user_id, player.name, player.is_bot), now)
            existing = await tx.challenges.open_between(
                guild_id, challenger.user_id, opponent.user_id, now
            )
            if existing is not None:
                raise ServiceError(
                    Sentence(
                        "There is already an open challenge between you and {name}; "
                        "answer or cancel it first.",
                        name=opponent.name,
                    )
                )
            return await tx.challenges.get(await tx.challenges.create(new))

        record = await self._store.db.run(store)
        assert record is not None
        self._store.deadline_set(new.expires_at)
        return _challenge(record)

    async def set_message(self, challenge_id: int, message_id: int | None) -> None:
        """Remember the message showing the challenge (to edit it when it expires)."""
        async with self._store.db.transaction() as tx:
            if not await tx.challenges.set_message(challenge_id, message_id):
                raise NotFound(NO_SUCH_CHALLENGE)

    async def get(self, challenge_id: int) -> Challenge:
        record = await self._challenge_record(challenge_id)
        if record.status == "open" and self._store.now() >= record.expires_at:
            return await self.expire(record, report_later=True) or await self.get(challenge_id)
        return _challenge(record)

    async def _challenge_record(self, challenge_id: int) -> ChallengeRow:
        async with self._store.db.read() as tx:
            record = await tx.challenges.get(challenge_id)
        if record is None:
            raise NotFound(NO_SUCH_CHALLENGE)
        return record

    async def expire(self, record: ChallengeRow, *, report_later: bool = False) -> Challenge | None:
        """Mark an open challenge expired and report it, once (None if it was closed first).
        `report_later`: the report goes in a task of its own (a member's request found it)."""
        async with self._store.db.transaction() as tx:
            closed = await tx.challenges.close(record.id, "expired")
            fresh = await tx.challenges.get(record.id)
        if not closed or fresh is None:
            return None
        view = _challenge(fresh)
        if report_later:
            self._store.events.later(self._store.events.challenge_expired(view))
        else:
            await self._store.events.challenge_expired(view)
        return view

    async def _open_challenge(self, challenge_id: int) -> ChallengeRow:
        record = await self._challenge_record(challenge_id)
        if record.status == "open" and self._store.now() >= record.expires_at:
            await self.expire(record, report_later=True)
            record = await self._challenge_record(challenge_id)
        if record.status != "open":
            raise ServiceError(
                NO_LONGER_OPEN.get(record.status) or Sentence("This challenge is no longer open.")
            )
        return record

    async def accept(self, challenge_id: int, user_id: int) -> GameSnapshot:
        """The challenged player accepts: colours are settled and the game starts now."""
        record = await self._open_challenge(challenge_id)
        if user_id != record.opponent.user_id:
            raise NotAPlayer(
                Sentence("Only {name} can accept this challenge.", name=record.opponent.name)
            )
        wish = record.color
        if wish == RANDOM:
            wish = self._store.rng.choice(COLOR_WISHES[:2])
        challenger, opponent = record.challenger.user_id, record.opponent.user_id
        sente, gote = (challenger, opponent) if wish == "sente" else (opponent, challenger)
        start = record.start_sfen or Handicap.parse(record.handicap).sfen
        now = self._store.now()
        new = NewGame(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            sente_id=sente,
            gote_id=gote,
            handicap=record.handicap,
            start_sfen=start,
            bank=record.bank,
            period=record.period,
            impasse_rule=record.impasse_rule,
            started_at=now,
            takebacks=record.takebacks,
            rated=record.rated,
        )
        first = Color.SENTE if start.split()[1] == "b" else Color.GOTE
        due = due_at(now, record.bank, record.period)

        async def store(tx: Session) -> int:
            game_id = await tx.games.create(new)
            if not await tx.challenges.close(record.id, "accepted", game_id=game_id):
                raise ServiceError(CHALLENGE_CLOSED)
            if due is not None:
                player = sente if first is Color.SENTE else gote
                await tx.deadlines.set(DeadlineRow(game_id, player, due, reminder_at(now, due)))
            return game_id

        game_id = await self._store.db.run(store)
        log.info("challenge %s accepted: game %s", record.id, game_id)
        if due is not None:
            self._store.deadline_set(due)
        return await self._store.load(game_id)

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player says no."""
        record = await self._open_challenge(challenge_id)
        if user_id != record.opponent.user_id:
            raise NotAPlayer(
                Sentence("Only {name} can decline this challenge.", name=record.opponent.name)
            )
        return await self._close(record, "declined")

    async def cancel(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge."""
        record = await self._open_challenge(challenge_id)
        if user_id != record.challenger.user_id:
            raise NotAPlayer(
                Sentence("Only {name} can cancel this challenge.", name=record.challenger.name)
            )
        return await self._close(record, "cancelled")

    async def _close(self, record: ChallengeRow, status: str) -> Challenge:
        async with self._store.db.transaction() as tx:
            closed = await tx.challenges.close(record.id, status)
            fresh = await tx.challenges.get(record.id)
        if not closed or fresh is None:
            raise ServiceError(CHALLENGE_CLOSED)
        return _challenge(fresh)

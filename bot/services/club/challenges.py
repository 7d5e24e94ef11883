"""Challenges: offered, then accepted (a game starts), declined, cancelled or expired.

A challenge names its opponent, or nobody: an open challenge may be accepted by any member
but its author (and no bot); the first to accept gets the game, since accepting closes the
challenge with a conditional update in the game's own transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.db import ChallengeRow, Conflict, NewChallenge, Session, Terms
from rules import Game, Handicap, Sentence, SfenError
from rules.errors import quote

from ..budgets import Budgets
from ..clock.clocks import TimeControl
from ..clock.sends import Send, queue_for_challenge
from ..errors import NotAPlayer, NotFound, ServiceError
from ..play.game import GameSnapshot, ImpasseRule, PlayerRef, TakebackPolicy
from ..play.store import GameStore
from ..ratings.rated import may_be_rated
from .acceptance import ChallengeClosed, start_game, taker_of
from .challenge import COLOR_WISHES, RANDOM, Challenge, challenge_of, side_wish

log = logging.getLogger(__name__)

CHALLENGE_LIFETIME = timedelta(days=7)
CHALLENGE_CLOSED = Sentence("This challenge was just answered or withdrawn.")
NO_SUCH_CHALLENGE = Sentence("That challenge no longer exists.")
#: Why a challenge cannot be answered any more, by its status.
NO_LONGER_OPEN = {
    "accepted": Sentence("This challenge is no longer open (it was accepted)."),
    "declined": Sentence("This challenge is no longer open (it was declined)."),
    "cancelled": Sentence("This challenge is no longer open (it was cancelled)."),
    "expired": Sentence("This challenge is no longer open (it expired)."),
}
HANDICAP_BY_LOT = Sentence(
    "Who gives a handicap is never drawn by lot: choose Gote to give it (Uwate) or Sente "
    "to receive it (Shitate), or leave the side out to give it."
)
#: How many challenges to anyone one member may have open at once in a server: enough to
#: offer a few kinds of game (a quick one, a slow one, a handicap), few enough that one
#: member cannot fill a channel with them. Challenges to a named member are not counted
#: (there is one at most per pair), nor rematches (they name the other player).
MAX_OPEN_CHALLENGES = 3
TOO_MANY_OPEN = Sentence(
    "You already have {count} open challenges here, the most one member may have; "
    "cancel one, or wait until one is taken or expires, before posting another.",
    count=MAX_OPEN_CHALLENGES,
)


def too_many_named(limit: int) -> Sentence:
    return Sentence(
        "You already have as many open challenges to members here as one member may "
        "({count}); cancel one, or wait until one is answered or expires, before challenging "
        "someone else.",
        count=limit,
    )


def too_many_computer_games(limit: int) -> Sentence:
    return Sentence(
        "You already have as many games against the computer in progress as one member "
        "may ({count}); finish or resign one to start another.",
        count=limit,
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

    def __init__(self, store: GameStore, budgets: Budgets | None = None) -> None:
        self._store = store
        self.budgets = Budgets() if budgets is None else budgets

    async def offer(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: PlayerRef,
        opponent: PlayerRef | None = None,
        color: str | None = None,
        time_control: TimeControl | str = "3d",
        handicap: Handicap | str = "even",
        impasse_rule: ImpasseRule | str = "27",
        start_sfen: str | None = None,
        takebacks: TakebackPolicy | str = TakebackPolicy.ALLOWED,
        rematch_of: int | None = None,
        rated: bool = True,
        computer: bool = False,
        then: Callable[[Session, ChallengeRow], Awaitable[object]] | None = None,
    ) -> Challenge:
        """Offer a game to `opponent`, or to anyone if None. `color` is the challenger's
        side: sente, gote or random, None when they said nothing (random in an even game);
        in a handicap game gote gives the handicap and sente receives it, a challenger who
        says nothing gives it, and random is refused (see `side_wish`); `start_sfen` starts
        from a set-up position instead of the usual one; `takebacks` says whether a player
        may ask to take a move back in the game; `rematch_of` is the finished game this
        offers to play again (see `Rematches`; a game's second open rematch is a
        `bot.db.Conflict`); `rated`, whether it counts for ratings (a handicap game or a
        set-up position never does, whatever was asked: the challenge then says it is
        unrated); `computer`, that the opponent is the bot itself, which its engine plays
        (see `Computer`); `then`, more writes stored with the offer, in its transaction (the
        computer accepts at once with `accept_in`), so that all of it is stored or none. The
        member's budgets (`Budgets`) are checked with the offer's write: open challenges
        naming a member, the wait after that member declined, games against the computer.

        Example: `await challenges.offer(guild_id=1, channel_id=2, challenger=alice,
        opponent=bob, time_control="7d+1d", handicap="two_piece")`.
        """
        if opponent is not None and challenger.user_id == opponent.user_id:
            raise ServiceError(Sentence("You cannot challenge yourself; pick another member."))
        if (opponent is not None and opponent.is_bot and not computer) or challenger.is_bot:
            raise ServiceError(Sentence("Bots cannot play shogi here; challenge a member instead."))
        if color is not None and color not in COLOR_WISHES:
            raise ServiceError(Sentence("The side is Sente, Gote or Random."))
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
        if chosen is not Handicap.EVEN and color == RANDOM:
            raise ServiceError(HANDICAP_BY_LOT)
        color = side_wish(color, chosen)
        now = self._store.now()
        new = NewChallenge(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger_id=challenger.user_id,
            opponent_id=None if opponent is None else opponent.user_id,
            color=color,
            terms=Terms(
                bank=control.bank,
                period=control.period,
                handicap=chosen.id,
                impasse_rule=rule.value,
                takebacks=policy.value,
                rated=rated and may_be_rated(chosen, start_sfen),  # bots were refused above
            ),
            start_sfen=start_sfen,
            created_at=now,
            expires_at=now + CHALLENGE_LIFETIME,
            rematch_of=rematch_of,
        )

        async def store(tx: Session) -> ChallengeRow | None:
            record = await offered(tx)
            if then is not None and record is not None:
                await then(tx, record)
                record = await tx.challenges.get(record.id)
            return record

        async def offered(tx: Session) -> ChallengeRow | None:
            for player in (challenger, opponent):
                if player is not None:
                    await tx.players.upsert(player.to_row(), now)
            if opponent is None:
                created = await tx.challenges.create_open(new, limit=MAX_OPEN_CHALLENGES)
                if created is None:
                    raise ServiceError(TOO_MANY_OPEN)
                return await tx.challenges.get(created)
            existing = await tx.challenges.open_between(
                guild_id, challenger.user_id, opponent.user_id, now
            )
            racing = existing is not None and existing.rematch_of == rematch_of
            if racing and rematch_of is not None:  # the other player's rematch, just stored
                raise Conflict(f"game {rematch_of} has a rematch offered")
            if existing is not None:
                raise ServiceError(
                    Sentence(
                        "There is already an open challenge between you and {name}; "
                        "answer or cancel it first.",
                        name=opponent.name,
                    )
                )
            if computer:
                return await tx.challenges.get(await self._against_computer(tx, new))
            return await tx.challenges.get(await self._named(tx, new, opponent))

        record = await self._store.db.run(store)
        assert record is not None
        self._store.deadline_set(new.expires_at)
        return challenge_of(record)

    async def _named(self, tx: Session, new: NewChallenge, opponent: PlayerRef) -> int:
        """Store a challenge to a member within its author's budgets: not while the
        member's decline is fresh, nor when the author withdrew and sent again too many
        lately, nor past the open challenges one may keep naming members."""
        wait, limit = self.budgets.rechallenge_after, self.budgets.named_challenges
        per_member = self.budgets.challenges_to_one_member
        created = await tx.challenges.create_named(
            new, limit=limit, per_member=per_member, since=new.created_at - wait
        )
        if isinstance(created, int):
            return created
        if created.at is None:
            raise ServiceError(too_many_named(limit))
        if created.reason == "declined":
            raise ServiceError(
                Sentence(
                    "{name} declined your challenge: you can challenge them again {when}.",
                    name=opponent.name,
                    when=created.at + wait,
                )
            )
        raise ServiceError(
            Sentence(
                "You have already challenged {name} as often lately as one member may "
                "without a game ({count}); you can challenge them again {when}.",
                name=opponent.name,
                count=per_member,
                when=created.at + wait,
            )
        )

    async def _against_computer(self, tx: Session, new: NewChallenge) -> int:
        """Store the challenge that starts a game against the computer, unless its member
        already has as many such games under way as the budget allows."""
        limit = self.budgets.computer_games
        await tx.computer.lock(new.challenger_id)
        if await tx.computer.in_progress(new.challenger_id, new.created_at) >= limit:
            raise ServiceError(too_many_computer_games(limit))
        return await tx.challenges.create(new)

    async def set_message(self, challenge_id: int, message_id: int | None) -> None:
        """Remember the message showing the challenge (to edit it when it expires)."""
        async with self._store.db.transaction() as tx:
            if not await tx.challenges.set_message(challenge_id, message_id):
                raise NotFound(NO_SUCH_CHALLENGE)

    async def get(self, challenge_id: int) -> Challenge:
        record = await self._challenge_record(challenge_id)
        if record.status == "open" and self._store.now() >= record.expires_at:
            return await self.expire(record) or await self.get(challenge_id)
        return challenge_of(record)

    async def _challenge_record(self, challenge_id: int) -> ChallengeRow:
        async with self._store.db.read() as tx:
            record = await tx.challenges.get(challenge_id)
        if record is None:
            raise NotFound(NO_SUCH_CHALLENGE)
        return record

    async def expire(self, record: ChallengeRow) -> Challenge | None:
        """Mark an open challenge expired and queue its report in the outbox, in one
        transaction, once (None if it was closed first)."""
        async with self._store.db.transaction() as tx:
            closed = await tx.challenges.close(record.id, "expired")
            fresh = await tx.challenges.get(record.id)
            if closed and fresh is not None:
                now = self._store.now()
                await queue_for_challenge(tx, Send.EXPIRY, record.id, record.guild_id, now)
        if not closed or fresh is None:
            return None
        self._store.doorbell.ring()
        return challenge_of(fresh)

    async def _open_challenge(self, challenge_id: int, guild_id: int | None = None) -> ChallengeRow:
        """The challenge if it is still open; with `guild_id`, one of another server does
        not exist (an open challenge is anyone's to accept, but only in its server)."""
        record = await self._challenge_record(challenge_id)
        if guild_id is not None and record.guild_id != guild_id:
            raise NotFound(NO_SUCH_CHALLENGE)
        if record.status == "open" and self._store.now() >= record.expires_at:
            await self.expire(record)
            record = await self._challenge_record(challenge_id)
        if record.status == "accepted" and record.game_id is not None:
            raise await self._store.already_started(NO_LONGER_OPEN["accepted"], record.game_id)
        if record.status != "open":
            raise ServiceError(
                NO_LONGER_OPEN.get(record.status) or Sentence("This challenge is no longer open.")
            )
        return record

    async def accept(
        self,
        challenge_id: int,
        taker: PlayerRef | int,
        *,
        guild_id: int | None = None,
        rated: bool = True,
    ) -> GameSnapshot:
        """`taker` accepts: colours are settled and the game starts now. A challenge to a
        member is theirs alone to accept (their id is enough); an open one anyone's but its
        author's and a bot's. Of two members accepting at once, one gets the game and the
        other is told the challenge was accepted. With `guild_id`, a challenge of another
        server does not exist. `rated=False`: the taker does not want the game rated, and
        a game is rated only when both players chose so (on an unrated challenge it changes
        nothing).

        Example: `game = await challenges.accept(challenge.id, carol, rated=False)`.
        """
        record = await self._open_challenge(challenge_id, guild_id)
        player = taker_of(record, taker)

        async def store(tx: Session) -> int:
            return await self.accept_in(tx, record, player, rated=rated)

        try:
            game_id = await self._store.db.run(store)
        except ChallengeClosed:  # answered, withdrawn or expired meanwhile: say which
            await self._open_challenge(challenge_id)
            raise ServiceError(CHALLENGE_CLOSED) from None
        log.info("challenge %s accepted by %s", record.id, player.user_id)
        return await self.started(game_id)

    async def accept_in(
        self, tx: Session, record: ChallengeRow, player: PlayerRef, *, rated: bool = True
    ) -> int:
        """`player` accepts the open challenge `record` inside the transaction `tx`; the
        game's id (see `start_game`). `accept` for a member's press, and for the computer,
        which takes its challenge in the offer's own transaction (`offer(then=...)`), so a
        game is never stored without its seat."""
        now = self._store.now()
        return await start_game(tx, record, player, now=now, rng=self._store.rng, rated=rated)

    async def started(self, game_id: int) -> GameSnapshot:
        """The game an accepted challenge started, once its transaction is stored (by
        `accept`, or `offer(then=...)` with `accept_in`): logged, its deadline watched."""
        game = await self._store.load(game_id)
        log.info("game %s started (%s)", game_id, "rated" if game.rated else "unrated")
        if game.deadline is not None:
            self._store.deadline_set(game.deadline)
        return game

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player says no."""
        record = await self._open_challenge(challenge_id)
        if record.opponent is None:
            raise NotAPlayer(
                Sentence(
                    "An open challenge can't be declined: it stays open until {name} "
                    "cancels it or it expires.",
                    name=record.challenger.name,
                )
            )
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
            if status == "declined":  # its time starts the wait before a new challenge
                closed = await tx.challenges.decline(record.id, self._store.now())
            else:
                closed = await tx.challenges.close(record.id, status)
            fresh = await tx.challenges.get(record.id)
        if not closed or fresh is None:
            raise ServiceError(CHALLENGE_CLOSED)
        return challenge_of(fresh)

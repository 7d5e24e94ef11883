"""Challenges: who may offer, answer and withdraw them, colours, and set-up positions."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.db import Database
from bot.services import (
    GameService,
    ImpasseRule,
    NotAPlayer,
    PlayerRef,
    ServiceError,
    TimeControl,
)
from rules import Handicap

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, RecordingEvents, checked


async def offer(service: GameService, **options: object) -> int:
    options.setdefault("challenger", ALICE)
    options.setdefault("opponent", BOB)
    challenge = await service.challenges.offer(guild_id=GUILD, channel_id=CHANNEL, **options)  # type: ignore[arg-type]
    return challenge.id


async def test_challenge_records_the_settings(service: GameService, clock: FakeClock) -> None:
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        color="gote",
        time_control="7d+1d",
        handicap="香落ち",
        impasse_rule="24",
    )
    assert (challenge.challenger, challenge.opponent, challenge.color) == (ALICE, BOB, "gote")
    assert challenge.time_control == TimeControl.parse("7d+1d")
    assert challenge.handicap is Handicap.LANCE
    assert challenge.impasse_rule is ImpasseRule.COUNT_24
    assert challenge.status == "open" and challenge.game_id is None
    assert challenge.expires_at == clock.now + timedelta(days=7)
    await service.challenges.set_message(challenge.id, 555)
    assert (await service.challenges.get(challenge.id)).message_id == 555


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"opponent": ALICE}, "yourself"),
        ({"opponent": PlayerRef(9, "Robot", is_bot=True)}, "Bots"),
        ({"challenger": PlayerRef(9, "Robot", is_bot=True)}, "Bots"),
        ({"color": "purple"}, "Sente, Gote or Random"),
        ({"time_control": "soon"}, "cannot read"),
        ({"handicap": "queen"}, "handicap"),
        ({"impasse_rule": "30"}, "27"),
        ({"start_sfen": "not an sfen"}, "start position"),
        ({"start_sfen": "4k4/9/9/9/9/9/9/9/4K4 b - 1", "handicap": "lance"}, "not both"),
        ({"start_sfen": "8k/9/9/9/9/9/1sg6/1p7/K8 b - 1"}, "no move"),
    ],
)
async def test_refused_challenges_say_why(
    service: GameService, options: dict[str, object], words: str
) -> None:
    with pytest.raises(ServiceError, match=words):
        await offer(service, **options)


async def test_one_open_challenge_per_pair_either_way(service: GameService) -> None:
    first = await offer(service)
    with pytest.raises(ServiceError, match="already an open challenge"):
        await offer(service)
    with pytest.raises(ServiceError, match="already an open challenge"):
        await offer(service, challenger=BOB, opponent=ALICE)
    await offer(service, opponent=CAROL)  # another pair is fine
    await service.challenges.cancel(first, ALICE.user_id)
    await offer(service)  # and the pair again once the first is withdrawn
    # (after a decline the challenger waits a while: see test_budgets.py)


async def test_only_the_challenged_answers_and_only_the_challenger_cancels(
    service: GameService,
) -> None:
    challenge = await offer(service)
    with pytest.raises(NotAPlayer, match="Only Bob"):
        await service.challenges.accept(challenge, ALICE.user_id)
    with pytest.raises(NotAPlayer, match="Only Bob"):
        await service.challenges.decline(challenge, CAROL.user_id)
    with pytest.raises(NotAPlayer, match="Only Alice"):
        await service.challenges.cancel(challenge, BOB.user_id)
    cancelled = await service.challenges.cancel(challenge, ALICE.user_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(ServiceError, match="no longer open"):
        await service.challenges.accept(challenge, BOB.user_id)


async def test_accept_starts_the_game_once(service: GameService, clock: FakeClock) -> None:
    challenge = await offer(service, color="sente", time_control="2d")
    game = await service.challenges.accept(challenge, BOB.user_id)
    assert (game.sente, game.gote, game.to_move) == (ALICE, BOB, ALICE)
    assert game.started_at == clock.now
    assert game.deadline == clock.now + timedelta(days=2)
    closed = await service.challenges.get(challenge)
    assert closed.status == "accepted" and closed.game_id == game.id
    with pytest.raises(ServiceError, match="no longer open"):
        await service.challenges.accept(challenge, BOB.user_id)
    with pytest.raises(ServiceError, match="no longer open"):
        await service.challenges.cancel(challenge, ALICE.user_id)


async def test_random_colour_is_settled_at_accept(db: Database, clock: FakeClock) -> None:
    seen = set()
    for seed in range(12):
        service = GameService(db, clock=clock, rng=random.Random(seed))
        challenge = await offer(service, color="random")
        game = await service.challenges.accept(challenge, BOB.user_id)
        seen.add(game.sente.name)
        await service.endings.abort(game.id, ALICE.user_id)
    assert seen == {"Alice", "Bob"}


async def test_unlimited_game_has_no_deadline(service: GameService) -> None:
    challenge = await offer(service, time_control="unlimited")
    game = await service.challenges.accept(challenge, BOB.user_id)
    assert game.deadline is None and game.time_control.unlimited
    with pytest.raises(ServiceError, match="no time limit"):
        await service.extra_time.give(game.id, BOB.user_id)


async def test_set_up_position_that_is_a_handicap_counts_as_one(service: GameService) -> None:
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        opponent=BOB,
        start_sfen=Handicap.ROOK.sfen,
    )
    assert challenge.handicap is Handicap.ROOK and challenge.start_sfen == Handicap.ROOK.sfen


async def test_expired_challenge_cannot_be_accepted(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    challenge = await offer(service)
    clock.advance(days=7)
    with pytest.raises(ServiceError, match="expired"):
        await service.challenges.accept(challenge, BOB.user_id)
    assert events.expired == []  # its message is closed from the outbox, not by the refusal
    await service.outbox.deliver_all()
    assert [c.id for c in events.expired] == [challenge]
    assert (await service.challenges.get(challenge)).status == "expired"
    assert await checked(service) is None
    assert len(events.expired) == 1

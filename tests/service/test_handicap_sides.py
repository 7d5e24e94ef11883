"""Who gives a handicap: the challenger says so (gote gives, as uwate; sente receives, as
shitate), and a challenger who says nothing gives it, as a club's stronger player offers a
handicap. Never by lot: the same challenge accepted again and again has the same giver."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.db import Database, NewChallenge, PlayerRow, Terms
from bot.services import GameService, ServiceError, TimeControl
from rules import Color, Handicap

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock

SEEDS = range(16)  # a coin tossed 16 times falls both ways but once in 32,768 runs


async def giver_of(service: GameService, **options: object) -> str:
    """The name of the player who gives the handicap in the game the challenge starts."""
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ALICE,
        **options,  # type: ignore[arg-type]
    )
    taker = CAROL if challenge.opponent is None else BOB
    game = await service.challenges.accept(challenge.id, taker)
    await service.endings.abort(game.id, ALICE.user_id)
    assert game.to_move == game.gote, "the giver moves first"
    return game.gote.name


@pytest.mark.parametrize("opponent", [BOB, None], ids=["named", "open"])
async def test_a_challenger_who_says_nothing_gives_the_handicap(
    db: Database, clock: FakeClock, opponent: object
) -> None:
    givers = set()
    for seed in SEEDS:
        service = GameService(db, clock=clock, rng=random.Random(seed))
        givers.add(await giver_of(service, opponent=opponent, handicap="lance"))
    assert givers == {"Alice"}


@pytest.mark.parametrize(("color", "giver"), [("gote", "Alice"), ("sente", "Bob")])
async def test_the_challenger_chooses_to_give_or_receive(
    db: Database, clock: FakeClock, color: str, giver: str
) -> None:
    givers = set()
    for seed in SEEDS:
        service = GameService(db, clock=clock, rng=random.Random(seed))
        givers.add(await giver_of(service, opponent=BOB, color=color, handicap="two_piece"))
    assert givers == {giver}


async def test_the_challenge_says_who_gives_from_its_offer(service: GameService) -> None:
    challenge = await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, handicap="bishop"
    )
    assert challenge.color == Color.GOTE.name.lower()  # the challenger, as uwate
    assert (await service.challenges.get(challenge.id)).color == "gote"


@pytest.mark.parametrize(
    "start", [{"handicap": "rook"}, {"start_sfen": Handicap.LANCE.sfen}], ids=["named", "set-up"]
)
async def test_a_handicap_by_lot_is_refused(service: GameService, start: dict[str, str]) -> None:
    """Also a set-up start that is a handicap's, which counts as that handicap."""
    with pytest.raises(ServiceError, match="never drawn by lot"):
        await service.challenges.offer(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ALICE,
            opponent=BOB,
            color="random",
            **start,  # type: ignore[arg-type]
        )


async def test_an_even_game_still_draws_the_colours_when_asked_or_unsaid(
    db: Database, clock: FakeClock
) -> None:
    for color in ("random", None):
        seen = set()
        for seed in SEEDS:
            service = GameService(db, clock=clock, rng=random.Random(seed))
            challenge = await service.challenges.offer(
                guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB, color=color
            )
            assert challenge.color == "random"
            game = await service.challenges.accept(challenge.id, BOB.user_id)
            seen.add(game.sente.name)
            await service.endings.abort(game.id, ALICE.user_id)
        assert seen == {"Alice", "Bob"}


async def test_a_handicap_challenge_stored_by_lot_before_is_given_by_its_challenger(
    db: Database, clock: FakeClock
) -> None:
    """A challenge stored as 'random' by an older version of the bot is read with the same
    rule: its challenger gives, however often it could be accepted."""
    control = TimeControl.parse("3d")
    givers = set()
    for seed in SEEDS:
        service = GameService(db, clock=clock, rng=random.Random(seed))
        async with db.transaction() as tx:
            for player in (ALICE, BOB):
                await tx.players.upsert(PlayerRow(player.user_id, player.name), clock.now)
            stored = await tx.challenges.create(
                NewChallenge(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    challenger_id=ALICE.user_id,
                    opponent_id=BOB.user_id,
                    color="random",
                    terms=Terms(control.bank, control.period, "lance", "27"),
                    start_sfen=None,
                    created_at=clock.now,
                    expires_at=clock.now + timedelta(days=7),
                )
            )
        assert (await service.challenges.get(stored)).color == "gote"
        game = await service.challenges.accept(stored, BOB.user_id)
        givers.add(game.gote.name)
        await service.endings.abort(game.id, ALICE.user_id)
    assert givers == {"Alice"}

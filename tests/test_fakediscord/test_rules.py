"""Discord's rules, enforced on a real discord.py bot: what a bot gets wrong, the fake refuses
the way Discord does; faults and a lost connection behave as they do on Discord."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import (
    CALLBACK,
    CREATE_MESSAGE,
    E2EGuard,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    InteractionRejected,
    Perm,
    UserCannotDoThat,
)

from .toybot import ToyBot


async def test_a_second_initial_response_is_refused(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake_discord.expect_rejections(ErrorCode.ALREADY_ACKNOWLEDGED)
    result = await fake_discord.slash("twice", user=alice, channel=general)
    assert result.content == "first answer"
    [refused] = result.rejections
    assert (refused.status, refused.code) == (400, ErrorCode.ALREADY_ACKNOWLEDGED)
    [error] = toy.errors
    assert isinstance(error, discord.HTTPException)
    assert error.code == ErrorCode.ALREADY_ACKNOWLEDGED


async def test_a_follow_up_before_the_response_is_refused(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake_discord.expect_rejections(ErrorCode.UNKNOWN_WEBHOOK)
    result = await fake_discord.slash("eager", user=alice, channel=general)
    assert result.content == "answered properly" and result.followups == []
    [refused] = result.rejections
    assert (refused.status, refused.code) == (404, ErrorCode.UNKNOWN_WEBHOOK)
    assert isinstance(toy.errors[0], discord.NotFound)


async def test_the_three_second_limit(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    fake.interaction_timeout = 0.1  # stands in for Discord's 3 s
    toy.slow_delay = 0.15
    fake.expect_rejections(ErrorCode.UNKNOWN_INTERACTION)
    result = await fake.slash("slow", user=alice, channel=general, wait=False)
    await fake.wait_for(lambda: bool(result.rejections), what="the late answer")
    assert (result.rejections[0].status, result.rejections[0].code) == (404, 10062)
    await fake.wait_for(lambda: bool(fake.channel_history(general)), what="the apology")
    assert result.response_type is None and isinstance(toy.errors[0], discord.NotFound)
    assert "took too long" in fake.last_message(general).content


async def test_a_bad_payload_gets_discords_error(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    with pytest.raises(InteractionRejected) as undeclared:  # fails at once, saying why
        await fake.slash("long", user=alice, channel=general)
    assert undeclared.value.record.code == ErrorCode.INVALID_FORM_BODY
    await fake.wait_quiet()

    fake.expect_rejections(ErrorCode.INVALID_FORM_BODY)  # declared: the bot may recover
    result = await fake.slash("long", user=alice, channel=general)
    assert result.content == "(shortened)"
    error = toy.errors[-1]
    assert isinstance(error, discord.HTTPException)
    assert "2000 or fewer" in str(error)  # discord.py renders the fake's nested errors


async def test_more_than_25_choices_are_refused(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
    e2e_guard: E2EGuard,
) -> None:
    fake = fake_discord
    with pytest.raises(InteractionRejected) as refused:
        await fake.autocomplete("shade", {"name": ""}, focused="name", user=alice, channel=general)
    assert refused.value.record.code == ErrorCode.INVALID_FORM_BODY
    assert len(refused.value.record.json["data"]["choices"]) == 36
    fake.expect_rejections(ErrorCode.INVALID_FORM_BODY)  # seen: not a problem at teardown
    e2e_guard.expect_error_log("25 or fewer")  # discord.py logs the refusal


async def test_a_modal_is_shown_and_submitted(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    shown = await fake.slash("rename", user=alice, channel=general)
    assert shown.response_type == 9 and shown.reply is None  # a box, not a message
    with pytest.raises(UserCannotDoThat, match="no field"):
        await fake.submit(shown, {"title": "x"}, user=alice)
    submitted = await fake.submit(shown, {"name": "Friday game"}, user=alice)
    assert submitted.ephemeral and submitted.content == "Named Friday game"
    with pytest.raises(UserCannotDoThat, match="not answered with a modal"):
        await fake.submit(submitted, {"name": "again"}, user=alice)


async def test_an_unknown_route_is_a_problem(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    toy: ToyBot,
) -> None:
    seen = toy.get_guild(guild.id)
    assert seen is not None
    with pytest.raises(discord.NotFound):
        await seen.fetch_emojis()
    [unknown] = fake_discord.unknown_requests
    assert unknown.method == "GET" and unknown.path.endswith("/emojis")
    assert any("does not know" in p for p in fake_discord.problems())
    fake_discord.unknown_requests.clear()  # seen; do not fail this test at teardown


async def test_missing_permissions_are_refused(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    bot_role = next(role for role in guild.roles.values() if role.managed)
    guild.everyone.permissions &= ~Perm.SEND_MESSAGES
    bot_role.permissions &= ~Perm.SEND_MESSAGES
    channel = toy.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    fake.expect_rejections(ErrorCode.MISSING_PERMISSIONS)
    with pytest.raises(discord.Forbidden):
        await channel.send("hello")
    assert fake.channel_history(general) == []


async def test_faults_on_a_route(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
    e2e_guard: E2EGuard,
) -> None:
    fake = fake_discord
    fake.inject_fault(CALLBACK, status=429, retry_after=0.05)
    assert (await fake.slash("ping", user=alice, channel=general)).content == "pong"
    assert [r.status for r in fake.requests if r.route == CALLBACK] == [429, 200]

    # Done, then answered 500: discord.py retries, and Discord refuses the second answer.
    fake.expect_rejections(ErrorCode.ALREADY_ACKNOWLEDGED)
    fake.inject_fault(CALLBACK, status=500, after_processing=True)
    twice = await fake.slash("ping", user=alice, channel=general, wait=False)
    await twice.wait_response()
    await fake.wait_for(lambda: bool(twice.rejections), what="the retried answer", timeout=5)
    assert [m.content for m in fake.channel_history(general)] == ["pong", "pong"]
    e2e_guard.expect_error_log("40060")  # the toy bot does not catch the refused retry
    toy_failures = [e for e in fake.requests if e.fault]
    assert [r.fault for r in toy_failures] == ["status 429", "status 500, after processing"]

    with pytest.raises(ValueError):
        fake.inject_fault("GET /guilds/{guild_id}", status=500)  # not a route of the fake
    with pytest.raises(ValueError):
        fake.inject_fault(CREATE_MESSAGE)  # a fault needs a status or a delay


async def test_a_dropped_gateway_resumes_and_replays(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    await fake.drop_gateway()
    during = await fake.slash("ping", user=alice, channel=general, wait=False)  # while down
    await fake.wait_resumed()
    await during.wait_final()  # replayed on RESUME, answered within the time limit
    assert during.content == "pong"
    assert fake.gateway.identify_count == 1
    assert (await fake.slash("ping", user=alice, channel=general)).content == "pong"

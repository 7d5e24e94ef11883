"""Roles in the fake Discord: in GUILD_CREATE, in members' `roles`, given by a moderator
(GUILD_MEMBER_UPDATE only with the members intent), in role and mentionable options with
`resolved.roles`, and the list of a guild's members, refused unless the application's
Server Members intent is on, paged by user id as Discord pages it."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.fakediscord import (
    BotRunner,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    UserCannotDoThat,
)

from .toybot import ToyBot


async def test_a_role_option_resolves_and_the_bot_reads_its_members_only_as_listed(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    players = fake.add_role(guild, "players")
    await fake.give_role(alice, players)
    await fake.give_role(bob, players)
    assert alice.roles == [players.id]
    seen = toy.get_guild(guild.id)
    assert seen is not None and seen.get_role(players.id) is None  # added after GUILD_CREATE
    # Without the portal's switch Discord refuses the list; the cache has only the bot.
    fake.expect_rejections(ErrorCode.MISSING_ACCESS)
    refused = await fake.slash("roster", {"role": players}, user=alice, channel=general)
    assert refused.content == "players: cached -; listed (no access)", refused.content
    assert isinstance(toy.errors[-1], discord.Forbidden) and toy.errors[-1].code == 50001
    fake.members_intent = True
    listed = await fake.slash("roster", {"role": players}, user=alice, channel=general)
    assert listed.content == "players: cached -; listed alice, bob", listed.content
    interaction = fake.interactions[listed.interaction.id]
    assert interaction.data["resolved"]["roles"][str(players.id)]["name"] == "players"
    assert interaction.data["options"] == [{"name": "role", "type": 8, "value": str(players.id)}]


async def test_a_mentionable_option_takes_a_member_or_a_role(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    players = fake.add_role(guild, "players")
    as_role = await fake.slash("whois", {"target": players}, user=alice, channel=general)
    assert as_role.content == "role players"
    as_member = await fake.slash("whois", {"target": bob}, user=alice, channel=general)
    assert as_member.content == "member bob"
    elsewhere = fake.add_guild("Elsewhere")
    with pytest.raises(UserCannotDoThat):  # the client offers this server's roles only
        await fake.slash(
            "whois", {"target": fake.add_role(elsewhere, "x")}, user=alice, channel=general
        )
    with pytest.raises(UserCannotDoThat):  # a member option takes no role
        await fake.slash("greet", {"member": players}, user=alice, channel=general)
    with pytest.raises(UserCannotDoThat):  # nobody is given @everyone
        await fake.give_role(alice, guild.everyone)


async def test_roles_arrive_in_guild_create_and_updates_with_the_members_intent(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bob: FakeMember,
    bot_runner: BotRunner,
) -> None:
    fake = fake_discord
    players = fake.add_role(guild, "players")
    await fake.give_role(alice, players)  # before the bot connects: in GUILD_CREATE
    intents = discord.Intents(guilds=True, members=True)
    bot = await bot_runner.start(lambda: ToyBot(guild.id, intents=intents))
    seen = bot.get_guild(guild.id)
    assert seen is not None
    role = seen.get_role(players.id)
    assert role is not None and [m.name for m in role.members] == ["alice"]
    updated = asyncio.ensure_future(bot.wait_for("member_update", timeout=5))
    await fake.give_role(bob, players)
    before, after = await updated
    assert players.id not in [r.id for r in before.roles]
    assert players.id in [r.id for r in after.roles]
    assert sorted(m.name for m in role.members) == ["alice", "bob"]


async def test_the_member_list_is_paged_by_user_id_within_discords_limit(
    fake_discord: FakeDiscord, guild: FakeGuild, toy: ToyBot
) -> None:
    fake = fake_discord
    fake.members_intent = True
    for number in range(5):
        fake.add_member(guild, f"member-{number}")
    everyone = sorted(guild.members)
    url = f"{fake.api_base}/guilds/{guild.id}/members"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(url, params={"limit": "3", "after": str(everyone[1])}) as page:
            assert page.status == 200
            assert [int(m["user"]["id"]) for m in await page.json()] == everyone[2:5]
        async with http.get(url) as first:  # Discord's default page is one member
            assert [int(m["user"]["id"]) for m in await first.json()] == everyone[:1]
        fake.expect_rejections(ErrorCode.INVALID_FORM_BODY)
        for limit in ("0", "1001", "ten"):
            async with http.get(url, params={"limit": limit}) as refused:
                assert refused.status == 400, limit
        async with http.get(f"{fake.api_base}/oauth2/applications/@me") as app:
            assert (await app.json())["flags"] & (1 << 15)

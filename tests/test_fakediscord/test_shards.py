"""Sharding on the fake gateway: IDENTIFY with ``shard: [shard_id, shard_count]`` gets only
that shard's guilds (``(guild_id >> 22) % shard_count``) and their events, as Discord does;
events without a guild go to shard 0; an impossible shard is closed with 4010."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from tests.fakediscord import BotRunner, FakeDiscord
from tests.fakediscord.constants import Intent
from tests.fakediscord.gateway import shard_of

from .test_wire import receive

GUILDS_AND_DMS = Intent.GUILDS | Intent.DIRECT_MESSAGES


async def identify_shard(
    fake: FakeDiscord, ws: aiohttp.ClientWebSocketResponse, shard: list[int]
) -> dict[str, Any]:
    await receive(ws)  # HELLO
    await ws.send_json(
        {"op": 2, "d": {"token": fake.token, "intents": GUILDS_AND_DMS, "shard": shard}}
    )
    return await receive(ws)


async def test_each_shard_gets_its_own_guilds_and_their_events(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"club {n}", shard=(n % 2, 2)) for n in range(4)]
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0, 1]
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(fake.server.gateway_url) as zero,
        http.ws_connect(fake.server.gateway_url) as one,
    ):
        for ws, shard in ((zero, 0), (one, 1)):
            ready = await identify_shard(fake, ws, [shard, 2])
            assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, 2]
            mine = [str(g.id) for g in guilds if shard_of(g.id, 2) == shard]
            assert [g["id"] for g in ready["d"]["guilds"]] == mine
            created = [(await receive(ws))["d"]["id"] for _ in mine]
            assert created == mine
        # A guild's event reaches its shard only; one without a guild goes to shard 0.
        assert await fake.gateway.dispatch("GUILD_UPDATE", {"id": str(guilds[1].id)})
        assert await fake.gateway.dispatch(
            "THREAD_CREATE", {"id": "5", "guild_id": str(guilds[2].id)}
        )
        assert await fake.gateway.dispatch("MESSAGE_CREATE", {"id": "6"})  # a DM
        event = await receive(one)
        assert (event["t"], event["d"]["id"]) == ("GUILD_UPDATE", str(guilds[1].id))
        assert [(await receive(zero))["t"] for _ in range(2)] == [
            "THREAD_CREATE",
            "MESSAGE_CREATE",
        ]
        await one.send_json({"op": 1, "d": None})  # nothing else queued before the ACK
        assert (await receive(one))["op"] == 11


async def test_a_shard_outside_the_count_is_closed_with_4010(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http:
        for shard in ([2, 2], [0, 0], [-1, 2], ["0", 2], [0]):
            async with http.ws_connect(fake.server.gateway_url) as ws:
                await receive(ws)
                await ws.send_json(
                    {"op": 2, "d": {"token": fake.token, "intents": 1, "shard": shard}}
                )
                closing = await ws.receive(timeout=5)
                assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4010, shard
    assert fake.gateway.identify_count == 0


async def test_two_auto_sharded_discord_py_clients_split_the_guilds(
    fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"club {n}", shard=(n % 3, 3)) for n in range(6)]
    clients = []
    for shards in ([0, 2], [1]):
        client = discord.AutoShardedClient(
            intents=discord.Intents(guilds=True), shard_ids=shards, shard_count=3
        )
        # Discord lets one identify through per five seconds; the fake has no such limit.
        client.before_identify_hook = _no_wait  # type: ignore[method-assign]
        clients.append(await bot_runner.start(client))
    first, second = clients
    assert {g.id for g in first.guilds} == {g.id for g in guilds if shard_of(g.id, 3) != 1}
    assert {g.id for g in second.guilds} == {g.id for g in guilds if shard_of(g.id, 3) == 1}
    assert sorted(first.shards) == [0, 2] and list(second.shards) == [1]
    for client in clients:
        for guild in client.guilds:
            assert guild.shard_id == shard_of(guild.id, 3)


async def _no_wait(shard_id: int | None, *, initial: bool = False) -> None:
    return None

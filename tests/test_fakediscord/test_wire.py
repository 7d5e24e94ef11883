"""The fake Discord over the raw wire, without discord.py: the gateway's handshake, RESUME and
unknown opcodes, and the REST answers a client library would otherwise hide."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from tests.fakediscord import ErrorCode, FakeDiscord, FakeGuild


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await ws.receive(timeout=5)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    frame: dict[str, Any] = json.loads(message.data)
    return frame


async def identify(fake: FakeDiscord, ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """HELLO, then IDENTIFY with the guilds intent; returns READY."""
    hello = await receive(ws)
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
    return await receive(ws)


async def test_identify_heartbeat_and_guild_create(
    fake_discord: FakeDiscord, guild: FakeGuild
) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.server.gateway_url) as ws:
        ready = await identify(fake, ws)
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
        created = await receive(ws)
        assert (created["t"], created["s"]) == ("GUILD_CREATE", 2)
        # Only the guilds intent: the members are the bot alone, and member_count agrees.
        members = created["d"]["members"]
        assert [m["user"]["id"] for m in members] == [str(fake.bot_user.id)]
        assert created["d"]["member_count"] == 1
        assert [c["name"] for c in created["d"]["channels"]] == ["general", "games"]
        await ws.send_json({"op": 1, "d": 2})
        assert (await receive(ws))["op"] == 11
        await ws.send_json({"op": 3, "d": {"status": "online"}})  # presence: not modelled
        await fake.wait_for(lambda: bool(fake.unknown_requests), what="the unknown opcode")
    assert [str(r) for r in fake.unknown_requests] == ["GATEWAY op 3 -> 0"]
    fake.unknown_requests.clear()  # seen; do not fail this test at teardown


async def test_a_wrong_token_is_closed_with_4004(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.server.gateway_url) as ws:
        await receive(ws)
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1}})
        closing = await ws.receive(timeout=5)
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004
    assert fake.gateway.identify_count == 0


async def test_resume_replays_what_was_missed(fake_discord: FakeDiscord, guild: FakeGuild) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fake.server.gateway_url) as ws:
            ready = await identify(fake, ws)
            await receive(ws)  # GUILD_CREATE, seq 2
            await fake.drop_gateway()
        await fake.gateway.dispatch("GUILD_CREATE", {"id": "1"})  # missed: seq 3
        async with http.ws_connect(fake.server.gateway_url) as ws:
            await receive(ws)  # HELLO
            session_id = ready["d"]["session_id"]
            resume = {"token": fake.token, "session_id": session_id, "seq": 2}
            await ws.send_json({"op": 6, "d": resume})
            missed, resumed = await receive(ws), await receive(ws)
            assert (missed["t"], missed["s"], missed["d"]) == ("GUILD_CREATE", 3, {"id": "1"})
            assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
            assert fake.session is not None and fake.session.resumes == 1

            await fake.drop_gateway(resumable=False)
        async with http.ws_connect(fake.server.gateway_url) as ws:
            await receive(ws)
            await ws.send_json({"op": 6, "d": resume})
            assert await receive(ws) == {"op": 9, "d": False}  # INVALID_SESSION: identify


async def test_rest_answers_in_discords_shape(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    auth = {"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"}
    commands = f"{fake.api_base}/applications/{fake.application_id}/commands"
    async with aiohttp.ClientSession(headers=auth) as http:
        async with http.put(commands, data=b"{not json") as reply:
            assert reply.status == 400
            assert (await reply.json())["code"] == ErrorCode.INVALID_JSON
        bad = [{"name": "Move", "description": "upper case is not allowed"}]
        async with http.put(commands, json=bad) as reply:
            body = await reply.json()
            assert (reply.status, body["code"]) == (400, ErrorCode.INVALID_FORM_BODY)
            assert body["errors"]["0"]["name"]["_errors"][0]["code"] == (
                "APPLICATION_COMMAND_INVALID_NAME"
            )
        async with http.get(f"{fake.api_base}/applications/1/commands") as reply:
            assert reply.status == 403  # not this bot's application
        unknown = f"{fake.api_base}/interactions/1/token/callback"
        async with http.post(unknown, json={"type": 4, "data": {"content": "x"}}) as reply:
            assert (await reply.json())["code"] == ErrorCode.UNKNOWN_INTERACTION
        webhook = f"{fake.api_base}/webhooks/{fake.application_id}/no-such-token"
        async with http.post(webhook, json={"content": "x"}) as reply:
            assert (await reply.json())["code"] == ErrorCode.UNKNOWN_WEBHOOK
        for url in (f"{fake.api_base}/guilds/1", f"{fake.url}/somewhere/else"):
            async with http.get(url) as reply:
                assert reply.status == 404
    codes = [r.code for r in fake.rejections]
    assert codes == [50109, 50035, 40001, 10062, 10015]
    assert [r.path for r in fake.unknown_requests] == ["/api/v10/guilds/1", "/somewhere/else"]
    fake.rejections.clear()  # seen; do not fail this test at teardown
    fake.unknown_requests.clear()


async def test_channel_message_rules(fake_discord: FakeDiscord, guild: FakeGuild) -> None:
    fake = fake_discord
    general = fake.channel("general", guild)
    alice = next(m for m in guild.members.values() if not m.user.bot)
    theirs = await fake.say(general, alice, "mine")
    auth = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{general.id}/messages"
    async with aiohttp.ClientSession(headers=auth) as http:
        async with http.post(messages, json={"content": "  "}) as reply:
            assert (await reply.json())["code"] == ErrorCode.EMPTY_MESSAGE
        async with http.patch(f"{messages}/{theirs.id}", json={"content": "x"}) as reply:
            assert (await reply.json())["code"] == ErrorCode.CANNOT_EDIT_OTHERS_MESSAGE
        async with http.get(f"{messages}/123") as reply:
            assert (await reply.json())["code"] == ErrorCode.UNKNOWN_MESSAGE
        async with http.get(f"{fake.api_base}/channels/123") as reply:
            assert (await reply.json())["code"] == ErrorCode.UNKNOWN_CHANNEL
        async with http.post(messages, json={"content": "hello"}) as reply:
            posted = await reply.json()
        async with http.get(messages, params={"limit": "1"}) as reply:
            assert [m["id"] for m in await reply.json()] == [posted["id"]]
    assert [r.code for r in fake.rejections] == [50006, 50005, 10008, 10003]
    fake.rejections.clear()  # seen; do not fail this test at teardown


async def test_attachments_carry_alt_text_within_its_limit_and_gif_sizes(
    fake_discord: FakeDiscord, guild: FakeGuild
) -> None:
    """An attachment's description (alt text) is at most 1,024 characters, and a GIF is
    an image with its width and height, as a PNG is."""
    fake = fake_discord
    general = fake.channel("general", guild)
    gif = b"GIF89a" + (844).to_bytes(2, "little") + (759).to_bytes(2, "little") + bytes(20)
    auth = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{general.id}/messages"

    def form(description: str) -> aiohttp.FormData:
        data = aiohttp.FormData()
        payload = {"content": "x", "attachments": [{"id": 0, "description": description}]}
        data.add_field("payload_json", json.dumps(payload), content_type="application/json")
        data.add_field("files[0]", gif, filename="game.gif", content_type="image/gif")
        return data

    async with aiohttp.ClientSession(headers=auth) as http:
        async with http.post(messages, data=form("d" * 1025)) as reply:
            refused = await reply.json()
        async with http.post(messages, data=form("d" * 1024)) as reply:
            posted = await reply.json()
    assert refused["code"] == ErrorCode.INVALID_FORM_BODY
    assert "description" in refused["errors"]["attachments"]["0"]
    [attachment] = posted["attachments"]
    assert (attachment["width"], attachment["height"]) == (844, 759)
    assert attachment["content_type"] == "image/gif"
    assert len(attachment["description"]) == 1024
    assert [r.code for r in fake.rejections] == [ErrorCode.INVALID_FORM_BODY]
    fake.rejections.clear()  # seen; do not fail this test at teardown

"""The fake Discord with a real discord.py bot: every route it keeps, as a bot uses it."""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest
from PIL import Image

from tests.fakediscord import (
    BotRunner,
    ChannelType,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeMessage,
    ResponseType,
    UserCannotDoThat,
    UserFile,
)

from .toybot import ToyBot


async def test_ready_guilds_and_command_sync(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    assert toy.is_ready() and [g.id for g in toy.guilds] == [guild.id]
    seen = toy.get_guild(guild.id)
    assert seen is not None and [c.name for c in seen.text_channels] == ["general", "games"]
    # Without the members intent GUILD_CREATE carries the bot alone, and says so.
    assert seen.member_count == len(seen.members) == 1
    names = {c.name for c in fake.registered_commands()}
    assert {"ping", "greet", "draw", "colour", "counter", "room", "note"} <= names
    assert [c.name for c in fake.registered_commands(guild)] == ["local"]
    ids = {c.name: c.id for c in fake.registered_commands()}
    await toy.tree.sync()  # a second bulk overwrite keeps the ids, as on Discord
    assert {c.name: c.id for c in fake.registered_commands()} == ids
    assert [c.name for c in await toy.tree.fetch_commands()] == [
        c.name for c in fake.registered_commands()
    ]
    assert fake.session is not None and toy.ws is not None
    assert toy.ws.sequence == fake.session.seq  # every dispatch arrived, in order


async def test_slash_command_reply(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    result = await fake.slash("ping", user=alice, channel=general)
    assert result.response_type == ResponseType.CHANNEL_MESSAGE
    assert result.content == "pong" and not result.ephemeral
    assert result.reply is not None and result.reply.type == 20
    assert fake.last_message(general) is result.reply
    local = await fake.slash("local", user=alice, channel=general)
    assert local.content == "local"


async def test_member_option_resolves_and_only_allowed_mentions_ping(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    result = await fake.slash(
        "greet", {"member": bob, "style": "loud"}, user=alice, channel=general
    )
    assert result.content == f"Hello <@{bob.id}>!!!"
    assert result.reply is not None and result.reply.mentioned_user_ids == [bob.id]
    assert result.reply.allowed_mentions is not None
    assert result.reply.allowed_mentions["users"] == [bob.id]
    whispered = await fake.slash(
        "greet", {"member": bob, "whisper": True}, user=alice, channel=general
    )
    assert whispered.ephemeral and whispered.content == f"Hello <@{bob.id}>."
    wrong = ({"member": bob, "style": "quiet"}, {"style": "loud"}, {"who": bob})
    for options in (*wrong, {"member": bob, "whisper": "yes"}):
        # not a choice; required missing; no such option; not a boolean
        with pytest.raises(UserCannotDoThat):
            await fake.slash("greet", options, user=alice, channel=general)
    with pytest.raises(UserCannotDoThat):
        await fake.slash("nonsense", user=alice, channel=general)


async def test_a_deferred_answer_pings_nobody_and_a_new_follow_up_does(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    """Discord notifies when a message is created: the follow-up that replaces "thinking"
    is an edit of the message created empty at the deferral, and pings nobody, though its
    content mentions bob; a second follow-up is a message of its own and pings him."""
    result = await fake_discord.slash("greet_later", {"member": bob}, user=alice, channel=general)
    await result.wait_followups(1)
    assert result.reply is result.original and result.reply is not None
    assert result.reply.content == f"Hello <@{bob.id}>"
    assert [u.id for u in result.reply.mentions] == [bob.id]  # as Discord's object lists it
    assert result.reply.mentioned_user_ids == []
    [again] = result.followups
    assert again.mentioned_user_ids == [bob.id]


async def test_defer_then_follow_ups_with_a_png(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    result = await fake.slash("draw", user=alice, channel=general)
    await result.wait_followups(1)
    assert result.deferred and result.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE
    # The first follow-up replaces "thinking"; the second is a message of its own.
    assert result.original is not None and not result.original.loading
    assert result.content == "Here it is" and result.reply is result.original
    [png] = result.files
    assert (png.filename, png.content_type, png.description) == ("board.png", "image/png", "A")
    with Image.open(io.BytesIO(png.data)) as image:
        assert image.size == (40, 20)
    assert [m.content for m in result.followups] == ["And a second follow-up"]
    assert result.followups[0].ephemeral
    assert [m.content for m in fake.channel_history(general)] == ["Here it is"]


async def test_autocomplete_choices(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    choices = await fake.autocomplete(
        "colour", {"name": "blue-1"}, focused="name", user=alice, channel=general
    )
    assert [c.value for c in choices] == ["blue-1", "blue-10", "blue-11"]
    picked = await fake.slash("colour", {"name": choices[0].value}, user=alice, channel=general)
    assert picked.ephemeral and picked.content == "You picked blue-1"
    assert fake.channel_history(general) == []  # only alice saw it


async def test_buttons_edit_their_message_and_survive_a_restart(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    bot_runner: BotRunner,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    board = (await fake.slash("counter", user=alice, channel=general)).reply
    assert board is not None and board.custom_ids == ["counter:0"]
    first = await fake.click(board, "counter:0", user=bob)
    assert first.response_type == ResponseType.UPDATE_MESSAGE and first.reply is board
    assert board.content == "Count: 1" and board.custom_ids == ["counter:1"]
    assert [h["content"] for h in board.history] == ["Count: 0"]

    await bot_runner.stop(toy)  # a new bot, the same message: the button still works
    await bot_runner.start(lambda: ToyBot(guild.id))
    await fake.click(board, "counter:1", user=bob)
    third = await fake.click(board, "counter:2", user=bob)
    assert third.ephemeral and third.content == "That is enough counting."
    assert board.content == "Count: 2"
    with pytest.raises(UserCannotDoThat):  # no such button on the message
        await fake.click(board, "counter:9", user=bob)

    private = await fake.slash("secret", user=alice, channel=general)
    with pytest.raises(UserCannotDoThat):  # bob cannot see alice's ephemeral message
        await fake.click(private, "counter:0", user=bob)
    assert (await fake.click(private, "counter:0", user=alice)).content == "Count: 1"


async def test_a_thread_on_a_message(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    fake.expect_rejections(160004)  # the bot tries a second thread on the same message
    result = await fake.slash("room", {"topic": "Game 1"}, user=alice, channel=general)
    [thread] = fake.threads(general)
    assert thread.name == "Game 1" and thread.type == ChannelType.PUBLIC_THREAD
    assert result.reply is not None and thread.id == result.reply.id == result.reply.thread_id
    [welcome] = fake.channel_history(thread)
    assert welcome.content == f"Welcome to Game 1, <@{alice.id}>"
    assert welcome.mentioned_user_ids == [alice.id]
    await fake.wait_for(lambda: toy.get_channel(thread.id) is not None, what="THREAD_CREATE")
    [refused] = toy.errors
    assert isinstance(refused, discord.HTTPException) and refused.code == 160004
    ping = await fake.slash("ping", user=alice, channel=thread)  # members act in threads
    assert ping.content == "pong"


async def test_channel_messages_are_posted_fetched_listed_and_edited(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    await fake.say(general, alice, "hello")
    await fake.slash("note", user=alice, channel=general)
    hello, note = fake.channel_history(general)
    assert hello.content == "hello" and hello.author is alice.user
    assert note.content == "a note (2 messages)" and note.source == "channel"
    assert [h["content"] for h in note.history] == ["a note"] and note.edited_at is not None
    routes = {r.route for r in fake.requests}
    assert {
        "GET /channels/{channel_id}",
        "GET /channels/{channel_id}/messages",
        "GET /channels/{channel_id}/messages/{message_id}",
        "PATCH /channels/{channel_id}/messages/{message_id}",
    } <= routes
    assert fake.session is not None  # no guild messages intent: no MESSAGE_CREATE
    assert not any('"MESSAGE_CREATE"' in frame for _, frame in fake.session.sent)


async def test_messages_reach_a_bot_with_the_intent(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bot_runner: BotRunner,
) -> None:
    fake = fake_discord
    intents = discord.Intents(guilds=True, guild_messages=True, members=True)
    bot = await bot_runner.start(lambda: ToyBot(guild.id, intents=intents))
    seen = bot.get_guild(guild.id)
    assert seen is not None and len(seen.members) == 3  # the members intent: all of them
    seen_message = asyncio.ensure_future(bot.wait_for("message", timeout=5))
    games = fake.channel("games", guild)
    await fake.say(games, alice, "anyone for a game?")
    message = await seen_message
    assert message.author.id == alice.id and message.channel.id == games.id


async def test_a_bot_token_is_required_and_json_is_exactly_json(
    fake_discord: FakeDiscord,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(fake.api_base + "/users/@me", headers=headers) as reply:
            assert reply.headers["Content-Type"] == "application/json"  # no charset
            assert (await reply.json())["id"] == str(fake.bot_user.id)
        async with http.get(fake.api_base + "/users/@me") as reply:
            assert reply.status == 401


async def test_public_thinking_deleted_then_a_private_follow_up(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    """Deleting ``@original`` takes the "thinking" note away for everyone; the follow-up
    after it is a message of its own, private if asked."""
    fake = fake_discord
    result = await fake.slash("think", user=alice, channel=general)
    await result.wait_followups(1)
    assert result.deferred and result.original is None
    [answer] = result.followups
    assert answer.ephemeral and answer.content == "Only you see this"
    assert fake.channel_history(general) == []


async def test_a_deferred_button_edits_its_message_afterwards(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    posted = (await fake.slash("later", user=alice, channel=general)).reply
    assert posted is not None and posted.custom_ids == ["later"]
    pressed = await fake.click(posted, "later", user=bob)
    assert pressed.response_type == ResponseType.DEFERRED_UPDATE_MESSAGE
    assert posted.content == "Done later" and posted.custom_ids == []
    assert [h["content"] for h in posted.history] == ["Press it"]


async def test_an_attachment_option_reaches_the_bot_and_downloads(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    """The client uploads the file first; the interaction names it in ``resolved`` and the
    bot downloads its bytes from the CDN address given there. A file over the upload
    limit never leaves the client."""
    fake = fake_discord
    data = "▲７六歩".encode()
    result = await fake.slash(
        "upload", {"file": UserFile("棋譜 1.kif", data)}, user=alice, channel=general
    )
    assert result.ephemeral
    assert result.content == f"棋譜 1.kif: {len(data)} bytes, '▲７六歩'"
    assert any("/cdn/ephemeral-attachments/" in r.path for r in fake.requests)
    with pytest.raises(UserCannotDoThat, match="up to"):
        await fake.slash(
            "upload", {"file": UserFile("big.kif", b" " * (10 * 1024 * 1024 + 1))},
            user=alice, channel=general,
        )  # fmt: skip


async def test_without_the_content_intent_only_messages_that_mention_the_bot_have_content(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    bob: FakeMember,
    bot_runner: BotRunner,
) -> None:
    """Discord empties a guild message's content for a bot without the privileged message
    content intent unless the bot's user is mentioned: named in the text, or as the author
    of a message replied to with a ping (never of an interaction's answer); its role and
    @everyone do not count."""
    fake = fake_discord
    intents = discord.Intents(guilds=True, guild_messages=True)
    bot = await bot_runner.start(lambda: ToyBot(guild.id, intents=intents))
    assert bot.user is not None
    games = fake.channel("games", guild)

    async def seen(user: FakeMember, content: str, **reply: object) -> discord.Message:
        def theirs(message: discord.Message) -> bool:
            return message.author.id == user.id

        # The member's message: the bot's own post may still be on its way to it.
        arrived = asyncio.ensure_future(bot.wait_for("message", check=theirs, timeout=5))
        await fake.say(games, user, content, **reply)  # type: ignore[arg-type]
        return await arrived

    assert (await seen(alice, "anyone for a game?")).content == ""
    assert (await seen(alice, "@everyone a game?")).content == ""
    assert (await seen(alice, f"<@&{guild.id}> a game?")).content == ""
    assert (await seen(alice, f"hi <@{bob.id}>")).content == ""
    named = await seen(alice, f"7g7f, <@{bot.user.id}>")  # after the text: no prefix command
    assert named.content == f"7g7f, <@{bot.user.id}>" and bot.user in named.mentions
    own = await posted_by(bot, fake, games.id, "the board")
    assert (await seen(bob, "P-7f", reply_to=own)).content == "P-7f"
    assert (await seen(bob, "P-7f quietly", reply_to=own, ping=False)).content == ""
    answer = (await fake.slash("ping", user=alice, channel=games)).reply
    assert answer is not None and answer.interaction_id is not None
    reply = await seen(bob, "P-3d", reply_to=answer)
    assert reply.content == "" and reply.reference is not None
    assert reply.reference.message_id == answer.id


async def test_with_the_content_intent_every_message_has_its_content(
    fake_discord: FakeDiscord, guild: FakeGuild, alice: FakeMember, bot_runner: BotRunner
) -> None:
    intents = discord.Intents(guilds=True, guild_messages=True, message_content=True)
    bot = await bot_runner.start(lambda: ToyBot(guild.id, intents=intents))
    arrived = asyncio.ensure_future(bot.wait_for("message", timeout=5))
    await fake_discord.say(fake_discord.channel("games", guild), alice, "anyone for a game?")
    assert (await arrived).content == "anyone for a game?"


async def posted_by(bot: ToyBot, fake: FakeDiscord, channel_id: int, content: str) -> FakeMessage:
    """The bot posts a plain message (not an interaction's answer) in a channel."""
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(content)
    return fake.messages[sent.id]

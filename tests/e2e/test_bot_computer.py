"""The computer through the real bot: `/computer` against the real fairy-stockfish (a game
played to its end, an engine killed mid-search), a fake engine that answers illegal moves
(the thread hears of it and Retry plays), and `/analyse`: refused during the game, then
the finished game analysed with its progress in one message, the chart, and a second
answer from what was stored. Without an engine, both say so in one sentence."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from pathlib import Path

from PIL import Image

from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    InteractionResult,
    InteractionType,
    ResponseType,
)
from tests.support.club import JAPANESE, Club, open_club
from tests.support.computer_games import ENGINE_WAIT, computer_moved, start
from tests.support.engines import fairy_stockfish, fake_engine
from tests.support.japanese import assert_japanese, english_in


async def computer_club(
    fake: FakeDiscord,
    runner: BotRunner,
    guard: E2EGuard,
    tmp_path: Path,
    engine: str,
    **options: object,
) -> Club:
    return await open_club(fake, runner, guard, tmp_path, engine_path=engine, **options)


async def removed_command(
    club: Club,
    name: str,
    options: list[dict[str, object]],
    *,
    channel: FakeChannel,
    kind: int = InteractionType.APPLICATION_COMMAND,
) -> InteractionResult:
    """`/name` as a client still sends it after the bot stopped publishing it (Discord shows
    a removed global command for a while, and a client may have cached it)."""
    data = {"id": str(club.fake.snowflake()), "name": name, "type": 1, "options": options}
    interaction = await club.fake.actions.create_interaction(
        kind, member=club.alice, channel=channel, data=data, label=f"removed /{name}"
    )
    result = InteractionResult(club.fake, interaction)
    if kind == InteractionType.AUTOCOMPLETE:
        await result.wait_response()
    else:
        await result.wait_final()
    return result


ENGINE_COMMANDS = {"computer", "analyse"}


async def test_without_an_engine_the_engine_commands_are_not_published(club: Club) -> None:
    published = {command.name for command in club.fake.registered_commands()}
    assert "challenge" in published and not ENGINE_COMMANDS & published
    assert club.bot is not None
    assert not ENGINE_COMMANDS & {command.name for command in club.bot.tree.get_commands()}
    level = [{"name": "level", "type": 4, "value": 3}]
    asked = await removed_command(club, "computer", level, channel=club.channel)
    assert asked.ephemeral and asked.content == (
        "No computer engine is set up on this bot, so it cannot play or analyse."
    )
    table = await club.new_game()
    await club.service.endings.resign(table.game_id, club.alice.user.id)
    analysed = await removed_command(club, "analyse", [], channel=table.thread)
    assert analysed.ephemeral and "No computer engine is set up" in analysed.content
    typing = [{"name": "game", "type": 3, "value": "1", "focused": True}]
    suggested = await removed_command(
        club, "analyse", typing, channel=table.thread, kind=InteractionType.AUTOCOMPLETE
    )
    assert suggested.response_type == ResponseType.AUTOCOMPLETE_RESULT
    assert suggested.choices == []
    gone = await removed_command(club, "withdrawn_long_ago", [], channel=club.channel)
    assert gone.ephemeral and "no longer offers that command" in gone.content


async def test_without_an_engine_a_japanese_member_is_told_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    assert not ENGINE_COMMANDS & {c.name for c in club.fake.registered_commands()}
    level = [{"name": "level", "type": 4, "value": 3}]
    asked = await removed_command(club, "computer", level, channel=club.channel)
    assert asked.ephemeral and "将棋ソフト" in asked.content, asked.content
    assert_japanese(asked)
    gone = await removed_command(club, "withdrawn_long_ago", [], channel=club.channel)
    assert gone.ephemeral and "コマンド" in gone.content, gone.content
    assert_japanese(gone)


async def test_with_an_engine_the_engine_commands_are_published(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _plan = fake_engine(tmp_path)
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    assert {c.name for c in club.fake.registered_commands()} >= ENGINE_COMMANDS


async def test_a_game_against_the_real_engine_then_its_analysis(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, fairy_stockfish())
    game_id, thread = await start(club, level=1, color="gote")
    await computer_moved(club, game_id, 1)  # the computer is sente: it moves first
    first = (await club.game(game_id)).game.moves[0].usi()
    [post] = club.bot_posts(thread, "1. ☗")
    assert post.attachments and f"<@{club.alice.user.id}>" in post.content
    early = await club.fake.slash("analyse", {}, user=club.alice, channel=thread)
    assert early.ephemeral and "Only finished games are analysed" in early.content

    for ply in (2, 4, 6):
        legal = (await club.service.games.legal_moves(game_id, club.alice.user.id))[0].usi
        answer = await club.fake.slash("move", {"move": legal}, user=club.alice, channel=thread)
        assert not answer.ephemeral, answer.content
        await computer_moved(club, game_id, ply + 1)
    game = await club.game(game_id)
    assert game.ply == 7 and game.game.moves[0].usi() == first and game.to_move is not None
    assert game.to_move.user_id == club.alice.user.id

    ask = await club.fake.slash("resign", user=club.alice, channel=thread)
    await club.fake.click(ask, f"rs:{game_id}", user=club.alice)
    [ending] = await club.posts(thread, "resigned")
    assert "wins" in ending.content
    assert (await club.game(game_id)).outcome is not None

    analysed = await club.fake.slash("analyse", {}, user=club.alice, channel=thread, wait=False)
    await analysed.wait_response(ENGINE_WAIT)
    await club.fake.wait_for(
        lambda: "Analysis of game" in analysed.content, what="the analysis", timeout=ENGINE_WAIT
    )
    message = analysed.reply
    assert message is not None and message.ephemeral
    progress = [str(old.get("content")) for old in message.history]
    assert any("positions evaluated" in shown for shown in progress), progress
    assert "mistake" in analysed.content and "centipawns" in analysed.content
    [chart] = message.attachments
    image = Image.open(io.BytesIO(chart.data))
    assert image.format == "PNG" and image.size[0] > 300
    await club.fake.wait_quiet()

    again = await club.fake.slash("analyse", {"public": True}, user=club.bob, channel=thread)
    assert not again.ephemeral and "Analysis of game" in again.content
    assert not again.deferred  # stored: answered at once
    assert again.files


async def test_an_engine_killed_mid_search_still_moves(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, fairy_stockfish())
    game_id, thread = await start(club, level=8, color="gote")  # two seconds a move
    pool = club.service.computer.engine
    assert pool is not None

    async def searching() -> None:
        while not pool.processes():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(searching(), ENGINE_WAIT)
    await asyncio.sleep(0.3)
    pid = pool.processes()[0].pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    await computer_moved(club, game_id, 1)
    assert club.bot_posts(thread, "1. ☗") and pool.started == 2


async def test_an_engine_answering_illegal_moves_is_reported_and_retried(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "illegal illegal")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=2, color="gote")
    [failed] = await club.posts(thread, "could not find a move")
    assert failed.custom_ids == [f"cp:{game_id}"]
    assert (await club.game(game_id)).ply == 0  # nothing stored; the game waits
    retry = await club.fake.click(failed, f"cp:{game_id}", user=club.carol)
    assert retry.ephemeral and "thinking" in retry.content
    await computer_moved(club, game_id, 1)
    assert club.bot_posts(thread, "1. ☗")


async def test_the_computer_in_japanese(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "garbage garbage")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program, **JAPANESE)
    game_id, thread = await start(club, level=5, color="gote")
    [failed] = await club.posts(thread, "再試行")
    assert "指し手を返せませんでした" in failed.content
    early: InteractionResult = await club.fake.slash("analyse", {}, user=club.alice, channel=thread)
    await club.service.endings.resign(game_id, club.alice.user.id)
    analysed = await club.fake.slash("analyse", {}, user=club.alice, channel=thread, wait=False)
    await club.fake.wait_for(
        lambda: "の解析" in analysed.content, what="the analysis", timeout=ENGINE_WAIT
    )
    assert "悪手" in analysed.content
    assert_japanese(early, failed)
    bot_name = (await club.game(game_id)).sente.name  # the computer's seat: the bot's name
    assert english_in(analysed.content.replace(bot_name, "")) == []


async def test_a_restart_gives_the_computer_its_waiting_turn(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "crash crash")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=4, color="gote")
    await club.posts(thread, "could not find a move")
    assert (await club.game(game_id)).ply == 0
    await club.restart()
    await computer_moved(club, game_id, 1)
    assert club.bot_posts(thread, "1. ☗")


async def test_play_again_under_the_ending_starts_the_next_game(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "legal resign")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=6, color="gote")
    await computer_moved(club, game_id, 1)
    await club.fake.slash("move", {"move": "3c3d"}, user=club.alice, channel=thread)
    [ending] = await club.posts(thread, "resigned")
    assert ending.custom_ids == [f"ca:{game_id}"]  # no Rematch: the bot accepts no challenge
    refused = await club.fake.click(ending, f"ca:{game_id}", user=club.bob)
    assert refused.ephemeral and "Only alice can play this game again" in refused.content
    again = await club.fake.click(ending, f"ca:{game_id}", user=club.alice)
    assert again.ephemeral and "level 6" in again.content
    await club.fake.wait_for(lambda: len(club.fake.threads(club.channel)) == 2, what="a thread")
    [game] = await club.service.games.active_for(club.alice.user.id)
    assert game.id != game_id
    snapshot = await club.game(game.id)
    assert snapshot.sente.user_id == club.alice.user.id  # colours swapped
    assert (await club.service.computer.seat(game.id)) is not None


async def test_an_engine_taken_away_is_said_in_the_thread(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """The owner removed ENGINE_PATH while a game against the computer went on: the bot's
    turn says so in one sentence, and nothing is logged as an error."""
    program, _ = fake_engine(tmp_path)
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=1, color="sente")
    club.engine_path = None
    await club.restart()
    await club.fake.slash("move", {"move": "7g7f"}, user=club.alice, channel=thread)
    [said] = await club.posts(thread, "No computer engine is set up")
    assert said.custom_ids == [] and (await club.game(game_id)).ply == 1


async def test_a_human_move_against_the_computer_pings_nobody_and_posts_one_board(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """The bot is never mentioned, least of all in its own game: the member's move is one
    post with its board that pings no one, then the computer's reply pings the member."""
    program, _ = fake_engine(tmp_path)
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program, **JAPANESE)
    game_id, thread = await start(club, level=1, color="sente")
    bot_id = club.fake.bot_user.id
    before = len(club.fake.channel_history(thread))
    answer = await club.fake.slash("move", {"move": "7g7f"}, user=club.alice, channel=thread)
    assert not answer.ephemeral, answer.content
    await computer_moved(club, game_id, 2)
    posts = [m for m in club.fake.channel_history(thread)[before:] if not m.ephemeral]
    assert [len(m.attachments) for m in posts] == [1, 1], [m.content for m in posts]
    mine, reply = posts
    assert f"<@{bot_id}>" not in mine.content and "手番です" not in mine.content, mine.content
    assert mine.mentioned_user_ids == []
    assert reply.mentioned_user_ids == [club.alice.user.id]
    assert all(bot_id not in m.mentioned_user_ids for m in club.fake.channel_history(thread))


async def test_retry_after_the_engine_was_taken_away_says_so_once(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """Retry under a failure, pressed once the owner removed ENGINE_PATH: one sentence to
    the member who pressed, not "thinking" and then a refusal posted in the thread."""
    program, _ = fake_engine(tmp_path, "illegal illegal")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=2, color="gote")
    [failed] = await club.posts(thread, "could not find a move")
    club.engine_path = None
    await club.restart()
    posts = len(club.fake.channel_history(thread))
    retry = await club.fake.click(failed, f"cp:{game_id}", user=club.alice)
    assert retry.ephemeral and retry.content == (
        "No computer engine is set up on this bot, so it cannot play or analyse."
    )
    await club.fake.wait_quiet()
    assert len(club.fake.channel_history(thread)) == posts

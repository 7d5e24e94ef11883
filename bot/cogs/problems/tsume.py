"""The daily mate problem (`/tsume`, `/詰将棋`): problems from the server's own games,
posted each day at the hour and in the channel its administrators chose, answered
privately (a button that opens a box to type the move in, or `/tsume action:answer`),
revealed with the next day's post; the month's solvers, and the scan of older games.

This feature gives the service its worker processes (the scan of finished games and the
judging of answers run there, never on the event loop), runs the two tasks that wait
(games to scan, the next day's post) and delivers the outbox's daily posts.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

from bot.db import OutboxRow
from bot.db.problem_posts import PostRow
from bot.services import DeadlineScheduler, ReaderPool, ServiceError
from bot.services.clock.sends import Send
from bot.services.play.snapshots import move_text
from bot.services.problems.daily import Answered, solution_of
from bot.services.problems.scanning import SCAN_TIME_LIMIT
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, OptionError, report, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.notify import game_link
from bot.ui.options import server_of
from bot.ui.replies import reader_language, send_ephemeral
from rules import Move, Position

log = logging.getLogger(__name__)
#: Worker processes of the feature: one may scan a long game while the other judges.
PROBLEM_PROCESSES = 2
#: How much the workers yield the CPU to the bot's own process: scans are background work.
PROBLEM_NICENESS = 10
#: The longest move a member types in the answer box.
ANSWER_LENGTH = 40
ACTIONS = [Choice(name=name, value=value) for value, name in text.TSUME_ACTIONS.items()]


def _position(post: PostRow) -> Position:
    return Position.from_sfen(post.problem.sfen)


class AnswerButton(GameButton):
    """Under a daily post: opens the box to type the first move in (the id is the post's)."""

    KEY, STYLE = "tz", discord.ButtonStyle.primary

    async def press(self, interaction: Interaction) -> None:
        service = host_of(interaction).service.daily_problems
        post = await service.open_for(server_of(interaction), self.game_id, interaction.user.id)
        await interaction.response.send_modal(AnswerModal(post.id, reader_language(interaction)))


class AnswerModal(discord.ui.Modal):
    """The box a member types their first move in; judged privately."""

    def __init__(self, post_id: int, lang: str) -> None:
        super().__init__(title=text.modal_title(lang, post_id), timeout=15 * 60)
        self.post_id = post_id
        self.move: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=text.modal_label(lang), max_length=ANSWER_LENGTH, custom_id="move"
        )
        self.add_item(self.move)

    async def on_submit(self, interaction: Interaction) -> None:
        await answer(interaction, self.post_id, str(self.move.value))

    async def on_error(self, interaction: Interaction, error: Exception) -> None:  # type: ignore[override]
        await report(interaction, error, "answer_box")


async def answer(interaction: Interaction, post_id: int | None, move: str) -> None:
    """Judge a member's answer and tell them privately, in their language."""
    bot = host_of(interaction)
    guild_id = server_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    answered: Answered = await bot.service.daily_problems.answer(
        guild_id, post_id, interaction.user.id, move
    )
    position = _position(answered.post)
    played = Move.from_usi(answered.judgement.usi)
    shown = move_text(position, played, None)
    streak = await bot.service.daily_problems.streak(guild_id, interaction.user.id)
    lang = reader_language(interaction)
    reply = text.answer_text(lang, answered.judgement.judged, shown, position.turn, streak)
    await send_ephemeral(interaction, reply)


class TsumeFeature(Feature):
    """`/tsume` and the daily post's button; the problem tasks while loaded."""

    BUTTONS = (AnswerButton,)

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.pool = ReaderPool(
            processes=PROBLEM_PROCESSES, time_limit=SCAN_TIME_LIMIT, niceness=PROBLEM_NICENESS
        )
        service = bot.service
        self.scans = DeadlineScheduler(service.problems, name="problem_scans")
        self.days = DeadlineScheduler(service.daily_problems, name="daily_problems")

    async def cog_load(self) -> None:
        await super().cog_load()
        service = self.bot.service
        service.problems.scan_with(self.pool)
        service.daily_problems.run_with(self.pool, self.bot.server_zone)
        service.outbox.deliver_with(Send.PROBLEM, self.deliver)
        self.scans.start()
        self.days.start()

    async def cog_unload(self) -> None:
        service = self.bot.service
        service.outbox.deliver_with(Send.PROBLEM, None)
        service.problems.scan_with(None)
        service.daily_problems.run_with(None, None)
        await self.scans.stop()
        await self.days.stop()
        await self.pool.close()
        await super().cog_unload()

    # ------------------------------------------------------------------ the post

    async def deliver(self, row: OutboxRow) -> None:
        """A server's day: reveal the posts before, then post the new problem. A reveal
        Discord refuses (its channel's permission taken away, say) is logged and the day
        goes on: the new problem is posted all the same."""
        assert row.guild_id is not None
        delivery = await self.bot.service.daily_problems.delivery(row.guild_id)
        lang = await self.bot.post_language(row.guild_id)
        for post, solvers in delivery.reveals:
            try:
                await self._reveal(post, solvers, lang)
            except discord.HTTPException:
                log.exception("could not reveal daily problem %s", post.id)
        if delivery.post is not None:
            await self._post(delivery.post, lang)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = await self.bot.channel_if_there(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _post(self, post: PostRow, lang: str) -> None:
        channel = await self._channel(post.channel_id)
        if channel is None:
            log.info("daily problem %s: its channel %s is gone", post.id, post.channel_id)
            return
        problem, position = post.problem, _position(post)
        file = await self._problem_file(post, lang)
        try:
            game = await self.bot.service.games.get(problem.game_id)
            link: str | None = game_link(game)
        except ServiceError:
            link = None
        content = text.problem_post(lang, post.id, problem.plies, position, problem.game_id, link)
        message = await channel.send(
            content,
            file=file,
            view=view_of(AnswerButton(post.id, lang)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.bot.service.daily_problems.posted(post.id, message.id)
        log.info("daily problem %s posted in %s", post.id, post.channel_id)

    async def _problem_file(self, post: PostRow, lang: str) -> discord.File:
        position = _position(post)
        caption = text.problem_caption(lang, post.problem.plies, position.turn)
        return await self.bot.boards.problem_file(
            position,
            attacker=position.turn,
            caption=caption,
            alt=caption,
            filename=f"tsume-{post.id}.png",
        )

    async def _reveal(self, post: PostRow, solvers: tuple[int, ...], lang: str) -> None:
        channel = await self._channel(post.channel_id)
        if channel is None:
            return
        solution = solution_of(post.problem)
        caption = text.problem_caption(lang, post.problem.plies, solution.attacker)
        file = await self.bot.boards.problem_file(
            solution.final,
            attacker=solution.attacker,
            caption=caption,
            alt=caption,
            filename=f"tsume-{post.id}-solution.png",
            last_move=solution.last_move,
        )
        content = text.reveal_text(lang, post.id, solution.line, solvers)
        await channel.send(
            text.truncate(content), file=file, allowed_mentions=discord.AllowedMentions.none()
        )

    # ------------------------------------------------------------------ the command

    @command("tsume", move="tsume_move", action="tsume_action", hour="tsume_hour")
    @app_commands.choices(action=ACTIONS)
    async def tsume(
        self,
        interaction: Interaction,
        action: str = "today",
        move: Range[str, 1, ANSWER_LENGTH] | None = None,
        channel: discord.TextChannel | None = None,
        hour: Range[int, 0, 23] | None = None,
    ) -> None:
        """Today's problem, an answer, the month's table; for administrators the
        schedule, its end and the scan of older games."""
        guild_id = server_of(interaction)
        lang = reader_language(interaction)
        service = self.bot.service
        if action in ("schedule", "stop", "scan") and not interaction.permissions.manage_guild:
            raise OptionError(text.TSUME_MANAGERS_ONLY)
        if action == "answer":
            if move is None:
                post = await service.daily_problems.current(guild_id)
                await service.daily_problems.open_for(guild_id, post.id, interaction.user.id)
                await interaction.response.send_modal(AnswerModal(post.id, lang))
                return
            await answer(interaction, None, move)
        elif action == "schedule":
            if hour is None:
                raise OptionError(text.TSUME_HOUR_NEEDED)
            where = channel.id if channel is not None else interaction.channel_id
            assert where is not None
            first = await service.daily_problems.schedule(guild_id, where, hour)
            await send_ephemeral(interaction, text.schedule_text(lang, where, hour, first))
        elif action == "stop":
            stopped = await service.daily_problems.unschedule(guild_id)
            await send_ephemeral(interaction, text.unscheduled_text(lang, stopped))
        elif action == "scan":
            p = await service.problems.queue_history(guild_id)
            reply = text.scan_progress_text(lang, p.finished, p.scanned, p.queued, p.problems)
            await send_ephemeral(interaction, reply)
        elif action == "table":
            since, rows = await service.daily_problems.table(guild_id)
            await send_ephemeral(interaction, text.table_text(lang, since, rows))
        else:
            await self._today(interaction, lang)

    async def _today(self, interaction: Interaction, lang: str) -> None:
        """Today's problem, privately, with its button."""
        guild_id = server_of(interaction)
        post = await self.bot.service.daily_problems.current(guild_id)
        problem, position = post.problem, _position(post)
        file = await self._problem_file(post, lang)
        content = text.problem_post(lang, post.id, problem.plies, position, problem.game_id, None)
        streak = await self.bot.service.daily_problems.streak(guild_id, interaction.user.id)
        content += "\n" + text.streak_text(lang, streak)
        view = None if post.revealed_at is not None else view_of(AnswerButton(post.id, lang))
        kwargs: dict[str, Any] = {"file": file}
        if view is not None:
            kwargs["view"] = view
        await send_ephemeral(interaction, content, **kwargs)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TsumeFeature(bot))

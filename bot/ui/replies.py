"""Answering an interaction: privately, in time, and with pings only where meant.

Discord refuses an answer that comes more than 3 seconds after the interaction.
`Reply.within` waits for slow work (the database, the renderer) only as long as
that allows, and defers first when the work is slower today; everything after
that goes out as a follow-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.services import PlayerRef

from . import text
from .i18n import language_of

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFER_AFTER = 1.5  # seconds: past this, defer so Discord's 3-second limit is never missed
#: Marks an interaction whose "thinking" note is public: a refusal must not replace it.
PUBLIC_THINKING = "public_thinking"


def as_player(user: discord.abc.User) -> PlayerRef:
    """A member as the service knows players: the name they show here, and whether a bot."""
    return PlayerRef(user.id, user.display_name, user.bot)


def player_of(interaction: discord.Interaction[Any]) -> PlayerRef:
    """The member who acted, as the service knows players."""
    return as_player(interaction.user)


def reader_language(interaction: discord.Interaction[Any]) -> str:
    """The language of the member who acted: private answers are in their Discord
    language, whatever the server's."""
    return language_of(interaction.locale)


def pings(*players: PlayerRef | None) -> discord.AllowedMentions:
    """Let only the named players be notified, whatever mentions the text contains; the
    bot itself never is."""
    users = [discord.Object(p.user_id) for p in players if p is not None and not p.is_bot]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


async def send_ephemeral(
    interaction: discord.Interaction[Any], content: str, **kwargs: Any
) -> None:
    """A private answer (first response or follow-up, whichever is due); never pings.

    After a public "thinking" note, the first follow-up would replace it and be public
    too: the note is deleted first, so the answer stays private."""
    content = text.truncate(content)
    allowed = discord.AllowedMentions.none()
    try:
        await drop_public_thinking(interaction)
        if interaction.response.is_done():
            await interaction.followup.send(
                content, ephemeral=True, allowed_mentions=allowed, **kwargs
            )
        else:
            await interaction.response.send_message(
                content, ephemeral=True, allowed_mentions=allowed, **kwargs
            )
    except discord.HTTPException:
        log.warning("could not deliver an ephemeral reply", exc_info=True)
    finally:
        _release(kwargs.get("view"))


async def drop_public_thinking(interaction: discord.Interaction[Any]) -> None:
    """Delete a command's public "thinking" note, if it has one, for an answer that must
    not replace it: a private one (it would be public too), or a post that mentions
    someone, which goes as a message of its own (replacing the note is an edit, and an
    edit notifies nobody)."""
    if interaction.extras.pop(PUBLIC_THINKING, False):
        await interaction.delete_original_response()


def _release(view: object) -> None:
    """Stop a view once sent. discord.py gives a view sent ephemerally a 15-minute timeout
    and keeps a timer task for it, even after the client closes. Our buttons are
    DynamicItems that the registry dispatches from their custom_id alone, so the view
    object is not needed once sent: stopped, no timer outlives the interaction."""
    if isinstance(view, discord.ui.View):
        view.stop()


class Reply:
    """One interaction's answer, timed from when the bot received it."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self._loop = asyncio.get_running_loop()
        self._started = self._loop.time()

    async def within(self, work: Awaitable[T], *, ephemeral: bool) -> T:
        """The result of `work`; if it is not ready by `DEFER_AFTER` seconds after the
        interaction, defer first (a private or public "thinking" note for a command, a
        silent acknowledgement for a button, whose message stays to be edited)."""
        task = asyncio.ensure_future(work)
        left = max(0.0, DEFER_AFTER - (self._loop.time() - self._started))
        done, _ = await asyncio.wait({task}, timeout=left)
        if not done:
            await self.defer(ephemeral=ephemeral)
        return await task

    async def defer(self, *, ephemeral: bool) -> None:
        """Tell Discord the answer is coming (a "thinking" note for a command, public or
        private; a silent acknowledgement for a button, whose message stays to be edited)."""
        interaction = self.interaction
        if interaction.response.is_done():
            return
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                interaction.extras[PUBLIC_THINKING] = not ephemeral
        except discord.HTTPException:
            log.warning("could not defer interaction %s", interaction.id, exc_info=True)

    async def send(self, content: str, **kwargs: Any) -> None:
        """The answer: the first response, or the follow-up that replaces "thinking"."""
        content = text.truncate(content)
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        self.interaction.extras.pop(PUBLIC_THINKING, None)  # answered: the note is replaced
        try:
            if self.interaction.response.is_done():
                await self.interaction.followup.send(content, **kwargs)
            else:
                await self.interaction.response.send_message(content, **kwargs)
        finally:
            _release(kwargs.get("view"))

    async def edit(self, content: str, **kwargs: Any) -> None:
        """Replace the message the pressed button sits on (the question is answered)."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if self.interaction.response.is_done():
            await self.interaction.edit_original_response(content=content, **kwargs)
        else:
            await self.interaction.response.edit_message(content=content, **kwargs)

"""Challenges: `/challenge`, and the Accept / Decline / Cancel buttons under it.

Accepting opens a thread on the challenge message and posts the start board
there, with a mention of the player to move first (and a direct message, if they
asked for one and are not the member who just accepted).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import (
    PRESETS,
    BadTimeControl,
    ImpasseRule,
    PlayerRef,
    TakebackPolicy,
    TimeControl,
)
from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import MAX_CHOICES, server_of
from bot.ui.replies import Reply, pings, player_of, reader_language
from bot.ui.threads import post_board
from rules import Handicap

log = logging.getLogger(__name__)
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week, the longest Discord allows

_STYLES = {
    "accept": discord.ButtonStyle.success,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
}


class ChallengeButton(
    GameButton, template=r"ch:(?P<action>accept|decline|cancel):(?P<challenge_id>\d+)"
):
    """Accept / Decline (the challenged member) and Cancel (the challenger); who may press
    which is the service's decision."""

    def __init__(self, action: str, challenge_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        custom_id = f"ch:{action}:{challenge_id}"
        super().__init__(custom_id, text.button_label(lang, f"ch:{action}"), _STYLES[action])
        self.action = action
        self.challenge_id = challenge_id

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        challenges = bot.service.challenges
        if self.action == "accept":
            await _start_game(bot, interaction, self.challenge_id)
            return
        close = challenges.decline if self.action == "decline" else challenges.cancel
        challenge = await close(self.challenge_id, interaction.user.id)
        lang = await bot.post_language(challenge.guild_id)
        await Reply(interaction).edit(text.challenge_closed(lang, challenge), view=None)
        log.info("challenge %s %s", self.challenge_id, challenge.status)


def challenge_buttons(challenge_id: int, lang: str) -> discord.ui.View:
    """The buttons under a challenge message, labelled in `lang`."""
    return view_of(*(ChallengeButton(action, challenge_id, lang) for action in _STYLES))


async def _start_game(
    bot: GameBot, interaction: discord.Interaction[Any], challenge_id: int
) -> None:
    service = bot.service
    game = await service.challenges.accept(challenge_id, interaction.user.id)
    challenge = await service.challenges.get(challenge_id)
    lang = await bot.post_language(challenge.guild_id)
    await Reply(interaction).edit(text.challenge_closed(lang, challenge), view=None)
    thread = await _open_thread(interaction, text.thread_name(lang, game))
    if thread is not None:
        await service.games.set_thread(game.id, thread.id)
        game = await service.games.get(game.id)
    log.info("game %s started (challenge %s)", game.id, challenge_id)
    started = game
    try:
        await post_board(
            bot, game, lambda lang: text.game_start_text(lang, started), ping=game.to_move
        )
    finally:  # after the thread's post, whose link the message gives
        bot.turn_messages.turn_began(started, by=interaction.user.id)


async def _open_thread(interaction: discord.Interaction[Any], name: str) -> discord.Thread | None:
    """A thread on the challenge message, or in the channel; None where threads are impossible."""
    try:
        if interaction.message is not None:
            return await interaction.message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            return await channel.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
    except discord.HTTPException:
        log.warning("could not open a thread for %s", name, exc_info=True)
    return None


class ChallengeFeature(Feature):
    """Offering games and answering offers."""

    BUTTONS = (ChallengeButton,)

    @app_commands.command(name="challenge", description=text.COMMANDS["challenge"])
    @app_commands.describe(
        opponent=text.OPTIONS["opponent"],
        color=text.OPTIONS["color"],
        time=text.OPTIONS["time"],
        handicap=text.OPTIONS["handicap"],
        impasse=text.OPTIONS["impasse"],
        takebacks=text.OPTIONS["takebacks"],
        rated=text.OPTIONS["rated"],
    )
    @app_commands.choices(
        color=[Choice(name=name, value=value) for value, name in text.COLOR_NAMES.items()],
        handicap=[Choice(name=text.handicap_name(h), value=h.id) for h in Handicap],
        impasse=[Choice(name=text.rule_choice(r), value=r.value) for r in ImpasseRule],
        takebacks=[Choice(name=text.TAKEBACK_NAMES[p], value=p.value) for p in TakebackPolicy],
    )
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        color: str = "random",
        time: str = "3d",
        handicap: str = "even",
        impasse: str = "27",
        takebacks: str = "allowed",
        rated: bool = True,
    ) -> None:
        """Post the challenge, pinging only the member challenged."""
        challenge = await self.bot.service.challenges.offer(
            guild_id=server_of(interaction),
            channel_id=interaction.channel_id or 0,
            challenger=player_of(interaction),
            opponent=PlayerRef(opponent.id, opponent.display_name, opponent.bot),
            color=color,
            time_control=time,
            handicap=handicap,
            impasse_rule=impasse,
            takebacks=takebacks,
            rated=rated,
        )
        lang = await self.bot.post_language(challenge.guild_id)
        await interaction.response.send_message(
            text.challenge_text(lang, challenge),
            view=challenge_buttons(challenge.id, lang),
            allowed_mentions=pings(challenge.opponent),
        )
        message = await interaction.original_response()
        await self.bot.service.challenges.set_message(challenge.id, message.id)
        log.info("challenge %s: %s -> %s", challenge.id, interaction.user.id, opponent.id)

    @challenge.autocomplete("time")
    async def time_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        """The presets matching what is typed, and what is typed itself if it is new."""
        lang = reader_language(interaction)
        typed = current.strip().lower()
        presets = [
            Choice(name=text.time_control_text(lang, TimeControl.parse(value)), value=value)
            for value in PRESETS
        ]
        matching = [c for c in presets if typed in c.value or typed in c.name.lower()]
        if typed and all(TimeControl.parse(c.value) != _read_time(typed) for c in matching):
            name = text.typed_time_choice(lang, current)
            matching.insert(0, Choice(name=name, value=current[:100]))
        return matching[:MAX_CHOICES]


def _read_time(typed: str) -> TimeControl | None:
    """The time control typed, or None while it cannot be read (yet)."""
    try:
        return TimeControl.parse(typed)
    except BadTimeControl:
        return None


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ChallengeFeature(bot))

"""Challenges: `/challenge`, and the Accept / Decline / Cancel buttons under it.

Accepting opens a thread on the challenge message and posts the start board
there, with a mention of the player to move first.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import PRESETS, Challenge, PlayerRef
from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.replies import Reply, mentions, player_of
from bot.ui.threads import post_to_game
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

    def __init__(self, action: str, challenge_id: int) -> None:
        super().__init__(f"ch:{action}:{challenge_id}", text.BUTTON_LABELS[action], _STYLES[action])
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
        await Reply(interaction).edit(_closed(challenge), view=None)
        log.info("challenge %s %s", self.challenge_id, challenge.status)


def _closed(challenge: Challenge) -> str:
    return text.challenge_text(challenge) + "\n" + text.challenge_closed_text(challenge)


def challenge_buttons(challenge_id: int) -> discord.ui.View:
    return view_of(*(ChallengeButton(action, challenge_id) for action in _STYLES))


async def _start_game(
    bot: GameBot, interaction: discord.Interaction[Any], challenge_id: int
) -> None:
    service = bot.service
    game = await service.challenges.accept(challenge_id, interaction.user.id)
    challenge = await service.challenges.get(challenge_id)
    await Reply(interaction).edit(
        text.challenge_text(challenge) + "\n" + text.CHALLENGE_ACCEPTED, view=None
    )
    thread = await _open_thread(interaction, text.thread_name(game))
    if thread is not None:
        await service.games.set_thread(game.id, thread.id)
        game = await service.games.get(game.id)
    log.info("game %s started (challenge %s)", game.id, challenge_id)
    await post_to_game(bot, game, text.game_start_text(game), board=True, ping=game.to_move)


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


def _choices(names: dict[str, str]) -> list[Choice[str]]:
    return [Choice(name=name, value=value) for value, name in names.items()]


class Challenges(Feature):
    """Offering games and answering offers."""

    BUTTONS = (ChallengeButton,)

    @app_commands.command(name="challenge", description="Challenge a member to a shogi game.")
    @app_commands.describe(
        opponent="The member you want to play",
        color="Your colour (default: random)",
        time="Time per move: a preset, or e.g. 3d, 12h, 7d+1d (bank + per move)",
        handicap="Handicap: the giver plays gote and moves first (default: even)",
        impasse="How an impasse (jishogi) is settled (default: 27-point declaration)",
    )
    @app_commands.choices(
        color=_choices(text.COLOR_NAMES),
        handicap=[Choice(name=text.handicap_name(h), value=h.id) for h in Handicap],
        impasse=_choices(text.IMPASSE_NAMES),
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
    ) -> None:
        challenge = await self.bot.service.challenges.offer(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            challenger=player_of(interaction),
            opponent=PlayerRef(opponent.id, opponent.display_name, opponent.bot),
            color=color,
            time_control=time,
            handicap=handicap,
            impasse_rule=impasse,
        )
        await interaction.response.send_message(
            text.challenge_text(challenge),
            view=challenge_buttons(challenge.id),
            allowed_mentions=mentions(challenge.opponent),
        )
        message = await interaction.original_response()
        await self.bot.service.challenges.set_message(challenge.id, message.id)
        log.info("challenge %s: %s -> %s", challenge.id, interaction.user.id, opponent.id)

    @challenge.autocomplete("time")
    async def time_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        typed = current.strip().lower()
        presets = [Choice(name=text.TIME_PRESET_NAMES[value], value=value) for value in PRESETS]
        matching = [c for c in presets if typed in c.value or typed in c.name.lower()]
        if typed and all(c.value != typed for c in matching):
            matching.insert(0, Choice(name=text.typed_time_choice(current), value=current[:100]))
        return matching[:25]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Challenges(bot))

"""Challenges: `/challenge`, the Accept / Decline / Cancel buttons under it, and the
Rematch button under every ending.

A challenge names a member, or nobody: then anyone here but its author may accept it (an
open challenge has Accept and Cancel only). A rated challenge also has Accept unrated: a
game is rated only when both players chose so, and this is the taker's way to say no.
Accepting opens a thread on the challenge message and posts the start board there, with a
mention of the player to move first (and a direct message, if they asked for one and are
not the member who just accepted).
Rematch posts a challenge to the other player where the game's challenge was; the other
player's Rematch, or their Accept there, starts it.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import (
    PRESETS,
    Audience,
    BadTimeControl,
    Cast,
    Challenge,
    Event,
    GameSnapshot,
    ImpasseRule,
    TakebackPolicy,
    TimeControl,
    read_position,
    start_of,
)
from bot.services.club.audience import audience
from bot.ui import text
from bot.ui.challenges import close_challenge_message
from bot.ui.commands import command
from bot.ui.errors import GameButton, OptionError, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import MAX_CHOICES, by_member, record_file, server_of
from bot.ui.replies import (
    Reply,
    as_player,
    drop_public_thinking,
    pings,
    player_of,
    reader_language,
    send_ephemeral,
)
from bot.ui.threads import begin_game
from rules import Handicap

log = logging.getLogger(__name__)

_STYLES = {
    "accept": discord.ButtonStyle.success,
    "accept_unrated": discord.ButtonStyle.primary,
    "decline": discord.ButtonStyle.danger,
    "cancel": discord.ButtonStyle.secondary,
}


class ChallengeButton(
    GameButton,
    template=r"ch:(?P<action>accept|accept_unrated|decline|cancel):(?P<challenge_id>\d+)",
):
    """Accept, Accept unrated and Decline (the challenged member, or anyone for an open
    challenge) and Cancel (the challenger); who may press which is the service's
    decision."""

    def __init__(self, action: str, challenge_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        custom_id = f"ch:{action}:{challenge_id}"
        self.show(custom_id, text.button_label(lang, f"ch:{action}"), _STYLES[action])
        self.action = action
        self.challenge_id = challenge_id

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        challenges = bot.service.challenges
        if self.action in ("accept", "accept_unrated"):
            await _start_game(bot, interaction, self.challenge_id, rated=self.action == "accept")
            return
        declined = self.action == "decline"
        close = challenges.decline if declined else challenges.cancel
        challenge = await close(self.challenge_id, interaction.user.id)
        lang = await bot.post_language(challenge.guild_id)
        try:  # an edit notifies nobody: who must hear of it gets a direct message
            await Reply(interaction).edit(text.challenge_closed(lang, challenge), view=None)
        finally:
            bot.direct_messages.about_challenge(
                Event.CHALLENGE_DECLINED if declined else Event.CHALLENGE_WITHDRAWN,
                challenge,
                lambda lang: text.challenge_closed(lang, challenge),
                actor=interaction.user.id,
            )
        log.info("challenge %s %s", self.challenge_id, challenge.status)


def challenge_buttons(challenge: Challenge, lang: str) -> discord.ui.View:
    """The buttons under a challenge message, labelled in `lang`: an open challenge is
    accepted by anyone or cancelled, never declined; only a rated one can be accepted
    unrated."""
    actions = [
        action
        for action in _STYLES
        if not (action == "decline" and challenge.opponent is None)
        and not (action == "accept_unrated" and not challenge.rated)
    ]
    return view_of(*(ChallengeButton(action, challenge.id, lang) for action in actions))


class RematchButton(GameButton):
    """Under every ending: either player offers the other the same game again, or takes
    up the offer the other made."""

    KEY = "rm"

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        rematch = await by_member(interaction, bot.service.rematches.ask, self.game_id)
        reader = reader_language(interaction)
        challenge = rematch.challenge
        if rematch.game is None:
            posted = await _post_challenge(bot, challenge, user_id=interaction.user.id)
            if posted:
                await send_ephemeral(interaction, text.rematch_offered(reader, challenge))
            else:
                await send_ephemeral(interaction, text.say(reader, text.REMATCH_NOT_POSTED))
            return
        await send_ephemeral(interaction, text.rematch_accepted(reader, challenge))
        message = await close_challenge_message(bot, challenge)
        await begin_game(bot, rematch.game, message, by=interaction.user.id, challenge=challenge)


def _rematch_button(game: GameSnapshot, lang: str) -> RematchButton | None:
    """A game against the computer has its own way to play again (its feature's)."""
    if game.against_computer:
        return None
    return RematchButton(game.id, lang)


async def start_board(bot: GameBot, challenge: Challenge, lang: str) -> list[discord.File]:
    """The board of a challenge's set-up start as its message's files (as `/board` shows
    a position), so that the member challenged sees what they would play from; none for
    the usual start. The SFEN was read and checked when the challenge was made."""
    if challenge.start_sfen is None:
        return []
    shown = read_position(challenge.start_sfen)
    return [await bot.boards.position_file(shown, lang)]


async def _post_challenge(
    bot: GameBot,
    challenge: Challenge,
    *,
    user_id: int,
    board: list[discord.File] | None = None,
) -> bool:
    """Post a challenge as a message of its own in its channel (a rematch the bot offers
    for a member, a challenge whose answer had to be deferred), with the board of its
    set-up start if it has one (`board`, else drawn here); one that cannot be posted
    could never be answered, so it is withdrawn (False)."""
    lang = await bot.post_language(challenge.guild_id)
    if board is None:
        board = await start_board(bot, challenge, lang)
    try:
        channel = await bot.channel(challenge.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise LookupError(f"channel {challenge.channel_id} takes no messages")
        message = await channel.send(
            text.challenge_text(lang, challenge),
            view=challenge_buttons(challenge, lang),
            allowed_mentions=pings(*challenge_audience(challenge).mentioned),
            files=board,
        )
    except (discord.HTTPException, LookupError):
        log.warning("could not post challenge %s", challenge.id, exc_info=True)
        await bot.service.challenges.cancel(challenge.id, user_id)
        return False
    await bot.service.challenges.set_message(challenge.id, message.id)
    _tell_challenged(bot, replace(challenge, message_id=message.id))
    return True


def challenge_audience(challenge: Challenge) -> Audience:
    """Whom a challenge's post tells: the member challenged (nobody, for an open one)."""
    cast = Cast.of_challenge(challenge, actor=challenge.challenger.user_id)
    return audience(_offer(challenge), cast)


def _offer(challenge: Challenge) -> Event:
    return Event.CHALLENGE_RECEIVED if challenge.rematch_of is None else Event.REMATCH_OFFERED


def _tell_challenged(bot: GameBot, challenge: Challenge) -> None:
    """The direct message of a posted challenge, for the member challenged."""
    bot.direct_messages.about_challenge(
        _offer(challenge),
        challenge,
        lambda lang: text.challenge_text(lang, challenge),
        actor=challenge.challenger.user_id,
    )


async def _start_game(
    bot: GameBot, interaction: Interaction, challenge_id: int, *, rated: bool
) -> None:
    """Accept (`rated=False`: as an unrated game) and start the game in its thread."""
    service = bot.service
    game = await service.challenges.accept(
        challenge_id, player_of(interaction), guild_id=server_of(interaction), rated=rated
    )
    challenge = await service.challenges.get(challenge_id)
    lang = await bot.post_language(challenge.guild_id)
    taker = game.opponent_of(challenge.challenger.user_id)
    closed = text.challenge_closed(
        lang, challenge, taker, taken_unrated=challenge.rated and not game.rated
    )
    await Reply(interaction).edit(closed, view=None)
    await begin_game(bot, game, interaction.message, by=interaction.user.id, challenge=challenge)


class ChallengeFeature(Feature):
    """Offering games and answering offers."""

    BUTTONS = (ChallengeButton, RematchButton)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.ending_buttons.append(_rematch_button)

    async def cog_unload(self) -> None:
        self.bot.ending_buttons.remove(_rematch_button)
        await super().cog_unload()

    @command("challenge", color="challenge_color", record="start_record")
    @app_commands.choices(
        color=[
            Choice(name=name, value=value) for value, name in text.CHALLENGE_COLOR_NAMES.items()
        ],
        handicap=[Choice(name=text.handicap_name(h), value=h.id) for h in Handicap],
        impasse=[Choice(name=text.rule_choice(r), value=r.value) for r in ImpasseRule],
        takebacks=[Choice(name=text.TAKEBACK_NAMES[p], value=p.value) for p in TakebackPolicy],
    )
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.Member | None = None,
        color: str | None = None,
        time: str = "3d",
        handicap: str = "even",
        impasse: str = "27",
        takebacks: str = "allowed",
        rated: bool = True,
        start: app_commands.Range[str, 1, 6000] | None = None,
        record: discord.Attachment | None = None,
        start_move: app_commands.Range[int, 0, 10_000] | None = None,
    ) -> None:
        """Post the challenge, pinging only the member challenged (nobody, for an open one).
        `color` left out is the service's to settle: by lot in an even game, and in a
        handicap game the challenger gives (`side_wish`).
        `start` (an SFEN, or a record at `start_move`) or a `record` file at `start_move`
        sets up the position to play from: a long record fits only in a file."""
        if start is not None and record is not None:
            raise OptionError(text.START_OR_RECORD)
        if start is None and record is None and start_move is not None:
            raise OptionError(text.START_MOVE_WITHOUT_START)
        reply = Reply(interaction)
        start_sfen = await _start_sfen(self.bot, reply, start or record, start_move)
        challenge = await self.bot.service.challenges.offer(
            guild_id=server_of(interaction),
            channel_id=interaction.channel_id or 0,
            challenger=player_of(interaction),
            opponent=None if opponent is None else as_player(opponent),
            color=color,
            time_control=time,
            handicap=handicap,
            impasse_rule=impasse,
            takebacks=takebacks,
            rated=rated,
            start_sfen=start_sfen,
        )
        lang = await self.bot.post_language(challenge.guild_id)
        board = await reply.within(start_board(self.bot, challenge, lang), ephemeral=False)
        if interaction.response.is_done():
            await _post_deferred(self.bot, interaction, challenge, board)
        else:
            await reply.send(
                text.challenge_text(lang, challenge),
                view=challenge_buttons(challenge, lang),
                allowed_mentions=pings(*challenge_audience(challenge).mentioned),
                files=board,
            )
            message = await interaction.original_response()
            await self.bot.service.challenges.set_message(challenge.id, message.id)
            _tell_challenged(self.bot, replace(challenge, message_id=message.id))
        to = "anyone" if opponent is None else opponent.id
        log.info("challenge %s: %s -> %s", challenge.id, interaction.user.id, to)

    @challenge.autocomplete("time")
    async def time_suggestions(self, interaction: Interaction, current: str) -> list[Choice[str]]:
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


async def _post_deferred(
    bot: GameBot, interaction: Interaction, challenge: Challenge, board: list[discord.File]
) -> None:
    """Post a challenge whose answer was deferred (its start was slow to download or read)
    as a message of its own, and remove the "thinking" note: the follow-up replacing the
    note would be an edit, which notifies nobody, so the member challenged would never
    hear of it."""
    if not await _post_challenge(bot, challenge, user_id=interaction.user.id, board=board):
        reader = reader_language(interaction)
        await send_ephemeral(interaction, text.say(reader, text.CHALLENGE_NOT_POSTED))
        return
    try:
        await drop_public_thinking(interaction)
    except discord.HTTPException:
        log.warning("could not remove the note of challenge %s", challenge.id, exc_info=True)


async def _start_sfen(
    bot: GameBot, reply: Reply, given: str | discord.Attachment | None, move: int | None
) -> str | None:
    """The SFEN a challenge offers to start from (None: the usual start): pasted text or
    a record file, after its move numbered `move`, read as `/board` reads it, in a
    worker process with a time limit. The challenge is public, so a slow download or
    reading defers it publicly."""
    if given is None:
        return None
    if isinstance(given, discord.Attachment):
        data: str | bytes = await record_file(reply, given, public=True)
    else:
        data = given
    return await reply.within(bot.readers.run(start_of, data, move), ephemeral=False)


def _read_time(typed: str) -> TimeControl | None:
    """The time control typed, or None while it cannot be read (yet)."""
    try:
        return TimeControl.parse(typed)
    except BadTimeControl:
        return None


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ChallengeFeature(bot))

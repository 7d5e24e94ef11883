"""Takebacks by consent (待った): `/takeback`, and the Accept / Decline buttons the opponent
gets in the game's thread.

The request is posted in the thread with a mention of the opponent, because that is where
they will see it; the buttons carry the game, the ply the request was asked at and the
request's id, so a press after a restart still finds it, and a press after a move is
refused by the service (the request no longer holds).
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord

from bot.services import Cast, Event, Takeback
from bot.services.club.audience import audience
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import GameArg, on_game_meant, server_of
from bot.ui.replies import Reply, reader_language, send_ephemeral
from bot.ui.threads import announce, post_board, post_to_game

log = logging.getLogger(__name__)

_STYLES = {"accept": discord.ButtonStyle.success, "decline": discord.ButtonStyle.danger}


class TakebackButton(
    GameButton,
    template=r"tb:(?P<action>accept|decline):(?P<game_id>\d+):(?P<ply>\d+):(?P<takeback_id>\d+)",
):
    """Accept / Decline under a takeback request; who may press them, and whether the
    request still holds, is the service's decision."""

    def __init__(
        self, action: str, game_id: int, ply: int, takeback_id: int, lang: str = SOURCE_LANGUAGE
    ) -> None:
        self.show(
            f"tb:{action}:{game_id}:{ply}:{takeback_id}",
            text.button_label(lang, f"tb:{action}"),
            _STYLES[action],
        )
        self.action, self.game_id, self.ply, self.takeback_id = action, game_id, ply, takeback_id

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        reply = Reply(interaction)
        done = await reply.within(
            bot.service.takebacks.answer(
                self.game_id,
                self.takeback_id,
                interaction.user.id,
                accept=self.action == "accept",
                expected_ply=self.ply,
                guild_id=server_of(interaction),
            ),
            ephemeral=True,
        )
        log.info("game %s: takeback %s %s", self.game_id, self.takeback_id, done.request.status)
        lang = await bot.post_language(done.game.guild_id)
        await reply.edit(text.takeback_answered(lang, done), view=None)
        await announce_answer(bot, done, by=interaction.user.id)


def takeback_buttons(takeback: Takeback, lang: str) -> discord.ui.View:
    """Accept and Decline for `takeback`, labelled in `lang`."""
    request = takeback.request
    return view_of(
        *(TakebackButton(a, request.game_id, request.ply, request.id, lang) for a in _STYLES)
    )


async def announce_answer(bot: GameBot, done: Takeback, *, by: int | None) -> None:
    """Tell the asker, in the thread and in a direct message: the board as it is again
    after an accepted takeback, or that the opponent declined (`by`: who answered)."""
    cast = replace(Cast.of_game(done.game, actor=by), asker=done.asker, answerer=done.answerer)
    told = audience(Event.TAKEBACK_ANSWERED, cast)
    accepted = done.request.status == "accepted"

    def wording(lang: str) -> str:
        return text.takeback_done(lang, done) if accepted else text.takeback_declined(lang, done)

    try:  # the asker's turn begins again after an accepted takeback: this tells them
        if accepted:
            await post_board(bot, done.game, wording, told=told)
        else:
            await post_to_game(bot, done.game, wording, told=told)
    finally:
        bot.direct_messages.about_game(Event.TAKEBACK_ANSWERED, done.game, wording, cast=cast)


class TakebacksFeature(Feature):
    """Asking to take a move back, and answering."""

    BUTTONS = (TakebackButton,)

    @command("takeback")
    async def takeback(self, interaction: Interaction, game: GameArg | None = None) -> None:
        """Ask, then post the question with its buttons in the thread, pinging the
        opponent; the asker hears privately that it went."""
        asked = await on_game_meant(self.bot, interaction, game, self.bot.service.takebacks.ask)
        log.info("game %s: takeback %s asked", asked.game.id, asked.request.id)
        await send_ephemeral(interaction, text.takeback_sent(reader_language(interaction), asked))
        cast = replace(
            Cast.of_game(asked.game, actor=interaction.user.id),
            asker=asked.asker,
            answerer=asked.answerer,
        )
        await announce(
            self.bot,
            Event.TAKEBACK_ASKED,
            asked.game,
            lambda lang: text.takeback_question(lang, asked),
            cast=cast,
            view=lambda lang: takeback_buttons(asked, lang),
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TakebacksFeature(bot))

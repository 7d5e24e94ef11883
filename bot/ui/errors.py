"""The one report of an error to the user, and the two paths errors take to it.

Service and rules errors carry a sentence meant for players; everything else is
a bug, logged with its traceback, and the user gets a short apology. Commands
reach `report` through the tree's error handler (`GameTree.on_error`); buttons
through their base class, because discord.py routes the errors of a
`DynamicItem` to no handler at all.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Self

import discord
from discord import app_commands

from bot.services import AlreadyStarted, ChooseGame, GameOver, ServiceError
from bot.services.logcontext import about_server
from rules import GameError, IllegalMoveError, InvalidMoveError, Sentence, SfenError

from . import text
from .bounds import out_of_bounds
from .i18n import SOURCE_LANGUAGE
from .replies import reader_language, send_ephemeral
from .threads import NotPosted

log = logging.getLogger(__name__)
#: The largest id a database column holds (signed 64-bit): a button's number beyond it was
#: never made by the bot, and converting it for a query raises in SQLite and asyncpg.
MAX_ID = 2**63 - 1
_MAX_ID_DIGITS = len(str(MAX_ID))
_LOGGED_ID = 100  # Discord's longest custom_id: a forged one is cut to this in the log


class OptionError(Exception):
    """An option the user gave that cannot be used; `sentence` says what to do instead."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


def user_message(error: BaseException, lang: str) -> str | None:
    """The sentence to show for an expected error in `lang`, or None for an unexpected one.
    User text within it is escaped."""
    if isinstance(error, ChooseGame):
        return text.choose_game_text(lang, error)
    if isinstance(error, GameOver):
        return text.already_ended(lang, error.outcome)
    if isinstance(error, AlreadyStarted):
        return text.already_started(lang, error)
    if isinstance(error, ServiceError | OptionError):
        return text.say(lang, error.sentence)
    if isinstance(error, NotPosted):
        return text.say(lang, text.NOT_POSTED)
    if isinstance(error, app_commands.TransformerError):
        return text.say(lang, text.BAD_OPTION)  # a member or channel Discord could not resolve
    if isinstance(error, IllegalMoveError | InvalidMoveError | SfenError | GameError):
        return text.say(lang, error.sentence)
    return None


def _unwrapped(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrappers (a failed command is
    wrapped in `CommandInvokeError`, a failed option conversion in `TransformerError`)."""
    while True:
        inner = getattr(error, "original", None) or (
            error.__cause__ if isinstance(error, app_commands.TransformerError) else None
        )
        if not isinstance(inner, BaseException):
            return error
        error = inner


def reply_for(error: BaseException, *, context: str, lang: str) -> str:
    """What to tell the user about `error`, in `lang`; logs unexpected errors with their
    traceback, and refusals in English."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return text.say(lang, text.SERVER_ONLY)
    error = _unwrapped(error)
    message = user_message(error, lang)
    if message is None:
        log.error("unexpected error in %s", context, exc_info=error)
        return text.say(lang, text.APOLOGY)
    log.info("refused %s: %s", context, user_message(error, SOURCE_LANGUAGE))
    return message


async def report(interaction: discord.Interaction[Any], error: BaseException, context: str) -> None:
    """Tell the user, privately, in one sentence of their language. The sentence may
    quote what they typed or a member's name: those are shown escaped, so they neither
    format nor ping."""
    await send_ephemeral(
        interaction, reply_for(error, context=context, lang=reader_language(interaction))
    )


def _where(interaction: discord.Interaction[Any]) -> str:
    """Who acted where, for the log."""
    return f"(user {interaction.user.id}, channel {interaction.channel_id})"


class GameTree(app_commands.CommandTree[Any]):
    """The command tree: it logs every command, refuses options outside the bounds their
    command declares (`bounds`), and its error handler is the one error path of every
    command."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        about_server(interaction.guild_id)
        name = interaction.command.name if interaction.command else "?"
        problem = out_of_bounds(interaction)
        if interaction.type is discord.InteractionType.application_command:
            log.info("/%s %s", name, _where(interaction))
            if problem is not None:
                await report(interaction, OptionError(problem), f"/{name}")
                return False
        elif problem is not None:  # suggestions asked with an option Discord never sends
            log.info("no suggestions for /%s %s", name, _where(interaction))
            await interaction.response.autocomplete([])
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CommandNotFound):
            await self._not_offered(interaction, error)
            return
        command = interaction.command.name if interaction.command else "command"
        await report(interaction, error, f"/{command}")

    async def _not_offered(
        self, interaction: discord.Interaction[Any], error: app_commands.CommandNotFound
    ) -> None:
        """A command the tree does not hold: one this bot withholds (`/computer` without
        an engine) or one an older version published, still shown by Discord or a client's
        cache. Suggestions get none; the command gets one sentence."""
        name = " ".join([*error.parents, error.name])[:_LOGGED_ID]
        log.info("no command /%s %s", name, _where(interaction))
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
            return
        withheld: dict[str, Sentence] = getattr(interaction.client, "withheld", {})
        why = withheld.get(error.parents[0] if error.parents else error.name, text.NOT_OFFERED)
        await send_ephemeral(interaction, text.say(reader_language(interaction), why))


def stored_number(digits: str) -> int | None:
    """A button's number as the id or ply it stands for, or None when no database holds
    it (beyond 64 bits, or digits other than ASCII that `\\d` also matches), checked
    before the conversion so that 5,000 digits cost nothing.

    >>> stored_number("12"), stored_number("9223372036854775808"), stored_number("١٢")
    (12, None, None)
    """
    if not (digits.isascii() and digits.isdigit()) or len(digits) > _MAX_ID_DIGITS:
        return None
    number = int(digits)
    return number if number <= MAX_ID else None


class _Restartable:
    """What a restart-proof item shares, button or select: it is rebuilt from its
    `custom_id` alone, whose named groups are its constructor's arguments (digits become
    ints, checked by `stored_number`), and an error in `press` gets the one report. A
    `custom_id` whose number no database holds was not made by the bot: it is rebuilt as
    `forged`, never pressed, and answered as a button that no longer works."""

    forged: bool = False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        values: dict[str, int | str | None] = {}
        for key, value in match.groupdict().items():
            if value is not None and value.isdigit():
                number = stored_number(value)
                if number is None:
                    return cls._forged(match.string)
                values[key] = number
            else:
                values[key] = value
        build: Callable[..., Self] = cls
        return build(**values)

    @classmethod
    def _forged(cls, custom_id: str) -> Self:
        """The item for an id the bot never made: it only answers."""
        forged = cls.__new__(cls)
        forged.stand_in(custom_id)
        forged.forged = True
        return forged

    def stand_in(self, custom_id: str) -> None:
        """Make the Discord component of a forged id (it is never shown)."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        about_server(interaction.guild_id)
        shown = str(getattr(self, "custom_id", ""))[:_LOGGED_ID]
        log.info("button %s %s", shown, _where(interaction))
        try:
            if self.forged:
                raise OptionError(text.STALE_BUTTON)
            await self.press(interaction)
        except Exception as error:
            await report(interaction, error, f"button {shown}")

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        """What the item does; raise to refuse (the error gets the one report)."""
        raise NotImplementedError


class GameButton(_Restartable, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that survives restarts (see `_Restartable`). Subclasses implement `press`.

    A button that carries one game and nothing else only names its `KEY` and `STYLE`:
    its id is `KEY:<game id>`, its label the `KEY` button label, and its template and
    constructor are this class's. Any other gives a `template` and a constructor of its
    own, which makes the button with `show`."""

    KEY: ClassVar[str | None] = None
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.primary

    def __init_subclass__(cls, *, template: str | None = None) -> None:
        if template is None:
            if cls.KEY is None:
                raise TypeError(f"{cls.__name__} needs a template or a KEY")
            template = rf"{re.escape(cls.KEY)}:(?P<game_id>\d+)"
        super().__init_subclass__(template=template)

    def __init__(self, game_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        """The button of one game (see `KEY`), labelled in `lang`."""
        if self.KEY is None:
            raise TypeError(f"{type(self).__name__} makes itself with show()")
        self.game_id = game_id
        self.show(f"{self.KEY}:{game_id}", text.button_label(lang, self.KEY), self.STYLE)

    def show(self, custom_id: str, label: str, style: discord.ButtonStyle) -> None:
        """Make the Discord button this item is."""
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))

    def stand_in(self, custom_id: str) -> None:
        self.show(custom_id, "-", discord.ButtonStyle.secondary)


class GameSelect(_Restartable, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?!)"):
    """A select menu that survives restarts (see `_Restartable`): its `custom_id` carries
    everything but the option chosen, which `chosen` reads from the interaction and
    the subclass checks against what it offers (a modified client may send any value)."""

    MAX_VALUE = 100  # Discord's longest option value: a longer one was never offered

    def show(self, custom_id: str, placeholder: str, options: list[discord.SelectOption]) -> None:
        """Make the Discord select this item is."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id, placeholder=placeholder, options=options
        )
        super().__init__(select)

    def stand_in(self, custom_id: str) -> None:
        self.show(custom_id, "-", [discord.SelectOption(label="-")])

    @classmethod
    def chosen(cls, interaction: discord.Interaction[Any]) -> str | None:
        """The one value chosen, or None for anything else a client may send."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values")
        if not isinstance(values, list) or len(values) != 1:
            return None
        value = values[0]
        return value if isinstance(value, str) and len(value) <= cls.MAX_VALUE else None


def _items(base: type[_Restartable] = _Restartable) -> Iterator[type[_Restartable]]:
    for cls in base.__subclasses__():
        yield cls
        yield from _items(cls)


def is_ours(custom_id: str) -> bool:
    """Whether a button or select of the bot's has this id's shape (every one is a
    `GameButton` or `GameSelect`, dispatched from its id alone)."""
    return any(
        cls.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
        for cls in _items()
    )


def _carried(message: discord.Message | None, custom_id: str) -> bool:
    """Whether `message` still holds a component with this id: discord.py only dispatches
    a press to a button the message it came from holds."""
    if message is None:
        return False
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        pending.extend(getattr(component, "children", ()))
    return False


async def answer_unknown_button(interaction: discord.Interaction[Any]) -> None:
    """Answer a press that discord.py leaves unanswered ("This interaction failed"): an id
    that matches no button of the bot's (a button of a version that made other ids, or an
    id a modified client wrote), or a button its message no longer holds (Accept pressed
    in a client that still showed it after the other player's press took it away). It
    gets the sentence of a button that no longer works. Registered as an `on_interaction`
    listener."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return
    if is_ours(custom_id) and _carried(interaction.message, custom_id):
        return
    about_server(interaction.guild_id)
    shown = custom_id[:_LOGGED_ID]
    log.info("unknown button %s %s", shown, _where(interaction))
    await report(interaction, OptionError(text.STALE_BUTTON), f"button {shown}")


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view holding `items` that never times out (the buttons outlive it anyway)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view

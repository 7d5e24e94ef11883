"""The shared ground of every wording module: the reader's `_`, escaping, mentions,
Discord timestamps, and values (squares, sides, durations, time controls) in a language."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

import discord

from bot.services import (
    GameSnapshot,
    MoveText,
    PlayerRef,
    TimeControl,
    banks_left,
)
from rules import Color, Handicap, Plural, Role, Sentence, Square
from rules.notation.common import japanese_square

from ..i18n import SOURCE_LANGUAGE, gettext, ngettext
from .sides import player_label, side_name

MAX_MESSAGE = 2000

_DISCORD_TAG = re.compile(r"<(?=[#@:]|a:|t:|/)")


def translator(lang: str) -> Callable[[str], str]:
    """The `_` of a text function: English text in, the reader's language out."""
    return functools.partial(gettext, lang)


def plural_translator(lang: str) -> Callable[[str, str, int], str]:
    """The `_n` of a text function: a text with a count in the form the count takes in
    the reader's language (`_n("{count} blunder", "{count} blunders", n)`); the caller
    still fills in the count."""
    return functools.partial(ngettext, lang)


def safe(text: str) -> str:
    """User-provided text made inert: no markdown, no mentions, and no channel links,
    emoji or timestamps (`<#id>`, `<:name:id>`, `<t:...>`), which Discord would render."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return _DISCORD_TAG.sub("<\u200b", escaped)


def mention(player: PlayerRef) -> str:
    """A mention of the player; it notifies only where the message allows it. The bot
    itself (the computer's seat) is named, never mentioned."""
    return safe(player.name) if player.is_bot else f"<@{player.user_id}>"


def addressed(content: str, players: Iterable[PlayerRef]) -> str:
    """`content` with a first line mentioning those of `players` it does not mention yet:
    whom a post tells is decided by `bot.services.club.audience`, not by what its sentence
    happens to name."""
    missing = [mention(p) for p in players if not p.is_bot and mention(p) not in content]
    return content if not missing else " ".join(missing) + "\n" + content


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


# ---------------------------------------------------------------- values in a language


def square_text(lang: str, square: Square) -> str:
    """`5e` in English, `５五` in Japanese (file in full-width digits, rank in kanji)."""
    return str(square) if lang == SOURCE_LANGUAGE else japanese_square(square)


def side_label(lang: str, color: Color) -> str:
    """A side named where a player's name would stand (a position's board without
    players): `Sente` / `Gote` in English, 先手 / 後手 in Japanese."""
    return side_name(lang, color, Handicap.EVEN)


def value_text(lang: str, value: object) -> str:
    """A value of a `Sentence` as the reader's language writes it; text is escaped."""
    if isinstance(value, Sentence):
        return say(lang, value)
    if isinstance(value, Role):
        return value.english if lang == SOURCE_LANGUAGE else value.kanji
    if isinstance(value, Color):  # of a position, not of a game's players
        return side_name(lang, value, Handicap.EVEN)
    if isinstance(value, Square):
        return square_text(lang, value)
    if isinstance(value, str):
        return safe(value)
    if isinstance(value, datetime):  # a moment: each reader sees it in their time zone
        return timestamp(value)
    if isinstance(value, timedelta):  # a length of time: "1 day", "30 days", "30日"
        return duration_text(lang, value)
    return str(value)


def say(lang: str, sentence: Sentence) -> str:
    """A refusal or explanation from the service or the rules, in the reader's language."""
    values = {key: value_text(lang, value) for key, value in sentence.params.items()}
    if isinstance(sentence, Plural):
        template = ngettext(lang, sentence.template, sentence.plural, sentence.number)
        return template.format_map(values)
    return gettext(lang, sentence.template).format_map(values)


_DAY, _HOUR, _MINUTE = 86_400, 3_600, 60


@functools.lru_cache(maxsize=256)
def duration_text(lang: str, duration: timedelta) -> str:
    """`3 days`, `1 day 12 hours` in English; `3日`, `1日12時間` in Japanese. The unit
    names are in the catalogs, not Babel's locale data: loading that for two languages
    would hold whole locales in the process for its life, for three words."""
    _, _n = translator(lang), plural_translator(lang)
    seconds = int(duration.total_seconds())
    parts = []
    for size in (_DAY, _HOUR, _MINUTE):
        amount, seconds = divmod(seconds, size)
        if not amount:
            continue
        if size == _DAY:
            unit = _n("{count} day", "{count} days", amount)
        elif size == _HOUR:
            unit = _n("{count} hour", "{count} hours", amount)
        else:
            unit = _n("{count} minute", "{count} minutes", amount)
        parts.append(unit.format(count=f"{amount:,}"))
    if not parts:
        parts.append(_("{count} min").format(count=0))
    return ("" if lang != SOURCE_LANGUAGE else " ").join(parts)


def time_control_text(lang: str, control: TimeControl, *, labelled: bool = False) -> str:
    """A time control as the settings of a game and the choices of `/challenge` say it:
    `7 days, then 1 day per move` (main time, then a period per move: 7日、切れたら1手1日,
    as a Japanese announcer says it), `3 days per move`, `no time limit`. `labelled`: it
    follows a label (`Time:`, 持ち時間：), so no time limit is only `unlimited` (無制限),
    not 持ち時間無制限 after 持ち時間：."""
    _ = translator(lang)
    if control.period is None:
        return _("unlimited") if labelled else _("no time limit")
    period = duration_text(lang, control.period)
    if control.bank:
        return _("{bank}, then {period} per move").format(
            bank=duration_text(lang, control.bank), period=period
        )
    return _("{period} per move").format(period=period)


def bank_text(lang: str, left: timedelta) -> str:
    """What is left of a bank, cut down to the hour (to the minute in its last hour), so
    that it never says more than there is: `5 days 3 hours`, `5日3時間`, or `used up`."""
    _ = translator(lang)
    seconds = int(left.total_seconds())
    if seconds < 60:
        return _("used up")
    unit = 3_600 if seconds >= 3_600 else 60
    return duration_text(lang, timedelta(seconds=seconds - seconds % unit))


def banks_text(lang: str, game: GameSnapshot, now: datetime | None = None) -> str | None:
    """Each player's bank (main time) left at `now` (when the turn began, without it),
    for a game going on whose time control has one; None otherwise."""
    banks = banks_left(game.row, now) if game.is_active else None
    if banks is None:
        return None
    _ = translator(lang)
    return _("Main time left: ☗{sente} {sente_left}, ☖{gote} {gote_left}.").format(
        sente=safe(game.sente.name),
        gote=safe(game.gote.name),
        sente_left=bank_text(lang, banks[0]),
        gote_left=bank_text(lang, banks[1]),
    )


def deadline_text(lang: str, deadline: datetime | None) -> str:
    """When the player to move must move, in the reader's own time zone."""
    _ = translator(lang)
    if deadline is None:
        return _("no deadline")
    return _("deadline {relative} ({date})").format(
        relative=timestamp(deadline), date=timestamp(deadline, "f")
    )


def handicap_text(lang: str, handicap: Handicap) -> str:
    """A handicap's name: its English name, or as a KIF header writes it (香落ち)."""
    return handicap.english if lang == SOURCE_LANGUAGE else handicap.japanese


def named(lang: str, game: GameSnapshot, color: Color) -> str:
    """A player of `game` marked with their side, escaped: `☗alice`, or `☖alice (uwate)`
    in a handicap game (see `sides.player_label`)."""
    return player_label(lang, color, safe(game.player(color).name), game.handicap)


def move_echo(lang: str, color: Color, move: MoveText) -> str:
    """A move as a post shows it: Japanese first (☗５八金右), then, in English, the
    Western notation too."""
    japanese = f"{color.symbol}{move.japanese}"
    return japanese if lang != SOURCE_LANGUAGE else f"{japanese} ({move.western})"


def sentences(*parts: str) -> str:
    """Sentences in a row, each set as its language sets it: a space after an English
    full stop, none after a full-width one (。！？), which holds its own room.

    >>> sentences("まで4手で後手の勝ち。", "棋譜は `/棋譜` で取り出せます。")
    'まで4手で後手の勝ち。棋譜は `/棋譜` で取り出せます。'
    """
    joined = ""
    for part in parts:
        gap = "" if not joined or joined.endswith(("。", "！", "？")) else " "
        joined += gap + part
    return joined


def truncate(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to Discord's message limit, with an ellipsis if cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"

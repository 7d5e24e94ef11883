"""Japanese beside English: message catalogs, and the translator of the command tree.

The catalogs are gettext `.po` files under `data/locale/<language>/LC_MESSAGES/bot.po`,
read with Babel (which parses them, contexts and plural forms included, so there is no
compile step to forget). English is the source language: a text has no English catalog,
and any locale without a catalog falls back to it. Each entry's `msgctxt` says where the
text is shown, so the same English word may be translated differently in two places
(the `move` option and the `/move` command, say).
"""

from __future__ import annotations

import functools
from pathlib import Path

import discord
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from discord import app_commands

LOCALE_DIR = Path(__file__).resolve().parents[2] / "data" / "locale"
DOMAIN = "bot"
SOURCE_LANGUAGE = "en"


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def catalog(language: str) -> Catalog | None:
    """The catalog of `language` (`"ja"`), read once; None for English and for
    languages that have none."""
    path = catalog_path(language)
    if language == SOURCE_LANGUAGE or not path.is_file():
        return None
    with path.open("rb") as source:
        return read_po(source, locale=language, domain=DOMAIN)


def translate(language: str, message: str, context: str | None = None) -> str | None:
    """`message` in `language`, or None where the catalog has no translation of it.

    >>> translate("ja", "challenge", "command_name")
    '挑戦'
    """
    found = catalog(language)
    if found is None:
        return None
    entry = found.get(message, context=context)
    if entry is None or not entry.string or not isinstance(entry.string, str):
        return None
    return entry.string


def language_of(locale: discord.Locale) -> str:
    """The catalog language of a Discord locale: `ja` for Japanese, `en` for the rest."""
    return locale.value.split("-")[0]


class CommandTranslator(app_commands.Translator):
    """Gives the command tree its Japanese names and descriptions (from the catalogs),
    which Discord shows to members whose client is in Japanese."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate(language_of(locale), string.message, context.location.name)

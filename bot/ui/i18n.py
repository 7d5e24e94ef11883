"""Japanese beside English: message catalogs, and the translator of the command tree.

The catalogs are gettext `.po` files under `data/locale/<language>/LC_MESSAGES/`, one
per part of the code whose texts it holds (`commands.po` for the command tree,
`replies.po` for what the bot says, `services.po` for its refusals, `rules.po` for the
rules' explanations), read with Babel, which parses them, contexts included, so there is
no compile step to forget. English is the source language: the English text is the
message id, and any locale without a catalog falls back to it. In `commands.po` each
entry's `msgctxt` says where Discord shows the text, so the same English word may be
translated differently in two places (the `move` option and the `/move` command, say).

A text that holds a count has two English forms ("1 blunder", "2 blunders") and as many
translated forms as the language has (`ngettext`); each catalog's `Plural-Forms` header
says how a number picks one (Japanese has a single form, so `nplurals=1; plural=0`).
"""

from __future__ import annotations

import functools
import gettext as stdlib_gettext
from collections.abc import Callable
from pathlib import Path

import discord
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from discord import app_commands

LOCALE_DIR = Path(__file__).resolve().parents[2] / "data" / "locale"
SOURCE_LANGUAGE = "en"
#: The languages the bot speaks: English, and every language with catalogs.
LANGUAGES = (SOURCE_LANGUAGE, "ja")


def catalog_paths(language: str) -> list[Path]:
    """The `.po` files of `language`, in a fixed order."""
    return sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po"))


@functools.cache
def catalog(language: str) -> Catalog | None:
    """All catalogs of `language` (`"ja"`) as one, read once; None for English and for
    languages that have none. An id held twice with one context is a mistake the
    tests catch (`duplicated_ids`)."""
    paths = catalog_paths(language)
    if language == SOURCE_LANGUAGE or not paths:
        return None
    merged = Catalog(locale=language)
    for path in paths:
        with path.open("rb") as source:
            for message in read_po(source, locale=language):
                if message.id:
                    merged[message.id] = message
    return merged


@functools.cache
def plural_rule(language: str) -> tuple[int, Callable[[int], int]]:
    """How many forms a count's text has in `language`, and which one a number takes:
    from the `Plural-Forms` header of its catalogs (English: two, singular for 1)."""
    paths = catalog_paths(language)
    if language == SOURCE_LANGUAGE or not paths:
        return 2, lambda n: int(n != 1)
    with paths[0].open("rb") as source:
        header = read_po(source, locale=language)
    return header.num_plurals, stdlib_gettext.c2py(header.plural_expr)


def duplicated_ids(language: str) -> list[tuple[str | None, str]]:
    """(context, id) pairs that more than one of the language's files hold."""
    seen: dict[tuple[str | None, str], int] = {}
    for path in catalog_paths(language):
        with path.open("rb") as source:
            for message in read_po(source, locale=language):
                if message.id:
                    key = (message.context, str(message.id))
                    seen[key] = seen.get(key, 0) + 1
    return [key for key, count in seen.items() if count > 1]


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


def N_(message: str) -> str:
    """Marks `message` as a catalog entry where it is written; it is translated where
    it is shown (with `gettext`), in the reader's language."""
    return message


def gettext(language: str, message: str) -> str:
    """`message` (an English text, the id of a catalog entry without context) in
    `language`, or as given where no translation exists."""
    return translate(language, message) or message


def ngettext(language: str, singular: str, plural: str, n: int) -> str:
    """The form of a text with a count that `n` takes in `language`: `singular` and
    `plural` are the English forms (the first is the catalog's message id)."""
    found = catalog(language)
    entry = None if found is None else found.get(singular)
    if entry is not None and isinstance(entry.string, tuple | list) and all(entry.string):
        forms, choose = plural_rule(language)
        index = choose(n)
        if len(entry.string) == forms and 0 <= index < forms:
            return str(entry.string[index])
    return singular if n == 1 else plural


def language_of(locale: discord.Locale | None) -> str:
    """The language the bot speaks to a Discord locale: Japanese for `ja`, English for
    every locale it has no catalogs for."""
    language = "" if locale is None else locale.value.split("-")[0]
    return language if language in LANGUAGES else SOURCE_LANGUAGE


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

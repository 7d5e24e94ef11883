"""The Japanese catalogs, the command tree Discord receives with them, and the rule that
every text of the bot is a catalog entry.

Every command, option and choice must carry a Japanese name and description within
Discord's limits (a name Discord refuses makes the whole publication fail). Every
sentence the code marks (`_`, `N_`, `Sentence`) must have a Japanese translation with the
same placeholders, the catalogs must hold nothing the bot no longer says, and no prose
may be written in the Discord layer outside those marks.
"""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.ui.i18n import catalog, duplicated_ids, language_of, ngettext, plural_rule, translate
from tests.support.catalogs import (
    LOCALE,
    MARKS,
    ROOT,
    catalog_problems,
    marked_plurals,
    marked_texts,
    placeholders,
    read_catalog,
    unreadable_marks,
)

#: Discord's rule for command and option names in any language (letters and numbers of
#: any script, `-` and `_`); where a script has case, the name must be lower case.
NAME = re.compile(r"^[-_\w]{1,32}$")
#: The command tree's contexts, as discord.py's translator names them.
TREE_CONTEXTS = {
    f"{kind}_{part}"
    for kind in ("command", "parameter", "choice")
    for part in ("name", "description")
}
#: Where the code marks texts for the catalogs.
CODE = ("bot", "rules")


@pytest.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    """What the bot publishes: each command as discord.py sends it, translations included.
    With an engine set (never started here), so that the engine's commands are there too."""
    settings = Settings(discord_token="x", database_path=tmp_path / "db", engine_path="engine")
    bot: ShogiBot = create_bot(settings)
    await bot.load_features()
    translator = bot.tree.translator
    assert translator is not None
    try:
        yield [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()


def localized(payload: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every command, option and choice: where it is, what it is (as the catalog's
    contexts name it: command, parameter, choice), and its payload."""
    for command in payload:
        yield f"/{command['name']}", "command", command
        for option in command.get("options", []):
            yield f"/{command['name']} {option['name']}", "parameter", option
            for choice in option.get("choices", []):
                where = f"/{command['name']} {option['name']}={choice['value']}"
                yield where, "choice", choice


async def test_every_command_option_and_choice_has_japanese(
    payloads: list[dict[str, Any]],
) -> None:
    seen = 0
    for where, kind, item in localized(payloads):
        seen += 1
        name = item.get("name_localizations", {}).get("ja")
        assert name, f"{where} has no Japanese name"
        if kind == "choice":
            assert 1 <= len(name) <= 100, (where, name)
            continue
        assert NAME.match(name) and name == name.lower(), (where, name)
        description = item.get("description_localizations", {}).get("ja")
        assert description, f"{where} has no Japanese description"
        assert 1 <= len(description) <= 100, (where, description)
    assert seen > 50


async def test_the_catalog_holds_only_what_the_bot_shows(payloads: list[dict[str, Any]]) -> None:
    """An entry nothing asks for is a translation gone stale (its English changed)."""
    shown: set[tuple[str, str]] = set()
    for _, kind, item in localized(payloads):
        if kind == "choice":
            shown.add(("choice_name", item["name"]))
            continue
        shown.add((f"{kind}_name", item["name"]))
        shown.add((f"{kind}_description", item["description"]))
    ja = catalog("ja")
    assert ja is not None
    held = {(str(m.context), str(m.id)) for m in ja if m.id and m.context in TREE_CONTEXTS}
    assert held - shown == set()
    assert shown - held == set()


def test_every_marked_text_has_japanese_and_every_entry_is_used() -> None:
    ja = catalog("ja")
    assert ja is not None
    texts = marked_texts(*CODE)
    assert len(texts) > 200  # the replies, the service's refusals, the rules' explanations
    plurals = marked_plurals(*CODE)
    assert plurals["{count} blunder"] == "{count} blunders"
    assert catalog_problems(texts, ja, plurals) == []
    assert duplicated_ids("ja") == []


def test_the_catalog_check_fails_without_an_entry_or_with_a_renamed_placeholder(
    tmp_path: Path,
) -> None:
    text = (LOCALE / "rules.po").read_text(encoding="utf-8")
    entry = 'msgid "You have no {piece} in hand."\nmsgstr "持ち駒に{piece}がありません。"\n'
    assert entry in text
    wanted, plurals = marked_texts("rules"), marked_plurals("rules")
    shortened = tmp_path / "without.po"
    shortened.write_text(text.replace(entry, ""), encoding="utf-8")
    assert catalog_problems(wanted, read_catalog(shortened), plurals) == [
        "not translated: 'You have no {piece} in hand.'"
    ]
    renamed = tmp_path / "renamed.po"
    renamed.write_text(text.replace(entry, entry.replace("に{piece}", "に{role}")), "utf-8")
    assert len(catalog_problems(wanted, read_catalog(renamed), plurals)) == 1


def test_the_catalog_check_fails_on_a_text_with_a_count_without_its_forms(
    tmp_path: Path,
) -> None:
    text = (LOCALE / "rules.po").read_text(encoding="utf-8")
    singular = "It takes 10 pieces besides the king in the enemy camp; there is {count}."
    plural = "It takes 10 pieces besides the king in the enemy camp; there are {count}."
    form = 'msgstr[0] "敵陣に玉以外の駒が10枚必要です（今は{count}枚です）。"\n'
    entry = f'msgid "{singular}"\nmsgid_plural "{plural}"\n{form}'
    assert entry in text
    wanted, plurals = marked_texts("rules"), marked_plurals("rules")
    assert plurals[singular] == plural
    single = tmp_path / "single.po"
    single.write_text(text.replace(entry, f'msgid "{singular}"\nmsgstr "駒が{{count}}枚"\n'))
    assert catalog_problems(wanted, read_catalog(single), plurals) == [
        f"no plural forms: {singular!r}"
    ]
    renamed = tmp_path / "renamed.po"
    renamed.write_text(text.replace(form, form.replace("{count}", "{pieces}")), "utf-8")
    assert len(catalog_problems(wanted, read_catalog(renamed), plurals)) == 1


def test_every_catalog_says_japanese_has_one_plural_form() -> None:
    """Babel reads each file's `Plural-Forms`; the bot picks a form by the first file's."""
    for path in sorted(LOCALE.glob("*.po")):
        assert read_catalog(path).num_plurals == 1, path.name
    forms, choose = plural_rule("ja")
    assert forms == 1 and {choose(n) for n in (0, 1, 2, 11, 21)} == {0}
    forms, choose = plural_rule("en")
    assert forms == 2 and [choose(n) for n in (0, 1, 2)] == [1, 0, 1]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["0 blunders", "1 blunder", "2 blunders"]),
        ("ja", ["大悪手0", "大悪手1", "大悪手2"]),
    ],
)
def test_a_count_takes_its_form_in_each_language(lang: str, expected: list[str]) -> None:
    said = [
        ngettext(lang, "{count} blunder", "{count} blunders", n).format(count=n) for n in (0, 1, 2)
    ]
    assert said == expected


def test_every_marked_text_is_a_literal_babel_can_read() -> None:
    """A text written as an f-string, a concatenation or a variable inside `_()` or
    `Sentence()` would reach players untranslated: the extractor cannot read it."""
    assert unreadable_marks(*CODE) == []


def test_every_catalog_is_utf8_with_a_plain_header() -> None:
    for path in sorted(LOCALE.glob("*.po")):
        raw = path.read_bytes()
        raw.decode("utf-8")
        assert b'"Language: ja\\n"' in raw, path.name


def test_translations_of_the_command_tree_keep_their_placeholders() -> None:
    ja = catalog("ja")
    assert ja is not None
    for message in ja:
        if message.context in TREE_CONTEXTS and isinstance(message.string, str):
            assert placeholders(str(message.id)) == placeholders(message.string), message.id


def test_locales_fall_back_to_english() -> None:
    assert language_of(discord.Locale.japanese) == "ja"
    assert language_of(discord.Locale.american_english) == "en"
    assert translate("ja", "challenge", "command_name") == "挑戦"
    assert translate("en", "challenge", "command_name") is None
    assert translate("fr", "challenge", "command_name") is None
    assert translate("ja", "no such text", "command_name") is None


#: Calls whose string arguments are not shown to users: logs, ids, file names.
_NOT_SHOWN = {
    *("debug", "info", "warning", "error", "exception", "getLogger", "compile"),
    *("RuntimeError", "LookupError", "ValueError", "TypeError"),  # bugs, logged, never shown
}
#: The command tree's tables in `text/controls.py`: published in English and translated by the
#: command translator from `commands.po` (checked above against the payload).
_TREE_TABLES = {
    "COMMANDS",
    "NOTIFICATION_NAMES",
    "OPTIONS",
    "COLOR_NAMES",
    "CHALLENGE_COLOR_NAMES",
    "RULE_CHOICE_NOTES",
    "TAKEBACK_NAMES",
    "PERSPECTIVE_NAMES",
    "STYLE_NAMES",
    "FORMAT_NAMES",
    "TOURNAMENT_FORMAT_NAMES",
    "LANGUAGE_NAMES",
    "TSUME_ACTIONS",
}
#: Prose: two words of letters, or any kana, or kanji other than numerals.
_PROSE = re.compile(
    r"[A-Za-z]{2,}[ ,;']+[A-Za-z]{2,}"  # two English words
    r"|[\u3040-\u30ff]"  # kana
    r"|[^\W\d〇一二三四五六七八九十a-zA-Z_]"  # a letter neither Latin nor a numeral: kanji
)


def _unmarked_prose(path: Path) -> list[str]:
    """String literals in `path` that read as prose and are neither marked for the
    catalogs, nor docstrings, nor in a log call or one of the command tree's tables."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in MARKS or name in _NOT_SHOWN:
                skipped.update(id(n) for arg in node.args for n in ast.walk(arg))
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in _TREE_TABLES for t in targets):
                skipped.update(id(n) for n in ast.walk(node))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and _PROSE.search(node.value)
    ]


def test_no_prose_outside_the_catalogs() -> None:
    """What the Discord layer and the service say is marked for the catalogs; a sentence
    written bare would reach a Japanese reader in English."""
    folders = [ROOT / "bot" / "ui", ROOT / "bot" / "cogs"]
    found = [
        line
        for folder in folders
        for path in sorted(folder.rglob("*.py"))
        for line in _unmarked_prose(path)
    ]
    assert found == []


def test_the_prose_check_finds_a_bare_sentence(tmp_path: Path) -> None:
    module = ROOT / "bot" / "ui" / "_probe_for_test.py"
    module.write_text('def f() -> str:\n    """Doc."""\n    return "You have no games."\n')
    try:
        assert len(_unmarked_prose(module)) == 1
    finally:
        module.unlink()

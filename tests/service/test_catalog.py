"""The service's sentences in Japanese: every template has a translation in `services.po`.

A refusal is a `rules.Sentence` whose template is the English text and the id of a
catalog entry; the Discord layer looks it up and fills in the values in the reader's
language. These tests extract the templates as Babel does (the keyword `Sentence`), so a
new sentence without a translation, a translation that lost or renamed a placeholder,
and an entry no sentence uses any more all fail here rather than in front of a player.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.services import GameService, NotFound, NotYourTurn, ServiceError
from rules import Sentence

from .conftest import ALICE, BOB, GUILD, start_game

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "bot" / "services"
LOCALE = ROOT / "data" / "locale" / "ja" / "LC_MESSAGES"
CATALOG = LOCALE / "services.po"


def templates() -> dict[str, str]:
    """Every template in bot/services, as Babel's extractor finds it, and where."""
    found: dict[str, str] = {}
    for filename, line, message, _, _ in extract_from_dir(
        str(SERVICES), keywords={"Sentence": None}, method_map=[("**.py", "python")]
    ):
        assert isinstance(message, str), (filename, line, message)
        found.setdefault(message, f"{filename}:{line}")
    return found


def read_catalog(path: Path = CATALOG) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale="ja")


def placeholders(text: str) -> set[str]:
    """The names of `text`'s `{placeholders}` (a stray brace fails, as it would in use)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_extractor_finds_the_service_sentences() -> None:
    found = templates()
    assert len(found) > 30
    assert "It is {name}'s move." in found
    assert "There is no game number {game_id} in this server." in found


def test_every_template_has_a_japanese_translation_with_its_placeholders() -> None:
    catalog = read_catalog()
    problems = []
    for template, where in sorted(templates().items()):
        entry = catalog.get(template)
        if entry is None or not entry.string:
            problems.append(f"{where}: no translation of {template!r}")
            continue
        assert isinstance(entry.string, str)
        if entry.fuzzy:
            problems.append(f"{where}: the translation of {template!r} is marked fuzzy")
        if placeholders(entry.string) != placeholders(template):
            problems.append(f"{where}: {entry.string!r} does not keep the placeholders")
    assert not problems, "\n".join(problems)


def test_the_catalog_holds_only_what_the_service_says() -> None:
    """An entry no sentence asks for is a translation gone stale (its English changed)."""
    found = templates()
    stale = [message.id for message in read_catalog() if message.id and message.id not in found]
    assert not stale, stale


def test_entries_have_no_context_and_no_other_catalog_holds_them() -> None:
    """The Discord layer looks a template up without context, in all catalogs as one."""
    ours = read_catalog()
    assert all(message.context is None for message in ours)
    ids = {message.id for message in ours if message.id}
    for path in sorted(LOCALE.glob("*.po")):
        if path != CATALOG:
            clash = ids & {m.id for m in read_catalog(path) if m.id and m.context is None}
            assert not clash, (path.name, sorted(map(str, clash)))


def test_every_template_is_a_string_literal() -> None:
    """What Babel cannot read is never translated: the template must be written out as
    the first argument (no f-string, no concatenation, no variable)."""
    problems = []
    for path in sorted(SERVICES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name != "Sentence":
                continue
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not problems, problems


def japanese(sentence: Sentence) -> str:
    """`sentence` through the catalog, its values as English writes them (enough to see
    that the translation takes the sentence's values)."""
    entry = read_catalog().get(sentence.template)
    assert entry is not None and isinstance(entry.string, str)
    return entry.string.format_map({key: str(value) for key, value in sentence.params.items()})


async def test_a_refusal_carries_its_sentence(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(NotYourTurn) as caught:
        await service.moves.play(game.id, BOB.user_id, "P-34")
    refusal: ServiceError = caught.value
    assert refusal.sentence == Sentence("It is {name}'s move.", name=ALICE.name)
    assert str(refusal.sentence) == refusal.message == "It is Alice's move."
    assert japanese(refusal.sentence) == "Aliceさんの手番です。"

    with pytest.raises(NotFound) as missing:
        await service.games.get(game.id + 100, guild_id=GUILD)
    assert str(missing.value.sentence) == missing.value.message
    assert missing.value.sentence.params == {"game_id": game.id + 100}
    assert str(game.id + 100) in japanese(missing.value.sentence)

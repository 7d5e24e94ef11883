"""The message catalogs as the tests read them: the texts the code marks for translation
(found as Babel's extractor finds them), their placeholders, and what is wrong between
the marked texts and a catalog.

The code marks a text with `_("...")` or `N_("...")` (the Discord layer) or
`Sentence("...", values)` (refusals and explanations); the English is the message id.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "data" / "locale" / "ja" / "LC_MESSAGES"
#: The calls that mark a text for the catalogs, as Babel's extractor names the arguments
#: that hold the English: the first, or for a text with a count its singular and plural.
MARKS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "N_": None,
    "Sentence": None,
    "_n": (1, 2),
    "Plural": (1, 2),
}


def marked_texts(*folders: str) -> dict[str, str]:
    """Every text without a count marked under `folders` (relative to the repository),
    with where."""
    found: dict[str, str] = {}
    for folder in folders:
        for filename, line, message, *_ in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=MARKS
        ):
            if isinstance(message, str):
                found.setdefault(message, f"{folder}/{filename}:{line}")
    return found


def marked_plurals(*folders: str) -> dict[str, str]:
    """Every text with a count marked under `folders`: its English singular (the message
    id) and plural."""
    found: dict[str, str] = {}
    for folder in folders:
        for _, _, message, *_ in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=MARKS
        ):
            if isinstance(message, tuple) and len(message) == 2:
                found.setdefault(message[0], message[1])
    return found


def mark_calls(*folders: str) -> Iterator[tuple[str, ast.Call]]:
    """Every marking call under `folders`, with where it is."""
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                func = node.func if isinstance(node, ast.Call) else None
                if isinstance(node, ast.Call) and isinstance(func, ast.Name) and func.id in MARKS:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def unreadable_marks(*folders: str) -> list[str]:
    """Marking calls whose text is not a string literal: an f-string, a concatenation
    or a variable, which Babel cannot extract, so it would never be translated."""
    return [
        where
        for where, call in mark_calls(*folders)
        if not (
            call.args
            and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
        )
    ]


def placeholders(text: str) -> list[str]:
    """The names of `text`'s `{placeholders}`, sorted, as often as each is used (a stray
    brace fails, as it would in use)."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale="ja")


def catalog_problems(
    wanted: Iterable[str], catalog: Catalog, plurals: dict[str, str] | None = None
) -> list[str]:
    """What is wrong between the marked texts and the context-free entries of a catalog:
    a text without Japanese or with other placeholders, a fuzzy entry, and an entry no
    code marks any more (its English changed). `plurals` (singular: plural) are the
    texts with a count: each needs as many forms as the catalog's `Plural-Forms` says,
    each with the placeholders of the English plural."""
    wanted = set(wanted)
    plurals = plurals or {}
    problems = []
    for text in sorted(wanted):
        entry = catalog.get(text)
        if entry is None or not entry.string:
            problems.append(f"not translated: {text!r}")
        elif not isinstance(entry.string, str):
            problems.append(f"plural forms where none are used: {text!r}")
        elif placeholders(entry.string) != placeholders(text):
            problems.append(f"placeholders differ: {text!r} -> {entry.string!r}")
    for singular, plural in sorted(plurals.items()):
        entry = catalog.get(singular)
        forms = entry.string if entry is not None else None
        if not isinstance(forms, tuple | list) or not all(forms):
            problems.append(f"no plural forms: {singular!r}")
        elif entry is not None and entry.id != (singular, plural):
            problems.append(f"another English plural: {singular!r} -> {entry.id!r}")
        elif len(forms) != catalog.num_plurals:
            problems.append(f"{len(forms)} forms, not {catalog.num_plurals}: {singular!r}")
        elif any(placeholders(form) != placeholders(plural) for form in forms):
            problems.append(f"placeholders differ: {plural!r} -> {forms!r}")
    for entry in catalog:
        if not entry.id or entry.context is not None:
            continue
        key = entry.id[0] if isinstance(entry.id, tuple | list) else entry.id
        if key not in wanted and key not in plurals:
            problems.append(f"no code marks it any more: {entry.id!r}")
        if entry.fuzzy:
            problems.append(f"marked fuzzy: {entry.id!r}")
    return problems

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
#: The calls that mark a text for the catalogs; the first argument is the English.
MARKS: dict[str, None] = {"_": None, "N_": None, "Sentence": None}


def marked_texts(*folders: str) -> dict[str, str]:
    """Every text marked under `folders` (relative to the repository), with where."""
    found: dict[str, str] = {}
    for folder in folders:
        for filename, line, message, *_ in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=MARKS
        ):
            if isinstance(message, str):
                found.setdefault(message, f"{folder}/{filename}:{line}")
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


def catalog_problems(wanted: Iterable[str], catalog: Catalog) -> list[str]:
    """What is wrong between the marked texts and the context-free entries of a catalog:
    a text without Japanese or with other placeholders, a fuzzy entry, and an entry no
    code marks any more (its English changed)."""
    wanted = set(wanted)
    problems = []
    for text in sorted(wanted):
        entry = catalog.get(text)
        if entry is None or not entry.string:
            problems.append(f"not translated: {text!r}")
        elif not isinstance(entry.string, str):
            problems.append(f"plural forms where none are used: {text!r}")
        elif placeholders(entry.string) != placeholders(text):
            problems.append(f"placeholders differ: {text!r} -> {entry.string!r}")
    for entry in catalog:
        if not entry.id or entry.context is not None:
            continue
        if entry.id not in wanted:
            problems.append(f"no code marks it any more: {entry.id!r}")
        if entry.fuzzy:
            problems.append(f"marked fuzzy: {entry.id!r}")
    return problems

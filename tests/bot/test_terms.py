"""The catalogs' terms (`data/locale/terms.toml`): each thing has one name in every
catalog. A Japanese translation may not use a form the table rejects (挑戦 in prose,
承諾, 考慮時間 for more time, 持駒 outside the KIF label...), and the English texts use the
chosen forms (Sente and Gote capitalised, game #12)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from tests.support.catalogs import LOCALE, ROOT, read_catalog

TERMS = ROOT / "data" / "locale" / "terms.toml"
#: A placeholder's name is code, not English prose (`{sente}` is checked as `{}`).
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Term:
    meaning: str
    use: str
    avoid: tuple[re.Pattern[str], ...]
    except_contexts: frozenset[str]
    avoid_english: tuple[re.Pattern[str], ...]
    english_pending: frozenset[str]


def terms(path: Path = TERMS) -> list[Term]:
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    return [
        Term(
            meaning=row["meaning"],
            use=row["use"],
            avoid=tuple(re.compile(p) for p in row.get("avoid", [])),
            except_contexts=frozenset(row.get("except_contexts", [])),
            avoid_english=tuple(re.compile(p) for p in row.get("avoid_english", [])),
            english_pending=frozenset(row.get("english_pending", [])),
        )
        for row in table["term"]
    ]


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list):
        return [text for text in value if isinstance(text, str)]
    return []


def violations(term: Term, catalogs: dict[str, Catalog]) -> list[str]:
    """Where `term`'s rejected forms appear: in a Japanese msgstr, or an English msgid."""
    found = []
    for name, catalog in catalogs.items():
        for message in catalog:
            if not message.id:
                continue
            english = _texts(message.id)
            if message.context not in term.except_contexts:
                for text in _texts(message.string):
                    found += [
                        f"{name}: {text!r} ({p.pattern})" for p in term.avoid if p.search(text)
                    ]
            if english[0] in term.english_pending:
                continue
            for text in (PLACEHOLDER.sub("{}", text) for text in english):
                found += [
                    f"{name}: {text!r} ({p.pattern})" for p in term.avoid_english if p.search(text)
                ]
    return found


def catalogs() -> dict[str, Catalog]:
    return {path.name: read_catalog(path) for path in sorted(LOCALE.glob("*.po"))}


@pytest.mark.parametrize("term", terms(), ids=lambda term: term.meaning)
def test_each_term_has_one_name_in_every_catalog(term: Term) -> None:
    assert term.avoid or term.avoid_english, term.meaning
    assert violations(term, catalogs()) == []


def test_the_english_pending_entries_still_exist() -> None:
    """An entry let off the English check until the handicap texts are rewritten must be
    one the catalogs hold; once it is gone, its exemption goes too."""
    ids = {str(m.id) for catalog in catalogs().values() for m in catalog if m.id}
    for term in terms():
        assert term.english_pending <= ids, term.english_pending - ids


def test_the_check_finds_a_rejected_form(tmp_path: Path) -> None:
    text = (LOCALE / "services.po").read_text(encoding="utf-8")
    entry = 'msgstr "この申し込みを受けられるのは{name}さんだけです。"\n'
    assert entry in text
    old = tmp_path / "services.po"
    old.write_text(text.replace(entry, entry.replace("申し込みを受け", "挑戦を承諾")), "utf-8")
    found = {term.meaning: violations(term, {"old": read_catalog(old)}) for term in terms()}
    assert len(found["a challenge (the offer of a game)"]) == 1
    assert len(found["to accept (a challenge, a count, a takeback)"]) == 1
    english = tmp_path / "english.po"
    english.write_text(
        text.replace("There is no game #{game_id}", "There is no game {id}"), "utf-8"
    )
    assert violations(terms()[-2], {"english": read_catalog(english)}) != []
    assert "game #" in terms()[-2].use


def test_the_command_name_may_stay_challenge() -> None:
    commands = read_catalog(LOCALE / "commands.po")
    entry = commands.get("challenge", context="command_name")
    assert entry is not None and entry.string == "挑戦"

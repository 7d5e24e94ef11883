"""Openings and castles in words: the line a move's post adds when one becomes clear, a
game's line in `/games`, and a member's openings with their results in `/profile`.

The names are the table's (`data/openings.toml`), in Japanese for a Japanese reader and in
English otherwise; each side is marked ☗ or ☖ (handicap games are not named).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.services import OpeningResult
from rules import Color
from rules.openings import Name, Naming, Openings

from ..base import translator

_MARKS = {Color.SENTE: "☗", Color.GOTE: "☖"}
#: The language that reads the names in Japanese; every other reads them in English.
_JAPANESE = "ja"


def _name(lang: str, name: Name) -> str:
    return name.ja if lang == _JAPANESE else name.en


def _joined(lang: str, words: Sequence[str]) -> str:
    return ("、" if lang == _JAPANESE else ", ").join(words)


def _line(lang: str, openings: str, castles: str) -> str | None:
    _ = translator(lang)
    if openings and castles:
        return _("Opening: {openings}. Castle: {castles}.").format(
            openings=openings, castles=castles
        )
    if openings:
        return _("Opening: {openings}.").format(openings=openings)
    if castles:
        return _("Castle: {castles}.").format(castles=castles)
    return None


def named_line(lang: str, namings: Sequence[Naming]) -> str | None:
    """The line of a move's post naming what became clear with it, None when nothing did:
    `Opening: ☗Static Rook, ☖Fourth File Rook.` (`戦型：☗居飛車、☖四間飛車`)."""
    by_kind = {
        kind: _joined(
            lang,
            [_MARKS[n.color] + _name(lang, n.name) for n in namings if n.name.kind == kind],
        )
        for kind in ("opening", "castle")
    }
    return _line(lang, by_kind["opening"], by_kind["castle"])


def game_openings_line(lang: str, openings: Openings) -> str | None:
    """A game's openings and castles so far, each side's most specific names: for
    `/games`; None before anything is clear."""
    by_kind = {
        kind: _joined(
            lang,
            [
                _MARKS[color] + _name(lang, name)
                for color in Color
                for name in openings.shown(color, kind)
            ],
        )
        for kind in ("opening", "castle")
    }
    return _line(lang, by_kind["opening"], by_kind["castle"])


def opening_results(lang: str, results: Sequence[OpeningResult]) -> list[str]:
    """`/profile`: a member's openings with their results, one line each."""
    _ = translator(lang)
    if not results:
        return []
    lines = [_("Openings played (won, lost, drawn):")]
    lines.extend(
        _("• {opening}: {won}–{lost}–{drawn}").format(
            opening=_name(lang, result.name),
            won=result.won,
            lost=result.lost,
            drawn=result.drawn,
        )
        for result in results
    )
    return lines

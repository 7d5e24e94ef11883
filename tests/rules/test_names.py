"""The one table of piece names (`rules.types.ROLE_NAMES`) and its readers."""

from __future__ import annotations

from rules import Role
from rules.notation.common import READ_NAMES, WESTERN_LETTERS
from rules.types import KING_GLYPHS, ROLE_NAMES


def test_every_role_is_named_once_per_vocabulary() -> None:
    assert set(ROLE_NAMES) == set(Role)
    for column in ("english", "letter", "csa", "kanji", "kif", "glyph"):
        names = [getattr(ROLE_NAMES[role], column) for role in Role]
        assert len(set(names)) == len(names), column


def test_glyphs_are_one_character_and_promoted_letters_carry_a_plus() -> None:
    for role in Role:
        assert len(role.glyph) == 1
        assert role.sfen.startswith("+") == role.is_promoted
        assert Role.from_sfen(role.sfen) is role


def test_readers_accept_every_name_the_writers_use() -> None:
    for role in Role:
        for name in (role.kanji, ROLE_NAMES[role].kif, role.glyph):
            assert READ_NAMES[name] is role
        assert WESTERN_LETTERS[role.sfen] is role
    assert all(READ_NAMES[king] is Role.KING for king in KING_GLYPHS)

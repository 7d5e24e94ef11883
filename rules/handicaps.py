"""Handicap starts (komaochi). The giver (uwate) plays gote and moves first.

"Left" and "right" follow the KIF convention, seen from the uwate's seat: the
uwate's left is file 1, so the plain lance handicap removes the 1一 lance.
"""

from __future__ import annotations

from enum import Enum

_SENTE_CAMP = "ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"


class Handicap(Enum):
    """Each member's value is (id, Japanese name as in KIF 手合割, English name, the giver's
    camp): gote's ranks a and b in SFEN, the only part of the board a handicap changes."""

    EVEN = ("even", "平手", "Even", "lnsgkgsnl/1r5b1")
    LANCE = ("lance", "香落ち", "Lance", "lnsgkgsn1/1r5b1")
    RIGHT_LANCE = ("right_lance", "右香落ち", "Right lance", "1nsgkgsnl/1r5b1")
    BISHOP = ("bishop", "角落ち", "Bishop", "lnsgkgsnl/1r7")
    ROOK = ("rook", "飛車落ち", "Rook", "lnsgkgsnl/7b1")
    ROOK_LANCE = ("rook_lance", "飛香落ち", "Rook-lance", "lnsgkgsn1/7b1")
    TWO_PIECE = ("two_piece", "二枚落ち", "2-piece", "lnsgkgsnl/9")
    THREE_PIECE = ("three_piece", "三枚落ち", "3-piece", "lnsgkgsn1/9")
    FOUR_PIECE = ("four_piece", "四枚落ち", "4-piece", "1nsgkgsn1/9")
    FIVE_PIECE = ("five_piece", "五枚落ち", "5-piece", "2sgkgsn1/9")
    LEFT_FIVE_PIECE = ("left_five_piece", "左五枚落ち", "Left 5-piece", "1nsgkgs2/9")
    SIX_PIECE = ("six_piece", "六枚落ち", "6-piece", "2sgkgs2/9")
    LEFT_SEVEN_PIECE = ("left_seven_piece", "左七枚落ち", "Left 7-piece", "2sgkg3/9")
    RIGHT_SEVEN_PIECE = ("right_seven_piece", "右七枚落ち", "Right 7-piece", "3gkgs2/9")
    EIGHT_PIECE = ("eight_piece", "八枚落ち", "8-piece", "3gkg3/9")
    TEN_PIECE = ("ten_piece", "十枚落ち", "10-piece", "4k4/9")

    @property
    def id(self) -> str:
        return self.value[0]

    @property
    def japanese(self) -> str:
        return self.value[1]

    @property
    def english(self) -> str:
        return self.value[2]

    @property
    def sfen(self) -> str:
        """The start: the giver's camp over sente's whole set; in a handicap game the giver
        (gote) moves first."""
        turn = "b" if self is Handicap.EVEN else "w"
        return f"{self.value[3]}/{_SENTE_CAMP} {turn} - 1"

    @classmethod
    def parse(cls, text: Handicap | str) -> Handicap:
        """By id (`"two_piece"`), Japanese name (`"二枚落ち"`) or English name (`"2-piece"`)."""
        if isinstance(text, Handicap):
            return text
        exact = _BY_ID.get(text)  # how a stored game names it: every view of a game asks
        if exact is not None:
            return exact
        wanted = text.strip().lower().replace("-", "_").replace(" ", "_")
        for handicap in cls:
            names = (handicap.id, handicap.english.lower().replace("-", "_").replace(" ", "_"))
            if wanted in names or text.strip() == handicap.japanese:
                return handicap
        raise ValueError(f"unknown handicap {text!r}")

    @classmethod
    def from_sfen(cls, sfen: str) -> Handicap | None:
        """The handicap whose start this is (move number ignored), else None."""
        key = " ".join(sfen.split()[:3])
        for handicap in cls:
            if " ".join(handicap.sfen.split()[:3]) == key:
                return handicap
        return None


_BY_ID: dict[str, Handicap] = {handicap.id: handicap for handicap in Handicap}

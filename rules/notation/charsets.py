"""Record files in the text encodings shogi software reads: Shift_JIS and UTF-8.

Japanese software takes a `.kif` or `.ki2` file to be Shift_JIS (Windows' code page 932,
cp932, which every Japanese Windows program writes) and a `.kifu` or `.ki2u` file to be
UTF-8. Shift_JIS has no emoji, no accented Latin letters and no characters outside
Japanese use, so a name such as はなこ🌸 or José cannot be written in it as it is; such a
character is written as 〓 (the geta mark, U+3013, Japanese print's sign for a character
that cannot be set), one 〓 for what a reader sees as one character: a skin tone, a
variation selector, the rest of a joined emoji (👨‍👩‍👧) and the second half of a flag go
with the character they belong to. Characters that Shift_JIS holds under another Unicode
name (the wave dash 〜 of a Mac, which Windows calls ～; −, —, ‖, ¢, £, ¬, ¥) are written
as that character, not replaced; the private use area (外字, which means something else on
every machine) is replaced. Lines end with CR LF in a Shift_JIS file, as Windows software
writes them.

>>> shift_jis_text("はなこ🌸")
('はなこ〓', 1)
>>> shift_jis_text("José 〜 👨\u200d👩\u200d👧 🇯🇵")
('Jos〓 ～ 〓 〓', 3)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: What a character Shift_JIS lacks is written as.
REPLACEMENT = "〓"
SHIFT_JIS = "cp932"
UTF8 = "utf-8"

# Characters Shift_JIS holds under another Unicode name (JIS's mapping against Windows').
_WINDOWS_FORMS = {
    "\u301c": "\uff5e",  # 〜 wave dash -> ～
    "\u2016": "\u2225",  # ‖ -> ∥
    "\u2212": "\uff0d",  # − minus -> －
    "\u2014": "\u2015",  # — em dash -> ―
    "\u00a2": "\uffe0",  # ¢
    "\u00a3": "\uffe1",  # £
    "\u00ac": "\uffe2",  # ¬
    "\u00a5": "\uffe5",  # ¥
    "\u203e": "\uffe3",  # ‾
}
_JOINER = "\u200d"
# Code points that only change how the character before them looks.
_MODIFIERS = (
    ("\ufe00", "\ufe0f"),  # variation selectors
    ("\U000e0100", "\U000e01ef"),
    ("\U0001f3fb", "\U0001f3ff"),  # skin tones
    ("\U000e0020", "\U000e007f"),  # tag characters (subdivision flags)
    ("\u20e3", "\u20e3"),  # keycap
)
_FLAG_HALVES = ("\U0001f1e6", "\U0001f1ff")  # regional indicators: two make a flag


@lru_cache(maxsize=4096)
def _written_as(char: str) -> str | None:
    """The character Shift_JIS writes for `char` (itself, or its Windows form), None when
    it has none."""
    char = _WINDOWS_FORMS.get(char, char)
    if "\ue000" <= char <= "\uf8ff":
        return None
    try:
        return char.encode(SHIFT_JIS).decode(SHIFT_JIS)
    except UnicodeError:
        return None


def _modifies(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me") or any(
        low <= char <= high for low, high in _MODIFIERS
    )


def shift_jis_text(text: str) -> tuple[str, int]:
    """`text` as Shift_JIS can hold it, and how many characters were written as 〓 (see the
    module's docstring). Linear in the text.

    >>> shift_jis_text("７六歩(77)")
    ('７六歩(77)', 0)
    """
    text = unicodedata.normalize("NFC", text)
    written: list[str] = []
    replaced = 0
    after_replacement = after_joiner = half_flag = False
    for char in text:
        shown = _written_as(char)
        if after_joiner and after_replacement and char != _JOINER:
            after_joiner = False  # joined to the emoji already written as 〓 (🏃‍♀)
        elif shown is not None:
            written.append(shown)
            after_replacement = after_joiner = half_flag = False
        elif char == _JOINER:
            after_joiner = True
        elif _modifies(char):
            pass  # how the character before it looks
        elif half_flag and _FLAG_HALVES[0] <= char <= _FLAG_HALVES[1]:
            half_flag = False
        else:
            written.append(REPLACEMENT)
            replaced += 1
            after_replacement, after_joiner = True, False
            half_flag = _FLAG_HALVES[0] <= char <= _FLAG_HALVES[1]
    return "".join(written), replaced


def encode_record(text: str, encoding: str) -> tuple[bytes, int]:
    """The bytes of a record file in `encoding` (`SHIFT_JIS` or `UTF8`), and how many
    characters were written as 〓 (always 0 in UTF-8).

    >>> encode_record("先手：はなこ🌸\\n", SHIFT_JIS)
    (b'\\x90\\xe6\\x8e\\xe8\\x81F\\x82\\xcd\\x82\\xc8\\x82\\xb1\\x81\\xac\\r\\n', 1)
    """
    if encoding == UTF8:
        return text.encode(UTF8), 0
    if encoding != SHIFT_JIS:
        raise ValueError(f"unknown record encoding {encoding!r}")
    held, replaced = shift_jis_text(text)
    return held.replace("\r\n", "\n").replace("\n", "\r\n").encode(SHIFT_JIS), replaced

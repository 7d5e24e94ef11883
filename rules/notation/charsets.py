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

import re
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
_PRIVATE_USE = re.compile("[\ue000-\uf8ff]")


# How `_line_held` treats a character.
_HELD, _JOINS, _MODIFIES, _FLAG_HALF, _LACKED = range(5)


@lru_cache(maxsize=65_536)
def _kind(char: str) -> tuple[int, str]:
    """What `char` is to Shift_JIS, with the character written for it when it holds it
    (itself, or its Windows form): one cached look-up a character."""
    shown = _WINDOWS_FORMS.get(char, char)
    if not "\ue000" <= shown <= "\uf8ff":
        try:
            return _HELD, shown.encode(SHIFT_JIS).decode(SHIFT_JIS)
        except UnicodeError:
            pass
    if char == _JOINER:
        return _JOINS, ""
    if unicodedata.category(char) in ("Mn", "Me") or any(
        low <= char <= high for low, high in _MODIFIERS
    ):
        return _MODIFIES, ""
    if _FLAG_HALVES[0] <= char <= _FLAG_HALVES[1]:
        return _FLAG_HALF, ""
    return _LACKED, ""


def _held_as_it_is(line: str) -> bool:
    """Whether Shift_JIS holds `line` unchanged: checked by the codec at C speed, so only
    the lines that need it (a name with an emoji) are gone through character by character."""
    if line.isascii():
        return True
    if not unicodedata.is_normalized("NFC", line):
        return False
    try:
        back = line.encode(SHIFT_JIS).decode(SHIFT_JIS)
    except UnicodeError:
        return False
    return back == line and _PRIVATE_USE.search(line) is None


def shift_jis_text(text: str) -> tuple[str, int]:
    """`text` as Shift_JIS can hold it, and how many characters were written as 〓 (see the
    module's docstring). Linear in the text.

    >>> shift_jis_text("７六歩(77)")
    ('７六歩(77)', 0)
    """
    if _held_as_it_is(text):
        return text, 0
    held: list[str] = []
    replaced = 0
    for line in text.splitlines(keepends=True):
        if _held_as_it_is(line):
            held.append(line)
        else:
            line, count = _line_held(line)
            held.append(line)
            replaced += count
    return "".join(held), replaced


def _line_held(text: str) -> tuple[str, int]:
    text = unicodedata.normalize("NFC", text)
    written: list[str] = []
    replaced = 0
    after_replacement = after_joiner = half_flag = False
    for char in text:
        kind, shown = _kind(char)
        if after_joiner and after_replacement and kind != _JOINS:
            after_joiner = False  # joined to the emoji already written as 〓 (🏃‍♀)
        elif kind == _HELD:
            written.append(shown)
            after_replacement = after_joiner = half_flag = False
        elif kind == _JOINS:
            after_joiner = True
        elif kind == _MODIFIES:
            pass  # how the character before it looks
        elif kind == _FLAG_HALF and half_flag:
            half_flag = False
        else:
            written.append(REPLACEMENT)
            replaced += 1
            after_replacement, after_joiner = True, False
            half_flag = kind == _FLAG_HALF
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

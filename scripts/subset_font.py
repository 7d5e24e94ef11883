"""Regenerate the font subset the board renderer ships in `data/fonts/`.

The renderer draws a few dozen kanji (pieces, rank numerals), digits and the
turn marks, plus player names and captions. Shipping the whole Noto Serif CJK
JP Bold (about 20 MB inside a collection of five languages) for that would be
absurd, and loading the system's fonts would make images depend on the
machine, so this script cuts out exactly the characters in `CHARACTERS` below
and writes `data/fonts/NotoSerifCJKjp-Bold-subset.otf` (a few hundred KB), and
a second subset for player names, `NotoSerifCJKjp-Bold-names.otf` (about 2.5 MB:
all of JIS X 0208, Latin, Greek, Cyrillic; see `name_characters()`).

Usage (Debian/Ubuntu; fontTools is in the `fonts` extra):

    apt-get install fonts-noto-cjk
    python scripts/subset_font.py [--source PATH/NotoSerifCJK-Bold.ttc] [--index 0]

The licence text in `data/fonts/LICENSE-OFL.txt` comes from the same package
(`/usr/share/doc/fonts-noto-cjk/copyright`); `--licence` rewrites it too.
Characters a player name needs but the names subset lacks are replaced by
the renderer (see `render.fonts.printable`).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "data" / "fonts"
OUTPUT_NAME = "NotoSerifCJKjp-Bold-subset.otf"
DEFAULT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")


def _span(first: int, last: int) -> str:
    return "".join(chr(code) for code in range(first, last + 1))


# What the renderer draws itself.
PIECES = "歩香桂銀金角飛王玉と杏圭全馬龍竜成"
NUMERALS = "一二三四五六七八九十" + _span(0xFF10, 0xFF19)  # kanji and full-width digits
MARKS = "☗☖▲△▶◀●○・×…「」『』（）、。ー〜"
# What captions and player names commonly hold: ASCII, Latin-1 and Latin
# Extended-A (European names), kana, full-width ASCII and the words of a game
# record (先手, 後手, 上手, 下手, 持駒, 同, 打, 不成, 右左直上引寄, 王手, 詰み, 手番,
# 投了, 千日手, 時間切れ, 中断, 入玉宣言, 第N手, 対局, 勝ち負け).
LATIN = _span(0x20, 0x7E) + _span(0xA0, 0xFF) + _span(0x100, 0x17F) + "‐–—‘’“”•€"
KANA = _span(0x3041, 0x3096) + _span(0x30A1, 0x30FA) + "ー゛゜ゝゞヽヾ"
FULL_WIDTH = _span(0xFF01, 0xFF5E) + "　"
GAME_WORDS = "先後上下手持駒同打不右左直引寄詰番目勝負投了千日時間切中断入宣言第局対戦残分秒期限"

CHARACTERS = "".join(
    dict.fromkeys(PIECES + NUMERALS + MARKS + LATIN + KANA + FULL_WIDTH + GAME_WORDS)
)

# The second font, for player names (and captions): everything above, plus the whole
# of JIS X 0208 (kana, level 1 and 2 kanji, its Greek, Cyrillic and symbols), the
# NEC and IBM extension kanji of Windows' code page 932 (髙, 﨑, ...), half-width
# katakana, and every Latin, Greek and Cyrillic letter the source font has.
NAMES_OUTPUT_NAME = "NotoSerifCJKjp-Bold-names.otf"
# Blocks whose characters are kept wherever the source has them.
NAME_BLOCKS = (
    (0x0020, 0x024F),  # Basic Latin .. Latin Extended-B
    (0x0370, 0x03FF),  # Greek and Coptic
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese)
    (0x2000, 0x206F),  # general punctuation
    (0xFF61, 0xFF9F),  # half-width katakana
)


def _double_byte(codec: str, lead: range, trail: range) -> set[str]:
    """Every character a double-byte codec decodes from `lead` x `trail` bytes."""
    found: set[str] = set()
    for first in lead:
        for second in trail:
            try:
                text = bytes((first, second)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1 and unicodedata.category(text) != "Co":  # no private use
                found.add(text)
    return found


def jis_x_0208() -> set[str]:
    """The 6,879 characters of JIS X 0208 (rows 1-94), read through Python's EUC-JP codec."""
    return _double_byte("euc_jp", range(0xA1, 0xFF), range(0xA1, 0xFF))


def cp932_extensions() -> set[str]:
    """What Windows' code page 932 adds to JIS X 0208: NEC row 13 and the IBM kanji."""
    return _double_byte("cp932", range(0x81, 0xFD), range(0x40, 0xFD)) - jis_x_0208()


def name_characters(cmap: dict[int, str]) -> str:
    """The names font's characters, given the source font's cmap (for `NAME_BLOCKS`)."""
    blocks = {chr(c) for first, last in NAME_BLOCKS for c in range(first, last + 1) if c in cmap}
    wanted = set(CHARACTERS) | jis_x_0208() | cp932_extensions() | blocks
    return "".join(sorted(wanted))


def load_source(path: Path, index: int) -> TTFont:
    """The Japanese face from a collection (index 0 is JP in Debian's .ttc), or a plain font."""
    if path.suffix.lower() in (".ttc", ".otc"):
        collection = TTCollection(str(path), lazy=False)
        font = collection.fonts[index]
    else:
        font = TTFont(str(path), lazy=False)
    family = font["name"].getDebugName(4) or "?"
    if "JP" not in family and "Japanese" not in family:
        print(f"warning: face {index} of {path.name} is {family!r}, not a JP face", file=sys.stderr)
    return font


def make_subset(font: TTFont, characters: str) -> TTFont:
    cmap = font.getBestCmap()
    missing = [ch for ch in characters if ord(ch) not in cmap]
    if missing:
        # Noto Serif CJK lacks much of Latin Extended-A; the renderer falls back to the
        # base letter (NFKD) for those, so this is expected and only reported.
        print(f"note: {len(missing)} listed characters are not in the source", file=sys.stderr)
    options = subset.Options()
    options.layout_features = ["kern", "palt", "vert"]  # no ligatures needed for labels
    options.name_IDs = ["*"]  # keep copyright, licence and trademark records
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False  # Pillow renders at large sizes; CFF hints only cost bytes
    options.desubroutinize = True  # smaller after compression, and simpler
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(ch) for ch in characters if ord(ch) in cmap])
    subsetter.subset(font)
    font.recalcTimestamp = False  # keep the source's dates: the same input gives the same bytes
    return font


def licence_text(copyright_file: Path, font: TTFont) -> str:
    """The OFL text from Debian's machine-readable copyright file, under the font's notice."""
    text = copyright_file.read_text(encoding="utf-8")
    match = re.search(r"^License: SIL-1\.1\n((?: .*\n?)+)", text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no 'License: SIL-1.1' paragraph in {copyright_file}")
    body = "\n".join(
        "" if line == " ." else line[1:] for line in match.group(1).rstrip("\n").split("\n")
    )
    notice = font["name"].getDebugName(0) or ""
    trademark = font["name"].getDebugName(7) or ""
    header = (
        f"{OUTPUT_NAME} and {NAMES_OUTPUT_NAME} are subsets of Noto Serif CJK JP Bold"
        " (fonts-noto-cjk).\n"
        f"{notice}\n{trademark}\n"
        "Upstream: https://github.com/googlefonts/noto-cjk\n"
        "Source Han Serif, from which Noto Serif CJK derives: Copyright 2014-2021 Adobe\n"
        "(http://www.adobe.com/), with Reserved Font Name 'Source'.\n\n"
    )
    return header + body + "\n"


def write(font: TTFont, path: Path, listed: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(path))
    print(f"wrote {path} ({path.stat().st_size:,} bytes, {listed:,} characters listed)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--index", type=int, default=0, help="face in a .ttc (0 = JP)")
    parser.add_argument("--output", type=Path, default=FONT_DIR / OUTPUT_NAME)
    parser.add_argument(
        "--names-output",
        type=Path,
        default=FONT_DIR / NAMES_OUTPUT_NAME,
        help="the names font (JIS X 0208, Latin, Greek, Cyrillic)",
    )
    parser.add_argument(
        "--only",
        choices=("pieces", "names"),
        default=None,
        help="write only one of the two fonts (default: both)",
    )
    parser.add_argument(
        "--extra",
        default="",
        metavar="TEXT",
        help="more characters to keep in both fonts (every kanji costs ~350 bytes)",
    )
    parser.add_argument(
        "--licence",
        type=Path,
        nargs="?",
        const=DEBIAN_COPYRIGHT,
        default=None,
        help="also rewrite LICENSE-OFL.txt from this Debian copyright file",
    )
    args = parser.parse_args(argv)

    font = None
    if args.only != "names":
        font = make_subset(load_source(args.source, args.index), CHARACTERS + args.extra)
        write(font, args.output, len(CHARACTERS + args.extra))
    if args.only != "pieces":
        source = load_source(args.source, args.index)
        characters = name_characters(source.getBestCmap()) + args.extra
        write(make_subset(source, characters), args.names_output, len(characters))
        font = font or source
    if args.licence is not None and font is not None:
        target = args.output.parent / "LICENSE-OFL.txt"
        target.write_text(licence_text(args.licence, font), encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

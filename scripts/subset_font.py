"""Regenerate the font subset the board renderer ships in `data/fonts/`.

The renderer draws a few dozen kanji (pieces, rank numerals), digits and the
turn marks, plus player names and captions. Shipping the whole Noto Serif CJK
JP Bold (about 20 MB inside a collection of five languages) for that would be
absurd, and loading the system's fonts would make images depend on the
machine, so this script cuts out exactly the characters in `CHARACTERS` below
and writes `data/fonts/NotoSerifCJKjp-Bold-subset.otf` (a few hundred KB).

Usage (Debian/Ubuntu; fontTools is in the `fonts` extra):

    apt-get install fonts-noto-cjk
    python scripts/subset_font.py [--source PATH/NotoSerifCJK-Bold.ttc] [--index 0]

The licence text in `data/fonts/LICENSE-OFL.txt` comes from the same package
(`/usr/share/doc/fonts-noto-cjk/copyright`); `--licence` rewrites it too.
Characters a player name needs but the subset lacks are replaced by the
renderer (see `render.fonts.printable`), so the list can stay short.
"""

from __future__ import annotations

import argparse
import re
import sys
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
        f"{OUTPUT_NAME} is a subset of Noto Serif CJK JP Bold (fonts-noto-cjk).\n"
        f"{notice}\n{trademark}\n"
        "Upstream: https://github.com/googlefonts/noto-cjk\n"
        "Source Han Serif, from which Noto Serif CJK derives: Copyright 2014-2021 Adobe\n"
        "(http://www.adobe.com/), with Reserved Font Name 'Source'.\n\n"
    )
    return header + body + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--index", type=int, default=0, help="face in a .ttc (0 = JP)")
    parser.add_argument("--output", type=Path, default=FONT_DIR / OUTPUT_NAME)
    parser.add_argument(
        "--extra",
        default="",
        metavar="TEXT",
        help="more characters to keep, e.g. kanji for player names (every kanji costs ~350 bytes)",
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

    font = make_subset(load_source(args.source, args.index), CHARACTERS + args.extra)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(args.output))
    size = args.output.stat().st_size
    print(f"wrote {args.output} ({size:,} bytes, {len(CHARACTERS)} characters listed)")
    if args.licence is not None:
        target = args.output.parent / "LICENSE-OFL.txt"
        target.write_text(licence_text(args.licence, font), encoding="utf-8")
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

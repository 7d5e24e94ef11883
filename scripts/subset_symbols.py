"""Regenerate the symbols font the renderer falls back to, `data/fonts/Symbola-symbols.ttf`.

Player names hold emoji and symbols (はなこ🌸, ★Kai★) that the names font (Noto Serif CJK
JP) lacks. Symbola, a monochrome font of Unicode's symbols and emoji free for any use,
has them: this script keeps every symbol (Unicode categories S*) Symbola has and the
names font lacks, without hinting (about 1.5 MB), and copies Debian's notice of its
licence beside it.

Usage (Debian/Ubuntu; fontTools is in the `fonts` extra):

    apt-get install fonts-symbola
    python scripts/subset_symbols.py [--source PATH/Symbola_hint.ttf]
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the renderer's own list of the names font's characters

from render.fonts import SYMBOLS_FONT_PATH, name_characters  # noqa: E402

DEFAULT_SOURCE = Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-symbola/copyright")
LICENCE_NAME = "LICENSE-Symbola.txt"


def symbols(font: TTFont) -> list[int]:
    """The code points to keep: symbols the source has and the names font lacks."""
    have = name_characters()
    return sorted(
        code
        for code in font.getBestCmap()
        if unicodedata.category(chr(code)).startswith("S") and chr(code) not in have
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--output", type=Path, default=SYMBOLS_FONT_PATH)
    args = parser.parse_args(argv)
    font = TTFont(str(args.source), lazy=False)
    kept = symbols(font)
    options = subset.Options()
    options.layout_features = []  # single glyphs: no ligatures, no kerning needed
    options.name_IDs = ["*"]  # keep the copyright and version records
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=kept)
    subsetter.subset(font)
    font.recalcTimestamp = False  # the same input gives the same bytes
    font.save(str(args.output))
    print(f"wrote {args.output} ({args.output.stat().st_size:,} bytes, {len(kept):,} symbols)")
    licence = args.output.parent / LICENCE_NAME
    licence.write_text(DEBIAN_COPYRIGHT.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"wrote {licence}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

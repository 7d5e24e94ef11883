"""Draw a position by hand: `python -m render "<sfen>" -o board.png [--last 7g7f] [--gote]`.

The position is an SFEN, `startpos`, or a handicap id (`two_piece`, ...).
`--last` highlights the move that led to the position; `--play` instead plays
moves (USI) from it and highlights the last one. The alt text goes to stdout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules import Color, Handicap, Move, Position

from . import KING_KANJI, describe, render_board


def _position(text: str) -> Position:
    if text in ("startpos", "start"):
        return Position.initial()
    if " " not in text.strip():
        try:
            return Position.initial(Handicap.parse(text))
        except ValueError:
            pass
    return Position.from_sfen(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m render", description="Draw a shogi position as a PNG."
    )
    parser.add_argument("position", help='an SFEN (quote it), "startpos" or a handicap id')
    parser.add_argument("-o", "--output", type=Path, default=Path("board.png"))
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--last", metavar="USI", help="the move that led to the position")
    group.add_argument("--play", metavar="USI", nargs="+", help="moves to play first")
    parser.add_argument("--gote", action="store_true", help="draw from gote's side")
    parser.add_argument("--sente-name")
    parser.add_argument("--gote-name")
    parser.add_argument("--caption")
    parser.add_argument(
        "--kings", default="".join(KING_KANJI), help="sente's and gote's king kanji"
    )
    args = parser.parse_args(argv)

    try:
        position = _position(args.position)
        previous = None
        last = Move.from_usi(args.last) if args.last else None
        for text in args.play or ():
            move = Move.from_usi(text)
            previous = position.copy()
            position.push(move)
            last = move
        png = render_board(
            position,
            last_move=last,
            perspective=Color.GOTE if args.gote else Color.SENTE,
            sente_name=args.sente_name,
            gote_name=args.gote_name,
            caption=args.caption,
            kings=tuple(args.kings),
        )
    except ValueError as error:  # SfenError, InvalidMoveError, IllegalMoveError, bad kings
        print(f"error: {error}", file=sys.stderr)
        return 2
    args.output.write_bytes(png)
    print(describe(position, last, previous=previous))
    print(f"wrote {args.output} ({len(png):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

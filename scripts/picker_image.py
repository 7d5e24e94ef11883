"""Draw the picker's sample picture into `docs/`: `python -m scripts.picker_image`.

The second step of moving by pointing in a real opening (the first moves of
`kfjs_ryuou4.kifu` in the shared test data): sente's bishop chosen, a dot on each empty
square it can reach and a ring round the piece it can take, the other movable pieces no
longer marked, as the picker shows it.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.services.play.picker import choices_of  # noqa: E402
from bot.services.play.snapshots import LegalMoveCache  # noqa: E402
from render import Marks, render_board  # noqa: E402
from rules import Game, Square  # noqa: E402

MOVES = ["7g7f", "3c3d", "2g2f", "4c4d"]  # the bishops face each other
OUT = ROOT / "docs" / "picker.png"


def main() -> int:
    game = Game(moves=MOVES)
    position = game.position
    pieces = choices_of(position, LegalMoveCache().get(position, game.moves[-1]))
    [bishop] = [piece for piece in pieces if piece.key == "8h"]
    marks = Marks(
        selected=Square.from_usi("8h"),
        destinations=frozenset(Square.from_usi(d.square) for d in bishop.destinations),
        captures=frozenset(Square.from_usi(d.square) for d in bishop.destinations if d.capture),
    )
    png = render_board(
        position, last_move=game.moves[-1], sente_name="alice", gote_name="bob", marks=marks
    )
    OUT.write_bytes(png)
    print(f"wrote {OUT.relative_to(ROOT)} ({len(png):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

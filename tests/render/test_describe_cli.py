"""Alt text, the `python -m render` command, the font and the layering rule."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import render
from render import board, describe, fonts, layout
from render.__main__ import main
from rules import Color, Move, Position, Square

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------- describe


def test_describe_the_start() -> None:
    assert describe(Position.initial()) == "Shogi board, move 1: ☗ Sente to move."


def test_describe_without_the_previous_position_gives_usi_and_squares() -> None:
    position = Position.initial()
    position.push(Move.from_usi("7g7f"))
    text = describe(position, Move.from_usi("7g7f"))
    assert text == "Shogi board, move 2: ☖ Gote to move. Last move ☗ 7g7f (7g to 7f)."


def test_describe_a_drop_and_a_promotion_without_notation() -> None:
    position = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 w - 3")
    assert "P*5e (pawn dropped on 5e)" in describe(position, Move.from_usi("P*5e"))
    assert "8h2b+ (8h to 2b, promoting)" in describe(position, Move.from_usi("8h2b+"))


def test_describe_with_notation() -> None:
    previous = Position.initial()
    position = previous.copy()
    position.push(Move.from_usi("7g7f"))
    text = describe(position, Move.from_usi("7g7f"), previous=previous)
    assert text == "Shogi board, move 2: ☖ Gote to move. Last move ☗ ７六歩 (P-76)."
    previous = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1")
    position = previous.copy()
    position.push(Move.from_usi("P*5e"))
    assert describe(position, Move.from_usi("P*5e"), previous=previous).endswith(
        "Last move ☗ ５五歩 (P*55)."
    )


def test_describe_with_the_move_already_written() -> None:
    position = Position.initial()
    position.push(Move.from_usi("7g7f"))
    # As the service writes it (with the side's mark), the same sentence as from `previous`.
    text = describe(position, Move.from_usi("7g7f"), written=("☗７六歩", "P-76"))
    assert text == "Shogi board, move 2: ☖ Gote to move. Last move ☗ ７六歩 (P-76)."


def test_describe_falls_back_when_previous_does_not_fit() -> None:
    position = Position.initial()
    text = describe(position, Move.from_usi("5e5d"), previous=Position.initial())
    assert text.endswith("Last move ☖ 5e5d (5e to 5d).")


def test_describe_check_and_checkmate() -> None:
    mated = Position.from_sfen("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1")
    mated.push(Move.from_usi("G*4b"))
    assert describe(mated).endswith("☖ Gote to move. Checkmate.")
    checked = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1")
    checked.push(Move.from_usi("G*5b"))
    assert checked.is_check() and not checked.is_checkmate()
    assert describe(checked).endswith(" Check.")
    assert "Check" not in describe(Position.initial())


# ----------------------------------------------------------------- command


def test_cli_writes_the_png_and_prints_the_alt_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.png"
    code = main(["startpos", "--play", "7g7f", "3c3d", "-o", str(out), "--gote"])
    assert code == 0
    image = Image.open(out).convert("RGB")
    assert image.size == layout.SIZE
    # gote's view: 3d is highlighted at its mirrored place
    box = layout.square_box(Square.from_usi("3d"), Color.GOTE)
    assert image.getpixel((box[0] + 4, box[1] + 4)) == board.LAST
    assert capsys.readouterr().out.startswith("Shogi board, move 3: ☗ Sente to move.")


def test_cli_rejects_a_bad_sfen(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["not an sfen", "-o", str(tmp_path / "x.png")]) == 2
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_python_dash_m_render(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    result = subprocess.run(
        [sys.executable, "-m", "render", sfen, "-o", str(out), "--last", "7g7f"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Last move ☗ 7g7f" in result.stdout
    assert Image.open(io.BytesIO(out.read_bytes())).size == layout.SIZE


# ----------------------------------------------------------------- font


def test_the_font_is_the_shipped_subset() -> None:
    assert fonts.FONT_PATH.parent == ROOT / "data" / "fonts"
    assert (ROOT / "data" / "fonts" / "LICENSE-OFL.txt").is_file()
    assert fonts.font(20).path == str(fonts.FONT_PATH)


def test_the_font_has_every_character_the_board_draws() -> None:
    needed = set("".join(board.KANJI.values()) + "王玉" + board.RANK_NUMERALS)
    needed |= set("0123456789０１２３４５６７８９☗☖×…?先手後")
    assert needed <= fonts.characters()


def test_cmap_reader_agrees_with_fonttools() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    cmap = ttlib.TTFont(str(fonts.FONT_PATH)).getBestCmap()
    assert {ord(ch) for ch in fonts.characters()} == set(cmap)


def test_printable_replaces_what_the_font_lacks() -> None:
    text = fonts.printable("太郎 🐉 Łukasz Dvořák\tたろう\u200d สม")
    assert text == "太郎 🐉 Lukasz Dvorák たろう ・・"
    assert set(text) <= fonts.name_characters() | fonts.symbol_characters()


# ----------------------------------------------------------------- layout


@pytest.mark.parametrize("perspective", list(Color))
def test_square_boxes_and_square_at_agree(perspective: Color) -> None:
    boxes = set()
    for square in map(Square, range(81)):
        box = layout.square_box(square, perspective)
        boxes.add(box)
        assert layout.square_at(box[0], box[1], perspective) == square
        assert layout.square_at(box[2] - 1, box[3] - 1, perspective) == square
        assert layout.GRID[0] < box[0] < box[2] < layout.GRID[2]
    assert len(boxes) == 81
    assert layout.square_at(layout.GRID_X, layout.GRID_Y + 10, perspective) is None  # a line


def test_sente_sees_9a_top_left_and_gote_sees_1i_there() -> None:
    top_left = layout.cell_box(0, 0)
    assert layout.square_box(Square.from_usi("9a"), Color.SENTE) == top_left
    assert layout.square_box(Square.from_usi("1i"), Color.GOTE) == top_left


# ----------------------------------------------------------------- layering


def test_render_imports_only_rules_pillow_and_the_standard_library() -> None:
    allowed = {"rules", "PIL", "render"} | set(sys.stdlib_module_names)
    forbidden = {"asyncio", "sqlite3"}
    for path in Path(render.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed and top not in forbidden, f"{path.name} imports {name}"


def test_importing_render_loads_no_discord_asyncio_or_database() -> None:
    code = (
        "import sys, render, render.__main__; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'discord', 'asyncio', 'aiosqlite', 'sqlite3', 'bot'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"

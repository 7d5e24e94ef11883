"""Board image speed and size: `python bench/bench_render.py [--runs 200]`.

For each benchmark position, renders the PNG (composition plus PNG encoding,
exactly what `render.render_board` returns) after a warm-up, and prints the
median and 99th percentile time and the PNG size. Each timed render starts with
the encoder's band cache empty, so this is the cost of a picture never seen.
Targets (issue 4): median at most 10 ms, PNG at most 40 KB at the default size.
The first render in a process also draws and caches the background and piece
images; that one-off cost is printed separately.

Then a whole professional game, board after board as the bot sends them, with
the band cache as it fills in a running bot: first the PNG encoding alone against
Pillow's own PNG encoder at the same zlib level on the same pictures, then the
whole render (drawing included) against drawing the whole picture and encoding
it with Pillow (the references, in the same run).

Last, the first 120 moves of a professional game as the animated GIF the bot posts at
the end of a game (`render.render_gif`, with the result on its last frame): its size and
its median time, against rendering the same 121 boards as PNGs with `render_board`
(the reference, in the same run; each run starts with the band cache empty).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import percentile
from rules import Color, Move, Position

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
RECORD = RECORDS / "kfjs_ryuou4.kifu"
LONG_RECORD = RECORDS / "kfjs_20091203.ki2u"  # 172 moves
GIF_PLIES = 120
POSITIONS: list[tuple[str, str, str | None, str | None]] = [
    # name, SFEN before the last move (or the position itself), last move, caption
    ("start", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", None, None),
    ("handicap 2-piece", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", None, None),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        None,
        "Move 1 · deadline in 2 days",
    ),
    (
        "matsuri, Japanese caption",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        None,
        "手数＝1・後手番",
    ),
    ("593 full hands", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", None, None),
    ("checkmate", "5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1", "G*4b", "Checkmate: ☗ wins"),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--gif-runs", type=int, default=7)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    import render

    render.render_board(Position.initial())
    cold = time.perf_counter() - started

    print(f"first render in this process (import, font, background, sprites): {cold * 1e3:.0f} ms")
    print(f"{args.runs} runs each after {args.warmup} warm-up runs; time includes PNG encoding\n")
    header = f"{'position':<20} {'view':<6} {'median ms':>9} {'p99 ms':>8} {'PNG bytes':>10}"
    print(header)
    print("-" * len(header))
    worst_median = worst_size = 0.0
    for name, sfen, last, caption in POSITIONS:
        position = Position.from_sfen(sfen)
        move = None
        if last is not None:
            move = Move.from_usi(last)
            position.push(move)
        for perspective in Color:
            kwargs = {
                "last_move": move,
                "perspective": perspective,
                "sente_name": "Hanako",
                "gote_name": "Taro",
                "caption": caption,
            }
            png = b""
            for _ in range(args.warmup):
                png = render.render_board(position, **kwargs)  # type: ignore[arg-type]
            times = []
            for _ in range(args.runs):
                render.board._ENCODER.clear()
                t0 = time.perf_counter()
                png = render.render_board(position, **kwargs)  # type: ignore[arg-type]
                times.append(time.perf_counter() - t0)
            median = statistics.median(times) * 1e3
            p99 = percentile(times, 0.99) * 1e3
            worst_median = max(worst_median, median)
            worst_size = max(worst_size, len(png))
            view = perspective.name.lower()
            print(f"{name:<20} {view:<6} {median:>9.2f} {p99:>8.2f} {len(png):>10,}")
    print(
        f"\nworst median {worst_median:.2f} ms (target 10), largest PNG {worst_size:,.0f} bytes"
        " (target 40,000)"
    )
    names_boards(render, args.runs)
    game_boards(render)
    game_animation(render, args.gif_runs)
    return 0


NAMES = {
    "Latin": ("Hanako Yamada", "Taro Suzuki (5 dan)"),
    "Japanese": ("山田花子", "鈴木太郎 (5段)"),
}


def names_boards(render: Any, runs: int) -> None:
    """The same board with Latin names and with Japanese names, interleaved in one run:
    cold (band cache and name labels cleared: a name never seen) and warm (the band
    cache as a running bot has it after the first board of a game)."""
    position = Position.from_sfen(POSITIONS[2][1])
    times: dict[tuple[str, str], list[float]] = {
        (script, state): [] for script in NAMES for state in ("cold", "warm")
    }
    for i in range(runs + 20):
        for script, (sente, gote) in NAMES.items():
            render.board._ENCODER.clear()
            render.board.name_label.cache_clear()
            t0 = time.perf_counter()
            render.render_board(position, sente_name=sente, gote_name=gote)
            cold = time.perf_counter() - t0
            t0 = time.perf_counter()
            render.render_board(position, sente_name=sente, gote_name=gote)
            warm = time.perf_counter() - t0
            if i >= 20:  # warm-up
                times[script, "cold"].append(cold)
                times[script, "warm"].append(warm)
    print(f"\nnames: {NAMES['Latin']} against {NAMES['Japanese']}, {runs} runs each")
    for state in ("cold", "warm"):
        medians = {script: statistics.median(times[script, state]) * 1e3 for script in NAMES}
        ratio = medians["Japanese"] / medians["Latin"]
        print(
            f"{state}: Latin median {medians['Latin']:.2f} ms, "
            f"Japanese median {medians['Japanese']:.2f} ms, Japanese / Latin {ratio:.2f}"
            " (target at most 1.20)"
        )


def game_boards(render: Any) -> None:
    """Every board of a real game in order: our band encoder against Pillow's encoder."""
    from rules.notation import read_record

    game = read_record(RECORD.read_bytes()).game
    position = game.position_at(0)
    pictures = []
    for move in game.moves:
        position.push(move)
        pictures.append(render.render_image(position, last_move=move, sente_name="Hanako"))
    render.board._ENCODER.clear()
    ours, theirs, sizes, their_sizes = [], [], [], []
    for picture in pictures:
        t0 = time.perf_counter()
        png = render.board.encode_png(picture)
        ours.append(time.perf_counter() - t0)
        buffer = io.BytesIO()
        t0 = time.perf_counter()
        picture.save(buffer, "PNG", compress_level=render.board.PNG_COMPRESS_LEVEL)
        theirs.append(time.perf_counter() - t0)
        sizes.append(len(png))
        their_sizes.append(len(buffer.getvalue()))
    ours_ms, theirs_ms = statistics.median(ours) * 1e3, statistics.median(theirs) * 1e3
    print(f"\n{RECORD.name}: {len(pictures)} boards in order, PNG encoding only")
    print(
        f"band encoder   median {ours_ms:.2f} ms  p99 {percentile(ours, 0.99) * 1e3:.2f} ms  "
        f"largest {max(sizes):,} bytes  mean {statistics.mean(sizes):,.0f}"
    )
    print(
        f"Pillow encoder median {theirs_ms:.2f} ms  p99 {percentile(theirs, 0.99) * 1e3:.2f} ms  "
        f"largest {max(their_sizes):,} bytes  mean {statistics.mean(their_sizes):,.0f}"
    )
    print(f"band encoder / Pillow: {ours_ms / theirs_ms:.2f} of the time")
    whole_boards(render, game)


def whole_boards(render: Any, game: Any) -> None:
    """The same boards as the bot sends them, drawing included: `render_board` (which draws
    and compresses only the bands it has not seen) against drawing the whole picture and
    encoding it with Pillow (the reference), five passes over the game, the band cache
    cleared before each."""
    frames = []
    position = game.position_at(0)
    for move in game.moves:
        position.push(move)
        frames.append((position.copy(), move))
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(5):
        render.board._ENCODER.clear()
        for board, move in frames:
            t0 = time.perf_counter()
            render.render_board(board, last_move=move, sente_name="Hanako")
            ours.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            picture = render.render_image(board, last_move=move, sente_name="Hanako")
            picture.save(io.BytesIO(), "PNG", compress_level=render.board.PNG_COMPRESS_LEVEL)
            theirs.append(time.perf_counter() - t0)
    ours_ms, theirs_ms = statistics.median(ours) * 1e3, statistics.median(theirs) * 1e3
    print(f"\nthe same boards drawn and encoded, as the bot sends them ({len(ours)} renders)")
    ours_p99 = percentile(ours, 0.99) * 1e3
    print(f"render_board            median {ours_ms:.2f} ms  p99 {ours_p99:.2f} ms")
    print(
        f"whole picture + Pillow  median {theirs_ms:.2f} ms  "
        f"p99 {percentile(theirs, 0.99) * 1e3:.2f} ms"
    )
    print(f"render_board / reference: {ours_ms / theirs_ms:.2f} of the time")


def game_animation(render: Any, runs: int) -> None:
    """A 120-move game as a GIF against the same boards as PNGs, interleaved run by run."""
    from rules import Color
    from rules.notation import read_record

    game = read_record(LONG_RECORD.read_bytes()).game
    start, moves = game.position_at(0), game.moves[:GIF_PLIES]
    captions = [
        f"Move {ply} · {'sente' if ply % 2 == 0 else 'gote'} to move" for ply in range(GIF_PLIES)
    ]
    ending = render.Ending(
        f"Move {GIF_PLIES} · sente wins by resignation", winner=Color.SENTE, resigned=Color.GOTE
    )
    gif_times: list[float] = []
    png_times: list[float] = []
    gif = b""
    png_bytes = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        gif = render.render_gif(
            start, moves, sente_name="Hanako", gote_name="Taro", captions=captions, ending=ending
        )
        gif_times.append(time.perf_counter() - t0)
        render.board._ENCODER.clear()
        position = start.copy()
        t0 = time.perf_counter()
        png_bytes = len(
            render.render_board(
                position, sente_name="Hanako", gote_name="Taro", caption=captions[0]
            )
        )
        for ply, move in enumerate(moves, 1):
            position.push(move)
            final = ply == len(moves)
            png_bytes += len(
                render.render_board(
                    position,
                    last_move=move,
                    sente_name="Hanako",
                    gote_name="Taro",
                    caption=None if final else captions[ply],
                    ending=ending if final else None,
                )
            )
        png_times.append(time.perf_counter() - t0)
    gif_ms, png_ms = statistics.median(gif_times) * 1e3, statistics.median(png_times) * 1e3
    print(f"\n{LONG_RECORD.name}: the first {GIF_PLIES} moves as one GIF ({runs} runs)")
    print(f"render_gif                 median {gif_ms:.0f} ms  {len(gif):,} bytes")
    print(f"{GIF_PLIES + 1} boards as PNGs (ref.)   median {png_ms:.0f} ms  {png_bytes:,} bytes")
    ratio_bytes = len(gif) / png_bytes
    print(f"GIF / PNG boards: {gif_ms / png_ms:.2f} of the time, {ratio_bytes:.2f} of the bytes")


if __name__ == "__main__":
    raise SystemExit(main())

"""What a hostile member can make the renderer do: `python bench/bench_hostile_render.py`.

1. A board whose sente is named with 3,000, 12,000 and 100,000 characters (kanji, then
   emoji, then emoji between kanji), against a normal name of 10 kanji (the reference, in
   the same run); every
   render draws a name never seen before, so no cache answers it. Target: every ratio
   near 1 (a label is cut to a bounded length and fitted by halving).
2. A board's latency while another thread draws hostile boards without pause, and while
   another builds a 300-move game's GIF, against the same board alone. Target: a few
   milliseconds more at most (no lock is shared; the threads share the interpreter).
3. The animated GIF of a long game of 100, 500 and 1,000 plies (random legal quiet moves,
   `tests.support.long_game`): time, tracemalloc peak and the rise of the peak resident
   size, each in a fresh interpreter, against Pillow's `save_all` over every frame (the
   way it was built before) up to `--reference-plies`. Target: peak memory under 150 MB
   for 1,000 plies.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import ratio, report, run_times  # noqa: E402
from rules import Position  # noqa: E402

NAME_LENGTHS = (10, 3_000, 12_000, 100_000)
GIF_PLIES = (100, 500, 1_000)
_counter = itertools.count()


def board_with_name(name: str) -> None:
    """One board whose sente name was never drawn before."""
    from render import render_board

    render_board(Position.initial(), sente_name=f"{next(_counter)}{name}", gote_name="後手")


def names(runs: int) -> None:
    print("1. a board with a long sente name (each name new to the caches)")
    report("name 'Alice'", run_times(lambda: board_with_name("Alice"), runs))
    reference = 0.0
    for length in NAME_LENGTHS:
        name = "長" * length
        times = run_times(lambda name=name: board_with_name(name), runs)  # type: ignore[misc]
        measured = report(f"name of {length:,} characters", times)
        if length == NAME_LENGTHS[0]:
            reference = measured  # a normal name in the same script
        else:
            ratio(f"{length:,} characters / {NAME_LENGTHS[0]}", measured, reference)
    # Emoji, drawn from the symbols' font a run at a time: one run, and runs alternating
    # with kanji (the most runs a label can have).
    for length in NAME_LENGTHS:
        for kind, unit in (("emoji", "🌸"), ("emoji and kanji", "🌸長")):
            name = (unit * length)[:length]
            times = run_times(lambda name=name: board_with_name(name), runs)  # type: ignore[misc]
            measured = report(f"name of {length:,} {kind}", times)
            ratio(f"{length:,} {kind} / {NAME_LENGTHS[0]} kanji", measured, reference)


def beside(label: str, busy: Callable[[], object], runs: int) -> float:
    """The median time of a board drawn while another thread runs `busy` over and over,
    measured once `busy` has finished at least once (so it is under way throughout)."""
    stop = threading.Event()
    done = [0]

    def again() -> None:
        while not stop.is_set():
            busy()
            done[0] += 1

    thread = threading.Thread(target=again)
    thread.start()
    try:
        while not done[0]:
            time.sleep(0.001)
        return report(label, run_times(lambda: board_with_name("Bob"), runs))
    finally:
        stop.set()
        thread.join()
        print(f"{'':<36} the other thread ran {done[0]} times meanwhile")


def latency(runs: int) -> None:
    print("\n2. a board while another thread draws 12,000-character names")
    alone = report("board alone", run_times(lambda: board_with_name("Bob"), runs))
    attacked = beside("board beside the attacker", lambda: board_with_name("長" * 12_000), runs)
    ratio("beside / alone", attacked, alone)

    from render import render_gif
    from tests.support.long_game import long_game

    moves = long_game(300, seed=1)
    animated = beside(
        "board beside a GIF build", lambda: render_gif(Position.initial(), moves), runs
    )
    ratio("beside a GIF / alone", animated, alone)


CHILD = """
import io, json, sys, time, tracemalloc
from rules import Position
from render import render_gif, render_image, warm
from tests.support.long_game import long_game

def peak_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))

plies, way = int(sys.argv[1]), sys.argv[2]
moves = long_game(plies, seed=1)
captions = [f"Move {ply} · sente to move" for ply in range(plies + 1)]
warm()
render_gif(Position.initial(), moves[:3], captions=captions[:4])
before = peak_kb()
tracemalloc.start()
started = time.perf_counter()
if way == "streamed":
    size = len(render_gif(Position.initial(), moves, sente_name="Alice", gote_name="Bob",
                          captions=captions))
else:  # every frame kept, then Pillow's save_all, as the animation was built before
    position = Position.initial()
    frames = [render_image(position, sente_name="Alice", gote_name="Bob", caption=captions[0])]
    for ply, move in enumerate(moves, 1):
        position.push(move)
        frames.append(render_image(position, last_move=move, sente_name="Alice",
                                   gote_name="Bob", caption=captions[ply]))
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], optimize=True,
                   disposal=1, loop=0, duration=700)
    size = len(buffer.getvalue())
elapsed = time.perf_counter() - started
traced = tracemalloc.get_traced_memory()[1]
print(json.dumps({"seconds": elapsed, "traced_mb": traced / 2**20,
                  "rss_mb": (peak_kb() - before) / 1024, "bytes": size}))
"""


def gif_run(plies: int, way: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(plies), way],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def gifs(runs: int, reference_plies: int) -> None:
    print("\n3. the GIF of a long game, each build in a fresh interpreter")
    for plies in GIF_PLIES:
        ways = ["streamed"] + (["kept"] if plies <= reference_plies else [])
        medians: dict[str, dict[str, float]] = {}
        for way in ways:
            results = [gif_run(plies, way) for _ in range(runs)]
            label = (
                f"{plies:,} plies, {'frame by frame' if way == 'streamed' else 'every frame kept'}"
            )
            report(label, [r["seconds"] for r in results])
            medians[way] = {
                key: statistics.median(r[key] for r in results)
                for key in ("seconds", "traced_mb", "rss_mb", "bytes")
            }
            m = medians[way]
            print(
                f"{'':<36} peak RSS +{m['rss_mb']:.1f} MB   tracemalloc peak "
                f"{m['traced_mb']:.1f} MB   GIF {m['bytes'] / 1024:,.0f} KiB"
            )
        if "kept" in medians:
            new, old = medians["streamed"], medians["kept"]
            ratio("time, frame by frame / kept", new["seconds"], old["seconds"])
            ratio("peak RSS rise, frame by frame / kept", max(new["rss_mb"], 0.1), old["rss_mb"])
            ratio("GIF bytes, frame by frame / kept", new["bytes"], old["bytes"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="boards per figure")
    parser.add_argument("--gif-runs", type=int, default=3, help="builds per GIF figure")
    parser.add_argument(
        "--reference-plies",
        type=int,
        default=500,
        help="the longest game also built the old way (1,000 plies take over 1 GB)",
    )
    args = parser.parse_args(argv)
    from render import warm

    warm()
    names(args.runs)
    latency(args.runs)
    gifs(args.gif_runs, args.reference_plies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

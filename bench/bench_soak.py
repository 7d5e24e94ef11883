"""Soak: a database of 10,000 games and 200,000+ moves, then a long run of commands.

    python bench/bench_soak.py [--games 10000] [--max-plies 40] [--plays 5000] [--seed 3]
                         [--tracemalloc]

1. Random legal playouts (0 to ``--max-plies`` plies, about 20 on average, so 10,000 games
   hold some 200,000 moves), stored in bulk through the repositories as bench/bench_service.py
   does, with deadlines far enough away that no game times out during the run.
2. One ``GameService`` (default cache) serves a long mixed run, as a busy server would: for
   each of ``--plays`` moves on a random active game, the player first looks at it
   (``get_game``), sometimes lists their games, asks for move suggestions or exports a
   record, then plays a random legal move in a random notation.  Games that end are
   replaced by other active ones.
3. Printed: medians and p99 of ``play`` and ``get_game`` (and the others), the process RSS
   before the run, after warm-up and at every tenth of the run, and whether it stayed
   flat (growth after warm-up under 10 % and 20 MB).  Target from the service benchmark:
   ``play`` p99 <= 20 ms.
4. Where the memory is, at the same moments (bench/memory.py): Python's live objects and
   arenas (pymalloc), the C heap in use and free (glibc), SQLite's own memory against its
   page-cache cap (``PRAGMA cache_size``), the bytes and fill of the service's caches
   (games, legal moves) against their caps, and the run's own timing samples.  Then the
   growth from the first tenth at which both caches are full (some 1,500 plays: warm-up
   can end before) split into those parts, what ``malloc_trim(0)`` gives back, and a
   verdict: a cache over its cap, or memory in use outside the samples and the caches
   that keeps growing, is what a leak looks like (exit status 1).  ``--tracemalloc`` also
   traces every Python allocation (some 5 times slower, so p99 is not judged) and lists
   the source lines whose live memory grew most.

What it found (seed 3, 10,000 games): the RSS creep of 0.12 MB per 1,000 plays after
warm-up (+3.3 MB over 30,000 plays) was this benchmark keeping its timing samples in lists
of floats, 32 bytes a sample and 2.4 samples a play (tracemalloc put 2.07 MB of the growth
from 3,000 to 30,000 plays on the line that appended them), plus the holes the growing
lists left in the C heap.  With the samples kept as below, the same run grows 1.0 MB, all
accounted for: samples +0.50, game cache +0.27, legal-move cache +0.12, everything else
-0.01 MB.  The caches reach their caps (512 games, 256 positions) and stay there; the
game cache's bytes grow only because its games get longer (every play adds a ply and few
random games end), some 340 bytes a cached ply, so they are bounded by cap x game length.
SQLite stays at 2.2 MB (the default page cache cap is 2 MB) and ``malloc_trim(0)`` gives
back 0.2 MB.  Over 100,000 plays: +3.1 MB after warm-up, of which samples +1.6 and game
cache +1.35 (cached games from 23 to 31 plies on average), everything else -0.2 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import sys
import tempfile
import time
import tracemalloc
from array import array
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import memory
from bench.bench_service import NOW, Playout, playout, store
from bench.memory import MB, rss_mb
from bench.timing import percentile, report
from bot.db import Database, open_database
from bot.services import GameService, ServiceError
from rules.notation import format_move

STYLES = ("usi", "western", "japanese", "csa")
T = TypeVar("T")


def generate(count: int, max_plies: int, seed: int) -> list[Playout]:
    started = time.perf_counter()
    seeds = range(seed * 10_000_000, seed * 10_000_000 + count)
    short = partial(playout, max_plies=max_plies, next_move=False)
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        games = list(pool.map(short, seeds, chunksize=128))
    moves = sum(len(g.moves) for g in games)
    elapsed = time.perf_counter() - started
    print(f"generated {count:,} playouts ({moves:,} moves) in {elapsed:.1f} s")
    return games


class Samples:
    """Timings in seconds, 8 bytes each, in blocks allocated once: a list takes 32
    bytes a sample, and a growing array is copied to ever larger buffers, leaving holes in
    the C heap; either way the run's own bookkeeping would look like a creep in RSS."""

    BLOCK = 4096  # 32 KiB

    def __init__(self) -> None:
        self._blocks: list[array[float]] = []
        self._used = self.BLOCK

    def append(self, value: float) -> None:
        if self._used == self.BLOCK:
            self._blocks.append(array("d", [0.0]) * self.BLOCK)
            self._used = 0
        self._blocks[-1][self._used] = value
        self._used += 1

    def __len__(self) -> int:
        return len(self._blocks) * self.BLOCK - (self.BLOCK - self._used)

    def values(self) -> list[float]:
        values = [value for block in self._blocks[:-1] for value in block]
        if self._blocks:
            values.extend(self._blocks[-1][: self._used])
        return values

    def nbytes(self) -> int:
        return sys.getsizeof(self._blocks) + sum(sys.getsizeof(b) for b in self._blocks)


@dataclass
class Timings:
    samples: dict[str, Samples]  # kept for the percentiles: they grow with the run

    async def time(self, name: str, action: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        result = await action()
        elapsed = time.perf_counter() - started
        samples = self.samples.get(name)
        if samples is None:
            samples = self.samples[name] = Samples()
        samples.append(elapsed)
        return result

    def nbytes(self) -> int:
        return sum(samples.nbytes() for samples in self.samples.values())


@dataclass(frozen=True)
class CacheFill:
    entries: int
    cap: int
    nbytes: int  # the cache with everything it holds
    plies: int | None  # moves held by the cached games (the game cache)


def cache_fill(cache: object, *, games: bool) -> CacheFill | None:
    """How full a service cache is, read from its insides (None if they changed shape)."""
    entries = getattr(cache, "_entries", None)
    cap = getattr(cache, "_size", None)
    if not isinstance(entries, dict) or not isinstance(cap, int):
        return None
    plies = None
    if games:
        try:
            plies = sum(len(loaded.game.moves) for loaded in entries.values())
        except AttributeError:
            plies = None
    nbytes = sys.getsizeof(entries) + sum(memory.deep_size(item) for item in entries.items())
    return CacheFill(len(entries), cap, nbytes, plies)


@dataclass(frozen=True)
class MemoryPoint:
    label: str
    played: int
    rss: float  # MB
    python: memory.Pymalloc | None
    c_heap: memory.GlibcMalloc | None
    sqlite: int | None
    samples: int  # bytes of the run's timing samples
    traced: int | None  # tracemalloc's live bytes (with --tracemalloc)
    tracing: int  # bytes tracemalloc itself uses (in the C heap)
    games: CacheFill | None
    legal: CacheFill | None

    @property
    def other(self) -> int | None:
        """Bytes in use that are neither the samples', the caches' nor SQLite's: Python's
        traced allocations (with --tracemalloc), else Python's small objects and the C heap."""
        games, legal = self.games, self.legal
        if games is None or legal is None:
            return None
        held = self.samples + games.nbytes + legal.nbytes
        if self.traced is not None:
            return self.traced - held
        if self.python is None or self.c_heap is None:
            return None
        return self.python.live + self.c_heap.used - held - (self.sqlite or 0)


def measure(label: str, played: int, service: GameService, timings: Timings) -> MemoryPoint:
    gc.collect()
    rss = rss_mb()  # first, before the probes allocate anything
    tracing = tracemalloc.is_tracing()
    return MemoryPoint(
        label=label,
        played=played,
        rss=rss,
        python=memory.pymalloc(),
        c_heap=memory.glibc_malloc(),
        sqlite=memory.sqlite_memory(),
        samples=timings.nbytes(),
        traced=tracemalloc.get_traced_memory()[0] if tracing else None,
        tracing=tracemalloc.get_tracemalloc_memory() if tracing else 0,
        games=cache_fill(getattr(service, "_games", None), games=True),
        legal=cache_fill(getattr(service, "_legal", None), games=False),
    )


async def sqlite_cache_cap(db: Database) -> int | None:
    """The page-cache cap of the database connection in bytes (``PRAGMA cache_size``
    counts pages, or KiB when negative)."""
    connection = getattr(db, "_connection", None)
    if connection is None:
        return None
    size = (await connection.execute_fetchall("PRAGMA cache_size"))[0][0]
    page = (await connection.execute_fetchall("PRAGMA page_size"))[0][0]
    return int(-size * 1024 if size < 0 else size * page)


def _mb(value: int | None, width: int = 7, *, sign: bool = False) -> str:
    if value is None:
        return f"{'n/a':>{width}}"
    return f"{value / MB:+{width}.2f}" if sign else f"{value / MB:{width}.2f}"


def _growth(start: MemoryPoint, end: MemoryPoint, read: Callable[[MemoryPoint], int | None]) -> str:
    before, after = read(start), read(end)
    return _mb(None if before is None or after is None else after - before, sign=True)


def _live(point: MemoryPoint) -> int | None:
    return None if point.python is None else point.python.live


def _arenas(point: MemoryPoint) -> int | None:
    return None if point.python is None else point.python.arenas


def _c_used(point: MemoryPoint) -> int | None:
    return None if point.c_heap is None else point.c_heap.used


def _c_free(point: MemoryPoint) -> int | None:
    return None if point.c_heap is None else point.c_heap.free


def _full(point: MemoryPoint) -> bool:
    games, legal = point.games, point.legal
    return all(fill is None or fill.entries >= fill.cap for fill in (games, legal))


def _short(point: MemoryPoint) -> str:
    if point.played == 0:
        return "before the run"
    return f"{point.played:,} plays{' (warm-up)' if 'warm-up' in point.label else ''}"


def _cache_cell(fill: CacheFill | None) -> str:
    if fill is None:
        return f"{'n/a':>9}"
    plies = "" if fill.plies is None else f" {fill.plies:>7,}"
    return f"{fill.entries:>4}/{fill.cap:<4} {fill.nbytes / MB:5.2f}{plies}"


# Growth, once the caches are full, of what is in use outside the samples and the caches
# that is taken for a leak: more than this many bytes a play and more than LEAK_FLOOR in
# all (the noise is some 0.2 MB either way; one small object kept a play is 50 bytes).
LEAK_BYTES_A_PLAY = 16
LEAK_FLOOR = MB // 2


def memory_report(
    points: list[MemoryPoint],
    samples_kept: int,
    sqlite_cap: int | None,
    lines: tuple[memory.LineSizes, memory.LineSizes] | None,
    trimmed: tuple[float, float] | None,
) -> bool:
    """The memory at each point, where its growth went once the caches were full, and a
    verdict: False when something grew that neither the samples nor the capped caches
    explain."""
    tracing = points[-1].traced is not None
    print(
        "\nmemory, MB                 RSS  objects  arenas  C used  C free  sqlite samples"
        + (" traced" if tracing else "")
        + "  game cache (plies held)  legal moves"
    )
    for point in points:
        print(
            f"{_short(point):<24} {point.rss:6.1f} {_mb(_live(point), 8)}"
            f" {_mb(_arenas(point))} {_mb(_c_used(point))}"
            f" {_mb(_c_free(point))} {_mb(point.sqlite)} {_mb(point.samples)}"
            + (f" {_mb(point.traced, 6)}" if tracing else "")
            + f"  {_cache_cell(point.games)}  {_cache_cell(point.legal)}"
        )
    # Growth is judged from the first point after warm-up where both caches are full:
    # before that it is the caches filling (the legal-move cache takes some 1,300 plays).
    full = next((p for p in points[1:] if _full(p)), None)
    start, end = full or points[1], points[-1]
    plays = end.played - start.played
    if plays <= 0:
        print("the caches filled only at the end: run longer (--plays) to judge the growth")
        return True
    state = "caches full" if full else "warm-up; the caches never filled"
    print(f"growth from {start.played:,} plays ({state}) to the end ({plays:,} plays), MB:")
    print(f"  RSS                              {end.rss - start.rss:+7.2f}")
    print(
        f"  timing samples of this run       {_growth(start, end, lambda p: p.samples)}"
        f"   ({samples_kept:,} kept for the percentiles)"
    )
    print(
        f"  Python objects (pymalloc, live)  {_growth(start, end, _live)}"
        f"   arenas {_growth(start, end, _arenas).strip()}"
    )
    print(
        f"  C heap in use / free held        {_growth(start, end, _c_used)}"
        f" / {_growth(start, end, _c_free).strip()}"
    )
    cap = "" if sqlite_cap is None else f"; page cache capped at {sqlite_cap / MB:.2f} MB"
    print(
        f"  SQLite                           {_growth(start, end, lambda p: p.sqlite)}"
        f"   ({_mb(end.sqlite).strip()} MB in all{cap})"
    )
    bounded = True
    for name, what, first, last in (
        ("game cache", "games", start.games, end.games),
        ("legal-move cache", "positions", start.legal, end.legal),
    ):
        if first is None or last is None:
            print(f"  {name:<32} n/a (its insides changed shape)")
            continue
        detail = f"{first.entries:,} -> {last.entries:,} of {last.cap:,} {what}"
        if first.plies is not None and last.plies is not None:
            added = last.plies - first.plies
            detail += f"; plies held {first.plies:,} -> {last.plies:,}"
            if added > 0:
                detail += f" ({(last.nbytes - first.nbytes) / added:+.0f} B a ply added)"
        print(f"  {name:<32} {_mb(last.nbytes - first.nbytes, sign=True)}   ({detail})")
        if last.entries > last.cap:
            bounded = False
            print(f"  -> the {name} holds more than its cap: it is not bounded")
    if tracing:
        print(
            f"  Python, traced (tracemalloc)     {_growth(start, end, lambda p: p.traced)}"
            f"   (tracemalloc itself {_growth(start, end, lambda p: p.tracing).strip()})"
        )
    other_before, other_after = start.other, end.other
    other = None if other_before is None or other_after is None else other_after - other_before
    formula = (
        "traced - samples - caches" if tracing else "objects + C heap - samples - caches - SQLite"
    )
    print(f"  everything else in use           {_mb(other, sign=True)}   ({formula})")
    if trimmed is not None:
        before, after = trimmed
        print(
            f"at the end, malloc_trim(0) took RSS from {before:.1f} to {after:.1f} MB"
            f" ({after - before:+.1f} MB: free C heap given back, allocator high-water)"
        )
    if lines is not None:
        print(
            f"source lines whose live Python memory grew most from {start.played:,} plays"
            " (tracemalloc):"
        )
        for where, size, blocks in memory.top_growth(*lines, 10):
            print(f"  {size / 1024:+9.1f} KiB {blocks:+8,} blocks  {where}")
    if other is None:
        print("memory verdict: not judged (the probes are not available here)")
        return bounded
    per_play = other / plays
    if other > LEAK_FLOOR and per_play > LEAK_BYTES_A_PLAY:
        bounded = False
        print(
            f"memory verdict: possible LEAK: {other / MB:+.2f} MB ({per_play:+.0f} B a play) in use"
            " outside the samples and the caches"
        )
    elif not bounded:
        print("memory verdict: NOT bounded: a cache holds more than its cap")
    else:
        print(
            f"memory verdict: bounded: the caches stay within their caps, and what is in use"
            f" outside them and the samples moved {other / MB:+.2f} MB ({per_play:+.1f} B a play)"
        )
    return bounded


async def soak(
    db: Database,
    ids: list[int],
    playouts: list[Playout],
    plays: int,
    seed: int,
    *,
    trace: bool = False,
) -> bool:
    rng = random.Random(seed)
    service = GameService(db, clock=lambda: NOW)
    active = [i for i, p in zip(ids, playouts, strict=True) if p.termination is None]
    print(f"{len(active):,} active games to play in")
    timings = Timings({})
    if trace:
        tracemalloc.start()
    points = [measure("before the run", 0, service, timings)]
    warm_up = max(1, plays // 10)
    lines_at_full: memory.LineSizes | None = None
    played = ended = refused = 0
    while played < plays:
        game_id = rng.choice(active)
        view = await timings.time("get_game", lambda: service.games.get(game_id))  # noqa: B023
        if not view.is_active or view.to_move is None:
            active.remove(game_id)
            continue
        user = view.to_move.user_id
        roll = rng.random()
        if roll < 0.2:
            await timings.time("list_games", lambda: service.games.active_for(user, guild_id=1))  # noqa: B023
        elif roll < 0.4:
            await timings.time("legal_moves", lambda: service.games.legal_moves(game_id))  # noqa: B023
        elif roll < 0.43:
            fmt = rng.choice(("kif", "csa", "usi"))
            await timings.time("export", lambda: service.exports.file(game_id, fmt))  # noqa: B023
        position = view.game.position
        last = view.game.moves[-1] if view.game.moves else None
        move = rng.choice(position.legal_moves())
        text = format_move(position, move, rng.choice(STYLES), last_move=last)
        try:
            result = await timings.time("play", lambda: service.moves.play(game_id, user, text))  # noqa: B023
        except ServiceError as error:  # e.g. an ambiguous rendering: counted, not fatal
            refused += 1
            if refused <= 3:
                print(f"  refused {text!r} in game {game_id}: {error.message}")
            continue
        played += 1
        if result.outcome is not None:
            ended += 1
            active.remove(game_id)
        if played % warm_up == 0:
            label = f"after {played:,} plays"
            if played == warm_up:
                label = f"after warm-up ({played:,} plays)"
            # Line sizes are taken before the point, so that what they keep is in it; the
            # growth is judged from the first point where the caches are full.
            lines = memory.LineSizes.now() if trace and lines_at_full is None else None
            points.append(measure(label, played, service, timings))
            if lines is not None and _full(points[-1]):
                lines_at_full = lines
            lines = None
    gc.collect()
    trimmed = memory.trimmed()  # before the reports below allocate for their sorting
    lines_pair = None
    if lines_at_full is not None:
        lines_pair = (lines_at_full, memory.LineSizes.now())
    if trace:
        tracemalloc.stop()
    print(f"played {played:,} moves ({ended} games ended, {refused} refused texts)")
    for name in ("play", "get_game", "list_games", "legal_moves", "export"):
        if name in timings.samples:
            report(name, timings.samples[name].values())
    for point in points:
        print(f"RSS {point.label:<28} {point.rss:8.1f} MB")
    settled = points[1].rss
    final = points[-1].rss
    growth = final - settled
    flat = growth < max(20.0, 0.10 * settled)
    print(
        f"RSS growth after warm-up: {growth:+.1f} MB ({growth / settled:+.1%}): "
        f"{'flat' if flat else 'NOT flat'}"
    )
    p99 = percentile(timings.samples["play"].values(), 0.99) * 1000
    if trace:
        print(f"play p99 {p99:.2f} ms: not judged (tracemalloc slows every allocation)")
    else:
        print(f"play p99 {p99:.2f} ms: {'within' if p99 <= 20 else 'OVER'} the 20 ms target")
    kept = sum(len(samples) for samples in timings.samples.values())
    bounded = memory_report(points, kept, await sqlite_cache_cap(db), lines_pair, trimmed)
    return flat and bounded and (trace or p99 <= 20)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--max-plies", type=int, default=40)
    parser.add_argument("--plays", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    parser.add_argument(
        "--tracemalloc",
        action="store_true",
        help="trace Python allocations and list the lines that grew (slower; p99 not judged)",
    )
    args = parser.parse_args()
    playouts = generate(args.games, args.max_plies, args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        path = args.keep or Path(scratch) / "soak.db"
        db = await open_database(path)
        try:
            ids = await store(db, playouts, args.seed)
            await db.checkpoint()
            size = path.stat().st_size
            print(f"database size: {size / 1e6:.1f} MB")
            ok = await soak(db, ids, playouts, args.plays, args.seed, trace=args.tracemalloc)
        finally:
            await db.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

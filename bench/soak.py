"""Soak: a database of 10,000 games and 200,000+ moves, then a long run of commands.

    python bench/soak.py [--games 10000] [--max-plies 40] [--plays 5000] [--seed 3]

1. Random legal playouts (0 to ``--max-plies`` plies, about 20 on average, so 10,000 games
   hold some 200,000 moves), stored in bulk through the repositories as bench/service.py
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
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.service import NOW, Playout, report, store
from bot.db import Database
from bot.services import GameService, ServiceError
from rules import Game
from rules.notation import format_move

STYLES = ("usi", "western", "japanese", "csa")
T = TypeVar("T")


def playout(seed_and_max: tuple[int, int]) -> Playout:
    seed, max_plies = seed_and_max
    rng = random.Random(seed)
    game = Game()
    length = rng.randint(0, max_plies)
    while game.ply < length and game.outcome is None:
        game.push(rng.choice(game.position.legal_moves()))
    outcome = game.outcome
    return Playout(
        moves=tuple(move.usi() for move in game.moves),
        sfen=game.position.sfen(),
        termination=None if outcome is None else outcome.termination.value,
        winner=None if outcome is None or outcome.winner is None else outcome.winner.name.lower(),
        next_move=None,
    )


def generate(count: int, max_plies: int, seed: int) -> list[Playout]:
    started = time.perf_counter()
    jobs = [(seed * 10_000_000 + i, max_plies) for i in range(count)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        games = list(pool.map(playout, jobs, chunksize=128))
    moves = sum(len(g.moves) for g in games)
    elapsed = time.perf_counter() - started
    print(f"generated {count:,} playouts ({moves:,} moves) in {elapsed:.1f} s")
    return games


def rss_mb() -> float:
    """The resident set size of this process now (not the peak), in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Timings:
    samples: dict[str, list[float]]

    async def time(self, name: str, action: Callable[[], Awaitable[T]]) -> T:
        started = time.perf_counter()
        result = await action()
        self.samples.setdefault(name, []).append((time.perf_counter() - started) * 1000)
        return result


async def soak(
    db: Database, ids: list[int], playouts: list[Playout], plays: int, seed: int
) -> bool:
    rng = random.Random(seed)
    service = GameService(db, clock=lambda: NOW)
    active = [i for i, p in zip(ids, playouts, strict=True) if p.termination is None]
    print(f"{len(active):,} active games to play in")
    timings = Timings({})
    gc.collect()
    memory = [("before the run", rss_mb())]
    warm_up = max(1, plays // 10)
    played = ended = refused = 0
    while played < plays:
        game_id = rng.choice(active)
        view = await timings.time("get_game", lambda: service.get_game(game_id))  # noqa: B023
        if not view.is_active or view.to_move is None:
            active.remove(game_id)
            continue
        user = view.to_move.user_id
        roll = rng.random()
        if roll < 0.2:
            await timings.time("list_games", lambda: service.list_games(user, guild_id=1))  # noqa: B023
        elif roll < 0.4:
            await timings.time("legal_moves", lambda: service.legal_moves(game_id))  # noqa: B023
        elif roll < 0.43:
            fmt = rng.choice(("kif", "csa", "usi"))
            await timings.time("export", lambda: service.export(game_id, fmt))  # noqa: B023
        position = view.game.position
        last = view.game.moves[-1] if view.game.moves else None
        move = rng.choice(position.legal_moves())
        text = format_move(position, move, rng.choice(STYLES), last_move=last)
        try:
            result = await timings.time("play", lambda: service.play(game_id, user, text))  # noqa: B023
        except ServiceError as error:  # e.g. an ambiguous rendering: counted, not fatal
            refused += 1
            if refused <= 3:
                print(f"  refused {text!r} in game {game_id}: {error.message}")
            continue
        played += 1
        if result.outcome is not None:
            ended += 1
            active.remove(game_id)
        if played == warm_up:
            gc.collect()
            memory.append((f"after warm-up ({played:,} plays)", rss_mb()))
        elif played % warm_up == 0:
            gc.collect()
            memory.append((f"after {played:,} plays", rss_mb()))
    print(f"played {played:,} moves ({ended} games ended, {refused} refused texts)")
    for name in ("play", "get_game", "list_games", "legal_moves", "export"):
        if name in timings.samples:
            report(name, timings.samples[name])
    for label, value in memory:
        print(f"RSS {label:<28} {value:8.1f} MB")
    settled = memory[1][1]
    final = memory[-1][1]
    growth = final - settled
    flat = growth < max(20.0, 0.10 * settled)
    print(
        f"RSS growth after warm-up: {growth:+.1f} MB ({growth / settled:+.1%}): "
        f"{'flat' if flat else 'NOT flat'}"
    )
    play_ms = sorted(timings.samples["play"])
    p99 = play_ms[min(len(play_ms) - 1, round(0.99 * (len(play_ms) - 1)))]
    print(f"play p99 {p99:.2f} ms: {'within' if p99 <= 20 else 'OVER'} the 20 ms target")
    return flat and p99 <= 20


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--max-plies", type=int, default=40)
    parser.add_argument("--plays", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    args = parser.parse_args()
    playouts = generate(args.games, args.max_plies, args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        path = args.keep or Path(scratch) / "soak.db"
        db = await Database.open(path)
        try:
            ids = await store(db, playouts, args.seed)
            await db.checkpoint()
            size = path.stat().st_size
            print(f"database size: {size / 1e6:.1f} MB")
            ok = await soak(db, ids, playouts, args.plays, args.seed)
        finally:
            await db.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""Benchmark of the game service on a database of 10,000 stored games.

    python bench/bench_service.py [--games 10000] [--samples 1000] [--seed 1] [--keep PATH]
                                  [--database postgresql://user@host/empty_database]

Games are random legal playouts of 0 to 150 moves (generated in worker
processes, stored in bulk through the repository). Then, each on games picked
at random, it measures:

* `play` cold: the first touch of a game since start-up (load the moves, replay
  them, parse the move, validate, store it, decide the outcome);
* `play` warm: the game was just shown (`get_game`), as when a player looks at
  the board and then moves; its replay is cached;
* `get_game` cold and warm: loading a game with its position;
* `play` triggering a forecast: a warm game whose waiting player stored a line for the
  move played, so the same call also plays the reply (the issue's target: at most twice
  a plain warm `play`, measured in the same run; the ratio is printed).

The move texts are a mix of USI, Western and Japanese. It prints the median and
99th percentile of each, and the database size. Target: `play` p99 <= 20 ms.

With `--database`, the same games and the same measurements run next on that PostgreSQL
database (it must be empty), and it prints `play` on each backend and the ratio of the
99th percentiles (target: PostgreSQL's within 1.5x of SQLite's).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, percentile, report
from bot.db import (
    BulkGame,
    Database,
    DeadlineRow,
    MoveRow,
    NewGame,
    PlayerRow,
    Terms,
    open_database,
)
from bot.services import GameService
from bot.services.clock.clocks import reminder_at
from rules import Game, Handicap
from rules.notation import format_move, parse_move

MAX_PLIES = 150
PLAYERS = 400
STYLES = ("usi", "western", "japanese")
NOW = datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class Playout:
    moves: tuple[str, ...]
    sfen: str
    termination: str | None
    winner: str | None
    next_move: str | None  # a legal next move in some notation (None if the game ended)


def playout(seed: int, max_plies: int = MAX_PLIES, *, next_move: bool = True) -> Playout:
    """A random legal game of 0 to `max_plies` moves, the same for the same seed; with
    `next_move`, a legal move to play next in it (in a random notation)."""
    rng = random.Random(seed)
    game = Game()
    length = rng.randint(0, max_plies)
    while game.ply < length and game.outcome is None:
        game.push(rng.choice(game.position.legal_moves()))
    outcome = game.outcome
    text = None
    if outcome is None and next_move:
        move = rng.choice(game.position.legal_moves())
        last = game.moves[-1] if game.moves else None
        text = format_move(game.position, move, rng.choice(STYLES), last_move=last)
    return Playout(
        moves=tuple(move.usi() for move in game.moves),
        sfen=game.position.sfen(),
        termination=None if outcome is None else outcome.termination.value,
        winner=None if outcome is None or outcome.winner is None else outcome.winner.name.lower(),
        next_move=text,
    )


def generate(count: int, seed: int) -> list[Playout]:
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        games = list(
            pool.map(playout, range(seed * 1_000_000, seed * 1_000_000 + count), chunksize=64)
        )
    print(f"generated {count:,} playouts in {time.perf_counter() - started:.1f} s")
    return games


def bulk_game(playout: Playout, rng: random.Random) -> BulkGame:
    sente, gote = rng.sample(range(1, PLAYERS + 1), 2)
    started = NOW - timedelta(days=rng.uniform(1, 30))
    step = (NOW - started) / (len(playout.moves) + 1)
    moves = tuple(
        MoveRow(0, ply, usi, sente if ply % 2 == 1 else gote, started + step * ply)
        for ply, usi in enumerate(playout.moves, start=1)
    )
    last = started + step * len(moves)
    period = timedelta(days=rng.choice((3, 7, 14)))
    deadline = None
    if playout.termination is None:
        waiting = sente if len(moves) % 2 == 0 else gote
        # Give every game time to spare at the moment of measuring.
        period = max(period, NOW - last + timedelta(days=3))
        due = last + period
        deadline = DeadlineRow(0, waiting, due, reminder_at(last, due))
    new = NewGame(
        guild_id=1,
        channel_id=1,
        sente_id=sente,
        gote_id=gote,
        terms=Terms(bank=timedelta(), period=period, handicap=Handicap.EVEN.id, impasse_rule="27"),
        start_sfen=Handicap.EVEN.sfen,
        started_at=started,
    )
    return BulkGame(new, moves, playout.sfen, last, playout.termination, playout.winner, deadline)


async def store(db: Database, playouts: list[Playout], seed: int) -> list[int]:
    rng = random.Random(seed)
    started = time.perf_counter()
    async with db.transaction() as tx:
        for user_id in range(1, PLAYERS + 1):
            await tx.players.upsert(PlayerRow(user_id, f"player{user_id}"), NOW)
    ids: list[int] = []
    for start in range(0, len(playouts), 1_000):
        chunk = [bulk_game(p, rng) for p in playouts[start : start + 1_000]]
        async with db.transaction() as tx:
            ids += await tx.games.bulk_insert(chunk)
    elapsed = time.perf_counter() - started
    moves = sum(len(p.moves) for p in playouts)
    print(f"stored {len(ids):,} games with {moves:,} moves in {elapsed:.1f} s")
    return ids


async def measure(
    db: Database, playouts: dict[int, Playout], samples: int, seed: int
) -> list[float]:
    """Every measurement on `db`, printed; the `play` samples (cold and warm)."""
    rng = random.Random(seed)
    active = [game_id for game_id, p in playouts.items() if p.next_move is not None]
    chosen = rng.sample(active, min(len(active), 3 * samples))
    cold_ids, warm_ids = chosen[:samples], chosen[samples : 2 * samples]
    forecast_ids = chosen[2 * samples :]
    service = GameService(db, clock=lambda: NOW, cache_size=4 * samples)
    load_cold: list[float] = []
    load_warm: list[float] = []
    play_cold: list[float] = []
    play_warm: list[float] = []
    for game_id in cold_ids:
        mover = (await service.games.get(game_id)).to_move  # untimed: who moves
        service.store.forget(game_id)  # forget the replay again: a cold play
        text = playouts[game_id].next_move
        assert mover is not None and text is not None
        with lap(play_cold):
            await service.moves.play(game_id, mover.user_id, text)
    for game_id in warm_ids:
        with lap(load_cold):
            await service.games.get(game_id)
        with lap(load_warm):
            await service.games.get(game_id)
        mover = (await service.games.get(game_id)).to_move
        text = playouts[game_id].next_move
        assert mover is not None and text is not None
        with lap(play_warm):
            await service.moves.play(game_id, mover.user_id, text)
    play_forecast: list[float] = []
    for game_id in forecast_ids:
        line = await forecast_for(service, game_id, playouts[game_id], rng)
        if line is None:
            continue  # the move ends the game: nothing to answer
        mover_id, move_text = line
        await service.games.get(game_id)  # warm, as for `play_warm`
        with lap(play_forecast):
            await service.moves.play(game_id, mover_id, move_text)
    report("play (cold game)", play_cold)
    report("play (warm game)", play_warm)
    report("play (all)", play_cold + play_warm)
    report("get_game (cold)", load_cold)
    report("get_game (warm)", load_warm)
    report("play + forecast reply", play_forecast)
    ratio = statistics.median(play_forecast) / statistics.median(play_warm)
    print(f"forecast reply / plain warm play (medians): {ratio:.2f}x (target <= 2x)")
    return play_cold + play_warm


async def on_postgres(url: str, playouts: list[Playout], samples: int, seed: int) -> list[float]:
    db = await open_database(url)
    try:
        async with db.query() as q:
            if await q.games.count():
                raise SystemExit(f"{db.location} holds games already: give an empty database")
        ids = await store(db, playouts, seed)
        return await measure(db, dict(zip(ids, playouts, strict=True)), samples, seed)
    finally:
        await db.close()


async def forecast_for(
    service: GameService, game_id: int, playout: Playout, rng: random.Random
) -> tuple[int, str] | None:
    """Store, for the player waiting in `game_id`, a line answering the playout's next move
    with a random legal reply; the mover's id and the move's text (None if the move ends
    the game)."""
    snapshot = await service.games.get(game_id)
    assert snapshot.to_move is not None and playout.next_move is not None
    waiting = snapshot.opponent_of(snapshot.to_move.user_id)
    game = snapshot.game.copy()
    move = parse_move(game.position, playout.next_move, last_move=snapshot.last_move)
    game.push(move)
    if game.outcome is not None:
        return None
    reply = rng.choice(game.position.legal_moves())
    await service.forecasts.add(game_id, waiting.user_id, f"{move.usi()} {reply.usi()}")
    return snapshot.to_move.user_id, playout.next_move


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    parser.add_argument(
        "--database", metavar="URL", help="also measure on this (empty) PostgreSQL database"
    )
    args = parser.parse_args()
    playouts = generate(args.games, args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        path = args.keep or Path(scratch) / "bench.db"
        db = await open_database(path)
        try:
            print("== SQLite")
            ids = await store(db, playouts, args.seed)
            await db.checkpoint()
            size = path.stat().st_size
            print(f"database size: {size / 1e6:.1f} MB ({size / len(ids):,.0f} bytes per game)")
            lite = await measure(db, dict(zip(ids, playouts, strict=True)), args.samples, args.seed)
        finally:
            await db.close()
    if args.database is None:
        return
    print("== PostgreSQL")
    postgres = await on_postgres(args.database, playouts, args.samples, args.seed)
    print("== play (all), both backends")
    for name, samples in (("SQLite", lite), ("PostgreSQL", postgres)):
        report(name, samples)
    ratio = percentile(postgres, 0.99) / percentile(lite, 0.99)
    print(f"PostgreSQL / SQLite p99: {ratio:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    asyncio.run(main())

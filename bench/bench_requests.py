"""Benchmark of requests to Discord: what a game costs in each way of playing, counted by the
fake Discord by whether Discord's global limit (50 a second per bot token) counts them.

    python bench/bench_requests.py [--games 3]

Each way plays its games through the real bot and discord.py against the fake Discord: a
/challenge and its Accept, the same six moves, and a resignation by the player to move.

* typed: /move in the game's thread (the reference);
* elsewhere: /move in the server's channel, naming the game;
* pointing: Move under the board, a piece, a square;
* mention: a message naming the bot in the thread;
* forecast: the first player stores the rest of the opening with /forecast and the bot
  plays it in reply to the second player's typed moves;
* dms: typed, both players taking a direct message at each turn.

For each it prints requests per move (the moves alone) and per game (start, moves and
ending), exempt (interaction responses and their webhook) and global-limited, and the
global-limited routes of a whole game. A move typed in its thread must cost no
global-limited request; the script exits 1 if one does, or if the fake saw a problem.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import NAME_WIDTH
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, FakeMember, is_global_limited
from tests.support.club import Club, Table, open_club
from tests.support.pointing import point

OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e")
#: Seconds without a request after which a step counts as done (turn messages and forecast
#: replies are sent in tasks of their own, after the answer).
QUIET = 0.2


@dataclass
class Tally:
    """Requests of one way of playing over its games, by route."""

    moves: Counter[str] = field(default_factory=Counter)
    games: Counter[str] = field(default_factory=Counter)
    move_count: int = 0
    game_count: int = 0

    def add_game(self, moves: Counter[str], game: Counter[str]) -> None:
        self.moves += moves
        self.games += game
        self.move_count += len(OPENING)
        self.game_count += 1

    def line(self, name: str) -> str:
        def split(counts: Counter[str], n: int) -> str:
            limited = sum(v for r, v in counts.items() if is_global_limited(r))
            exempt = counts.total() - limited
            return f"{exempt / n:7.2f} {limited / n:8.2f}"

        per_move = split(self.moves, self.move_count)
        return f"{name:<{NAME_WIDTH}} {per_move}   {split(self.games, self.game_count)}"


#: One step of a game: what a player does, and the number of moves played once it is done.
Step = tuple[Callable[[], Awaitable[Any]], int]
Way = Callable[[Club, Table], list[Step]]


def mover(club: Club, ply: int) -> FakeMember:
    return club.alice if ply % 2 == 0 else club.bob


def typed(club: Club, table: Table) -> list[Step]:
    def move(ply: int) -> Step:
        return (lambda: club.move(mover(club, ply), OPENING[ply], table), ply + 1)

    return [move(ply) for ply in range(len(OPENING))]


def elsewhere(club: Club, table: Table) -> list[Step]:
    def move(ply: int) -> Step:
        options = {"move": OPENING[ply], "game": str(table.game_id)}
        user = mover(club, ply)
        return (lambda: club.fake.slash("move", options, user=user, channel=club.channel), ply + 1)

    return [move(ply) for ply in range(len(OPENING))]


def pointing(club: Club, table: Table) -> list[Step]:
    def move(ply: int) -> Step:
        return (lambda: point(club, table, mover(club, ply), OPENING[ply]), ply + 1)

    return [move(ply) for ply in range(len(OPENING))]


def mention(club: Club, table: Table) -> list[Step]:
    def move(ply: int) -> Step:
        return (lambda: club.say(mover(club, ply), OPENING[ply], table.thread), ply + 1)

    return [move(ply) for ply in range(len(OPENING))]


def forecast(club: Club, table: Table) -> list[Step]:
    """Alice's first move, then her forecast of the next four: bob's typed moves are
    answered by the bot in her name."""
    line = " ".join(OPENING[1:5])
    alice, bob = club.alice, club.bob
    return [
        (lambda: club.move(alice, OPENING[0], table), 1),
        (lambda: club.fake.slash("forecast", {"line": line}, user=alice, channel=table.thread), 1),
        (lambda: club.move(bob, OPENING[1], table), 3),
        (lambda: club.move(bob, OPENING[3], table), 5),
        (lambda: club.move(bob, OPENING[5], table), 6),
    ]


async def each_turn(club: Club) -> None:
    for member in (club.alice, club.bob):
        await club.prefer(member, notifications="each")


#: Each way: how its moves are played, and what its players chose first.
WAYS: dict[str, tuple[Way, Callable[[Club], Awaitable[None]] | None]] = {
    "typed in the thread": (typed, None),
    "typed elsewhere": (elsewhere, None),
    "by pointing": (pointing, None),
    "by mention": (mention, None),
    "with a forecast reply": (forecast, None),
    "typed, each-turn DMs on": (typed, each_turn),
}


async def settled(club: Club, table: Table, ply: int) -> None:
    """Until the game has ``ply`` moves and the bot has gone quiet."""
    deadline = time.monotonic() + 10
    while (await club.game(table.game_id)).ply < ply:
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {table.game_id} did not reach ply {ply}")
        await asyncio.sleep(0.01)
    await club.fake.wait_quiet(QUIET)


async def measure(club: Club, step: Awaitable[Any]) -> Counter[str]:
    """The requests ``step`` cost (a coroutine not yet started), once the bot went quiet."""
    await club.fake.wait_quiet(QUIET)
    club.fake.request_counts.reset()
    await step
    await club.fake.wait_quiet(QUIET)
    return Counter(club.fake.request_counts.by_route)


async def play_way(name: str, games: int, workdir: Path) -> tuple[Tally, list[str]]:
    """``games`` games in ``name``'s way on a fresh fake Discord and bot; the tally and the
    problems the fake and the guard saw."""
    way, setup = WAYS[name]
    guard = E2EGuard()
    guard.install()
    fake = FakeDiscord()
    await fake.start()
    tally = Tally()
    try:
        with fake.patched_discord():
            runner = BotRunner(fake, guard)
            try:
                club = await open_club(fake, runner, guard, workdir)
                if setup is not None:
                    await setup(club)
                for _ in range(games):
                    tally.add_game(*await play_game(club, way))
            finally:
                await runner.close_all()
    finally:
        await fake.stop()
    problems = fake.problems() + await guard.finish()
    return tally, problems


async def play_game(club: Club, way: Way) -> tuple[Counter[str], Counter[str]]:
    """One game from its challenge to alice's resignation: what its moves cost, and what
    the whole game cost."""
    tables: list[Table] = []
    game = await measure(club, _start(club, tables))
    [table] = tables
    moves: Counter[str] = Counter()
    for action, ply in way(club, table):
        moves += await measure(club, _step(club, table, action, ply))
    game += moves
    game += await measure(club, club.resign(table, club.alice))
    return moves, game


async def _start(club: Club, tables: list[Table]) -> None:
    tables.append(await club.new_game(club.alice, club.bob))


async def _step(club: Club, table: Table, action: Callable[[], Awaitable[Any]], ply: int) -> None:
    await action()
    await settled(club, table, ply)


async def bench(games: int) -> int:
    header = f"{'requests':<{NAME_WIDTH}} {'per move':>16}   {'per game':>16}"
    sub = f"{'':<{NAME_WIDTH}} {'exempt':>7} {'limited':>8}   {'exempt':>7} {'limited':>8}"
    failed = False
    lines, routes = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for index, name in enumerate(WAYS):
            workdir = Path(tmp) / str(index)
            workdir.mkdir()
            tally, problems = await play_way(name, games, workdir)
            lines.append(tally.line(name))
            limited = {r: n / games for r, n in tally.games.items() if is_global_limited(r)}
            routes.append(f"  {name}: " + ", ".join(f"{r} {n:.3g}" for r, n in limited.items()))
            for problem in problems:
                print(f"{name}: {problem}")
                failed = True
            if name == "typed in the thread" and any(is_global_limited(r) for r in tally.moves):
                print(f"{name}: a move cost a global-limited request: {dict(tally.moves)}")
                failed = True
    print(f"{games} games a way, {len(OPENING)} moves and a resignation each")
    print(header, sub, *lines, sep="\n")
    print("global-limited requests per game, by route:", *routes, sep="\n")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games in each way")
    args = parser.parse_args()
    return asyncio.run(bench(args.games))


if __name__ == "__main__":
    sys.exit(main())

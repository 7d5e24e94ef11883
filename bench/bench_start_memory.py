"""Where a bot process's memory goes: at import, at start, and once games are played.

    python bench/bench_start_memory.py [--games 50] [--moves 10]

1. Imports: a fresh interpreter imports, step by step, what a started bot has imported
   (asyncio, aiohttp, discord.py, Pillow, the rules, the renderer, the storage, the
   service, the client and every feature), printing the RSS after each step and what
   each step added.
2. The bot against the fake Discord (tests/fakediscord; the bot in a process of its own,
   as bench/bench_e2e.py runs it): its RSS once connected with its commands published
   (the budget: `MAX_START_RSS_MIB`, flagged with exit status 1 when passed), after
   ``--games`` games were set up at once (each start posts a board: the renderer's first
   drawings), after each played ``--moves`` moves, and its peak (`VmHWM`) over the run.
   The reference is the first line: the interpreter with nothing imported.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_e2e import Figures, all_set_up, opening, play_game  # noqa: E402
from bench.timing import NAME_WIDTH  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

MAX_START_RSS_MIB = 100.0
E2E = ROOT / "bench" / "bench_e2e.py"

#: What a started bot imports, in the order it needs them.
STEPS = (
    "asyncio",
    "aiohttp",
    "discord",
    "PIL.Image",
    "rules",
    "render",
    "bot.db",
    "bot.services",
    "bot.ui",
    "bot.client",
    "<features>",
)

_IMPORTS = """
import importlib, json, sys
def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
steps = [("nothing", rss())]
for name in sys.argv[1:]:
    if name == "<features>":
        import bot.client
        for feature in bot.client.EXTENSIONS:
            importlib.import_module(feature)
    else:
        importlib.import_module(name)
    steps.append((name, rss()))
print(json.dumps(steps))
"""


def import_steps() -> list[tuple[str, float]]:
    run = subprocess.run(
        [sys.executable, "-c", _IMPORTS, *STEPS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [(name, float(rss)) for name, rss in json.loads(run.stdout)]


def status_mib(pid: int, field: str) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def bot_memory(games: int, moves: int) -> list[tuple[str, float]]:
    """The bot process's RSS at each stage, and its peak last."""
    fake = FakeDiscord(default_timeout=60)
    await fake.start()
    guild = fake.add_guild("Memory club", channels=("shogi",))
    channel = fake.channel("shogi", guild)
    members = [fake.add_member(guild, f"p{i:03d}") for i in range(2 * games)]
    stages: list[tuple[str, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(E2E), "--bot-process", fake.url, fake.token,
            str(Path(folder) / "memory.db"), stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            await fake.wait_connected(timeout=120)
            await fake.wait_commands_synced(timeout=120)
            await fake.wait_quiet(1.0, timeout=60)
            stages.append(("at start", status_mib(process.pid, "VmRSS")))
            figures = Figures(games)
            start = asyncio.Event()
            texts = opening(moves)
            tasks = [
                asyncio.create_task(
                    play_game(
                        fake, channel, members[i], members[games + i], texts, start,
                        figures, 0.0, random.Random(i),
                    )
                )
                for i in range(games)
            ]  # fmt: skip
            await all_set_up(tasks, figures, games)
            await fake.wait_quiet(0.5, timeout=60)
            stages.append((f"{games} games set up", status_mib(process.pid, "VmRSS")))
            start.set()
            await asyncio.gather(*tasks)
            await fake.wait_quiet(0.5, timeout=60)
            stages.append((f"{games * moves} moves played", status_mib(process.pid, "VmRSS")))
            stages.append(("peak (VmHWM)", status_mib(process.pid, "VmHWM")))
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), 30)
            await fake.stop()
    return stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10)
    args = parser.parse_args()
    print("imports, RSS after each step (a fresh interpreter)")
    previous = None
    for name, rss in import_steps():
        added = "" if previous is None else f"+{rss - previous:5.1f} MiB"
        print(f"  {name:<{NAME_WIDTH - 2}} {rss:6.1f} MiB   {added}")
        previous = rss
    print("\nthe bot against the fake Discord")
    stages = asyncio.run(bot_memory(args.games, args.moves))
    for name, rss in stages:
        print(f"  {name:<{NAME_WIDTH - 2}} {rss:6.1f} MiB")
    start = stages[0][1]
    verdict = "within" if start <= MAX_START_RSS_MIB else "OVER"
    print(f"RSS at start {start:.1f} MiB: {verdict} the {MAX_START_RSS_MIB:.0f} MiB budget")
    return 0 if start <= MAX_START_RSS_MIB else 1


if __name__ == "__main__":
    sys.exit(main())

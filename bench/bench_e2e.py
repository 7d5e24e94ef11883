"""End-to-end benchmark: many games at once through discord.py and the fake Discord.

    python bench/bench_e2e.py [--games 50] [--moves 10] [--think SECONDS] [--bot-log]

The fake Discord (tests/fakediscord) runs in this process on 127.0.0.1; the bot runs in a separate
process (`create_bot` on a fresh temporary database, discord.py pointed at the fake), so its
CPU and memory are its own and the fake's bookkeeping does not count against it.

Each game is a pair of members: /challenge, Accept, then ``--moves`` moves (the opening of a
professional game, typed in turn in Japanese, Western and USI notation).  Once every game is
set up, all play at once; each player answers as soon as the previous board has arrived, or
after an exponentially distributed pause of mean ``--think`` seconds.

For each /move it measures the time from the interaction being dispatched to the bot until the
fake received the bot's last reply to it (the board, or the follow-up after a deferral), and
prints the median, 99th percentile and maximum; the same for the set-up steps (/challenge until
its message, Accept until the start board is in the new thread); the throughput; the CPU time
per move of the bot and of this process; and the bot's peak resident memory (`ru_maxrss` from
`resource.getrusage(RUSAGE_CHILDREN)` after it exited).

Without ``--think`` it runs three phases, each with a fresh fake and bot process:

1. *reference*: a discord.py bot that does no work at all (it answers every /move at once with
   a board PNG rendered at start-up), with players answering at once.  This is the floor
   that discord.py, the fake and this machine set: no bot can answer faster.
2. *saturated*: our bot, players answering at once, so 50 moves are always waiting.  Then
   latency is queueing: by Little's law the mean is 50 / throughput, so a 100 ms p99 needs
   well over 500 moves a second, which even the reference does not reach on this machine.
3. *paced*: our bot, players thinking 1 s on average: 50 games each moving about once a
   second, some 45 moves a second while all play (160,000 an hour), still far beyond what
   any correspondence server sees.

Target: /move p99 <= 100 ms (checked on the paced phase and on any ``--think`` run; the
saturated phase is compared with the reference measured in the same run).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import random
import resource
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import NAME_WIDTH, percentile, report  # noqa: E402
from rules import Move  # noqa: E402
from rules.notation import format_move, read_record  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    DiscordPointer,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    InteractionResult,
    Limits,
)

RECORD = ROOT / "tests" / "data" / "records" / "kfjs_ryuou4.kifu"
STYLES = ("japanese", "western", "usi")
TARGET_P99_MS = 100.0


# --- the bot process ----------------------------------------------------------------------------


async def run_bot(url: str, token: str, database: str) -> None:
    """The bot, as `python -m bot` would run it, but talking to the fake at ``url``."""
    from bot import create_bot
    from bot.config import Settings

    with DiscordPointer.from_url(url):
        bot = create_bot(
            Settings(discord_token=token, database_path=Path(database)),
            sync_global=True,
            guild_ready_timeout=0.05,
        )
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        async with bot:
            await bot.start(token, reconnect=False)


async def run_reference_bot(url: str, token: str) -> None:
    """The floor: a discord.py bot with one command, /move, answered at once with a board
    rendered at start-up and a line that pings the player. No game, no database."""
    import discord
    from discord import app_commands

    from render import render_board
    from rules import Position

    png = render_board(Position.initial())

    class Reference(discord.Client):
        def __init__(self) -> None:
            super().__init__(intents=discord.Intents(guilds=True))
            self.tree = app_commands.CommandTree(self)

            @self.tree.command(name="move", description="Answer at once")
            async def move(interaction: discord.Interaction, move: str) -> None:
                await interaction.response.send_message(
                    f"{interaction.user.mention} played {discord.utils.escape_markdown(move)}.",
                    file=discord.File(io.BytesIO(png), filename="board.png", description="Board"),
                    allowed_mentions=discord.AllowedMentions(users=[interaction.user]),
                )

        async def setup_hook(self) -> None:
            await self.tree.sync()

    with DiscordPointer.from_url(url):
        client = Reference()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(client.close()))
        async with client:
            await client.start(token, reconnect=False)


# --- the players ----------------------------------------------------------------------------------


@dataclass
class Figures:
    games: int
    moves: list[float] = field(default_factory=list)
    setup: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ready: int = 0
    all_ready: asyncio.Event = field(default_factory=asyncio.Event)


async def all_set_up(tasks: list[asyncio.Task[None]], figures: Figures, games: int) -> None:
    """Until every game is set up; a game that failed on the way fails the benchmark now."""
    waiter = asyncio.create_task(figures.all_ready.wait())
    done, _ = await asyncio.wait([waiter, *tasks], timeout=120, return_when=asyncio.FIRST_COMPLETED)
    if waiter not in done:
        waiter.cancel()
        for task in done:
            task.result()  # raises what went wrong
        raise TimeoutError(f"only {figures.ready} of {games} games were set up in 120 s")


def opening(moves: int) -> list[str]:
    """The first ``moves`` moves of a professional game, in Japanese, Western and USI in turn."""
    game = read_record(RECORD.read_bytes()).game
    position = game.position_at(0)
    texts: list[str] = []
    last: Move | None = None
    for index, move in enumerate(game.moves[:moves]):
        texts.append(format_move(position, move, STYLES[index % 3], last_move=last))
        position.push(move)
        last = move
    return texts


async def answered(result: InteractionResult) -> float:
    """Seconds from dispatch to the bot's last reply for this interaction."""
    await result.wait_response(timeout=30)
    if result.deferred and result.response_type == 5:
        await result.wait_followups(1, timeout=30)
    interaction = result.interaction
    return interaction.last_activity - interaction.created


async def play_game(
    fake: FakeDiscord,
    channel: FakeChannel,
    sente: FakeMember,
    gote: FakeMember,
    moves: list[str],
    start: asyncio.Event,
    figures: Figures,
    think: float,
    rng: random.Random,
) -> None:
    challenge = await fake.slash(
        "challenge", {"opponent": gote, "color": "sente"}, user=sente, channel=channel, wait=False
    )
    figures.setup.append(await answered(challenge))
    await challenge.wait_final(timeout=30, scope="interaction")
    accept_id = next(c for c in challenge.custom_ids if c.startswith("ch:accept:"))
    accept = await fake.click(challenge, accept_id, user=gote, wait=False)
    name = f"☗{sente.user.username} vs ☖{gote.user.username}"

    def started() -> FakeChannel | None:
        for thread in fake.threads(channel):
            numbered = thread.name.endswith(f" {name}")  # the name follows the game's number
            if numbered and any(m.attachments for m in fake.channel_history(thread)):
                return thread
        return None

    await fake.wait_for(lambda: started() is not None, what=f"the thread {name}", timeout=30)
    # Accepting is answered when the game's thread shows its start board.
    figures.setup.append(asyncio.get_running_loop().time() - accept.interaction.created)
    thread = started()
    assert thread is not None
    figures.ready += 1
    if figures.ready == figures.games:
        figures.all_ready.set()
    await start.wait()  # every game is set up: now all play at once
    await play_moves(fake, thread, (sente, gote), moves, figures, think, rng, name)


async def play_moves(
    fake: FakeDiscord,
    channel: FakeChannel,
    players: tuple[FakeMember, ...],
    moves: list[str],
    figures: Figures,
    think: float,
    rng: random.Random,
    name: str,
) -> None:
    """Send the moves in turn (players alternate), each once the previous one is answered;
    a move not answered with a public board stops this game and is reported."""
    for index, text in enumerate(moves):
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))  # the player thinks
        player = players[index % len(players)]
        result = await fake.slash("move", {"move": text}, user=player, channel=channel, wait=False)
        figures.moves.append(await answered(result))
        reply = result.reply
        if reply is None or reply.ephemeral or not reply.attachments:
            figures.errors.append(f"{name} move {index + 1} {text!r}: {result.content!r}")
            return


async def play_reference(
    fake: FakeDiscord,
    channel: FakeChannel,
    player: FakeMember,
    moves: list[str],
    start: asyncio.Event,
    figures: Figures,
    think: float,
    rng: random.Random,
) -> None:
    """One player of the reference phase: the same /move texts, in the channel."""
    figures.ready += 1
    if figures.ready == figures.games:
        figures.all_ready.set()
    await start.wait()
    await play_moves(fake, channel, (player,), moves, figures, think, rng, player.user.username)


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """CPU time of a running process (Linux /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Phase:
    """One measured run: a fresh fake, a fresh bot process, and its figures."""

    name: str
    think: float
    figures: Figures
    elapsed: float
    bot_cpu: float
    fake_cpu: float
    problems: list[str]

    @property
    def p99_ms(self) -> float:
        return percentile(self.figures.moves, 0.99) * 1000


async def run_phase(
    name: str, games: int, moves: int, think: float, show_bot_log: bool, *, reference: bool
) -> Phase:
    # What is measured is the bot's CPU, not Discord's pace: no rate limits.
    fake = FakeDiscord(default_timeout=30, limits=Limits.off())
    await fake.start()
    guild = fake.add_guild("Bench club", channels=("shogi",))
    channel = fake.channel("shogi", guild)
    members = [fake.add_member(guild, f"p{i:03d}") for i in range(2 * games)]
    texts = opening(moves)
    figures = Figures(games)
    with tempfile.TemporaryDirectory() as tmp:
        role = ["--reference-process"] if reference else ["--bot-process"]
        database = [] if reference else [str(Path(tmp) / "bench.db")]
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            *role,
            fake.url,
            fake.token,
            *database,
            stderr=None if show_bot_log else asyncio.subprocess.DEVNULL,
        )
        try:
            await fake.wait_connected(timeout=60)
            await fake.wait_commands_synced(timeout=60)
            start = asyncio.Event()
            if reference:
                players = [
                    play_reference(
                        fake, channel, members[i], texts, start, figures, think, random.Random(i)
                    )
                    for i in range(games)
                ]
            else:
                players = [
                    play_game(
                        fake,
                        channel,
                        members[i],
                        members[games + i],
                        texts,
                        start,
                        figures,
                        think,
                        random.Random(i),
                    )
                    for i in range(games)
                ]
            tasks = [asyncio.create_task(player) for player in players]
            await all_set_up(tasks, figures, games)
            await fake.wait_quiet(0.2, timeout=60)  # every start board is out
            began = time.perf_counter()
            fake_cpu = cpu_seconds(resource.RUSAGE_SELF)
            bot_cpu = process_cpu_seconds(process.pid)
            start.set()
            await asyncio.gather(*tasks)
            elapsed = time.perf_counter() - began
            fake_cpu = cpu_seconds(resource.RUSAGE_SELF) - fake_cpu
            bot_cpu = process_cpu_seconds(process.pid) - bot_cpu
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), 30)
            await fake.stop()
    return Phase(name, think, figures, elapsed, bot_cpu, fake_cpu, figures.errors + fake.problems())


def report_phase(phase: Phase, games: int) -> None:
    figures = phase.figures
    pace = "players answer at once"
    if phase.think > 0:
        pace = f"players think {phase.think:g} s on average"
    print(f"\n== {phase.name}: {games} games in parallel, {len(figures.moves)} moves, {pace}")
    report("/move (dispatch->reply)", figures.moves)
    if figures.setup:
        report("/challenge, Accept->board", figures.setup)
    print(
        f"{'throughput':<{NAME_WIDTH}} {len(figures.moves) / phase.elapsed:6.1f} moves/s "
        f"over {phase.elapsed:.2f} s"
    )
    moved = max(1, len(figures.moves))
    print(
        f"{'CPU per move':<{NAME_WIDTH}} bot {phase.bot_cpu * 1000 / moved:.1f} ms, "
        f"fake Discord and players {phase.fake_cpu * 1000 / moved:.1f} ms ({os.cpu_count()} CPUs)"
    )
    for problem in phase.problems:
        print("problem:", problem)


def verdict(phase: Phase) -> str:
    met = "met" if phase.p99_ms <= TARGET_P99_MS else "NOT met"
    return f"p99 {phase.p99_ms:.1f} ms: target p99 <= {TARGET_P99_MS:.0f} ms {met}"


async def bench(games: int, moves: int, think: float | None, show_bot_log: bool) -> int:
    if think is not None:
        phases = [await run_phase("our bot", games, moves, think, show_bot_log, reference=False)]
    else:
        plan = [("reference (does no work)", 0.0, True), ("our bot, saturated", 0.0, False)]
        plan.append(("our bot, paced", 1.0, False))
        phases = []
        for name, pace, reference in plan:
            phases.append(
                await run_phase(name, games, moves, pace, show_bot_log, reference=reference)
            )
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    for phase in phases:
        report_phase(phase, games)
    peak = f"{peak_kib / 1024:6.1f} MiB (max RSS of any bot process)"
    print(f"\n{'bot peak memory':<{NAME_WIDTH}} {peak}")
    if think is not None:
        print(verdict(phases[0]))
    else:
        floor, saturated, paced = phases
        ratio = saturated.p99_ms / floor.p99_ms
        print(
            f"saturated: p99 {saturated.p99_ms:.0f} ms = {ratio:.1f}x the "
            f"reference's {floor.p99_ms:.0f} ms; throughput "
            f"{len(saturated.figures.moves) / saturated.elapsed:.0f} moves/s against "
            f"{len(floor.figures.moves) / floor.elapsed:.0f}"
        )
        print(f"paced: {verdict(paced)}")
    return 1 if any(phase.problems for phase in phases) else 0


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--bot-process":
        logging.basicConfig(level=logging.WARNING)
        asyncio.run(run_bot(*sys.argv[2:5]))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--reference-process":
        logging.basicConfig(level=logging.WARNING)
        asyncio.run(run_reference_bot(*sys.argv[2:4]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=10, help="moves per game")
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="only our bot, players thinking this many seconds on average (exponential; "
        "0: answer at once); without it, the three phases",
    )
    parser.add_argument("--bot-log", action="store_true", help="show the bot's log (stderr)")
    args = parser.parse_args()
    return asyncio.run(bench(args.games, args.moves, args.think, args.bot_log))


if __name__ == "__main__":
    sys.exit(main())

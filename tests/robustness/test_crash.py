"""Crash safety of the whole bot (issue 8): SIGKILL at random moments while games are played.

The bot runs in a process of its own (``tests/support/bot_process.py``: the real
``create_bot``, discord.py pointed at the fake Discord of this process) on one SQLite file,
with a clock the test moves.  The run:

* **Set-up** (never under fire): pairs of members start games with ``/challenge`` and the
  Accept button.  Four *play* games (time controls 14d, 7d+1d, unlimited, 5d) follow the
  moves of real professional records, typed in USI, Japanese or Western notation at random.
  Two *timer* games (2h and 3h per move) get two moves and then wait for the clock.  A play
  game whose record is used up is left as it is (an abandoned game, which may later get a
  reminder or lose on time) and the pair starts another.
* **Takebacks and forecasts** (issue 14) in the play games: before a move, now and then
  (``TAKEBACK_CHANCE``, ``FORECAST_CHANCE``) the waiting player either asks ``/takeback``
  (their own last move), which the opponent accepts with the button of the question in the
  thread, after which the game goes on from the earlier position with the record's moves
  again; or stores a ``/forecast`` line "the record's next move, then my next one", so the
  opponent's move is answered by the bot in the same transaction
  (``bot/services/play/forecasts.py``), and the player waits for the reply's post.  A request
  an earlier process stored and whose question is in the thread is accepted by the next
  life's players (else their next move makes it lapse); a line an earlier process stored
  is expected to answer the next move.
* **Lives**: a bot process is started on the same database, and killed with SIGKILL,
  ``scale.crash_kills`` times (10 in the normal run, about 25 s; 200 with
  ``--long-robustness`` or ``ROBUSTNESS_LONG=1``, about 7 minutes).  Each life is one of:

  - *play* (most): the set-up above where needed, then every play game's player sends
    ``/move`` as soon as the previous one was answered, all at once, and the kill comes after
    a random time (uniform 0-2 s, seeded), so it lands before, during and after the bot
    stores a move or answers.  In some lives the clock jumps while the bot runs (the bot
    process wakes its deadline task) and the waiting timer game's player sends a move after
    its deadline (a *probe*, which races the deadline task for the time-out);
  - *takeback* and *forecast* (every fourth life from the second): play as above, with
    takebacks or forecasts far more often, killed within ``TRIGGER_KILL`` of the first
    ``/takeback`` (so between the ask and the accept), the first Accept, or the first move
    a forecast answers (so around the commit of the move with its reply);
  - *start-up*: killed within 1.2 s of the start, before or while the bot opens the
    database, settles deadlines that passed while it was down, and connects;
  - *announcement* (every eighth life from the third, and some at random): a time-out or
    reminder fell due while the bot was down; killed right after the fake received its
    announcement;
  - *claim* (every eighth life from the seventh): a time-out fell due while the bot was
    down; killed right after the bot logged that it stored it (the log is polled), before
    the announcement can have gone out.

  Between lives the clock may jump to the next reminder or deadline of a timer game.
* **A last life** is not killed: the clock is moved to a reminder and then past a deadline
  while the bot runs; both must be announced, a late move refused, and the bot stopped with
  SIGTERM.  Then every game that ended on time must have said so in its thread exactly once.

**After every kill** the database (read-only, with ``sqlite3``) and the fake are checked:

1. every ``/move`` answered as played (the public board, or the private "Played ..." note
   after a deferral) is stored at its ply, and stays stored; the stored moves of every game
   are exactly the record's moves in order (nothing the players did not send, nothing twice);
2. the moves replay legally with ``rules.Game``; the game row's ply, position, banks, status
   and result agree with them (no half-applied move: the bot would also log "repairing");
3. no interaction got two public answers; a game's thread shows each ply's board at most
   once, with the stored move, and never a ply that is not stored; the time-out at most once
   and only once it is stored (the thread never says more than the database), each reminder
   at most once per deadline, the start board exactly once, and nothing else;
4. deadlines follow the time control (turn start + what is left of the bank + period,
   reminder at 80 % or 24 hours before, written out again here from the stored moves); a
   reminder is never claimed before its time or after the deadline, a time-out ends the game
   exactly at the deadline, a game that a finished deadline check found overdue has ended on
   time and one in its reminder window has its reminder claimed; a move sent after the
   deadline is refused, never played;
5. takebacks: an Accept whose answer reached the player is stored as accepted (then the
   acknowledged moves it took back are no longer owed, and the others still are); one a
   kill cut off is accepted with exactly the move removed, or still pending with nothing
   removed; an ask or question cut off removed nothing; no takeback is accepted that no
   player accepted.  Boards are counted per ply between takebacks (a ply taken back and
   played again is shown again), the clock rule restarts the turn a takeback returns to at
   its answer (``turns``), and each "taken back" post and each question at most once;
6. forecasts: a move a stored line answers is stored with the reply, by the forecaster,
   right after it, or neither is stored (never the move alone, never a reply to a move
   no line answers); an acknowledged move acknowledges its reply too (then owed like any
   move), and the reply's post is shown at most once, as a board of its ply; a
   forecast whose answer was cut off is stored as sent or not at all;
7. the bot's log (stderr, kept in a temporary file and shown on failure) has no error, no
   traceback, no warning but discord.py's voice notices.

**What a SIGKILL legitimately causes**, and the only departures from a clean run tolerated:

* a ``/move`` in flight gets no answer; its move may or may not be stored (both are
  counted).  The players then go by the database, as a player would by ``/board``; so a
  "not your turn" or "position changed" refusal would mean the bot told them wrong, and fails;
* a request the bot was writing when it died reaches the fake cut off: the fake records an
  "internal error" (the connection was lost while it read the body).  Tolerated only for a
  connection or payload error on a request that reached the fake at most
  ``ABORTED_REQUEST`` seconds before a kill, or after it and before the next process started
  (the fake may get to what the process sent just before it died only after the kill);
* a time-out or reminder claimed less than ``LOSS_WINDOW`` seconds before the kill need not
  be posted by the process that claimed it (a claim it lived longer after without posting
  fails).  A *reminder* may then be lost for good: the issue asks for "at most once", and
  the bot claims before it posts (``bot/services/clock/deadlines.py``).  A *time-out* may not: the
  issue asks for it "exactly once, even if the bot is killed again right after", so a later
  process must announce it, and the check at the end fails for a game that ended on time
  without saying so.  (A bot that claims, then posts, and never finishes an announcement a
  kill cut off fails this check through the *claim* lives.)
* a move acknowledged only by the private note after a deferral whose board had not yet been
  posted in the thread.
* a takeback, a takeback's question or a forecast reply stored just before a kill whose post
  (the question with its buttons, the board after the takeback, the reply's board) the
  process had not yet sent: the posts are at most once, like a move's board.  A question
  that never reached the thread cannot be answered; the next move makes its request lapse.

The figures are printed at the end (``-s`` shows them).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rules import Color, Game, IllegalMoveError, Move
from rules.notation import format_move, read_record
from tests.fakediscord import (
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    RequestRecord,
)
from tests.support.bot_process import write_offset

from .conftest import Scale

ROOT = Path(__file__).resolve().parents[2]
RECORD_FILES = ("kfjs_ryuou4.kifu", "bioshogi_sample.csa", "kfjs_20091203.ki2u")
PLAY_CONTROLS = ("14d", "7d+1d", "unlimited", "5d")
TIMER_CONTROLS = ("2h", "3h")
TIMER_OPENING = 2  # moves a timer game gets at its set-up; then it waits for the clock
STYLES = ("usi", "japanese", "western")
SEED = 20_250_808

MAX_PLAY = 2.0  # seconds of play (after the set-up) before a kill, at most
STARTUP_KILL = 1.2  # a start-up kill lands within this many seconds of the start
LOSS_WINDOW = 5.0  # a claim this close to the kill may be lost (see the docstring)
TAKEBACK_CHANCE = 0.04  # before a move, the waiting player asks to take theirs back
FORECAST_CHANCE = 0.08  # before a move, the waiting player stores a forecast
TRIGGERED_CHANCE = 0.3  # either, in a life to be killed just after one
TRIGGER_WAIT = 10.0  # a triggered life is killed after this long if nothing fired
#: A triggered life is killed within this many seconds after the trigger (see ``Life``):
#: after the ask, before or after its answer, its question and the Accept; after the
#: Accept or a move a forecast answers, before or after their commit and answer.
TRIGGER_KILL = {"ask": 0.15, "accept": 0.06, "reply": 0.06}
ABORTED_REQUEST = 1.0  # a request cut off by a kill began at most this long before it
WAIT = 30.0  # the longest any single wait may take

US = 1_000_000
MINUTE = 60 * US
HOUR = 60 * MINUTE
DAY = 24 * HOUR
#: (bank, period) in microseconds, written out again rather than parsed by the bot's code.
CONTROLS: dict[str, tuple[int, int | None]] = {
    "14d": (0, 14 * DAY),
    "7d+1d": (7 * DAY, DAY),
    "unlimited": (0, None),
    "5d": (0, 5 * DAY),
    "2h": (0, 2 * HOUR),
    "3h": (0, 3 * HOUR),
}

MOVE_LINE = re.compile(r"(\d+)\. ([☗☖])(.+?) \((.+?)\) by ")
LOG_LINE = re.compile(r"(\d+\.\d+) ([A-Z]+) ([\w.]+): (.*)")
TIMEOUT_CLAIM = re.compile(r"game (\d+): (?:sente|gote) lost on time")
REMINDER_CLAIM = re.compile(r"reminder for game (\d+)")
ALLOWED_WARNINGS = ("PyNaCl is not installed", "davey is not installed")
#: What a request cut off by a kill looks like when the fake reads its body.
CUT_OFF = ("Connection", "Payload", "EOF", "IncompleteRead", "reset", "closed")


def records() -> list[list[Move]]:
    folder = ROOT / "tests" / "data" / "records"
    return [list(read_record((folder / name).read_bytes()).game.moves) for name in RECORD_FILES]


# --- the database, read-only ---------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    id: int
    thread_id: int | None
    sente_id: int
    gote_id: int
    start_sfen: str
    bank: int
    period: int | None
    status: str
    termination: str | None
    winner: str | None
    ply: int
    sfen: str
    sente_bank: int
    gote_bank: int
    turn_started_at: int
    started_at: int
    finished_at: int | None


@dataclass(frozen=True)
class MoveRow:
    ply: int
    usi: str
    player_id: int
    played_at: int


@dataclass(frozen=True)
class DeadlineRow:
    player_id: int
    due_at: int
    remind_at: int
    reminded_at: int | None


@dataclass(frozen=True)
class TakebackRow:
    id: int
    asked_by: int
    ply: int  # the game's ply when asked
    plies: int  # how many moves it takes back
    status: str
    requested_at: int
    answered_at: int | None

    @property
    def back_to(self) -> int:
        return self.ply - self.plies


@dataclass(frozen=True)
class ForecastRow:
    player_id: int
    ply: int
    moves: tuple[str, ...]


@dataclass
class Snapshot:
    games: dict[int, GameRow] = field(default_factory=dict)
    moves: dict[int, list[MoveRow]] = field(default_factory=dict)
    deadlines: dict[int, DeadlineRow] = field(default_factory=dict)
    takebacks: dict[int, list[TakebackRow]] = field(default_factory=dict)
    forecasts: dict[int, list[ForecastRow]] = field(default_factory=dict)

    def accepted(self, game_id: int) -> list[TakebackRow]:
        """The game's accepted takebacks, in the order they were answered."""
        rows = [t for t in self.takebacks.get(game_id, []) if t.status == "accepted"]
        return sorted(rows, key=lambda t: (t.answered_at or 0, t.id))


def read_database(path: Path) -> Snapshot:
    """Everything the checks need, in one read transaction of a read-only connection."""
    snapshot = Snapshot()
    if not path.exists():
        return snapshot
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=WAIT)
    try:
        connection.execute("BEGIN")
        for row in connection.execute(
            "SELECT id, thread_id, sente_id, gote_id, start_sfen, bank_us, period_us, status,"
            " termination, winner, ply, sfen, sente_bank_us, gote_bank_us, turn_started_at,"
            " started_at, finished_at FROM games"
        ):
            snapshot.games[row[0]] = GameRow(*row)
        for game_id, *rest in connection.execute(
            "SELECT game_id, ply, usi, player_id, played_at FROM moves ORDER BY game_id, ply"
        ):
            snapshot.moves.setdefault(game_id, []).append(MoveRow(*rest))
        for game_id, *rest in connection.execute(
            "SELECT game_id, player_id, due_at, remind_at, reminded_at FROM deadlines"
        ):
            snapshot.deadlines[game_id] = DeadlineRow(*rest)
        for game_id, *rest in connection.execute(
            "SELECT game_id, id, asked_by, ply, plies, status, requested_at, answered_at"
            " FROM takebacks ORDER BY game_id, id"
        ):
            snapshot.takebacks.setdefault(game_id, []).append(TakebackRow(*rest))
        for game_id, player_id, ply, moves in connection.execute(
            "SELECT game_id, player_id, ply, moves FROM forecasts ORDER BY game_id, id"
        ):
            row = ForecastRow(player_id, ply, tuple(moves.split()))
            snapshot.forecasts.setdefault(game_id, []).append(row)
        connection.execute("ROLLBACK")
    finally:
        connection.close()
    return snapshot


@dataclass(frozen=True)
class Turn:
    ply: int  # moves made before this turn
    player_id: int  # who is to move
    started: int
    due: int | None
    remind: int | None


def turns(
    game: GameRow, moves: list[MoveRow], accepted: Sequence[TakebackRow] = ()
) -> tuple[list[Turn], dict[int, int]]:
    """Every turn of a game with the deadline it had, and the banks left, from the stored
    moves alone: the rule of ``bot/services/clock/clocks.py`` written out again.  A player must
    move by turn start + what is left of their bank + the period; thinking comes out of the
    bank; the reminder is due at 80 % of that allowance or 24 hours before, the later.

    An accepted takeback (``bot/services/play/takebacks.py``) restarts the turn it goes back to
    when it is answered; the banks are those the remaining moves leave (nobody is charged
    for the moves taken back)."""
    sente_first = game.start_sfen.split()[1] == "b"
    banks = {game.sente_id: game.bank, game.gote_id: game.bank}
    started = game.started_at
    out = []
    for ply in range(len(moves) + 1):
        player = game.sente_id if (ply % 2 == 0) == sente_first else game.gote_id
        until = moves[ply].played_at if ply < len(moves) else None
        for takeback in accepted:
            answered = takeback.answered_at
            if takeback.back_to != ply or answered is None or answered < started:
                continue
            if until is None or answered <= until:
                started = answered
        due = remind = None
        if game.period is not None:
            due = started + banks[player] + game.period
            remind = max(started + (due - started) * 4 // 5, due - DAY)
        out.append(Turn(ply, player, started, due, remind))
        if ply < len(moves):
            played = moves[ply].played_at
            banks[player] = max(banks[player] - max(played - started, 0), 0)
            started = played
    return out, banks


# --- what the test knows ------------------------------------------------------------------------


@dataclass(eq=False)
class Slot:
    """A pair of members who play one game after another."""

    number: int
    sente: FakeMember
    gote: FakeMember
    control: str
    rng: random.Random
    game: TrackedGame | None = None
    started: int = 0  # games this pair has started

    @property
    def timer(self) -> bool:
        return self.control in TIMER_CONTROLS


@dataclass(eq=False)
class TrackedGame:
    id: int
    slot: Slot
    thread: FakeChannel
    record: list[Move]
    #: The stored moves replayed (by the checks).
    mirror: Game
    #: The record's moves in Japanese and Western notation (the stored moves are always the
    #: record's first ones, which the checks see to), made as the thread shows them: a ply
    #: may be shown and taken back between two checks.
    texts: list[tuple[str, str]] = field(default_factory=list)
    #: Accepted takebacks the checks have seen (the mirror is replayed after a new one).
    takebacks_seen: int = 0

    def text(self, ply: int) -> tuple[str, str]:
        if len(self.texts) < ply:
            view = self.view_at(len(self.texts))
            for move in self.record[len(self.texts) : ply]:
                last = view.moves[-1] if view.moves else None
                self.texts.append(
                    (
                        format_move(view.position, move, "japanese", last_move=last),
                        format_move(
                            view.position, move, "hodges", last_move=last
                        ),  # as /help teaches
                    )
                )
                view.push(move)
        return self.texts[ply - 1]

    def view_at(self, ply: int) -> Game:
        """The game after the record's first ``ply`` moves."""
        return Game(self.mirror.start, self.record[:ply])


@dataclass(eq=False)
class SentMove:
    game: TrackedGame
    ply: int  # the ply the move would get
    usi: str
    result: InteractionResult
    probe: bool = False  # sent after the deadline, to be refused
    #: The forecast reply this move must bring (USI) and who stored it, if a line of the
    #: waiting player starts with this move (stored before the move was sent).
    reply: str | None = None
    forecaster: int | None = None


@dataclass(eq=False)
class SentForecast:
    """``/forecast`` by the waiting player: the record's next move, then their reply."""

    game: TrackedGame
    ply: int  # the game's ply the line starts from
    line: tuple[str, str]
    result: InteractionResult


@dataclass(eq=False)
class SentTakeback:
    """``/takeback`` by the waiting player (their last move), and the opponent's Accept."""

    game: TrackedGame
    ply: int  # the game's ply when asked; the takeback goes back to ``ply - 1``
    ask: InteractionResult | None  # None: a request an earlier process stored
    request_id: int | None = None
    accept: InteractionResult | None = None


Sent = SentMove | SentForecast | SentTakeback


@dataclass(eq=False)
class Child:
    process: asyncio.subprocess.Process
    started: float
    log_from: int
    ready: bool = False
    ended: bool = False
    #: The clock (µs) at the start of every deadline check that finished.
    checks: list[int] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    killed_at: float | None = None


@dataclass(frozen=True)
class Claim:
    kind: str  # "timeout" or "reminder"
    game_id: int
    at: float  # wall time of the log line (just after the claim was committed)


@dataclass(eq=False)
class Life:
    number: int
    mode: str
    child: Child
    sent: list[Sent] = field(default_factory=list)  # in the order the players sent them
    claims: list[Claim] = field(default_factory=list)
    killed: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    #: A *takeback* or *forecast* life is killed just after the first action of this
    #: kind was sent: "ask" (``/takeback``), "accept" (its Accept) or "reply" (a move a
    #: forecast answers).
    trigger: str | None = None
    fired: asyncio.Event = field(default_factory=asyncio.Event)

    def fire(self, kind: str) -> None:
        if kind == self.trigger:
            self.fired.set()


@dataclass
class Figures:
    kills: int = 0
    modes: Counter[str] = field(default_factory=Counter)
    games: int = 0
    sent: int = 0
    acknowledged: int = 0
    acknowledged_by_note: int = 0
    unanswered_stored: int = 0
    unanswered_lost: int = 0
    probes_refused: int = 0
    jumps: int = 0
    timeouts: int = 0
    reminders: int = 0
    timeouts_cut: int = 0  # time-outs claimed just before a kill, not posted by that process
    lost_reminders: int = 0
    cut_off_requests: int = 0
    takebacks_asked: int = 0
    takebacks_accepted: int = 0  # the Accept's answer reached the player
    takebacks_unanswered: Counter[str] = field(default_factory=Counter)  # cut by a kill
    takebacks_from_earlier: int = 0  # asked before a kill, accepted by a later process
    forecasts_stored: int = 0
    forecasts_unanswered: int = 0
    forecast_replies: int = 0  # acknowledged with the opponent's move
    forecast_replies_cut: Counter[str] = field(default_factory=Counter)
    forecast_posts: int = 0
    triggers_missed: int = 0

    def summary(self) -> str:
        modes = ", ".join(f"{mode} {n}" for mode, n in sorted(self.modes.items()))
        cut = ", ".join(f"{k} {n}" for k, n in sorted(self.takebacks_unanswered.items()))
        replies = ", ".join(f"{k} {n}" for k, n in sorted(self.forecast_replies_cut.items()))
        return (
            f"takebacks: {self.takebacks_asked} asked, {self.takebacks_accepted} accepted and "
            f"acknowledged ({self.takebacks_from_earlier} asked before a kill), cut by a kill: "
            f"{cut or 'none'}; forecasts: {self.forecasts_stored} stored "
            f"({self.forecasts_unanswered} unanswered at a kill), {self.forecast_replies} "
            f"replies acknowledged with the opponent's move, {self.forecast_posts} reply "
            f"posts, moves with a reply cut by a kill: {replies or 'none'}; triggered lives "
            f"where nothing fired: {self.triggers_missed}; "
            f"{self.kills} kills ({modes}); {self.games} games; {self.sent} moves sent, "
            f"{self.acknowledged} acknowledged ({self.acknowledged_by_note} by the private "
            f"note after a deferral), unanswered at a kill: {self.unanswered_stored} stored "
            f"and {self.unanswered_lost} not; {self.jumps} clock jumps; time-outs announced "
            f"{self.timeouts} (claimed just before a kill and not posted then "
            f"{self.timeouts_cut}); reminders announced {self.reminders}, lost to a kill "
            f"{self.lost_reminders}; late moves refused "
            f"{self.probes_refused}; requests cut off by a kill {self.cut_off_requests}"
        )


class CrashError(AssertionError):
    pass


# --- the run ------------------------------------------------------------------------------------


class CrashRun:
    def __init__(self, fake: FakeDiscord, folder: Path, scale: Scale) -> None:
        self.fake = fake
        self.scale = scale
        self.database = folder / "crash.db"
        self.clock_file = folder / "clock"
        self.log_path = folder / "bot.log"
        self.log = self.log_path.open("ab")
        self.rng = random.Random(SEED)
        self.records = records()
        self.offset = 0
        self.offsets: list[tuple[float, int]] = [(0.0, 0)]
        write_offset(self.clock_file, 0)
        self.figures = Figures()
        self.games: dict[int, TrackedGame] = {}
        self.acknowledged: dict[tuple[int, int], str] = {}
        #: Takebacks the players accepted (acknowledged, or stored when a kill cut it off).
        self.accepted_takebacks: set[int] = set()
        self.snapshot = Snapshot()
        self.kill_times: list[float] = []
        self.lives: list[Life] = []
        #: Time-outs claimed just before a kill and not posted: (process, ms to the kill).
        self.cut_timeouts: dict[int, tuple[int, float]] = {}
        #: The bot's public messages by channel, indexed once per check.
        self.posted: dict[int, list[FakeMessage]] = {}
        guild = fake.add_guild("Crash club", channels=("shogi",))
        self.channel = fake.channel("shogi", guild)
        controls = PLAY_CONTROLS + TIMER_CONTROLS
        self.slots = [
            Slot(
                i,
                fake.add_member(guild, f"s{i}"),
                fake.add_member(guild, f"g{i}"),
                control,
                random.Random(SEED + i),
            )
            for i, control in enumerate(controls)
        ]

    def close(self) -> None:
        self.log.close()

    # -- the clock --------------------------------------------------------------------------

    def now(self) -> int:
        """The bot's clock as the test sees it (µs since the epoch)."""
        return time.time_ns() // 1000 + self.offset

    def clock_at(self, wall: float) -> int:
        """The test's clock at a past wall time; the bot's clock was never ahead of it."""
        offset = max(o for t, o in self.offsets if t <= wall)
        return int(wall * US) + offset

    def jump_to(self, target: int) -> bool:
        offset = target - time.time_ns() // 1000
        if offset <= self.offset:
            return False
        self.offset = offset
        self.offsets.append((time.time(), offset))
        write_offset(self.clock_file, offset)
        self.figures.jumps += 1
        return True

    def next_timer_event(self, kinds: tuple[str, ...] = ("reminder", "timeout")) -> int | None:
        """The next reminder or deadline of a waiting timer game, from the last snapshot."""
        now = self.now()
        moments = []
        for slot in self.slots:
            if not slot.timer or slot.game is None:
                continue
            row = self.snapshot.games.get(slot.game.id)
            deadline = self.snapshot.deadlines.get(slot.game.id)
            if row is None or row.status != "active" or deadline is None:
                continue
            events = {"reminder": deadline.remind_at, "timeout": deadline.due_at}
            moments += [events[kind] for kind in kinds if events[kind] > now]
        return min(moments) if moments else None

    def jump_to_next_event(self, kinds: tuple[str, ...] = ("reminder", "timeout")) -> bool:
        event = self.next_timer_event(kinds)
        if event is None:
            return False
        return self.jump_to(event + self.rng.randint(1 * MINUTE, 10 * MINUTE))

    # -- the bot process --------------------------------------------------------------------

    async def spawn(self, number: int) -> Child:
        self.log.write(f"\n===== bot process {number} =====\n".encode())
        self.log.flush()
        log_from = self.log.tell()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.support.bot_process",
            self.fake.url,
            self.fake.token,
            str(self.database),
            str(self.clock_file),
            cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.log,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        child = Child(process, time.time(), log_from)
        child.reader = asyncio.get_running_loop().create_task(self.read_child(child))
        return child

    async def read_child(self, child: Child) -> None:
        stdout = child.process.stdout
        assert stdout is not None
        try:
            while True:
                line = await stdout.readline()
                if not line.endswith(b"\n"):  # the end, or a line cut off by the kill
                    break
                text = line.decode().strip()
                if text == "ready":
                    child.ready = True
                elif text.startswith("checked "):
                    child.checks.append(int(text.split()[1]))
                await self.fake.notify()
        finally:
            child.ended = True
            await self.fake.notify()

    async def wait(
        self, predicate: Callable[[], bool], what: str, child: Child | None = None
    ) -> None:
        """Until ``predicate()``; fails at once if the bot process ends by itself."""

        def done() -> bool:
            return predicate() or (child is not None and child.ended and child.killed_at is None)

        await self.fake.wait_for(done, what=what, timeout=WAIT)
        if not predicate():
            raise CrashError(f"the bot process ended by itself while waiting for {what}")

    async def wait_for_log(self, child: Child, *parts: str) -> None:
        """Until the bot logs a line containing all ``parts`` (the log is a file: polled)."""
        deadline = time.monotonic() + WAIT
        while True:
            with self.log_path.open("rb") as log:
                log.seek(child.log_from)
                lines = log.read().decode(errors="replace").splitlines()
            if any(all(part in line for part in parts) for line in lines):
                return
            if child.ended or time.monotonic() > deadline:
                raise CrashError(f"the bot did not log {parts} (or ended by itself)")
            await asyncio.sleep(0.002)

    async def wait_check(self, child: Child, clock: int, what: str) -> None:
        """Until a deadline check that started at ``clock`` or later has finished."""
        await self.wait(
            lambda: any(x >= clock for x in child.checks), f"a deadline check after {what}", child
        )

    async def kill(self, life: Life) -> None:
        child = life.child
        life.killed = True
        child.killed_at = time.time()
        self.kill_times.append(child.killed_at)
        if child.process.returncode is None:
            child.process.send_signal(signal.SIGKILL)
        await self.fake.notify()
        code = await asyncio.wait_for(child.process.wait(), WAIT)
        assert child.reader is not None
        await child.reader
        if code != -signal.SIGKILL:
            raise CrashError(f"the bot process ended by itself (exit code {code}) before the kill")
        self.figures.kills += 1
        self.figures.modes[life.mode] += 1
        # Let the fake finish what the dead process had sent.
        await self.fake.wait_quiet(0.2, timeout=WAIT)

    async def stop(self, life: Life) -> None:
        """The clean end of the last life: SIGTERM, and the bot closes by itself."""
        child = life.child
        child.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(child.process.wait(), WAIT)
        assert child.reader is not None
        await child.reader
        if code != 0:
            raise CrashError(f"the bot did not stop cleanly on SIGTERM (exit code {code})")
        await self.fake.wait_quiet(0.2, timeout=WAIT)

    async def finish_tasks(self, life: Life) -> None:
        """Wait for the players (they stop once the life is over); their failures surface."""
        results = await asyncio.gather(*life.tasks, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    # -- players ----------------------------------------------------------------------------

    async def new_game(self, slot: Slot, life: Life) -> None:
        """/challenge and Accept, as players do; the game's id comes from the database."""
        fake = self.fake
        challenge = await fake.slash(
            "challenge",
            {"opponent": slot.gote, "color": "sente", "time": slot.control},
            user=slot.sente,
            channel=self.channel,
            wait=False,
        )
        await challenge.wait_final(timeout=WAIT, scope="interaction")
        accept = next((c for c in challenge.custom_ids if c.startswith("ch:accept:")), None)
        reply = challenge.reply
        if accept is None or reply is None:
            raise CrashError(f"/challenge was not answered with buttons: {challenge.content!r}")
        await fake.click(challenge, accept, user=slot.gote, wait=False)

        def thread() -> FakeChannel | None:
            channel = fake.channels.get(reply.id)  # a thread on a message has its id
            if channel is None or not any(m.attachments for m in fake.channel_history(channel)):
                return None
            return channel

        await self.wait(lambda: thread() is not None, f"the start board of pair {slot.number}")
        found = thread()
        assert found is not None
        rows = await self.games_of_thread(found.id)
        if len(rows) != 1:
            raise CrashError(f"thread {found.id} belongs to {len(rows)} games in the database")
        record = self.records[(slot.number + slot.started) % len(self.records)]
        game = TrackedGame(rows[0].id, slot, found, record, Game(rows[0].start_sfen))
        self.games[game.id] = game
        slot.game = game
        slot.started += 1
        self.figures.games += 1
        if slot.timer:
            view = game.mirror.copy()
            for _ in range(TIMER_OPENING):
                sent = await self.send_move(life, game, view)
                kind, message = await self.answer(life, sent)
                if kind not in ("board", "played"):
                    raise CrashError(f"a timer game's opening move was answered {kind}: {message}")
                view.push(game.record[view.ply])

    async def games_of_thread(self, thread_id: int) -> list[GameRow]:
        """The games of a thread, once the database shows any (the set-up is not under fire,
        so this need not be at once)."""
        deadline = time.monotonic() + WAIT
        while True:
            games = read_database(self.database).games.values()
            rows = [g for g in games if g.thread_id == thread_id]
            if rows or time.monotonic() > deadline:
                return rows
            await asyncio.sleep(0.05)

    def needs_game(self, slot: Slot, *, fresh_timer: bool = False) -> bool:
        game = slot.game
        if game is None:
            return True
        row = self.snapshot.games.get(game.id)
        if row is None or row.status != "active":
            return True
        if slot.timer:
            deadline = self.snapshot.deadlines.get(game.id)
            return fresh_timer and (deadline is None or deadline.reminded_at is not None)
        return row.ply >= len(game.record)

    async def set_up(self, life: Life, *, fresh_timers: bool = False) -> None:
        for slot in self.slots:
            if self.needs_game(slot, fresh_timer=fresh_timers):
                await self.new_game(slot, life)

    async def send_move(
        self,
        life: Life,
        game: TrackedGame,
        view: Game,
        *,
        probe: bool = False,
        forecast: ForecastRow | None = None,
    ) -> SentMove:
        """``/move`` in the game's thread: the next move of the record, as its player."""
        slot = game.slot
        move = game.record[view.ply]
        last = view.moves[-1] if view.moves else None
        text = format_move(view.position, move, slot.rng.choice(STYLES), last_move=last)
        player = slot.sente if view.position.turn is Color.SENTE else slot.gote
        result = await self.fake.slash(
            "move", {"move": text}, user=player, channel=game.thread, wait=False
        )
        sent = SentMove(game, view.ply + 1, move.usi(), result, probe)
        if forecast is not None:
            sent.reply, sent.forecaster = forecast.moves[1], forecast.player_id
            life.fire("reply")
        life.sent.append(sent)
        self.figures.sent += 1
        return sent

    @staticmethod
    def answer_of(sent: SentMove) -> tuple[str, FakeMessage | None]:
        """``board`` (the public board), ``played`` (the private note after a deferral),
        ``refused`` (any other answer) or ``unanswered``."""
        result = sent.result
        if result.response_type is None:
            return "unanswered", None
        if result.response_type == 5:
            original = result.original
            if (original is None or original.loading) and not result.interaction.followup_ids:
                return "unanswered", None
        reply = result.reply
        if reply is None:
            return "unanswered", None
        if not reply.ephemeral and reply.attachments and reply.content.startswith(f"{sent.ply}. "):
            return "board", reply
        if reply.ephemeral and reply.content.startswith("Played "):
            return "played", reply
        return "refused", reply

    async def answer(self, life: Life, sent: SentMove) -> tuple[str, FakeMessage | None]:
        await self.wait(
            lambda: life.killed or self.answer_of(sent)[0] != "unanswered",
            f"the answer to move {sent.ply} ({sent.usi}) of game {sent.game.id}",
            life.child,
        )
        return self.answer_of(sent)

    async def player(self, life: Life, game: TrackedGame) -> None:
        """Plays the record's moves one after the other until the life ends.  Now and then
        the waiting player first stores a forecast (the record's next two moves), or asks
        to take their last move back, which the opponent accepts; the game then goes on
        from the earlier position with the record's moves again."""
        view = game.mirror.copy()
        rng = game.slot.rng
        # A line stored by an earlier process holds until the next move.
        forecast = next(
            (f for f in self.snapshot.forecasts.get(game.id, []) if f.ply == view.ply), None
        )
        # A request an earlier process stored: accepted if its question reached the thread
        # (a kill between the ask and the accept), else the next move makes it lapse.
        pending = next(
            (t for t in self.snapshot.takebacks.get(game.id, []) if t.status == "pending"), None
        )
        if pending is not None:
            question = self.question(game, pending.id)
            if question is not None:
                event = SentTakeback(game, pending.ply, None, pending.id)
                life.sent.append(event)
                if not await self.accept_takeback(life, event, question):
                    return
                view, forecast, pending = game.view_at(pending.back_to), None, None
        while not life.killed and view.ply < len(game.record) and view.outcome is None:
            roll = rng.random()
            takeback_chance = TAKEBACK_CHANCE
            forecast_chance = FORECAST_CHANCE
            if life.mode == "takeback":
                takeback_chance = TRIGGERED_CHANCE
            elif life.mode == "forecast":
                forecast_chance = TRIGGERED_CHANCE
            if pending is None and view.ply > 0 and roll < takeback_chance:
                if not await self.take_back(life, game, view):
                    return
                view, forecast = game.view_at(view.ply - 1), None
                continue
            if forecast is None and roll > 1 - forecast_chance and self.forecastable(game, view):
                forecast = await self.send_forecast(life, game, view)
                if forecast is None:
                    return
            sent = await self.send_move(life, game, view, forecast=forecast)
            kind, message = await self.answer(life, sent)
            if kind == "unanswered":
                return
            if kind == "refused":
                content = None if message is None else message.content
                raise CrashError(
                    f"game {game.id}: move {sent.ply} ({sent.usi}), sent from the stored "
                    f"position, was refused: {content!r}"
                )
            view.push(game.record[view.ply])
            pending = forecast = None  # a move makes a request lapse, and uses up a line
            if sent.reply is not None:
                # The reply was stored with the move; its post follows the move's answer.
                if not await self.reply_posted(life, game, sent.ply + 1):
                    return
                view.push(game.record[view.ply])
            await asyncio.sleep(rng.uniform(0, 0.03))

    async def reply_posted(self, life: Life, game: TrackedGame, ply: int) -> bool:
        """Until the forecast reply's post is in the thread; False if the life ended."""
        await self.wait(
            lambda: life.killed or self.forecast_post(game, ply) is not None,
            f"the forecast reply {ply} of game {game.id}",
            life.child,
        )
        return not life.killed

    def waiting(self, game: TrackedGame, view: Game) -> tuple[FakeMember, FakeMember]:
        """The player not to move, and the one to move."""
        slot = game.slot
        if view.position.turn is Color.SENTE:
            return slot.gote, slot.sente
        return slot.sente, slot.gote

    def forecastable(self, game: TrackedGame, view: Game) -> bool:
        """The record has two more moves, and neither ends the game."""
        if view.ply + 2 > len(game.record):
            return False
        ahead = view.copy()
        for move in game.record[view.ply : view.ply + 2]:
            ahead.push(move)
            if ahead.outcome is not None:
                return False
        return True

    async def send_forecast(self, life: Life, game: TrackedGame, view: Game) -> ForecastRow | None:
        """``/forecast`` by the waiting player: if the opponent plays the record's next
        move, reply with the one after it.  None if a kill cut the answer off."""
        forecaster, _mover = self.waiting(game, view)
        first, second = (m.usi() for m in game.record[view.ply : view.ply + 2])
        result = await self.fake.slash(
            "forecast",
            {"line": f"{first} {second}"},
            user=forecaster,
            channel=game.thread,
            wait=False,
        )
        life.sent.append(SentForecast(game, view.ply, (first, second), result))
        await self.wait(
            lambda: life.killed or self.final(result) is not None,
            f"the answer to a forecast in game {game.id}",
            life.child,
        )
        reply = self.final(result)
        if reply is None:
            return None
        if not reply.content.startswith("Forecast stored."):
            raise CrashError(f"game {game.id}: a forecast was refused: {reply.content!r}")
        return ForecastRow(forecaster.user.id, view.ply, (first, second))

    @staticmethod
    def final(result: InteractionResult) -> FakeMessage | None:
        """The answer the player sees, once it is there (not "thinking")."""
        if result.response_type is None:
            return None
        reply = result.reply
        if reply is None or reply.loading:
            return None
        return reply

    def question(
        self, game: TrackedGame, request_id: int | None = None, *, ply: int | None = None
    ) -> tuple[FakeMessage, str] | None:
        """The takeback question of request ``request_id`` (or the newest one asked at
        ``ply``) with its Accept button, if it is in the thread."""
        found = None
        for message in self.fake.channel_history(game.thread):
            for custom_id in message.custom_ids:
                parts = custom_id.split(":")
                if parts[:3] != ["tb", "accept", str(game.id)]:
                    continue
                if request_id is not None and int(parts[4]) != request_id:
                    continue
                if ply is not None and int(parts[3]) != ply:
                    continue
                if found is None or int(parts[4]) > int(found[1].split(":")[4]):
                    found = (message, custom_id)
        return found

    def forecast_post(self, game: TrackedGame, ply: int) -> FakeMessage | None:
        for message in reversed(self.fake.channel_history(game.thread)):
            text = message.content
            if text.startswith(f"{ply}. ") and "played by forecast" in text:
                return message
        return None

    async def take_back(self, life: Life, game: TrackedGame, view: Game) -> bool:
        """``/takeback`` by the waiting player, then Accept by the one to move.  False if a
        kill cut off an answer (the request, or its acceptance, may then be stored)."""
        asker, _answerer = self.waiting(game, view)
        known = self.question(game, ply=view.ply)
        result = await self.fake.slash("takeback", user=asker, channel=game.thread, wait=False)
        event = SentTakeback(game, view.ply, result)
        life.sent.append(event)
        life.fire("ask")
        self.figures.takebacks_asked += 1
        await self.wait(
            lambda: life.killed or self.final(result) is not None,
            f"the answer to a takeback in game {game.id}",
            life.child,
        )
        reply = self.final(result)
        if reply is None:
            return False
        if not reply.content.startswith("Takeback requested"):
            raise CrashError(f"game {game.id}: a takeback was refused: {reply.content!r}")

        def new_question() -> tuple[FakeMessage, str] | None:
            found = self.question(game, ply=view.ply)
            if found is None or (known is not None and found[1] == known[1]):
                return None
            return found

        await self.wait(
            lambda: life.killed or new_question() is not None,
            f"the takeback question in game {game.id}",
            life.child,
        )
        question = new_question()
        if question is None:
            return False
        event.request_id = int(question[1].split(":")[4])
        return await self.accept_takeback(life, event, question)

    async def accept_takeback(
        self, life: Life, event: SentTakeback, question: tuple[FakeMessage, str]
    ) -> bool:
        game = event.game
        message, button = question
        _asker, answerer = self.waiting(game, game.view_at(event.ply))
        click = await self.fake.click(message, button, user=answerer, wait=False)
        event.accept = click
        life.fire("accept")
        await self.wait(
            lambda: life.killed or self.final(click) is not None,
            f"the answer to Accept takeback in game {game.id}",
            life.child,
        )
        reply = self.final(click)
        if reply is None:
            return False
        if "accepted the takeback" not in reply.content:
            raise CrashError(f"game {game.id}: Accept takeback answered {reply.content!r}")
        return True

    def overdue_timer_games(self) -> list[TrackedGame]:
        now = self.now()
        out = []
        for slot in self.slots:
            game = slot.game
            if not slot.timer or game is None:
                continue
            row = self.snapshot.games.get(game.id)
            deadline = self.snapshot.deadlines.get(game.id)
            if (
                row is not None
                and row.status == "active"
                and deadline is not None
                and deadline.due_at <= now
                and row.ply == game.mirror.ply
            ):
                out.append(game)
        return out

    async def probe(self, life: Life, game: TrackedGame) -> None:
        """The waiting player moves after the deadline: the move must be refused."""
        sent = await self.send_move(life, game, game.mirror.copy(), probe=True)
        await self.answer(life, sent)  # judged by the checks after the life

    # -- lives ------------------------------------------------------------------------------

    def due_at_start(self) -> list[tuple[str, TrackedGame, int]]:
        """Time-outs and reminders due now that no process has claimed yet."""
        now = self.now()
        out = []
        for game_id, row in self.snapshot.games.items():
            deadline = self.snapshot.deadlines.get(game_id)
            if row.status != "active" or deadline is None:
                continue
            game = self.games[game_id]
            if deadline.due_at <= now:
                out.append(("timeout", game, deadline.due_at))
            elif deadline.reminded_at is None and deadline.remind_at <= now:
                out.append(("reminder", game, deadline.due_at))
        return out

    def announcements(self, kind: str, game: TrackedGame, due: int, since: float) -> int:
        """How many time-outs (or reminders of the deadline ``due``) the bot posted in the
        game's thread since the wall time ``since`` (newest messages first, to stay cheap)."""
        count = 0
        for message in reversed(self.fake.messages.values()):
            if message.created_at < since:
                break
            public = message.published and not message.ephemeral
            if message.channel_id != game.thread.id or not public:
                continue
            if message.author.id != self.fake.bot_user.id:
                continue
            if kind == "timeout":
                count += "ran out of time" in message.content
            else:
                count += REMINDER in message.content and reminder_due(message) == due // US
        return count

    async def live(self, number: int) -> Life:
        """One life of the bot: started, used, killed; then everything is checked."""
        before = self.snapshot
        # Every fourth life starts after the clock passed a reminder or a deadline, and is
        # killed right after announcing it or (every eighth) right after storing a
        # time-out; the others are drawn at random.
        planned = {2: "announcement", 6: "claim"}.get(number % 8)
        if planned == "claim":
            self.jump_to_next_event(("timeout",))
        elif number > 0 and (planned or self.rng.random() < 0.4):
            self.jump_to_next_event()
        expected = self.due_at_start()
        timeouts = [event for event in expected if event[0] == "timeout"]
        if number == 0:
            mode = "play"
        elif planned == "claim" and timeouts:
            mode = "claim"
        elif expected and (planned or self.rng.random() < 0.2):
            mode = "announcement"
        elif number % 4 == 1:
            mode = ("takeback", "takeback", "forecast")[number // 4 % 3]
        elif self.rng.random() < 0.15:
            mode = "startup"
        else:
            mode = "play"
        life = Life(number, mode, await self.spawn(number))
        if mode in ("takeback", "forecast"):
            life.trigger = {"takeback": ("ask", "accept")[number // 4 % 2], "forecast": "reply"}[
                mode
            ]
        self.lives.append(life)
        try:
            if mode == "startup":
                await asyncio.sleep(self.rng.uniform(0.05, STARTUP_KILL))
            elif mode == "announcement":
                kind, game, due = expected[0]
                await self.wait(
                    lambda: self.announcements(kind, game, due, life.child.started) > 0,
                    f"the {kind} of game {game.id}, due while the bot was down",
                    life.child,
                )
            elif mode == "claim":
                await self.wait_for_log(life.child, f"game {timeouts[0][1].id}: ", "lost on time")
            else:
                await self.wait(lambda: life.child.ready, "the bot to be ready", life.child)
                await self.set_up(life)
                await self.play(life)
        finally:
            await self.kill(life)
            await self.finish_tasks(life)
        self.check(life, before)
        return life

    async def play(self, life: Life) -> None:
        loop = asyncio.get_running_loop()
        for slot in self.slots:
            if not slot.timer and slot.game is not None:
                life.tasks.append(loop.create_task(self.player(life, slot.game)))
        for game in self.overdue_timer_games():
            life.tasks.append(loop.create_task(self.probe(life, game)))
        if life.trigger is not None:
            try:
                await asyncio.wait_for(life.fired.wait(), TRIGGER_WAIT)
            except TimeoutError:
                self.figures.triggers_missed += 1
                return
            await asyncio.sleep(self.rng.uniform(0, TRIGGER_KILL[life.trigger]))
            return
        duration = self.rng.uniform(0, MAX_PLAY)
        if self.rng.random() < 0.3:
            # The clock reaches a timer game's reminder or deadline while the bot runs.
            at = self.rng.uniform(0, duration)
            await asyncio.sleep(at)
            if self.jump_to_next_event() and self.rng.random() < 0.5:
                for game in self.overdue_timer_games():
                    life.tasks.append(loop.create_task(self.probe(life, game)))
            duration -= at
        await asyncio.sleep(duration)

    async def last_life(self) -> Life:
        """Not killed: a reminder and a time-out while the bot runs, a late move, SIGTERM."""
        before = self.snapshot
        number = len(self.lives)
        life = Life(number, "last", await self.spawn(number))
        self.lives.append(life)
        child = life.child
        try:
            await self.wait(lambda: child.ready and bool(child.checks), "the start-up", child)
            self.snapshot = read_database(self.database)  # after the start-up check
            await self.set_up(life, fresh_timers=True)
            self.snapshot = read_database(self.database)
            timers = [s.game for s in self.slots if s.timer and s.game is not None]
            for game in sorted(timers, key=lambda g: self.snapshot.deadlines[g.id].remind_at):
                deadline = self.snapshot.deadlines[game.id]
                target = max(deadline.remind_at + MINUTE, self.now() + MINUTE)
                assert target < deadline.due_at - MINUTE
                self.jump_to(target)
                await self.wait_check(child, target, f"the reminder time of game {game.id}")
                count = self.announcements("reminder", game, deadline.due_at, child.started)
                if count != 1:
                    raise CrashError(f"game {game.id}: {count} reminders, 1 expected")
            dues = [self.snapshot.deadlines[g.id].due_at for g in timers]
            target = max(dues) + MINUTE
            self.jump_to(target)
            await self.wait_check(child, target, "the timer games' deadlines")
            for game in timers:
                count = self.announcements("timeout", game, 0, child.started)
                if count != 1:
                    raise CrashError(f"game {game.id}: {count} time-outs announced, 1 expected")
            # The waiting player tries to move after the deadline.
            await self.probe(life, timers[0])
            await self.fake.wait_quiet(0.3, timeout=WAIT)
        except BaseException:
            await self.kill(life)
            raise
        await self.stop(life)
        self.check(life, before)
        return life

    # -- the checks -------------------------------------------------------------------------

    def bot_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """What the bot posted publicly in a channel, from the index made for the checks."""
        return self.posted.get(channel.id, [])

    def index_messages(self) -> None:
        self.posted = {}
        for m in self.fake.messages.values():
            if m.author.id != self.fake.bot_user.id or not m.published or m.loading:
                continue
            if not m.ephemeral:
                self.posted.setdefault(m.channel_id, []).append(m)

    def check(self, life: Life, before: Snapshot) -> None:
        after = read_database(self.database)
        self.index_messages()
        self.check_games(after)
        self.read_log(life)
        self.check_sent(life, after)
        self.check_messages(after)
        self.check_deadline_checks(life, before, after)
        self.check_claims(life)
        self.snapshot = after

    def check_games(self, after: Snapshot) -> None:
        """Invariant 2 and the clock rule: every game row agrees with its stored moves."""
        for game_id, row in after.games.items():
            game = self.games.get(game_id)
            if game is None:
                raise CrashError(f"game {game_id} is in the database but no pair started it")
            moves = after.moves.get(game_id, [])
            where = f"game {game_id}"
            assert [m.ply for m in moves] == list(range(1, len(moves) + 1)), where
            assert row.ply == len(moves), f"{where}: the row says ply {row.ply}, {len(moves)} moves"
            assert (row.bank, row.period) == CONTROLS[game.slot.control], f"{where}: time control"
            expected = [m.usi() for m in game.record[: len(moves)]]
            assert [m.usi for m in moves] == expected, f"{where}: not the moves played, in order"
            accepted = after.accepted(game_id)
            if len(moves) < game.mirror.ply:
                # Only an accepted takeback removes moves (the takeback checks say which).
                assert len(accepted) > game.takebacks_seen, f"{where}: stored moves disappeared"
                game.mirror = game.view_at(0)
            game.takebacks_seen = len(accepted)
            mirror = game.mirror
            for stored in moves[mirror.ply :]:
                move = Move.from_usi(stored.usi)
                try:
                    mirror.push(move)
                except IllegalMoveError as error:
                    raise CrashError(f"{where}: move {stored.ply} is illegal: {error}") from None
            assert mirror.position.sfen() == row.sfen, f"{where}: position {row.sfen!r}"
            history, banks = turns(row, moves, accepted)
            for stored, turn in zip(moves, history, strict=False):
                assert stored.player_id == turn.player_id, f"{where}: move {stored.ply}'s player"
                assert stored.played_at >= turn.started, f"{where}: move {stored.ply} time"
            assert (row.sente_bank, row.gote_bank) == (banks[row.sente_id], banks[row.gote_id]), (
                f"{where}: banks {row.sente_bank}, {row.gote_bank}; the moves give {banks}"
            )
            current = history[-1]
            assert row.turn_started_at == current.started, f"{where}: turn start"
            deadline = after.deadlines.get(game_id)
            if mirror.outcome is not None:
                assert row.status == "finished", f"{where}: the moves ended it ({mirror.outcome})"
                assert row.termination == mirror.outcome.termination.value, where
            if row.status == "active":
                if current.due is None:
                    assert deadline is None, f"{where}: a deadline without a time limit"
                    continue
                assert deadline is not None, f"{where}: no deadline row"
                assert (deadline.player_id, deadline.due_at, deadline.remind_at) == (
                    current.player_id,
                    current.due,
                    current.remind,
                ), f"{where}: deadline {deadline}, the time control gives {current}"
                if deadline.reminded_at is not None:
                    assert current.remind is not None and current.due is not None
                    assert current.remind <= deadline.reminded_at < current.due, (
                        f"{where}: reminder claimed at {deadline.reminded_at}, "
                        f"due between {current.remind} and {current.due}"
                    )
                continue
            assert deadline is None, f"{where}: a finished game with a deadline row"
            if row.termination == "time":
                loser = "sente" if current.player_id == row.sente_id else "gote"
                winner = "gote" if loser == "sente" else "sente"
                assert row.winner == winner, f"{where}: {loser} ran out of time, won by {winner}"
                assert row.finished_at == current.due, f"{where}: ended at {row.finished_at}"
                assert row.finished_at is not None and row.finished_at <= self.now(), (
                    f"{where}: ended on time before its deadline was reached"
                )
            elif mirror.outcome is None:
                raise CrashError(f"{where}: finished by {row.termination}, which nobody did")

    def check_sent(self, life: Life, after: Snapshot) -> None:
        """Invariant 1: what was acknowledged is stored; a late move was refused; a
        forecast reply is stored with the opponent's move or not at all; an acknowledged
        takeback is stored (once), an unacknowledged one fully or not at all.

        The players' actions are gone through in the order they were sent; an
        acknowledged move taken back later is no longer owed (``self.acknowledged``)."""
        figures = self.figures
        # Whether a takeback in the same game follows each action in this life.
        followed: list[bool] = []
        taken: set[int] = set()
        for sent in reversed(life.sent):
            followed.append(sent.game.id in taken)
            if isinstance(sent, SentTakeback):
                taken.add(sent.game.id)
        followed.reverse()
        for sent, later in zip(life.sent, followed, strict=True):
            if isinstance(sent, SentForecast):
                self.check_forecast(life, sent, after)
                continue
            if isinstance(sent, SentTakeback):
                self.check_takeback(life, sent, after)
                continue
            kind, message = self.answer_of(sent)
            stored = after.moves.get(sent.game.id, [])
            usi = stored[sent.ply - 1].usi if len(stored) >= sent.ply else None
            where = f"game {sent.game.id} move {sent.ply} ({sent.usi})"
            content = None if message is None else message.content
            if kind == "unanswered" and not life.killed:
                raise CrashError(f"{where} was never answered, and the bot was not killed")
            if sent.reply is not None and not sent.probe:
                self.check_reply(sent, kind, stored, later)
            elif kind == "unanswered" and usi == sent.usi and len(stored) != sent.ply:
                raise CrashError(f"{where}: moves stored after it, which nobody sent")
            if sent.probe:
                if kind in ("board", "played"):
                    raise CrashError(f"{where} was played after the deadline: {content!r}")
                if kind == "refused":
                    assert message is not None and message.ephemeral
                    assert "ended on time" in message.content, f"{where}: {content!r}"
                    row = after.games[sent.game.id]
                    assert (row.status, row.termination) == ("finished", "time"), where
                    figures.probes_refused += 1
                continue
            if kind in ("board", "played"):
                if usi != sent.usi and not later:
                    raise CrashError(f"{where} was acknowledged ({content!r}) but not stored")
                self.acknowledged[(sent.game.id, sent.ply)] = sent.usi
                figures.acknowledged += 1
                figures.acknowledged_by_note += kind == "played"
            elif kind == "unanswered":
                if usi == sent.usi:
                    figures.unanswered_stored += 1
                else:
                    figures.unanswered_lost += 1
            else:
                raise CrashError(f"{where}, sent from the stored position, refused: {content!r}")
        for (game_id, ply), usi in self.acknowledged.items():
            stored = after.moves.get(game_id, [])
            if len(stored) < ply or stored[ply - 1].usi != usi:
                raise CrashError(f"game {game_id} move {ply} ({usi}) was acknowledged, then lost")
        for game_id in after.games:
            ids = {t.id for t in after.accepted(game_id)}
            unknown = ids - self.accepted_takebacks
            if unknown:
                raise CrashError(f"game {game_id}: takebacks {unknown} accepted, by nobody")

    def check_reply(self, sent: SentMove, kind: str, stored: list[MoveRow], later: bool) -> None:
        """The forecast reply is stored with the opponent's move, by the forecaster."""
        reply = stored[sent.ply] if len(stored) > sent.ply else None
        moved = len(stored) >= sent.ply and stored[sent.ply - 1].usi == sent.usi
        where = f"game {sent.game.id} move {sent.ply} ({sent.usi})"
        if moved and (reply is None or reply.usi != sent.reply) and not later:
            raise CrashError(f"{where} is stored without its forecast reply {sent.reply}")
        if reply is not None and moved and reply.player_id != sent.forecaster:
            raise CrashError(f"{where}: the reply {reply.usi} is not the forecaster's")
        if kind in ("board", "played"):
            assert sent.reply is not None
            self.acknowledged[(sent.game.id, sent.ply + 1)] = sent.reply
            self.figures.forecast_replies += 1
        elif kind == "unanswered":
            if moved:
                if len(stored) != sent.ply + 1:
                    raise CrashError(f"{where}: {len(stored)} moves stored after the reply")
                self.figures.forecast_replies_cut["both stored"] += 1
            else:
                self.figures.forecast_replies_cut["neither stored"] += 1

    def check_forecast(self, life: Life, sent: SentForecast, after: Snapshot) -> None:
        """A forecast's answer may be cut off; then its line is stored or not, as sent."""
        if self.final(sent.result) is not None:
            self.figures.forecasts_stored += 1
            return
        if not life.killed:
            raise CrashError(f"game {sent.game.id}: a forecast was never answered")
        self.figures.forecasts_unanswered += 1
        lines = after.forecasts.get(sent.game.id, [])
        for line in lines:
            if (line.ply, line.moves) != (sent.ply, sent.line):
                raise CrashError(f"game {sent.game.id}: forecast {line} stored, none sent")

    def check_takeback(self, life: Life, sent: SentTakeback, after: Snapshot) -> None:
        """An acknowledged takeback is stored (the acknowledged moves it took back are no
        longer owed); one whose answer a kill cut off is applied fully or not at all."""
        game_id = sent.game.id
        stored = after.moves.get(game_id, [])
        rows = {t.id: t for t in after.takebacks.get(game_id, [])}
        where = f"game {game_id} takeback at ply {sent.ply}"
        cut = self.figures.takebacks_unanswered
        if sent.accept is None:  # the ask, or its question, cut off
            if not life.killed:
                raise CrashError(f"{where}: the ask or its question never came")
            if len(stored) != sent.ply:
                raise CrashError(f"{where}: {len(stored)} moves stored, none accepted")
            cut["ask" if sent.ask is None or self.final(sent.ask) is None else "question"] += 1
            return
        assert sent.request_id is not None
        row = rows.get(sent.request_id)
        if row is None or (row.ply, row.plies) != (sent.ply, 1):
            raise CrashError(f"{where}: request {sent.request_id} is stored as {row}")
        if self.final(sent.accept) is not None:
            if row.status != "accepted":
                raise CrashError(f"{where}: accepted and acknowledged, but stored {row.status}")
            self.figures.takebacks_accepted += 1
            self.figures.takebacks_from_earlier += sent.ask is None
        elif not life.killed:
            raise CrashError(f"{where}: the Accept was never answered")
        elif row.status == "accepted":
            if len(stored) != row.back_to:
                raise CrashError(f"{where}: accepted, but {len(stored)} moves stored")
            cut["accept, applied"] += 1
        elif row.status == "pending":
            if len(stored) != row.ply:
                raise CrashError(f"{where}: not accepted, but {len(stored)} moves stored")
            cut["accept, not applied"] += 1
            return
        else:
            raise CrashError(f"{where}: the Accept was cut off, and it is {row.status}")
        self.accepted_takebacks.add(row.id)
        for key in [k for k in self.acknowledged if k[0] == game_id and k[1] > row.back_to]:
            del self.acknowledged[key]

    def check_messages(self, after: Snapshot) -> None:
        """Invariant 3: one public answer per interaction; each announcement at most once."""
        publics: Counter[int] = Counter()
        for message in self.fake.messages.values():
            public = message.published and not message.ephemeral
            if message.interaction_id is not None and public:
                publics[message.interaction_id] += 1
        twice = {i: n for i, n in publics.items() if n > 1}
        if twice:
            raise CrashError(f"interactions answered publicly more than once: {twice}")
        timeouts = reminders = 0
        self.figures.forecast_posts = 0
        for game in self.games.values():
            row = after.games[game.id]
            moves = after.moves.get(game.id, [])
            history, _banks = turns(row, moves, after.accepted(game.id))
            by_due = {t.due // US: t for t in history if t.due is not None}
            starts = boards = done = 0
            # A ply's board may be shown again once a takeback removed it: counted per
            # (ply, takebacks before the post that went back past it).
            plies: Counter[tuple[int, int]] = Counter()
            dues: Counter[int] = Counter()
            where = f"game {game.id}'s thread"
            accepted = after.accepted(game.id)
            asked = len(after.takebacks.get(game.id, []))
            for message in self.bot_messages(game.thread):
                text = message.content
                matched = MOVE_LINE.match(text)
                at = self.clock_at(message.created_at)
                if text.startswith(f"**Game #{game.id}**\n☗ Sente:"):
                    starts += 1
                elif matched:
                    ply = int(matched.group(1))
                    earlier = [t for t in accepted if (t.answered_at or 0) <= at]
                    plies[(ply, sum(t.back_to < ply for t in earlier))] += 1
                    boards += 1
                    assert message.attachments, f"{where}: move {ply} without a board"
                    # The game's ply then: the stored one, or where the next takeback began.
                    limit = next((t.ply for t in accepted if (t.answered_at or 0) > at), row.ply)
                    if ply > limit:
                        raise CrashError(f"{where} shows move {ply}, the database had {limit}")
                    if "played by forecast" in text:
                        self.figures.forecast_posts += 1
                    shown = (matched.group(3), matched.group(4))
                    assert shown == game.text(ply), f"{where}: {text!r} is not the move"
                elif "ran out of time" in text:
                    timeouts += 1
                    assert message.attachments, f"{where}: a time-out without the board"
                    assert (row.status, row.termination) == ("finished", "time"), where
                    assert row.finished_at is not None
                    assert self.clock_at(message.created_at) >= row.finished_at, (
                        f"{where}: the time-out was announced before the deadline"
                    )
                    dues[-1] += 1
                elif REMINDER in text:
                    reminders += 1
                    due = reminder_due(message)
                    turn = by_due.get(due or 0)
                    if turn is None or turn.remind is None:
                        raise CrashError(f"{where}: a reminder for no deadline: {text!r}")
                    assert message.mentioned_user_ids == [turn.player_id], f"{where}: {text!r}"
                    assert self.clock_at(message.created_at) >= turn.remind, (
                        f"{where}: a reminder before its time: {text!r}"
                    )
                    dues[due or 0] += 1
                elif "asks to take back" in text:
                    asked -= 1
                    if asked < 0:
                        raise CrashError(f"{where}: more takeback questions than requests")
                elif text.startswith("Takeback: ") and "taken back" in text:
                    done += 1
                    assert message.attachments, f"{where}: a takeback without the board"
                    if done > len(accepted):
                        raise CrashError(f"{where}: {done} takebacks shown, {len(accepted)} stored")
                else:
                    raise CrashError(f"{where}: unexpected message {text!r}")
            assert starts == 1, f"{where}: {starts} start boards"
            again = {ply: n for (ply, _), n in plies.items() if n > 1}
            if again:
                raise CrashError(f"{where}: moves announced more than once: {again}")
            if any(n > 1 for n in dues.values()):
                raise CrashError(f"{where}: a time-out or reminder sent twice: {dict(dues)}")
        self.figures.timeouts, self.figures.reminders = timeouts, reminders

    def check_deadline_checks(self, life: Life, before: Snapshot, after: Snapshot) -> None:
        """Invariant 4: a deadline check that finished has claimed what was due at its
        clock, for every game that did not move during the life (so its deadline stood): a
        time-out once its deadline has passed; a reminder in the reminder window, unless the
        game meanwhile ended on time (a late move may have ended it first)."""
        checks = life.child.checks
        for game_id, first in before.games.items():
            deadline = before.deadlines.get(game_id)
            last = after.games[game_id]
            if first.status != "active" or deadline is None or last.ply != first.ply:
                continue
            if len(after.accepted(game_id)) != len(before.accepted(game_id)):
                continue  # taken back, then played again: the deadline moved
            where = f"game {game_id}"
            overdue = any(x >= deadline.due_at for x in checks)
            if overdue and (last.status, last.termination) != ("finished", "time"):
                raise CrashError(
                    f"{where}: a deadline check ran past its deadline {deadline.due_at}, "
                    f"but the game is {last.status} ({last.termination})"
                )
            window = [x for x in checks if deadline.remind_at <= x < deadline.due_at - US]
            if deadline.reminded_at is None and window and last.status == "active":
                now = after.deadlines.get(game_id)
                if now is None or now.reminded_at is None:
                    raise CrashError(
                        f"{where}: a deadline check ran at {window[0]}, after its reminder "
                        f"time {deadline.remind_at}, and claimed no reminder"
                    )

    def read_log(self, life: Life) -> None:
        """Claims (time-outs and reminders) from the bot's log; errors fail."""
        with self.log_path.open("rb") as log:
            log.seek(life.child.log_from)
            text = log.read().decode(errors="replace")
        lines = text.splitlines()
        if life.killed and lines and not text.endswith("\n"):
            lines.pop()  # cut off by the kill
        bad = []
        for line in lines:
            matched = LOG_LINE.match(line)
            if matched is None:
                if line.strip():
                    bad.append(line)
                continue
            at, level, _name, message = matched.groups()
            allowed = level == "WARNING" and any(w in message for w in ALLOWED_WARNINGS)
            if level in ("WARNING", "ERROR", "CRITICAL") and not allowed:
                bad.append(line)
            for kind, pattern in (("timeout", TIMEOUT_CLAIM), ("reminder", REMINDER_CLAIM)):
                claim = pattern.fullmatch(message)
                if claim:
                    life.claims.append(Claim(kind, int(claim.group(1)), float(at)))
        if bad:
            raise CrashError("the bot logged problems:\n  " + "\n  ".join(bad[:20]))

    def check_claims(self, life: Life) -> None:
        """Every claimed time-out and reminder was posted by the process that claimed it,
        unless the kill came right after the claim (then a reminder may be lost; a time-out
        must still be announced by a later process: see ``check_timeouts_announced``)."""
        end = life.child.killed_at or time.time()
        for claim in life.claims:
            game = self.games[claim.game_id]
            posted = [
                m
                for m in self.bot_messages(game.thread)
                if claim.at - 0.5 <= m.created_at <= end + 1.0
                and ("ran out of time" if claim.kind == "timeout" else REMINDER) in m.content
            ]
            if len(posted) == 1:
                continue
            if posted or not life.killed or end - claim.at >= LOSS_WINDOW:
                raise CrashError(
                    f"game {claim.game_id}: {claim.kind} claimed at {claim.at:.3f}, posted "
                    f"{len(posted)} times; the bot lived {end - claim.at:.1f} s more"
                )
            if claim.kind == "timeout":
                self.figures.timeouts_cut += 1
                self.cut_timeouts[claim.game_id] = (life.number, end - claim.at)
            else:
                self.figures.lost_reminders += 1

    def check_replays(self) -> None:
        """At the end, once more from scratch: every game's stored moves replay legally with
        ``Game.replay`` to the stored position."""
        for game_id, row in self.snapshot.games.items():
            usis = [m.usi for m in self.snapshot.moves.get(game_id, [])]
            try:
                replayed = Game.replay(row.start_sfen, usis)
            except IllegalMoveError as error:
                raise CrashError(f"game {game_id} does not replay: {error}") from None
            assert replayed.position.sfen() == row.sfen, f"game {game_id}: replayed position"

    def check_timeouts_announced(self) -> None:
        """At the end: every game that ended on time says so in its thread, once.  A process
        killed between storing the time-out and posting it leaves that to the next one."""
        missing = []
        for game_id, row in self.snapshot.games.items():
            if row.termination != "time":
                continue
            thread = self.games[game_id].thread
            posts = [m for m in self.bot_messages(thread) if "ran out of time" in m.content]
            if len(posts) != 1:
                cut = self.cut_timeouts.get(game_id)
                how = (
                    f"claimed by bot process {cut[0]}, killed {cut[1] * 1000:.0f} ms later"
                    if cut
                    else "not claimed just before a kill"
                )
                missing.append(f"game {game_id}: {len(posts)} time-out announcements ({how})")
        if missing:
            raise CrashError(
                "games that ended on time must say so exactly once, also when the bot was "
                "killed right after storing the time-out:\n  " + "\n  ".join(missing)
            )

    def fake_problems(self) -> list[str]:
        """The fake's problems, less the requests a kill cut off (see the docstring)."""
        failed = [
            r
            for r in self.fake.requests
            if r.message is not None and r.message.startswith("fake Discord internal error")
        ]
        tolerated = set()
        timing = {}
        for record, error in zip(failed, self.fake.internal_errors, strict=True):
            timing[error] = when = self.relative_to_kills(record)
            if any(word in error for word in CUT_OFF) and when.startswith("cut off"):
                tolerated.add(error)
        problems = []
        for problem in self.fake.problems():
            error = problem.removeprefix("internal error in the fake: ")
            if error in tolerated:
                self.figures.cut_off_requests += 1
                continue
            problems.append(f"{problem} ({timing[error]})" if error in timing else problem)
        return problems

    def relative_to_kills(self, record: RequestRecord) -> str:
        """Whether a request can have been cut off by a kill: it reached the fake at most
        ``ABORTED_REQUEST`` before a kill, or after it but before the next process started
        (the fake may read what a process sent just before it died after the kill)."""
        began = time.time() - (asyncio.get_running_loop().time() - record.started)
        for life, following in zip(self.lives, [*self.lives[1:], None], strict=True):
            killed = life.child.killed_at
            if killed is None:
                continue
            until = following.child.started if following is not None else time.time()
            if killed - ABORTED_REQUEST <= began <= until:
                return f"cut off by kill {life.number}: began {killed - began:+.3f} s before it"
        return "began neither just before a kill nor between a kill and the next start"

    def log_tail(self, lines: int = 60) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


#: How a reminder post reads (its deadline follows, as a Discord timestamp).
REMINDER = "your move is due"


def reminder_due(message: FakeMessage) -> int | None:
    """The deadline (unix seconds) a reminder names: ``<t:1234:R>``."""
    found = re.search(r"<t:(\d+):R>", message.content)
    return int(found.group(1)) if found else None


@pytest.mark.slow
async def test_sigkill_at_random_moments_loses_no_acknowledged_move_and_sends_nothing_twice(
    scale: Scale, tmp_path: Path, e2e_guard: E2EGuard
) -> None:
    fake = FakeDiscord(default_timeout=WAIT)
    await fake.start()
    run = CrashRun(fake, tmp_path, scale)
    try:
        try:
            for number in range(scale.crash_kills):
                await run.live(number)
            await run.last_life()
        except AssertionError as failure:
            raise AssertionError(
                f"{failure}\n\nfigures so far: {run.figures.summary()}\n\n"
                f"the bot's log (last lines; all of it in {run.log_path}):\n{run.log_tail()}"
            ) from failure
        figures = run.figures
        print(f"\ncrash test: {figures.summary()}")
        run.check_replays()
        failures = run.fake_problems()
        try:
            run.check_timeouts_announced()
        except CrashError as failure:
            failures.append(str(failure))
        if failures:
            pytest.fail("\n".join(failures) + f"\n\nfigures: {figures.summary()}")
        assert figures.kills == scale.crash_kills
        assert figures.acknowledged >= 10 * scale.crash_kills, figures.summary()
        # Kills landed while moves were in flight (and, in the long run, between storing a
        # move and answering it).
        assert figures.unanswered_stored + figures.unanswered_lost >= 1, figures.summary()
        assert figures.unanswered_stored >= 1 or not scale.long, figures.summary()
        assert figures.timeouts >= 2 and figures.reminders >= 2, figures.summary()
        assert figures.takebacks_accepted >= 1, figures.summary()
        assert figures.forecast_replies >= 1 and figures.forecast_posts >= 1, figures.summary()
        # Kills landed in takebacks and around forecast replies (in the long run surely).
        cut = sum(figures.takebacks_unanswered.values())
        assert cut >= 1 or not scale.long, figures.summary()
        assert sum(figures.forecast_replies_cut.values()) >= 1 or not scale.long
    finally:
        for life in run.lives:
            if life.child.process.returncode is None:
                life.child.process.kill()
                await life.child.process.wait()
            if life.child.reader is not None:
                await life.child.reader
        run.close()
        await fake.stop()

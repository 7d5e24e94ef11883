"""From stored rows to a `GameSnapshot`: replaying the move list, caching, formatting moves.

The move list is the truth. A game is rebuilt by replaying its moves from the
start SFEN with `rules.Game` (which also re-decides repetition), and the result
is checked against the SFEN cached on the game row. Replaying a long game costs
milliseconds, so replayed games are kept in an LRU cache; an entry is used only
while the row still has the same ply, SFEN and result, which is what any write
(from this process or another) changes. Cached `Game` objects are never
mutated: a move is pushed onto a copy, so views handed out earlier stay valid
while they are rendered in another thread.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.db import AwayRow, GameRow
from rules import Color, Game, Handicap, IllegalMoveError, Move, Outcome, Position, Termination
from rules.notation import format_move

from ..clock.clocks import TimeControl, bank_after, due_at
from .game import GameSnapshot, ImpasseRule, MoveText, PlayerRef, Result, TakebackPolicy
from .likely import likely_order
from .numbering import Numbering
from .summaries import GameSummary

log = logging.getLogger(__name__)


def color_name(color: Color | None) -> str | None:
    """A colour as stored and as options carry it: `"sente"`, `"gote"` (None: no colour)."""
    return None if color is None else color.name.lower()


def parse_color(name: str | None) -> Color | None:
    """The inverse of `color_name`."""
    return None if name is None else Color[name.upper()]


def stored_outcome(record: GameRow) -> Outcome | None:
    if record.termination is None:
        return None
    return Outcome(Termination(record.termination), parse_color(record.winner))


def turn_of(sfen: str) -> Color:
    """The side to move of an SFEN, read without building the position."""
    return Color.SENTE if sfen.split()[1] == "b" else Color.GOTE


def player_ref(record: GameRow, color: Color) -> PlayerRef:
    return PlayerRef.of_row(record.sente if color is Color.SENTE else record.gote)


def color_of(record: GameRow, user_id: int) -> Color | None:
    if record.sente.user_id == user_id:
        return Color.SENTE
    if record.gote.user_id == user_id:
        return Color.GOTE
    return None


def away_of(record: GameRow, color: Color) -> AwayRow | None:
    """`color`'s vacation under way, if they are on one."""
    return record.sente_away if color is Color.SENTE else record.gote_away


def paused_for(record: GameRow, color: Color) -> timedelta:
    """How long `color`'s clock stands still if they are to move now: from their
    vacation's start (or the turn's, if later) to the vacation's latest end. Zero when
    they are not on vacation."""
    away = away_of(record, color)
    if away is None:
        return timedelta()
    return max(away.ends_by - max(away.started_at, record.turn_started_at), timedelta())


def deadline_of(record: GameRow, color: Color) -> datetime | None:
    """The deadline of `color` if they were to move now (None without a time limit).

    A player on vacation is given the whole of it: their deadline is moved later by the
    time from the vacation's start (or the turn's) to its latest end, so nothing runs
    out during a vacation, even one whose end was never processed (the bot was down).
    Ending it earlier moves the turn's start by the time actually spent instead
    (`Vacations`), which gives the same deadline as this when it ends at `ends_by`. A
    deadline that had passed before the vacation began stays where it was.
    """
    bank = record.sente_bank if color is Color.SENTE else record.gote_bank
    due = due_at(record.turn_started_at, bank, record.terms.period)
    away = away_of(record, color)
    if due is None or away is None or due <= away.started_at:
        return due
    return due + paused_for(record, color)


def thinking_time(record: GameRow, color: Color, now: datetime) -> timedelta:
    """How much of `color`'s turn counts against their clock, if they move `now`: the
    time since the turn began, but none of it spent on vacation. The exact complement of
    `deadline_of`: the vacation's stretch is the one that function adds, from its start
    (or the turn's) to its latest end, so a move after a vacation that ran out but was
    not yet ended (the deadline task had not looked) is charged the time since."""
    elapsed = now - record.turn_started_at
    away = away_of(record, color)
    if away is None:
        return elapsed
    paused = min(now, away.ends_by) - max(away.started_at, record.turn_started_at)
    return elapsed - max(paused, timedelta())


def banks_left(record: GameRow, now: datetime | None = None) -> tuple[timedelta, timedelta] | None:
    """What is left of sente's and gote's banks (main time) at `now`, or when the turn
    began if `now` is None; None for a game whose time control has no bank (a period per
    move only, or no limit). The player to move's bank runs from the turn's start, as the
    move would charge it (`thinking_time`: none of a vacation); the other's stands.

    Example: in a `7d+1d` game two days into sente's first turn, `banks_left(row, now)` is
    `(timedelta(days=5), timedelta(days=7))`.
    """
    if record.terms.period is None or not record.terms.bank:
        return None
    banks = {Color.SENTE: record.sente_bank, Color.GOTE: record.gote_bank}
    if now is not None and record.status == "active" and not record.clock_waits:
        color = turn_of(record.sfen)
        banks[color] = bank_after(banks[color], thinking_time(record, color, now))
    return banks[Color.SENTE], banks[Color.GOTE]


def clock_state(record: GameRow) -> tuple[object, ...]:
    """Everything besides the ply that a move's or a takeback's clock arithmetic reads
    from the row: both banks, the turn's start and both players' vacations. A write that
    finds it changed since its checks (a vacation began or ended in between, in this
    process or another) must do the arithmetic again rather than store stale clocks."""
    return (
        record.sente_bank,
        record.gote_bank,
        record.turn_started_at,
        record.sente_away,
        record.gote_away,
    )


def current_deadline(record: GameRow) -> datetime | None:
    """The running deadline of an active game, from the clock state on the game row; None
    while its clock waits for the game's first post (nothing runs out before its players
    can see it)."""
    if record.status != "active" or record.clock_waits:
        return None
    return deadline_of(record, turn_of(record.sfen))


def move_text(position: Position, move: Move, last_move: Move | None) -> MoveText:
    """`move` (legal in `position`) in USI, Japanese and Western notation; the Western
    form is the one `/help` teaches (`P-7f`, with letter ranks), so that a move is echoed
    as members are told to write it."""
    return MoveText(
        usi=move.usi(),
        japanese=format_move(position, move, "japanese", last_move=last_move),
        western=format_move(position, move, "hodges", last_move=last_move),
    )


def moves_written(game: Game, start: int, stop: int) -> tuple[MoveText, ...]:
    """`game.moves[start:stop]`, each written in the position it was played in (so that
    同 and the disambiguations read as they did then).

    Example: `moves_written(game, 0, 2)` is the game's first two moves.
    """
    position = game.position_at(start)
    written = []
    for index in range(start, stop):
        move = game.moves[index]
        written.append(move_text(position, move, game.moves[index - 1] if index else None))
        position.push_unchecked(move)
    return tuple(written)


class ReplayError(Exception):
    """A stored move list that does not replay legally: the database is damaged."""


def replay(record: GameRow, usi_moves: Sequence[str]) -> GameSnapshot:
    """Rebuild a game from its start SFEN and stored moves, and apply the stored result."""
    try:
        game = Game.replay(record.start_sfen, usi_moves)
    except (IllegalMoveError, ValueError) as error:
        raise ReplayError(f"game {record.id}: {error}") from error
    last_text = None
    if game.moves:
        before = game.position_at(len(game.moves) - 1)
        last = game.moves[-1]
        previous = game.moves[-2] if len(game.moves) > 1 else None
        last_text = move_text(before, last, previous)
    stored = stored_outcome(record)
    if game.outcome is None and stored is not None:
        game.set_outcome(stored)  # resignation, time, abort, impasse: not visible in the moves
    elif game.outcome != stored:
        log.warning("game %s: stored result %s, the moves give %s", record.id, stored, game.outcome)
    return snapshot(record, game, last_text)


def with_outcome(before: GameSnapshot, record: GameRow, outcome: Outcome) -> GameSnapshot:
    """The same game ended by `outcome` (a copy: the cached game stays as it was)."""
    game = before.game.copy()
    game.outcome = outcome
    return snapshot(record, game, before.last_move_text)


class GameCache:
    """Replayed games by id, least recently used dropped first."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._entries: OrderedDict[int, GameSnapshot] = OrderedDict()

    def get(self, record: GameRow) -> GameSnapshot | None:
        """The cached game if it still matches the row (same ply, position and result)."""
        entry = self._entries.get(record.id)
        if entry is None:
            return None
        old = entry.row
        if (old.ply, old.sfen, old.termination) != (record.ply, record.sfen, record.termination):
            del self._entries[record.id]
            return None
        self._entries.move_to_end(record.id)
        if old == record:
            return entry
        fresh = snapshot(record, entry.game, entry.last_move_text)
        return replace(fresh, rating_changes=entry.rating_changes)  # the same ending

    @property
    def size(self) -> int:
        return self._size

    def put(self, game: GameSnapshot) -> None:
        self._entries[game.id] = game
        self._entries.move_to_end(game.id)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._entries.pop(game_id, None)


class LegalMoveCache:
    """The legal moves of recent positions, formatted, those a player most likely wants
    first (`likely_order`); autocomplete asks for them per keystroke."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: OrderedDict[tuple[str | None, ...], list[MoveText]] = OrderedDict()

    def get(
        self, position: Position, last_move: Move | None, own_last: Move | None = None
    ) -> list[MoveText]:
        """The moves of `position`; `last_move` is the opponent's move that led to it and
        `own_last` the player's move before that (the piece they may want to go on with)."""
        key = (position.key(), *(None if m is None else m.usi() for m in (last_move, own_last)))
        entry = self._entries.get(key)
        if entry is None:
            ordered = likely_order(position, position.legal_moves(), last_move, own_last)
            entry = [move_text(position, move, last_move) for move in ordered]
            self._entries[key] = entry
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        self._entries.move_to_end(key)
        return list(entry)


def snapshot(record: GameRow, game: Game, last_text: MoveText | None) -> GameSnapshot:
    """The snapshot of a row and its replayed game (`last_text`: the last move, written)."""
    active = record.status == "active"
    to_move = player_ref(record, game.position.turn) if active else None
    proposal = parse_color(record.count_proposed_by)
    return GameSnapshot(
        row=record,
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        thread_id=record.thread_id,
        sente=player_ref(record, Color.SENTE),
        gote=player_ref(record, Color.GOTE),
        handicap=Handicap.parse(record.terms.handicap),
        time_control=TimeControl(record.terms.bank, record.terms.period),
        impasse_rule=ImpasseRule(record.terms.impasse_rule),
        game=game,
        status=record.status,
        outcome=stored_outcome(record),
        to_move=to_move,
        deadline=current_deadline(record),
        last_move=game.moves[-1] if game.moves else None,
        last_move_text=last_text,
        ply=record.ply,
        started_at=record.started_at,
        pending_count_proposal=proposal if active else None,
        message_id=record.message_id,
        finished_at=record.finished_at,
        takebacks=TakebackPolicy(record.terms.takebacks),
    )


def result_for(record: GameRow, color: Color) -> Result | None:
    """How a game ended for `color`, read from the stored row (None while it goes on)."""
    if record.status != "finished":
        return None
    if record.termination == Termination.ABORT.value:
        return Result.ABORTED
    winner = parse_color(record.winner)
    if winner is None:
        return Result.DRAW
    return Result.WON if winner is color else Result.LOST


def line_of(record: GameRow, user_id: int, now: datetime | None = None) -> GameSummary:
    """One of `user_id`'s games as a line of `/games` (no replay needed); its banks as
    they stand at `now` (when the turn began, without it)."""
    color = color_of(record, user_id)
    assert color is not None
    return GameSummary(
        id=record.id,
        opponent=player_ref(record, color.opponent),
        your_color=color,
        your_turn=record.status == "active" and turn_of(record.sfen) is color,
        ply=record.ply,
        deadline=current_deadline(record),
        thread_id=record.thread_id,
        guild_id=record.guild_id,
        result=result_for(record, color),
        finished_at=record.finished_at,
        numbering=Numbering.of_sfen(record.start_sfen),
        handicap=Handicap.parse(record.terms.handicap),
        banks=banks_left(record, now) if record.status == "active" else None,
        clock_waits=record.status == "active" and record.clock_waits,
    )

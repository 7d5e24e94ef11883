"""Positions and records from anywhere: an SFEN, a pasted record (KIF, KI2, CSA, USI) or a
record file, read for `/board` (any position a record can give, an irregular start with
its warnings) and for `/challenge` (a start a game can be played from).

Reading is pure and needs no database; it holds the GIL while it works, so the bot runs
it in a worker process with a time limit (`readers.ReaderPool`), where neither a long
record nor a hostile one can hold the event loop.
Every refusal is a `ServiceError` with one sentence that says what is wrong and, for a
record, where (line and column).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Game, Handicap, Move, Outcome, Position, Sentence
from rules.notation import RecordError, read_record, unfold

from ..errors import ServiceError
from ..play.game import MoveText
from ..play.numbering import Numbering
from ..play.snapshots import move_text

#: The largest record file read: a record of 1,000 moves is about 30 KiB, so this holds
#: any real game with its comments while a stray video or archive is refused unread.
MAX_RECORD_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class ShownPosition:
    """A record's position at one ply, with what a board needs to show it.

    `ply` counts the moves played from the record's start (0: the start itself) out of
    `moves`; `numbering` turns them into the move numbers the record uses (a record or
    SFEN that starts after move 30 numbers its first move 31); `warnings` say what is
    irregular about the record's start (nifu, no king at all...); `outcome` is the
    record's result, given only at its last ply, and `result` the same at every ply (a
    record shown at an earlier move still says how it ended); `handicap` says the record
    starts from a handicap, whose sides are the giver (上手) and the receiver (下手).
    """

    position: Position
    ply: int
    moves: int
    numbering: Numbering
    last_move: Move | None
    last_move_text: MoveText | None
    sente: str | None
    gote: str | None
    warnings: tuple[Sentence, ...]
    outcome: Outcome | None
    result: Outcome | None = None
    #: The handicap the record starts from (its sides are then uwate and shitate).
    handicap: Handicap = Handicap.EVEN

    @property
    def move_number(self) -> int:
        """The number of the move after which the position is shown."""
        return self.numbering.number(self.ply)

    @property
    def last_number(self) -> int:
        """The number of the record's last move (its start's, if it has none)."""
        return self.numbering.number(self.moves)


def check_record_size(size: int) -> None:
    """Refuse a record file larger than `MAX_RECORD_BYTES`, before it is downloaded."""
    if size > MAX_RECORD_BYTES:
        raise ServiceError(
            Sentence(
                "That file is {size} KiB; a record file may be at most {limit} KiB.",
                size=-(-size // 1024),
                limit=MAX_RECORD_BYTES // 1024,
            )
        )


def _record_game(data: str | bytes) -> tuple[Game, str | None, str | None, tuple[Sentence, ...]]:
    if isinstance(data, bytes):
        check_record_size(len(data))
    if not data.strip():  # an empty file too: it would read as the usual start
        raise ServiceError(Sentence("Give a position (an SFEN) or a record to show."))
    try:
        # A pasted record may have lost its line breaks on the way (see `unfold`).
        record = read_record(data if isinstance(data, bytes) else unfold(data))
    except RecordError as error:
        raise ServiceError(error.sentence) from None
    warnings = tuple(warning.sentence for warning in record.warnings)
    return record.game, record.sente, record.gote, warnings


def _ply(game: Game, numbering: Numbering, number: int | None) -> int:
    """The ply of the move the player asked for by its number in the record (None: its
    last), checked against the record."""
    moves = len(game.moves)
    if number is None:
        return moves
    if not numbering.number(0) <= number <= numbering.number(moves):
        raise ServiceError(
            Sentence(
                "That record goes from move {start} (its start) to move {last}: "
                "pick a move between them.",
                start=numbering.number(0),
                last=numbering.number(moves),
            )
        )
    return numbering.ply(number)


def read_position(data: str | bytes, move: int | None = None) -> ShownPosition:
    """The position of an SFEN or a record (text, or a file's bytes in UTF-8 or Shift_JIS)
    after its move numbered `move` (None: the last), as the record numbers its moves: from
    1, or from N+1 for a record that starts after move N (KIF's `手数＝N`, an SFEN's move
    number).

    Example: `read_position("▲７六歩 △３四歩", 1).last_move_text.japanese == "７六歩"`.
    """
    game, sente, gote, warnings = _record_game(data)
    numbering = Numbering.starting_at(game.start.move_number)
    shown = _ply(game, numbering, move)
    position = game.position_at(shown)
    last_move = game.moves[shown - 1] if shown else None
    written = None
    if last_move is not None:
        before = game.position_at(shown - 1)
        written = move_text(before, last_move, game.moves[shown - 2] if shown > 1 else None)
    return ShownPosition(
        position=position,
        ply=shown,
        moves=len(game.moves),
        numbering=numbering,
        last_move=last_move,
        last_move_text=written,
        sente=sente,
        gote=gote,
        warnings=warnings,
        outcome=game.outcome if shown == len(game.moves) else None,
        result=game.outcome,
        handicap=_handicap_of(game),
    )


def _handicap_of(game: Game) -> Handicap:
    """The handicap a record's game starts from, or even (a set-up position too)."""
    handicap = Handicap.from_sfen(game.start.sfen())
    return Handicap.EVEN if handicap is None else handicap


def start_of(data: str | bytes, move: int | None = None) -> str:
    """The SFEN of a start asked for at `/challenge`: an SFEN, or a record's position
    after its move numbered `move` (None: its end). Whether a game can start there is
    `Challenges.offer`'s check (the strict reader), as for a rematch's start.

    Example: `start_of("4k4/9/4G4/9/9/9/9/9/9 b G 1")` is that SFEN (a tsume start).
    """
    return read_position(data, move).position.sfen()

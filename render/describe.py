"""Alt text for a board image: a short plain sentence for screen readers."""

from __future__ import annotations

from rules import Color, Move, Position

SIDE_NAMES = {Color.SENTE: "Sente", Color.GOTE: "Gote"}


def describe(
    position: Position,
    last_move: Move | None = None,
    *,
    previous: Position | None = None,
    written: tuple[str, str] | None = None,
) -> str:
    """Move number, whose turn, the last move in Japanese and Western notation, check.

    `position` is the position after `last_move`; `previous`, the position
    before it, is what the notation needs to write the move (which piece moved,
    which of two golds). A caller that has the move written already passes
    `written`, its (Japanese, Western) text, instead, and saves rebuilding the
    previous position. Without either, or if the move is not legal in `previous`,
    the move is given as USI and squares.

    >>> from rules import Move, Position
    >>> describe(Position.initial())
    'Shogi board, move 1: ☗ Sente to move.'
    >>> describe(Position.initial(), Move.from_usi("P*5e"))
    'Shogi board, move 1: ☗ Sente to move. Last move ☖ P*5e (pawn dropped on 5e).'
    """
    turn = position.turn
    parts = [f"Shogi board, move {position.move_number}: {turn.symbol} {SIDE_NAMES[turn]} to move."]
    if last_move is not None:
        mover = turn.opponent
        if written is not None:
            text = f"{written[0].lstrip('☗☖▲△')} ({written[1]})"
        else:
            text = _move_text(last_move, previous)
        parts.append(f"Last move {mover.symbol} {text}.")
    if position.is_check():
        parts.append("Checkmate." if position.is_checkmate() else "Check.")
    return " ".join(parts)


def _move_text(move: Move, previous: Position | None) -> str:
    if previous is not None:
        written = _notation(previous, move)
        if written is not None:
            japanese, western = written
            return f"{japanese} ({western})"
    return f"{move.usi()} ({_plain(move)})"


def _notation(previous: Position, move: Move) -> tuple[str, str] | None:
    """The move in Japanese and Western notation, or None if it does not fit `previous`."""
    from rules.notation import format_move  # imported here: only alt text needs it

    try:
        japanese = format_move(previous, move, "japanese")
        western = format_move(previous, move, "western")
    except ValueError:  # IllegalMoveError: `previous` is not the position before `move`
        return None
    return japanese.lstrip("☗☖▲△"), western


def _plain(move: Move) -> str:
    if move.drop is not None:
        return f"{move.drop.english} dropped on {move.to_square.usi()}"
    assert move.from_square is not None
    text = f"{move.from_square.usi()} to {move.to_square.usi()}"
    return text + ", promoting" if move.promotion else text

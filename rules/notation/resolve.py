"""From what the player said (an `Intent`) to the one legal move meant, or a clear error.

One resolver serves every notation (section 6.3 of the specification). It never
guesses where the specification says to ask (section 6.5): an open promotion or
several fitting pieces raise `AmbiguousMoveError` with every candidate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalMoveError, IllegalReason, Sentence
from ..moves import DROP_ROLES, Move
from ..position import Position
from ..types import Color, Piece, Role, Square
from . import jsa
from .common import AmbiguousMoveError
from .write import csa_move, japanese_move, western_move

_PROMOTION_REASONS = (IllegalReason.MUST_PROMOTE, IllegalReason.CANNOT_PROMOTE)


@dataclass(slots=True)
class Intent:
    """What a piece of text says about a move, before the position is consulted.

    `drop` is True (marked as a drop), False (marked as a board move) or None (not
    said); `promotion` likewise; `default_promotion` is what an unstated promotion
    means in that notation (no promotion in USI and KIF, None = ask). `board_mark` says
    the text wrote Western `-` or `x`, which claims a board move.
    """

    family: str
    role: Role | None = None
    target: Square | None = None
    same: bool = False
    origin: Square | None = None
    drop: bool | None = None
    modifiers: str = ""
    promotion: bool | None = None
    default_promotion: bool | None = None
    after: Role | None = None
    mark: Color | None = None
    board_mark: bool = False


def _illegal(reason: IllegalReason, sentence: Sentence) -> IllegalMoveError:
    return IllegalMoveError(reason, sentence)


def _best_explanation(position: Position, moves: list[Move]) -> IllegalMoveError:
    """The most useful reason among several illegal readings: promotion trouble last."""
    errors = [position.explain_illegal(move) for move in moves]
    for error in errors:
        if error.reason not in _PROMOTION_REASONS:
            return error
    return errors[0]


def _echo(position: Position, move: Move, intent: Intent, legal: list[Move]) -> str:
    family = intent.family
    if family in ("japanese", "kitao"):
        return japanese_move(position, move, legal, same=intent.same)
    if family == "western":
        return western_move(position, move)
    if family == "csa":
        return csa_move(position, move)
    return move.usi()


def _ambiguous(
    position: Position, moves: list[Move], intent: Intent, text: str, legal: list[Move]
) -> AmbiguousMoveError:
    names = [_echo(position, move, intent, legal) for move in sorted(moves, key=Move.usi)]
    if len({move.from_square for move in moves}) == 1 and len(moves) == 2:
        promote = next(move for move in moves if move.promotion)
        stay = next(move for move in moves if not move.promotion)
        sentence = Sentence(
            "'{text}' leaves the promotion open: write {promote} to promote or {stay} not to.",
            text=text,
            promote=_echo(position, promote, intent, legal),
            stay=_echo(position, stay, intent, legal),
        )
    else:
        sentence = Sentence(
            "'{text}' fits {count} moves ({moves}); write the one you mean.",
            text=text,
            count=len(moves),
            moves=", ".join(names),
        )
    return AmbiguousMoveError(sentence, moves)


def resolve(position: Position, intent: Intent, text: str, last_move: Move | None) -> Move:
    """The one legal move `intent` describes; raises the documented errors otherwise."""
    us = position.turn
    if intent.mark is not None and intent.mark != us:
        raise _illegal(
            IllegalReason.WRONG_TURN,
            Sentence(
                "It is {turn} to move, but '{text}' is marked for {mark};"
                " check that you are looking at the current position.",
                turn=us,
                text=text,
                mark=intent.mark,
            ),
        )
    target = intent.target
    if intent.same:
        if last_move is None:
            raise _illegal(
                IllegalReason.NO_PREVIOUS_MOVE,
                Sentence(
                    "同 (same square) refers to the previous move and there is none;"
                    " write the square."
                ),
            )
        if target is not None and target != last_move.to_square:
            raise _illegal(
                IllegalReason.NO_PREVIOUS_MOVE,
                Sentence(
                    "同 means {previous}, where the previous move landed, but '{text}'"
                    " names {target}; write only one of them.",
                    previous=last_move.to_square,
                    text=text,
                    target=target,
                ),
            )
        target = last_move.to_square
    assert target is not None
    legal = position.legal_moves()
    here = [move for move in legal if move.to_square == target]
    if intent.drop:
        assert intent.role is not None
        _refuse_drop_details(intent, text)
        return _drop(position, intent.role, target, here, intent.promotion)
    if intent.origin is not None:
        return _from_origin(position, intent, intent.origin, target, here, text, legal)
    return _by_piece(position, intent, target, here, text, legal)


def _refuse_drop_details(intent: Intent, text: str) -> None:
    """A drop comes from the hand: an origin or a modifier cannot describe it."""
    if intent.origin is not None:
        raise _illegal(
            IllegalReason.MALFORMED,
            Sentence(
                "'{text}' marks a drop, which comes from the hand and has no origin;"
                " leave out {origin} or the drop mark.",
                text=text,
                origin=intent.origin,
            ),
        )
    if intent.modifiers:
        raise _illegal(
            IllegalReason.MALFORMED,
            Sentence(
                "'{text}' marks a drop, but {modifiers} says how a piece on the board moves;"
                " leave one of them out.",
                text=text,
                modifiers=intent.modifiers,
            ),
        )


def _promoted_readings(
    position: Position, intent: Intent, role: Role, here: list[Move]
) -> list[Move]:
    """Board moves of the promoted `role` that a Western base letter may have meant.

    `R` is a rook and `+R` (or `D`) a dragon; a player who writes `R87` with a dragon
    able to get there and a rook in hand may mean either, so neither is guessed.
    """
    if intent.family != "western" or not role.can_promote:
        return []
    code = role.promoted + 16 * position.turn
    return [m for m in here if m.from_square is not None and position.board[m.from_square] == code]


def _drop(
    position: Position, role: Role, target: Square, here: list[Move], promotion: bool | None
) -> Move:
    if role not in DROP_ROLES:
        raise _illegal(
            IllegalReason.NOT_IN_HAND,
            Sentence(
                "A {piece} is never dropped:"
                " pieces in hand are unpromoted, kings stay on the board.",
                piece=role,
            ),
        )
    if promotion:
        raise _illegal(
            IllegalReason.CANNOT_PROMOTE, Sentence("A dropped piece never promotes on the drop.")
        )
    move = Move.drop_at(role, target)
    if move in here:
        return move
    raise position.explain_illegal(move)


def _choose_promotion(
    position: Position,
    moves: list[Move],
    intent: Intent,
    origin: Square,
    target: Square,
    text: str,
    legal: list[Move],
) -> Move:
    """Among the legal moves of one piece to one square, the one the text asks for."""
    if not moves:
        tries = [Move.board(origin, target, False), Move.board(origin, target, True)]
        raise _best_explanation(position, tries)
    wanted = intent.promotion if intent.promotion is not None else intent.default_promotion
    if wanted is not None:
        for move in moves:
            if move.promotion == wanted:
                return move
        raise position.explain_illegal(Move.board(origin, target, wanted))
    if len(moves) == 1:
        return moves[0]
    raise _ambiguous(position, moves, intent, text, legal)


def _from_origin(
    position: Position,
    intent: Intent,
    origin: Square,
    target: Square,
    here: list[Move],
    text: str,
    legal: list[Move],
) -> Move:
    piece = position.piece_at(origin)
    if origin == target:  # 同　銀(22) after a move to 2b: no silver of the mover's is there
        _refuse_standing_on_target(position, intent, origin)
    if piece is None or piece.color != position.turn:
        raise position.explain_illegal(Move.board(origin, target, bool(intent.promotion)))
    _refuse_another_piece(intent, piece, origin)
    if intent.after is not None:
        if intent.after == piece.role:
            intent.promotion = False
        elif piece.role.can_promote and intent.after == piece.role.promoted:
            intent.promotion = True
        else:
            raise _illegal(
                IllegalReason.NO_PIECE,
                Sentence(
                    "The piece on {square} is a {piece}, so it cannot end up as a {after}.",
                    square=origin,
                    piece=piece.role,
                    after=intent.after,
                ),
            )
    if intent.modifiers:
        group = jsa.candidates(position, piece.role, target, piece.color)
        if not jsa.matches(origin, target, piece.role, piece.color, group, intent.modifiers):
            raise _illegal(
                IllegalReason.CANNOT_MOVE_THERE,
                Sentence(
                    "The {piece} on {square} does not fit {modifiers}"
                    " on its way to {target}; leave the modifier out.",
                    piece=piece.role,
                    square=origin,
                    modifiers=intent.modifiers,
                    target=target,
                ),
            )
    moves = [move for move in here if move.from_square == origin]
    return _choose_promotion(position, moves, intent, origin, target, text, legal)


def _refuse_another_piece(intent: Intent, piece: Piece, square: Square) -> None:
    """The move names its piece (`銀(22)`, `S22`) and the origin holds another kind."""
    if intent.role is not None and piece.role != intent.role:
        raise _illegal(
            IllegalReason.NO_PIECE,
            Sentence(
                "There is no {piece} on {square}: the piece there is a {actual}.",
                piece=intent.role,
                square=square,
                actual=piece.role,
            ),
        )


def _refuse_standing_on_target(position: Position, intent: Intent, square: Square) -> None:
    """An origin that is the destination itself names no piece that could move there."""
    piece = position.piece_at(square)
    if piece is None:
        raise _illegal(
            IllegalReason.NO_PIECE, Sentence("There is no piece on {square}.", square=square)
        )
    _refuse_another_piece(intent, piece, square)
    if piece.color != position.turn:
        raise _illegal(
            IllegalReason.NOT_OWN_PIECE,
            Sentence("The {piece} on {square} is not yours.", piece=piece.role, square=square),
        )
    raise _illegal(
        IllegalReason.CAPTURES_OWN_PIECE,
        Sentence("{square} holds your own {piece}.", square=square, piece=piece.role),
    )


def _by_piece(
    position: Position,
    intent: Intent,
    target: Square,
    here: list[Move],
    text: str,
    legal: list[Move],
) -> Move:
    role = intent.role
    assert role is not None
    us = position.turn
    group = jsa.candidates(position, role, target, us)
    chosen = [s for s in group if jsa.matches(s, target, role, us, group, intent.modifiers)]
    board_moves = [move for move in here if move.from_square in chosen]
    origins = {move.from_square for move in board_moves}
    if not origins:
        in_hand = role in DROP_ROLES and position.hands[us][role] > 0
        if in_hand and intent.drop is None and not intent.modifiers:
            promoted = _promoted_readings(position, intent, role, here)
            drop = Move.drop_at(role, target)
            if not promoted:
                return _drop(position, role, target, here, intent.promotion)
            if drop in here and not intent.board_mark:
                raise _ambiguous(position, [*promoted, drop], intent, text, legal)
            raise _illegal(
                IllegalReason.NO_PIECE,
                Sentence(
                    "You have no {piece} on the board that can move to {square};"
                    " write {hint} to move the {after} or {drop} to drop.",
                    piece=role,
                    square=target,
                    hint=western_move(position, promoted[0]),
                    after=role.promoted,
                    drop=western_move(position, drop),
                ),
            )
        if chosen:
            tries = [Move.board(s, target, p) for s in chosen for p in (False, True)]
            raise _best_explanation(position, tries)
        if group:
            raise _illegal(
                IllegalReason.NO_PIECE,
                Sentence(
                    "None of your {piece}s that can reach {square} fits {modifiers};"
                    " remember that 右 左 上 引 are seen from the mover's side.",
                    piece=role,
                    square=target,
                    modifiers=intent.modifiers,
                ),
            )
        if in_hand and intent.drop is False:
            raise _illegal(
                IllegalReason.NO_PIECE,
                Sentence(
                    "No {piece} of yours on the board can move to {square}; mark a drop with *"
                    " ('{text}' names a board move).",
                    piece=role,
                    square=target,
                    text=text,
                ),
            )
        if role.is_promoted and intent.family == "japanese" and intent.promotion is None:
            try:
                intent.role, intent.promotion = role.unpromoted, True
                base = _by_piece(position, intent, target, here, text, legal)
            except ValueError:
                pass
            else:
                raise _illegal(
                    IllegalReason.NO_PIECE,
                    Sentence(
                        "You have no {piece} that can move to {square};"
                        " for a piece that promotes there, write {hint}.",
                        piece=role,
                        square=target,
                        hint=japanese_move(position, base, legal),
                    ),
                )
        raise _illegal(
            IllegalReason.NO_PIECE,
            Sentence("You have no {piece} that can move to {square}.", piece=role, square=target),
        )
    if len(origins) > 1:
        fitting = board_moves
        if intent.promotion is not None:
            fitting = [m for m in board_moves if m.promotion == intent.promotion] or board_moves
        raise _ambiguous(position, fitting, intent, text, legal)
    origin = board_moves[0].from_square
    assert origin is not None
    return _choose_promotion(position, board_moves, intent, origin, target, text, legal)

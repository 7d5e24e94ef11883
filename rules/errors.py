"""Errors of the rules library. Each carries a stable code and one plain sentence.

All are `ValueError`s so that callers who only care about "bad input" can catch
one thing, while the bot can tell the kinds apart and answer specifically.
"""

from __future__ import annotations

import re
from enum import Enum

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
_LONG_QUOTE = re.compile(r"'([^']{41,})'")


def quote(text: str, limit: int = 30) -> str:
    """A player's text as an error message may show it: one line, no control
    characters, at most `limit` characters. Errors reach chat replies, where a
    pasted screenful or a terminal escape must not be echoed back."""
    one_line = _CONTROL.sub(" ", text).strip()
    return one_line if len(one_line) <= limit else one_line[: limit - 3] + "..."


def tidy(message: str, limit: int = 300) -> str:
    """A whole message made safe the same way: quoted parts cut to 40 characters,
    control characters removed, at most `limit` characters in all."""
    message = _LONG_QUOTE.sub(lambda m: "'" + quote(m.group(1), 40) + "'", message)
    return quote(message, limit)


class SfenError(ValueError):
    """An SFEN that does not describe a legal shogi position.

    `code` is stable (tests and the bot match on it); `str(error)` is a sentence
    a player can act on.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class InvalidMoveError(ValueError):
    """Text that could not be read as a move at all."""


class IllegalReason(Enum):
    """Why a well-formed move may not be played. The value is the stable code."""

    MALFORMED = "malformed"
    NO_PIECE = "no_piece"
    NOT_OWN_PIECE = "not_own_piece"
    NOT_IN_HAND = "not_in_hand"
    OCCUPIED = "occupied"
    CANNOT_MOVE_THERE = "cannot_move_there"
    BLOCKED = "blocked"
    CAPTURES_OWN_PIECE = "captures_own_piece"
    MUST_PROMOTE = "must_promote"
    CANNOT_PROMOTE = "cannot_promote"
    DEAD_DROP = "dead_drop"
    NIFU = "nifu"
    UCHIFUZUME = "uchifuzume"
    LEAVES_KING_IN_CHECK = "leaves_king_in_check"
    DOUBLE_CHECK = "double_check"
    GAME_OVER = "game_over"
    WRONG_TURN = "wrong_turn"  # a turn mark or CSA sign of the side not to move
    NO_PREVIOUS_MOVE = "no_previous_move"  # 同 with nothing (or something else) to refer to


class IllegalMoveError(ValueError):
    """A move that is well formed but not legal here; `reason` says why."""

    def __init__(self, reason: IllegalReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class GameError(ValueError):
    """An action the game's state does not allow: acting after the end, aborting after
    both players have moved, declaring an impasse without meeting the conditions."""

"""Errors of the rules library. Each carries a stable code and one plain sentence.

All are `ValueError`s so that callers who only care about "bad input" can catch
one thing, while the bot can tell the kinds apart and answer specifically.

The errors a player reads keep their sentence as a `Sentence` in `error.sentence`,
so the bot can say it in the reader's language; `str(error)` is the English text.
Every template is a string literal written as the first argument of `Sentence(...)`,
where Babel's extractor finds it (`data/locale/<language>/LC_MESSAGES/rules.po`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum

from .types import Color, Role

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


class Sentence:
    """A sentence for a player, kept as an English template and its values.

    `str(sentence)` is the English text. The bot instead looks `template` up in its
    message catalogs and formats the values in the reader's language (a `Role` as 歩 or
    "pawn", a `Square` as ５五 or 5e, a `Color` as 先手 or sente), so one explanation
    written here reads right in every language.

    >>> str(Sentence("You have no {piece} in hand.", piece=Role.BISHOP))
    'You have no bishop in hand.'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params: Mapping[str, object] = params

    def __str__(self) -> str:
        return self.template.format_map({k: english(v) for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Sentence({self.template!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sentence):
            return NotImplemented
        return (self.template, dict(self.params)) == (other.template, dict(other.params))

    def __hash__(self) -> int:
        return hash(self.template)


class Plural(Sentence):
    """A sentence whose words follow a number: "You keep 1 note" but "3 notes".

    `template` is the singular (the catalogs' message id), `plural` the English plural;
    the value named `by` (`count` unless told) chooses between them, in English by
    English's rule and in another language by its catalog's `Plural-Forms` (Japanese
    has one form). Both texts are literals, where Babel's extractor finds them.

    >>> [str(Plural("{count} move", "{count} moves", count=n)) for n in (0, 1, 2)]
    ['0 moves', '1 move', '2 moves']
    """

    __slots__ = ("by", "plural")

    def __init__(
        self, singular: str, plural: str, /, *, by: str = "count", **params: object
    ) -> None:
        super().__init__(singular, **params)
        if not isinstance(params.get(by), int):
            raise TypeError(f"a plural sentence needs the number {by!r}")
        self.plural = plural
        self.by = by

    @property
    def number(self) -> int:
        """The value that chooses the form."""
        value = self.params[self.by]
        assert isinstance(value, int)
        return value

    def __str__(self) -> str:
        template = self.template if self.number == 1 else self.plural
        return template.format_map({k: english(v) for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Plural({self.template!r}, {self.plural!r}, **{dict(self.params)!r})"


def english(value: object) -> str:
    """A sentence's value as English prose writes it: pieces and sides by name, a
    sentence within a sentence as its text."""
    if isinstance(value, Sentence):
        return str(value)
    if isinstance(value, Role):
        return value.english
    if isinstance(value, Color):
        return value.name.lower()
    return str(value)


class SfenError(ValueError):
    """An SFEN that does not describe a legal shogi position.

    `code` is stable (tests and the bot match on it); `sentence` says what is wrong in
    a way a player can act on, and `str(error)` is its English text.
    """

    def __init__(self, code: str, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.code = code
        self.sentence = sentence


class InvalidMoveError(ValueError):
    """Text that could not be read as a move at all."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


class FormatError(ValueError):
    """Text of a record that does not follow its format: a CSA `P` row, a board
    diagram's row or hand, a line that is no header. Readers wrap it in a `RecordError`
    naming the line, so the player reads what is wrong in their language."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


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

    def __init__(self, reason: IllegalReason, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.reason = reason
        self.sentence = sentence


class GameError(ValueError):
    """An action the game's state does not allow: acting after the end, aborting after
    both players have moved, declaring an impasse without meeting the conditions."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence

"""Ranking legal moves against what a player has typed so far.

Autocomplete cannot be deferred, so this works on the service's cached move
list and does only string work. A player may type in any notation: the typed
text is folded (case, width, spaces, separators) and compared with each
move's USI, Western and Japanese forms; prefix matches rank before
substring matches, and a move reached by several forms keeps its best rank.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bot.services import MoveText

from .options import MAX_CHOICES

_DROP = str.maketrans({"-": "", "x": "", "*": "", "'": "", " ": "", "　": "", "=": ""})
_KANJI_DIGITS = str.maketrans("一二三四五六七八九", "123456789")
_LETTER_RANK = re.compile(r"(?<=[1-9])([a-i])")


def fold_typed(text: str) -> str:
    """Fold width, case, kanji numerals and rank letters, and drop separators, so that
    `Ｐ－７ｆ`, `p7f`, `P-76` and `７六` all start the same way (`p76`, `76`)."""
    folded = unicodedata.normalize("NFKC", text).casefold().translate(_KANJI_DIGITS)
    folded = _LETTER_RANK.sub(lambda m: str(ord(m.group(1)) - ord("a") + 1), folded)
    return folded.translate(_DROP)


def rank_moves(moves: Sequence[MoveText], typed: str, limit: int = MAX_CHOICES) -> list[MoveText]:
    """The best `limit` moves for `typed`: prefix matches first, then substring matches,
    keeping the order of `moves` within each group."""
    wanted = fold_typed(typed)
    if not wanted:
        return list(moves[:limit])
    ranked: list[tuple[int, int, MoveText]] = []
    for index, move in enumerate(moves):
        forms = (fold_typed(move.usi), fold_typed(move.western), fold_typed(move.japanese))
        if any(form.startswith(wanted) for form in forms):
            ranked.append((0, index, move))
        elif any(wanted in form for form in forms):
            ranked.append((1, index, move))
    ranked.sort(key=lambda entry: (entry[0], entry[1]))
    return [move for _, _, move in ranked[:limit]]

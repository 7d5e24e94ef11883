"""Ranking legal moves against what a player has typed so far.

Autocomplete cannot be deferred, so this works on the service's cached move
list and does only string work. A player may type in any notation: the typed
text is normalised (case, width, spaces, separators) and compared with each
move's USI, Western and Japanese forms; prefix matches rank before
substring matches, and a move reached by several forms keeps its best rank.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .services import MoveText

MAX_CHOICES = 25
_DROP = str.maketrans({"-": "", "x": "", "*": "", "'": "", " ": "", "　": "", "=": ""})


def normalise(text: str) -> str:
    """Fold width and case and drop separators: `Ｐ－７ｆ` and `p7f` compare equal."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return folded.translate(_DROP)


def choice_name(move: MoveText) -> str:
    return f"{move.japanese}  ·  {move.western}  ·  {move.usi}"[:100]


def rank_moves(moves: Sequence[MoveText], typed: str, limit: int = MAX_CHOICES) -> list[MoveText]:
    """The best `limit` moves for `typed`: prefix matches first, then substring matches,
    keeping the order of `moves` within each group."""
    wanted = normalise(typed)
    if not wanted:
        return list(moves[:limit])
    ranked: list[tuple[int, int, MoveText]] = []
    for index, move in enumerate(moves):
        forms = (normalise(move.usi), normalise(move.western), normalise(move.japanese))
        if any(form.startswith(wanted) for form in forms):
            ranked.append((0, index, move))
        elif any(wanted in form for form in forms):
            ranked.append((1, index, move))
    ranked.sort(key=lambda entry: (entry[0], entry[1]))
    return [move for _, _, move in ranked[:limit]]

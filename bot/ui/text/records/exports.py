"""`/export`: the caption above an exported record or animation, and why an animation
cannot be made now."""

from __future__ import annotations

from bot.services import GameSnapshot
from rules import Sentence

from ..base import MAX_MESSAGE, translator

#: The UTF-8 file that keeps what a Shift_JIS one cannot hold.
_UTF8_FORMATS = {"kif": "KIFU", "ki2": "KI2U"}


def export_caption(
    lang: str, game_id: int, fmt: str, link: str | None, *, replaced: int = 0
) -> str:
    """Above an exported record: which game and format, what Shift_JIS could not hold (then
    the UTF-8 format that keeps it), and the analysis link if it fits (a game still going
    on has none, and the caption says when it comes)."""
    _ = translator(lang)
    text = _("Record of game #{id} ({format}).").format(id=game_id, format=fmt.upper())
    if replaced:
        text += "\n" + _(
            "Japanese software reads a `.{ending}` file as Shift_JIS, which has no place for some "
            "characters of this record (an emoji in a name, say): they are written as 〓. "
            "The {format} format keeps every character (UTF-8)."
        ).format(ending=fmt.lower(), format=_UTF8_FORMATS.get(fmt.lower(), "KIFU"))
    if link is None:
        text += "\n" + _("The lishogi analysis link comes once the game is over.")
    elif len(text) + len(link) < MAX_MESSAGE - 100:
        text += "\n" + _("Analyse on lishogi: {link}").format(link=f"<{link}>")
    return text


def animation_export_caption(lang: str, game: GameSnapshot, shown_moves: int | None = None) -> str:
    """Above the GIF `/export` gives: which game, and up to which move; and, for a game
    too long for the upload limit, that it shows only the last `shown_moves` moves."""
    _ = translator(lang)
    values = {"id": game.id, "move_number": game.move_number, "count": shown_moves}
    if shown_moves is None:
        return _("Game #{id} as an animation, from the start to move {move_number}.").format_map(
            values
        )
    return _(
        "Game #{id} as an animation of its last {count} moves, up to move {move_number}: "
        "the whole game is larger than Discord accepts."
    ).format_map(values)


ANIMATIONS_CROWDED = Sentence(
    "Animations are being made for several members right now; ask again in a minute."
)
ANIMATION_BUSY = Sentence(
    "Your animation is still being made; wait for it before asking for another."
)
ANIMATION_TOO_LARGE = Sentence(
    "This game's animation is larger than Discord accepts; export its record instead."
)

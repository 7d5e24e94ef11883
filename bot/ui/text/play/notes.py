"""Private notes: the answer to `/note` and the list `/notes` shows."""

from __future__ import annotations

from bot.services import Note

from ..base import plural_translator, safe, translator, truncate


def note_saved(lang: str, note: Note) -> str:
    """The private answer to `/note`: where the note was stored and who can see it."""
    _ = translator(lang)
    return _(
        "Note {number} saved at move {move_number}. Only you can see it: "
        "`/notes` lists your notes, and your private `/export` carries them as comments."
    ).format(number=note.id, move_number=note.move_number)


#: How much of each note `/notes` shows: fifty full notes would not fit in one message.
NOTE_PREVIEW = 200


def notes_text(lang: str, game_id: int, notes: list[Note], *, deleted: int | None) -> str:
    """`/notes`: the member's own notes on a game, each with its number and move, after
    saying how many were just deleted (`deleted`)."""
    _, _n = translator(lang), plural_translator(lang)
    lines = []
    if deleted is not None:
        lines.append(
            _n("Deleted {count} note.", "Deleted {count} notes.", deleted).format(count=deleted)
        )
    if not notes:
        lines.append(
            _("You have no notes on game #{id}. Write one with `/note`.").format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your notes on game #{id} (only you can see them):").format(id=game_id))
    for note in notes:
        body = " ".join(note.text.split())
        if len(body) > NOTE_PREVIEW:
            body = body[: NOTE_PREVIEW - 1] + "…"
        lines.append(
            _("• {number} (move {move_number}): {text}").format(
                number=note.id, move_number=note.move_number, text=safe(body)
            )
        )
    lines.append(
        _("Delete one with `/notes delete:<number>` or all of them with `/notes delete:all`.")
    )
    return truncate("\n".join(lines))

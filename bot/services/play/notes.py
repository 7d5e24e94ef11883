"""Private notes on games: each member's own, shown to nobody else.

Any member may keep notes on any game of their server, a spectator studying a game as
much as its players; nobody sees another's notes. A note is stored with the game's ply
at the moment it is written, so the author's own record (`Exports.file` with
`notes_of`) writes it as a comment after that move. Every query names the author, so
what one member asks about can only ever be their own notes.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime

from bot.db import NoteRow, Session
from rules import Sentence

from ..budgets import Budgets
from ..errors import NoteRefused
from .numbering import FROM_MOVE_ONE, Numbering
from .store import GameStore


@dataclass(frozen=True, slots=True)
class Note:
    """A member's private note on a game: written at `ply` (the game's ply then), shown to
    its author only; `move_number` is that ply as the game's players read it."""

    id: int
    game_id: int
    ply: int
    text: str
    written_at: datetime
    numbering: Numbering = FROM_MOVE_ONE

    @property
    def move_number(self) -> int:
        return self.numbering.number(self.ply)


#: The longest note: a paragraph of thought, and short enough that a note and the words
#: around it fit in one Discord message (2,000 characters) when it is shown back.
MAX_NOTE_LENGTH = 1000
#: Notes per member per game: more than a careful annotator writes on one game, few
#: enough that the list of them stays readable and one member cannot fill the database.
MAX_NOTES = 50


#: What a member types for every one of their notes on a game.
ALL_NOTES = {"all", "0", "すべて", "全部", "全て"}


def note_number(typed: str) -> int | None:
    """A note's number as a member types it (`12`, `#12`, `１２`), None for all of their
    notes on the game (`all`, `すべて`); refused otherwise.

    >>> note_number("#１２"), note_number("すべて")
    (12, None)
    """
    text = unicodedata.normalize("NFKC", typed).strip().lower().lstrip("#")
    if text in ALL_NOTES:
        return None
    if not text.isdigit() or len(text) > 18:
        raise NoteRefused(
            Sentence("Give the number of a note as /notes lists it, e.g. 12, or all.")
        )
    return int(text)


def _note(row: NoteRow, numbering: Numbering) -> Note:
    return Note(row.id, row.game_id, row.ply, row.body, row.written_at, numbering)


class Notes:
    """Writing, listing and deleting one's own notes on a game."""

    def __init__(self, store: GameStore, budgets: Budgets | None = None) -> None:
        self._store = store
        self.budgets = Budgets() if budgets is None else budgets

    async def add(
        self, game_id: int, author_id: int, text: str, *, guild_id: int | None = None
    ) -> Note:
        """Store `text` as the author's note on the game at its current ply (finished
        games too: a note after the game is study). Refused when empty, longer than
        `MAX_NOTE_LENGTH`, or when the author already keeps `MAX_NOTES` on the game or
        their budget of notes (`Budgets.notes`) over all games."""
        body = text.strip()
        if not body:
            raise NoteRefused(Sentence("A note needs some text."))
        if len(body) > MAX_NOTE_LENGTH:
            raise NoteRefused(
                Sentence(
                    "A note can be at most {limit} characters long; this one has {length}.",
                    limit=MAX_NOTE_LENGTH,
                    length=len(body),
                )
            )
        game = await self._store.current(game_id, guild_id=guild_id)
        now = self._store.now()

        everywhere = self.budgets.notes

        async def store(tx: Session) -> int | Sentence:
            # Counted and written in one transaction, under the lock on the author's notes:
            # two notes sent at once cannot both slip under a limit.
            await tx.notes.lock(game.id, author_id)
            if await tx.notes.count(game.id, author_id) >= MAX_NOTES:
                return Sentence(
                    "You already keep {limit} notes on this game; delete some with /notes first.",
                    limit=MAX_NOTES,
                )
            if await tx.notes.count_all(author_id) >= everywhere:
                return Sentence(
                    "You already keep as many notes over all your games as one member may "
                    "({limit}); delete some with /notes first.",
                    limit=everywhere,
                )
            return await tx.notes.add(game.id, author_id, game.ply, body, now)

        note_id = await self._store.db.run(store)
        if isinstance(note_id, Sentence):
            raise NoteRefused(note_id)
        return Note(note_id, game.id, game.ply, body, now, game.numbering)

    async def of(self, game_id: int, author_id: int, *, guild_id: int | None = None) -> list[Note]:
        """The author's notes on the game, oldest first (nobody else's, ever)."""
        game = await self._store.current(game_id, guild_id=guild_id)
        async with self._store.db.query() as q:
            rows = await q.notes.of(game.id, author_id)
        return [_note(row, game.numbering) for row in rows]

    async def by_ply(self, game_id: int, author_id: int) -> dict[int, list[str]]:
        """The author's notes on the game as record comments: their texts by ply."""
        async with self._store.db.query() as q:
            rows = await q.notes.of(game_id, author_id)
        placed: dict[int, list[str]] = {}
        for row in rows:
            placed.setdefault(row.ply, []).append(row.body)
        return placed

    async def delete(
        self, game_id: int, author_id: int, note_id: int | None, *, guild_id: int | None = None
    ) -> int:
        """Delete one of the author's notes on the game (`note_id`), or all of them
        (None); how many went. A note that is not theirs is refused as one that does
        not exist: whose notes exist is nobody else's business."""
        game = await self._store.current(game_id, guild_id=guild_id)
        async with self._store.db.transaction() as tx:
            gone = await tx.notes.delete(game.id, author_id, note_id)
        if note_id is not None and not gone:
            raise NoteRefused(
                Sentence("You have no note number {number} on this game.", number=note_id)
            )
        return gone

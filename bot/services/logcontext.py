"""What a log line is about: the game and the server being handled, kept in a context
variable so every line logged while handling them carries them (`LOG_FORMAT=json`).

Each interaction and each task has its own context: discord.py handles every event in
a task of its own, so one member's command never lends its game to another's lines.
The variable holds one mutable `Subject` per piece of work rather than the ids
themselves: a game is often loaded in a task the handler started (to answer in time),
and a context variable set there would not be seen by the handler's own later lines;
the shared subject is.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class Subject:
    game: int | None = None
    guild: int | None = None


SUBJECT: ContextVar[Subject | None] = ContextVar("log_subject", default=None)


def about_server(guild_id: int | None) -> None:
    """A new piece of work (an interaction, a deadline check), in a server or none."""
    SUBJECT.set(Subject(guild=guild_id))


def about_game(game_id: int, guild_id: int | None) -> None:
    """From now on in this piece of work, log lines are about this game (in this server)."""
    subject = SUBJECT.get()
    if subject is None:
        subject = Subject()
        SUBJECT.set(subject)
    subject.game = game_id
    if guild_id is not None:
        subject.guild = guild_id


def current() -> Subject:
    """What the current line is about (nothing known: an empty subject)."""
    return SUBJECT.get() or Subject()

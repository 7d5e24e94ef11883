"""Budgets: how much of the bot one member may hold at once, so that nobody can stall it.

Each budget is a limit a real club never meets and an attacker meets at once: games
against the computer (each costs engine time), analyses running or waiting (the same),
open challenges naming a member (each pings someone), challenging again a member who just
declined, vacation starts (each posts in every game thread of the member's) and notes
over all of a member's games. Every one is counted from the database, never from the
memory of one process, since several shard processes may share it; where two requests at
once could both find room for one more, the count and the write share a transaction
under a lock on what was counted (see the repositories' `lock`s).

`Budgets` is one frozen value with the defaults; the operator may change any of them with
the settings (`LIMIT_...`, see `from_settings`), and the service checks them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import timedelta
from typing import Any


@dataclass(frozen=True, slots=True)
class Budgets:
    """The limits per member (and per server) the service checks.

    >>> Budgets().named_challenges
    10
    """

    #: Games against the computer one member has in progress, over every server: a game
    #: costs engine time at each of its moves, and a member plays a few at once at most.
    computer_games: int = 5
    #: Analyses one member has running or waiting for the engine: one at a time.
    analyses_per_member: int = 1
    #: Analyses running or waiting in one server, whoever asked: a server's members
    #: share the engine with every other server.
    analyses_per_server: int = 3
    #: Challenges naming a member that one member keeps open in a server: each pings
    #: its opponent, and ten unanswered ones are already a lot of asking.
    named_challenges: int = 10
    #: How long after a member declines a challenge its author may not challenge them
    #: again in that server (the one who declined may challenge back at once).
    rechallenge_after: timedelta = timedelta(hours=1)
    #: Challenges one member may send the same member in that time without a game coming
    #: of them (withdrawn, declined, expired or still open), each pinging them: without
    #: it, withdrawing and sending again would ping someone without end.
    challenges_to_one_member: int = 3
    #: Vacations one member may start within `vacation_period`: each start and end is
    #: posted in every thread of their games in progress.
    vacation_starts: int = 4
    vacation_period: timedelta = timedelta(days=30)
    #: Notes one member keeps over all the games they wrote on (beside the limit per
    #: game): enough for a season of careful study, bounded so nobody fills the database.
    notes: int = 1000


#: The setting of each budget, and the unit its number is in (None: a count).
SETTINGS: dict[str, tuple[str, timedelta | None]] = {
    "computer_games": ("LIMIT_COMPUTER_GAMES", None),
    "analyses_per_member": ("LIMIT_ANALYSES", None),
    "analyses_per_server": ("LIMIT_SERVER_ANALYSES", None),
    "named_challenges": ("LIMIT_NAMED_CHALLENGES", None),
    "rechallenge_after": ("LIMIT_RECHALLENGE_MINUTES", timedelta(minutes=1)),
    "challenges_to_one_member": ("LIMIT_CHALLENGES_TO_ONE_MEMBER", None),
    "vacation_starts": ("LIMIT_VACATION_STARTS", None),
    "vacation_period": ("LIMIT_VACATION_DAYS", timedelta(days=1)),
    "notes": ("LIMIT_NOTES", None),
}
#: Settings that may be 0 (a cooldown of none); every count must leave room for one.
MAY_BE_ZERO = frozenset({"rechallenge_after"})
#: The largest number any of them takes: far past any club, and small enough for every
#: database's integers and for Python's dates.
LARGEST = 1_000_000


def from_settings(values: Mapping[str, str]) -> Budgets:
    """The budgets from the settings' `LIMIT_...` values (a missing or empty one keeps its
    default); `ValueError` naming the setting for a value that is no whole number in range.

    >>> from_settings({"LIMIT_NAMED_CHALLENGES": "20"}).named_challenges
    20
    """
    known = {key for key, _ in SETTINGS.values()}
    for key in values:
        if key.startswith("LIMIT_") and key not in known:
            raise ValueError(
                f"{key} is no setting of the bot; the limits are {', '.join(sorted(known))}."
            )
    chosen: dict[str, Any] = {}
    for budget in fields(Budgets):
        key, unit = SETTINGS[budget.name]
        text = values.get(key, "").strip()
        if not text:
            continue
        least = 0 if budget.name in MAY_BE_ZERO else 1
        if not text.isascii() or not text.isdigit() or not least <= int(text) <= LARGEST:
            raise ValueError(f"{key} must be a whole number from {least} to {LARGEST}.")
        chosen[budget.name] = int(text) if unit is None else unit * int(text)
    return replace(Budgets(), **chosen)

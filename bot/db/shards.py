"""Which servers a process looks after when the bot runs as several shard processes.

Discord splits a bot's servers into shards by the server's id, `(guild_id >> 22) %
shard_count`, and sends each gateway connection only its shard's servers. A process
that runs some of the shards must also settle only those servers' deadlines, or two
processes would both try (the claims keep that exactly once, but each would wake and
work for the other). The same formula is written here once for Python and once as
SQL, so the deadline queries select a process's own games in the database itself.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The bits of a Discord id below its timestamp, which the shard formula shifts away.
_TIMESTAMP_SHIFT = 22


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends `guild_id`'s events to."""
    return (guild_id >> _TIMESTAMP_SHIFT) % shard_count


@dataclass(frozen=True, slots=True)
class ShardScope:
    """Shards `shard_ids` out of `shard_count`: the servers one process looks after."""

    shard_ids: frozenset[int]
    shard_count: int

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError("a bot has at least one shard")
        if not self.shard_ids:
            raise ValueError("a process runs at least one shard")
        if any(not 0 <= shard < self.shard_count for shard in self.shard_ids):
            raise ValueError(f"shard ids go from 0 to {self.shard_count - 1}")

    @property
    def everything(self) -> bool:
        """Whether these shards cover every server (then no filter is needed)."""
        return len(self.shard_ids) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        """Whether `guild_id` is one of these shards' servers. Direct messages (no server)
        belong to shard 0, as Discord sends them there."""
        shard = 0 if guild_id is None else shard_of(guild_id, self.shard_count)
        return shard in self.shard_ids

    def sql(self, column: str) -> tuple[str, tuple[int, ...]]:
        """` AND <column is one of ours>` for a WHERE clause, with its parameters (an
        empty clause when the scope holds every shard)."""
        if self.everything:
            return "", ()
        ids = sorted(self.shard_ids)
        marks = ", ".join("?" * len(ids))
        clause = f" AND (({column} >> {_TIMESTAMP_SHIFT}) % ?) IN ({marks})"
        return clause, (self.shard_count, *ids)


def scope_sql(scope: ShardScope | None, column: str) -> tuple[str, tuple[int, ...]]:
    """`ShardScope.sql`, or nothing without a scope (one process for every server)."""
    return ("", ()) if scope is None else scope.sql(column)

"""Conditional moves (forecasts, 予約手): lines a player stores while waiting for the
opponent, "if they play X, I reply Y (then if Z, W ...)", played by the bot when the
opponent's move matches.

Only while waiting. A line always begins with the opponent's next move, from the game as
it stands, so lines are stored only on the opponent's turn (as lishogi and lichess allow
them): on your own turn the first move of any line would be yours, and a move of yours
is played with `/move`, where it is checked and confirmed as every move is, not left
for the bot to play later. Listing and clearing work on either turn.

Checked along the line. Each move of a new line is read in the position the line has
reached (any notation the bot reads, 同 included) and must be legal there; the first one
that is not is named with its number and the rules' reason. A line has an even number of
moves (it ends with the player's reply) and may not go on past a move that ends the game.
A player keeps at most `MAX_LINES` lines per game of at most `MAX_PLIES` moves each. A new
line that answers one of the opponent's moves differently from an older line (after the
same moves before it) replaces the older one: the newest intention wins, and the answer
lists the lines as they now stand. A line that only repeats the start of a stored one
adds nothing and is refused; one that extends a stored line replaces it.

Exactly once. The reply is played inside the transaction that stores the opponent's
move (`Moves.play` asks `forecast_replies.play_reply`, which reads the lines in that
transaction): the opponent's move, the reply, the shortened lines, the dropped ones and
the deadline commit together or not at all. A crash before the commit loses the opponent's move too
(they were never told it was played, so nothing acknowledged is lost) and a crash
after it finds both stored; there is never a stored position in which the reply is
still owed, so nothing has to be replayed at start-up and nothing can be played twice.
The forecaster's own `/move` at that moment cannot race the reply: there is no stored
position where it is their turn and the reply is pending, so their move is refused as
out of turn (or lands first, when the opponent's move had already been stored without
a matching line). Adding a line holds the game's row (`games.hold`) and writes only if
the game is still in the position its moves were checked from, so a line racing the
opponent's move either lands before it (the move, which writes the row before it reads
the lines, waits for the line and matches it) or is refused (the position changed); on
PostgreSQL without the hold, a move committed between the check and the write would
never see a line the player was told is stored. The hold also makes two lines added at
once take turns, so each is compared with and counted against the other and they
cannot both take the last place. Clearing the lines holds the game too: a move that
read them to play one ends first, and a cleared line is never played.

The reply is the forecaster's move like any other, through the same writes as `/move`:
no thinking time is charged (it is played the moment their turn begins), the opponent's
deadline starts again, a repetition, mate or other ending it makes is recorded, and a
pending takeback request has already lapsed with the opponent's move.

Which lines survive. When the opponent's move matches the first move of some lines, the
oldest of them gives the reply; those lines lose their first two moves (and go once
empty), and every other line of that player is dropped, since it no longer starts from
the game. A move that matches no line drops them all. If the opponent's move ends the
game, or the reply is no longer legal (a line stored by an older version, say), the lines
are dropped and nothing is played. A takeback takes the game back to a position the
lines were not checked from: an accepted takeback drops both players' lines in its own
transaction (rather than keeping those that would still fit: a player who took a move
back is choosing anew, and keeping lines would let an old plan answer a new position).
The end of a game drops them too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.db import Conflict, ForecastRow, Session
from rules import Color, Game, IllegalMoveError, InvalidMoveError, Move, Sentence
from rules.notation import AmbiguousMoveError, parse_move

from ..errors import ForecastRefused, PositionChanged
from .game import (
    GameSnapshot,
    MoveText,
)
from .snapshots import move_text
from .store import MOVED_ON, GameStore


@dataclass(frozen=True, slots=True)
class ForecastLine:
    """One stored forecast line: the opponent's move first, then the reply, and so on,
    written as they would be played from the game as it stands."""

    id: int
    ply: int  # the game's ply the line starts from
    moves: tuple[MoveText, ...]


@dataclass(frozen=True, slots=True)
class Forecast:
    """A player's forecast lines in one game (the answer to adding, or listing, them):
    the game, the player's colour, their lines oldest first, and how many older lines a
    new one replaced."""

    game: GameSnapshot
    color: Color
    lines: tuple[ForecastLine, ...]
    replaced: int = 0


#: Lines one player may keep in one game: enough for every sensible answer to a position,
#: few enough to list in one private message.
MAX_LINES = 10
#: Moves in one line (the opponent's and the replies): ten exchanges.
MAX_PLIES = 20
#: What separates the moves of a typed line: spaces (also the full-width one), commas
#: (also the Japanese ones), semicolons.
_SEPARATORS = re.compile(r"[\s,，、;；]+")


def split_line(text: str) -> list[str]:
    """The moves of a typed line: separated by spaces or commas (also full-width)."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def _written(game: Game, moves: Sequence[str]) -> tuple[MoveText, ...]:
    """`moves` (a line legal from `game` as it stands) written as they would be played."""
    line = game.copy()
    last = line.moves[-1] if line.moves else None
    written = []
    for usi in moves:
        move = Move.from_usi(usi)
        written.append(move_text(line.position, move, last))
        line.push(move)
        last = move
    return tuple(written)


class _Lost(Exception):
    """The game moved on between the checks and the write."""


class Forecasts:
    """Storing, listing and clearing a player's lines (playing them is `Moves.play`'s)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def add(
        self, game_id: int, user_id: int, text: str, *, guild_id: int | None = None
    ) -> Forecast:
        """Store the line `text` ("X Y Z W", the opponent's move first) for `user_id`,
        checked along the line from the game as it stands; the player's lines after it.

        Example: with Alice waiting for Bob's reply to `7g7f`,
        `await forecasts.add(game.id, alice.user_id, "3c3d 2g2f")` stores "if Bob plays
        ３四歩, reply ２六歩".
        """
        now = self._store.now()
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if loaded.turn is color:
            raise ForecastRefused(
                Sentence(
                    "It is your move: play it with /move. Forecasts answer your opponent's"
                    " next move, so they are stored while you wait for it."
                )
            )
        moves = self._read_line(loaded, text)
        usi = tuple(move.usi() for move in moves)
        # The position the line was checked from: the ply alone comes back after a takeback.
        where = (loaded.ply, loaded.row.sfen)

        async def store(tx: Session) -> tuple[list[ForecastRow], int]:
            # Held, the game cannot move on before this line is stored (a move of it
            # waits, then reads the line); read after the hold, it is as the last move
            # under way left it.
            await tx.games.hold(loaded.id)
            row = await tx.games.get(loaded.id)
            if row is None or row.status != "active" or (row.ply, row.sfen) != where:
                raise _Lost
            stored = await tx.forecasts.for_game(loaded.id, user_id)
            stale = [line.id for line in stored if line.ply != loaded.ply]
            current = [line for line in stored if line.ply == loaded.ply]
            replaced = []
            for number, line in enumerate(current, start=1):
                relation = _compare(usi, line.moves)
                if relation == "covered":
                    raise ForecastRefused(
                        Sentence(
                            "Your forecast line {number} already covers this; nothing was added.",
                            number=number,
                        )
                    )
                if relation == "replaces":
                    replaced.append(line.id)
            if len(current) - len(replaced) >= MAX_LINES:
                raise ForecastRefused(
                    Sentence(
                        "You already have {count} forecast lines in this game, the most"
                        " there can be; clear them before adding another.",
                        count=MAX_LINES,
                    )
                )
            await tx.forecasts.delete(stale + replaced)
            await tx.forecasts.add(loaded.id, user_id, loaded.ply, usi, now)
            return await tx.forecasts.for_game(loaded.id, user_id), len(replaced)

        try:
            lines, replaced = await self._store.db.run(store)
        except (_Lost, Conflict):
            self._store.forget(game_id)
            await self._store.for_player(game_id, user_id, guild_id=guild_id)
            raise PositionChanged(MOVED_ON) from None
        return self._answer(loaded, user_id, lines, replaced=replaced)

    def _read_line(self, game: GameSnapshot, text: str) -> list[Move]:
        """The moves of `text`, each legal where the line has reached; refused with the
        number of the first move that is not, and why."""
        tokens = split_line(text)
        if len(tokens) < 2:
            raise ForecastRefused(
                Sentence(
                    "A forecast line needs your opponent's move and your reply, e.g."
                    " '3c3d 2g2f' (more pairs may follow)."
                )
            )
        if len(tokens) > MAX_PLIES:
            raise ForecastRefused(
                Sentence(
                    "A forecast line has at most {count} moves; this one has {given}.",
                    count=MAX_PLIES,
                    given=len(tokens),
                )
            )
        if len(tokens) % 2:
            raise ForecastRefused(
                Sentence(
                    "A forecast line ends with your reply: it needs an even number of moves,"
                    " and this one has {given}.",
                    given=len(tokens),
                )
            )
        line = game.game.copy()
        last = game.last_move
        moves = []
        for number, token in enumerate(tokens, start=1):
            if line.outcome is not None:
                raise ForecastRefused(
                    Sentence(
                        "The game would be over before move {number} of the line ({move}):"
                        " nothing can follow it.",
                        number=number,
                        move=token,
                    )
                )
            try:
                move = parse_move(line.position, token, last_move=last)
            except (AmbiguousMoveError, IllegalMoveError, InvalidMoveError) as error:
                raise ForecastRefused(
                    Sentence(
                        "Move {number} of the line ({move}): {reason}",
                        number=number,
                        move=token,
                        reason=error.sentence,
                    )
                ) from None
            line.push(move)
            moves.append(move)
            last = move
        return moves

    async def lines(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> Forecast:
        """`user_id`'s lines in the game, oldest first (only theirs: lines are private)."""
        loaded = await self._store.current(game_id, guild_id=guild_id)
        self._store.player_color(loaded, user_id)
        async with self._store.db.query() as q:
            stored = await q.forecasts.for_game(loaded.id, user_id)
        current = [line for line in stored if line.ply == loaded.ply and loaded.is_active]
        return self._answer(loaded, user_id, current)

    async def clear(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> int:
        """Drop all of `user_id`'s lines in the game; how many there were."""
        loaded = await self._store.current(game_id, guild_id=guild_id)
        self._store.player_color(loaded, user_id)
        async with self._store.db.transaction() as tx:
            # A move under way may have read the lines to play one: it ends first, and
            # what it used up is no longer there to clear.
            await tx.games.hold(loaded.id)
            return await tx.forecasts.clear(loaded.id, user_id)

    def _answer(
        self, game: GameSnapshot, user_id: int, lines: Sequence[ForecastRow], *, replaced: int = 0
    ) -> Forecast:
        color = game.color_of(user_id)
        assert color is not None  # checked by the caller
        return Forecast(
            game=game,
            color=color,
            lines=tuple(
                ForecastLine(line.id, line.ply, _written(game.game, line.moves)) for line in lines
            ),
            replaced=replaced,
        )


def _compare(new: Sequence[str], old: Sequence[str]) -> str:
    """How a new line relates to a stored one from the same ply: "covered" (it repeats
    the stored line's start), "replaces" (it extends the stored line, or answers one of
    the opponent's moves differently after the same moves), or "apart" (they part at a
    move of the opponent's: both stand)."""
    for index, (a, b) in enumerate(zip(new, old, strict=False)):
        if a != b:
            return "apart" if index % 2 == 0 else "replaces"
    return "covered" if len(new) <= len(old) else "replaces"

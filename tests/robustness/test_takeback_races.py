"""A takeback accepted at the moment the opponent plays on instead: exactly one of the two
lands, the other is told why, the request says which (accepted, or lapsed by the move), and
every stored game replays.

Through the service (the accept and the move gathered, as two bot tasks would run them; and
from two services on one file, as two processes would) and through the bot (the Accept click
and the ``/move`` dispatched together by the fake Discord).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from pathlib import Path
from typing import TypeVar

from bot.db import open_database
from bot.services import (
    GameOver,
    GameService,
    NotYourTurn,
    PlayedMove,
    PositionChanged,
    Takeback,
)
from tests.fakediscord import InteractionResult
from tests.support.checks import assert_replays
from tests.support.club import Club, Table

from .conftest import Scale
from .inputs import sentence_problems
from .test_races import assert_all_replay, is_answer, new_service_game, two_moves

T = TypeVar("T")
#: What the loser of the race may be told.
REFUSALS = (PositionChanged, NotYourTurn, GameOver)


async def asked_game(
    service: GameService, game_id: int, rng: random.Random
) -> tuple[int, Takeback]:
    """A game where the player who just moved asks to take it back (a new game when the
    move ended this one), and the takeback asked."""
    while True:
        view = await service.games.get(game_id)
        if not view.is_active:
            game_id = await new_service_game(service)
            view = await service.games.get(game_id)
        assert view.to_move is not None
        mover = view.to_move.user_id
        move, _ = two_moves(view.game, view.turn, rng)
        played = await service.moves.play(game_id, mover, move)
        if played.outcome is None:
            return game_id, await service.takebacks.ask(game_id, mover)


async def later(delay: float, call: Awaitable[T]) -> T:
    """`call`, `delay` seconds from now."""
    await asyncio.sleep(delay)
    return await call


async def race_round(
    answering: GameService, moving: GameService, asked: Takeback, rng: random.Random
) -> str:
    """Accept (through `answering`) and the answerer's own move (through `moving`) at once;
    returns which landed: "accepted" or "moved"."""
    game = asked.game
    request = asked.request
    reply, _ = two_moves(game.game, game.turn, rng)
    user = asked.answerer.user_id
    accept = answering.takebacks.answer(
        game.id, request.id, user, accept=True, expected_ply=request.ply
    )
    move = moving.moves.play(game.id, user, reply)
    # One of the two starts up to a few milliseconds late (about what an accept takes), so
    # that either may reach the database first: the accept reads a row more before it
    # writes, and would otherwise nearly always lose. Which one lands is left to timing;
    # tests/service/test_takebacks.py runs both interleavings on purpose.
    delays = [rng.uniform(0, 0.004), 0.0]
    rng.shuffle(delays)
    calls = [later(delays[0], accept), later(delays[1], move)]
    if rng.random() < 0.5:  # who is dispatched first must not matter
        calls.reverse()
    results = await asyncio.gather(*calls, return_exceptions=True)
    context = f"game {game.id} ply {request.ply}: accept / {reply!r}: {results}"
    landed = [r for r in results if isinstance(r, Takeback | PlayedMove)]
    refused = [r for r in results if isinstance(r, REFUSALS)]
    assert len(landed) == 1 and len(refused) == 1, context
    assert not sentence_problems(refused[0].message), refused[0].message
    after = await answering.games.get(game.id)
    [stored] = [r for r in await answering.takebacks.history(game.id) if r.id == request.id]
    if isinstance(landed[0], Takeback):
        assert after.ply == request.ply - 1 and stored.status == "accepted", context
        assert after.to_move == asked.asker, context
        return "accepted"
    assert after.ply == request.ply + 1 and stored.status == "lapsed", context
    return "moved"


async def test_accept_racing_a_move_through_the_service(tmp_path: Path, scale: Scale) -> None:
    db = await open_database(tmp_path / "race.db")
    try:
        service = GameService(db)
        rng = random.Random(31)
        game_id = await new_service_game(service)
        tally = {"accepted": 0, "moved": 0}
        rounds = scale.service_race_rounds // 3
        for _ in range(rounds):
            game_id, asked = await asked_game(service, game_id, rng)
            tally[await race_round(service, service, asked, rng)] += 1
        assert sum(tally.values()) == rounds
        assert await assert_all_replay(db) > 0
    finally:
        await db.close()


async def test_accept_racing_a_move_from_two_services_on_one_file(
    tmp_path: Path, scale: Scale
) -> None:
    """Two processes' worth of connections: the accept in one, the move in the other."""
    path = tmp_path / "shared.db"
    one, two = await open_database(path), await open_database(path)
    try:
        first, second = GameService(one), GameService(two)
        rng = random.Random(32)
        game_id = await new_service_game(first)
        rounds = scale.service_race_rounds // 5
        for _ in range(rounds):
            game_id, asked = await asked_game(first, game_id, rng)
            await race_round(first, second, asked, rng)
        assert await assert_all_replay(one) > 0
    finally:
        await one.close()
        await two.close()


# ------------------------------------------------------------------ through the bot


async def moved_and_asked(club: Club, table: Table, rng: random.Random) -> Table:
    """The player to move moves and asks to take it back (in a new game when the move
    ended this one); the table of that game."""
    while True:
        view = await club.service.games.get(table.game_id)
        if not view.is_active or view.ply > 60:
            table = await club.new_game(time="unlimited")
            view = await club.service.games.get(table.game_id)
        assert view.to_move is not None
        mover = club.member(view.to_move.user_id)
        move, _ = two_moves(view.game, view.turn, rng)
        played = await club.move(mover, move, table)
        assert not played.ephemeral, played.content
        if (await club.service.games.get(table.game_id)).is_active:
            break
    asked = await club.fake.slash("takeback", user=mover, channel=table.thread)
    assert asked.ephemeral and "Takeback requested" in asked.content, asked.content
    return table


async def bot_round(club: Club, table: Table, rng: random.Random) -> tuple[Table, str]:
    """A takeback asked, then the opponent's Accept click and their /move sent together.
    Returns the game's table and which landed."""
    fake, service = club.fake, club.service
    table = await moved_and_asked(club, table, rng)
    posts = await club.posts(table.thread, "asks to take back")
    posted = [m for m in posts if m.custom_ids][-1]
    after_move = await service.games.get(table.game_id)
    assert after_move.to_move is not None
    answerer = club.member(after_move.to_move.user_id)
    reply, _ = two_moves(after_move.game, after_move.turn, rng)
    accept_id = next(c for c in posted.custom_ids if c.startswith("tb:accept:"))
    # The click goes first, the move a moment later (up to a few milliseconds, about
    # what the accept takes), so that either may reach the database first.
    click = await fake.click(posted, accept_id, user=answerer, wait=False)
    await asyncio.sleep(rng.uniform(0, 0.006))
    slash = await fake.slash(
        "move", {"move": reply}, user=answerer, channel=table.thread, wait=False
    )
    results: list[InteractionResult] = [click, slash]
    for result in results:
        await result.wait_final()
    context = f"game {table.game_id} ply {after_move.ply}: accept / {reply!r}: {results}"
    assert all(is_answer(r) for r in results), context
    refused = [r for r in results if r.ephemeral]
    assert len(refused) == 1, context
    assert not sentence_problems(refused[0].content), refused[0].content
    final = await service.games.get(table.game_id)
    if refused[0] is slash:
        assert final.ply == after_move.ply - 1, context
        await club.posts(table.thread, "taken back")
        return table, "accepted"
    assert final.ply == after_move.ply + 1, context
    # Lost to the move, or to a move that ended the game ("...has already ended by ...").
    assert "no longer holds" in click.content or " ended" in click.content, context
    return table, "moved"


async def test_accept_racing_a_move_through_the_bot(club: Club, scale: Scale) -> None:
    rng = random.Random(33)
    table = await club.new_game(time="unlimited")
    tally = {"accepted": 0, "moved": 0}
    rounds = max(scale.bot_race_rounds // 5, 6)
    for _ in range(rounds):
        table, landed = await bot_round(club, table, rng)
        tally[landed] += 1
    assert sum(tally.values()) == rounds
    assert_replays(await club.service.games.get(table.game_id))

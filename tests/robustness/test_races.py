"""Two moves for one game at the same moment: exactly one lands, the other is told why.

Through the service (two ``play`` calls gathered, as two bot tasks would make them, with no
``expected_ply``: a slash command does not carry the ply the player saw) and through the bot
(two ``/move`` interactions dispatched together by the fake Discord).  Cases: the player to
move sends two different moves; and both players send a move at once.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.db import Database, open_database
from bot.services import (
    GameOver,
    GameService,
    NotYourTurn,
    PlayedMove,
    PlayerRef,
    PositionChanged,
)
from rules import Color, Game
from rules.notation import format_move
from tests.fakediscord import InteractionResult
from tests.support.checks import assert_replays
from tests.support.club import Club

from .conftest import Scale
from .inputs import sentence_problems

ALICE = PlayerRef(1001, "Alice")
BOB = PlayerRef(2002, "Bob")
STYLES = ("usi", "western", "japanese", "csa")


def two_moves(game: Game, color: Color, rng: random.Random) -> tuple[str, str]:
    """Two different legal moves for ``color`` if it were to move, in random notations."""
    position = game.position.copy()
    if position.turn is not color:
        position.turn_index = int(color)
    moves = position.legal_moves()
    first, second = rng.sample(moves, 2) if len(moves) > 1 else (moves[0], moves[0])
    return (
        format_move(position, first, rng.choice(STYLES)),
        format_move(position, second, rng.choice(STYLES)),
    )


# ------------------------------------------------------------------ through the service


async def new_service_game(service: GameService) -> int:
    challenge = await service.challenges.offer(
        guild_id=1, channel_id=2, challenger=ALICE, opponent=BOB, color="sente",
        time_control="unlimited",
    )  # fmt: skip
    return (await service.challenges.accept(challenge.id, BOB.user_id)).id


async def service_race(service: GameService, rounds: int, both: bool, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    tally = {"landed": 0, "PositionChanged": 0, "NotYourTurn": 0, "GameOver": 0, "games": 1}
    game_id = await new_service_game(service)
    for round_no in range(rounds):
        view = await service.games.get(game_id)
        if not view.is_active:
            game_id = await new_service_game(service)
            tally["games"] += 1
            view = await service.games.get(game_id)
        mover = view.to_move
        assert mover is not None
        other = view.gote if mover == view.sente else view.sente
        if both:
            first, _ = two_moves(view.game, view.turn, rng)
            second, _ = two_moves(view.game, view.turn.opponent, rng)
            users = (mover.user_id, other.user_id)
        else:
            first, second = two_moves(view.game, view.turn, rng)
            users = (mover.user_id, mover.user_id)
        if rng.random() < 0.5:  # who is dispatched first must not matter
            users, (first, second) = users[::-1], (second, first)
        results = await asyncio.gather(
            service.moves.play(game_id, users[0], first),
            service.moves.play(game_id, users[1], second),
            return_exceptions=True,
        )
        context = f"round {round_no}, game {game_id} ply {view.ply}: {first!r} / {second!r}"
        landed = [r for r in results if isinstance(r, PlayedMove)]
        refused = [r for r in results if not isinstance(r, PlayedMove)]
        assert len(landed) == 1, f"{context}: {results}"
        # The loser is told the position changed, that it is not their move, or (when the
        # winning move ended the game) that the game is over.
        assert len(refused) == 1 and isinstance(
            refused[0], PositionChanged | NotYourTurn | GameOver
        ), f"{context}: {results}"
        assert not sentence_problems(refused[0].message), refused[0].message
        after = await service.games.get(game_id)
        assert after.ply == view.ply + 1, context
        assert after.game.moves[-1].usi() == landed[0].move.usi, context
        assert landed[0].mover.user_id == mover.user_id, context
        tally["landed"] += 1
        tally[type(refused[0]).__name__] += 1
    return tally


async def assert_all_replay(db: Database) -> int:
    async with db.read() as tx:
        ids = await tx.games.ids("active") + await tx.games.ids("finished")
    checked = 0
    for game_id in ids:
        async with db.read() as tx:
            record = await tx.games.get(game_id)
            moves = await tx.moves.for_game(game_id)
        assert record is not None
        assert [m.ply for m in moves] == list(range(1, len(moves) + 1)), game_id
        game = Game(record.start_sfen, [m.usi for m in moves])  # raises if illegal
        assert game.position.sfen() == record.sfen and record.ply == len(moves), game_id
        checked += len(moves)
    return checked


async def test_same_player_twice_through_the_service(tmp_path: Path, scale: Scale) -> None:
    db = await open_database(tmp_path / "race.db")
    try:
        service = GameService(db)
        tally = await service_race(service, scale.service_race_rounds, both=False, seed=11)
        assert tally["landed"] == scale.service_race_rounds
        assert tally["PositionChanged"] > 0, f"no race was ever lost: {tally}"
        assert await assert_all_replay(db) == scale.service_race_rounds
    finally:
        await db.close()


async def test_both_players_at_once_through_the_service(tmp_path: Path, scale: Scale) -> None:
    db = await open_database(tmp_path / "race.db")
    try:
        service = GameService(db)
        tally = await service_race(service, scale.service_race_rounds, both=True, seed=12)
        assert tally["landed"] == scale.service_race_rounds
        assert (
            tally["NotYourTurn"] + tally["PositionChanged"] + tally["GameOver"]
            == scale.service_race_rounds
        )
        assert await assert_all_replay(db) == scale.service_race_rounds
    finally:
        await db.close()


async def test_two_services_on_one_file(tmp_path: Path, scale: Scale) -> None:
    """Two processes' worth of connections to one database file: still one move per ply."""
    path = tmp_path / "shared.db"
    one, two = await open_database(path), await open_database(path)
    try:
        first, second = GameService(one), GameService(two)
        rng = random.Random(13)
        game_id = await new_service_game(first)
        rounds = scale.service_race_rounds // 3
        for _ in range(rounds):
            view = await first.games.get(game_id)
            if not view.is_active:
                game_id = await new_service_game(first)
                view = await first.games.get(game_id)
            assert view.to_move is not None
            a, b = two_moves(view.game, view.turn, rng)
            results = await asyncio.gather(
                first.moves.play(game_id, view.to_move.user_id, a),
                second.moves.play(game_id, view.to_move.user_id, b),
                return_exceptions=True,
            )
            assert sum(isinstance(r, PlayedMove) for r in results) == 1, results
            # The loser's service may already see the new ply: "It is Bob's move" is right too.
            assert all(
                isinstance(r, PlayedMove | PositionChanged | NotYourTurn | GameOver)
                for r in results
            ), results
        assert await assert_all_replay(one) == rounds
    finally:
        await one.close()
        await two.close()


# ------------------------------------------------------------------ through the bot


def is_answer(result: InteractionResult) -> bool:
    """The interaction was answered with something the player can read."""
    return result.reply is not None and bool(result.content.strip())


async def bot_race(club: Club, rounds: int, both: bool, seed: int) -> dict[str, int]:
    fake, service = club.fake, club.service
    rng = random.Random(seed)
    tally = {"landed": 0, "refused": 0, "games": 1}
    game = await club.new_game()
    for round_no in range(rounds):
        view = await service.games.get(game.game_id)
        if not view.is_active:
            game = await club.new_game()
            tally["games"] += 1
            view = await service.games.get(game.game_id)
        mover = view.to_move
        assert mover is not None
        other = view.gote if mover == view.sente else view.sente
        if both:
            first, _ = two_moves(view.game, view.turn, rng)
            second, _ = two_moves(view.game, view.turn.opponent, rng)
            users = (club.member(mover.user_id), club.member(other.user_id))
        else:
            first, second = two_moves(view.game, view.turn, rng)
            users = (club.member(mover.user_id), club.member(mover.user_id))
        if rng.random() < 0.5:
            users, (first, second) = users[::-1], (second, first)
        results = await asyncio.gather(
            fake.slash("move", {"move": first}, user=users[0], channel=game.thread),
            fake.slash("move", {"move": second}, user=users[1], channel=game.thread),
        )
        context = f"round {round_no}, game {game.game_id} ply {view.ply}: {first!r} / {second!r}"
        after = await service.games.get(game.game_id)
        assert after.ply == view.ply + 1, f"{context}: {after.ply - view.ply} moves landed"
        assert all(is_answer(r) for r in results), f"{context}: unanswered {results}"
        public = [r for r in results if not r.ephemeral]
        private = [r for r in results if r.ephemeral]
        assert len(public) == 1 and len(private) == 1, f"{context}: {results}"
        assert after.game.moves[-1].usi() in (m.usi() for m in view.game.position.legal_moves()), (
            context
        )
        refusal = private[0].content
        assert not sentence_problems(refusal), f"{context}: {refusal!r}"
        # Lost to a move, or to a move that ended the game ("...has already ended by
        # checkmate."): either way the reply says why.
        assert any(
            clear in refusal.lower() for clear in ("position changed", "'s move", " ended")
        ), refusal
        assert not private[0].files and len(private[0].messages) == 1, context
        tally["landed"] += 1
        tally["refused"] += 1
    assert_replays(await service.games.get(game.game_id))
    return tally


async def test_same_player_twice_through_the_bot(club: Club, scale: Scale) -> None:
    tally = await bot_race(club, scale.bot_race_rounds, both=False, seed=21)
    assert tally["landed"] == scale.bot_race_rounds


async def test_both_players_at_once_through_the_bot(club: Club, scale: Scale) -> None:
    tally = await bot_race(club, scale.bot_race_rounds, both=True, seed=22)
    assert tally["landed"] == scale.bot_race_rounds

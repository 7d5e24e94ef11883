"""Analysis of finished games: refused during play, every position evaluated and stored
(a second analysis asks the engine nothing), mistakes and blunders marked by the drop of
the mover's score, mates counted as the cap."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.db import Database, EvaluationRow
from bot.engine import EnginePool
from bot.services import BLUNDER, CAP, MISTAKE, GameService, Mark, ServiceError
from bot.services.computer.analysis import mark_moves, sente_scores
from rules import Color, Game

from ..support.engines import fairy_stockfish, fake_engine
from .conftest import ALICE, FakeClock, play_all, start_game


def with_engine(db: Database, clock: FakeClock, pool: EnginePool | None) -> GameService:
    return GameService(db, clock=clock, rng=random.Random(7), engine=pool, analysis_ms=50)


def rows(*scores: tuple[int | None, int | None, str | None]) -> list[EvaluationRow]:
    return [EvaluationRow(1, ply, cp, mate, best) for ply, (cp, mate, best) in enumerate(scores)]


def test_marks_follow_the_movers_drop() -> None:
    game = Game(moves=["7g7f", "3c3d", "2g2f", "4c4d"])
    marks = mark_moves(
        game,
        rows(
            (50, None, "2g2f"),  # sente to move: +50
            (-40, None, "8c8d"),  # 7g7f: sente now +40, a drop of 10
            (50 + MISTAKE, None, "2g2f"),  # 3c3d: gote's -40 became -(50+MISTAKE)
            (-(50 + MISTAKE - BLUNDER), None, "4a3b"),  # 2g2f is the best move: unmarked
            (CAP + 500, None, None),  # 4c4d: gote's score fell by far more than BLUNDER
        ),
    )
    assert [(m.ply, m.mover, m.mark) for m in marks] == [
        (2, Color.GOTE, Mark.MISTAKE),
        (4, Color.GOTE, Mark.BLUNDER),
    ]
    assert marks[0].drop == MISTAKE + 10 and marks[0].best is not None
    assert marks[0].best.usi == "8c8d" and marks[0].best.western == "P-8d"
    assert marks[0].played.japanese == "３四歩"


def test_mates_count_as_the_cap() -> None:
    game = Game(moves=["7g7f", "3c3d"])
    # Sente mates in 3, then in 7, then in 5: keeping a mate costs nothing.
    kept = mark_moves(game, rows((None, 3, "x"), (None, -7, None), (None, 5, None)))
    assert kept == ()
    # Gote hands sente a mate from an even position: the whole cap is lost.
    handed = mark_moves(game, rows((0, None, None), (0, None, "8c8d"), (None, 2, None)))
    assert [(m.ply, m.drop, m.mark) for m in handed] == [(2, CAP, Mark.BLUNDER)]
    # Mated (no move left) is the side to move's -CAP; scores read from sente's side.
    scores = sente_scores(game, rows((None, 3, None), (None, -7, None), (None, 0, None)))
    assert scores == (CAP, CAP, -CAP)


async def test_a_game_in_progress_is_never_analysed(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    with pytest.raises(ServiceError, match="Only finished games are analysed"):
        await service.analyses.analyse(game.id)
    assert engines[0].started == 0


async def test_without_an_engine_analysis_says_so(db: Database, clock: FakeClock) -> None:
    service = with_engine(db, clock, None)
    game = await start_game(service)
    await service.endings.resign(game.id, ALICE.user_id)
    with pytest.raises(ServiceError, match="No computer engine"):
        await service.analyses.analyse(game.id)


async def test_stored_evaluations_make_the_second_analysis_instant(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    program, plan = fake_engine(tmp_path)
    engines.append(EnginePool(program))
    service = with_engine(db, clock, engines[0])
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    await service.endings.resign(game.id, ALICE.user_id)
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    first = await service.analyses.analyse(game.id, progress=progress)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert first.scores == (0, 0, 0, 0) and first.marks == () and not first.stored
    plan.write_text("crash " * 10)  # an engine asked again would fail
    second = await service.analyses.analyse(game.id)
    assert second.stored and second.scores == first.scores


async def test_an_analysis_cut_short_goes_on_where_it_stopped(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    program, _ = fake_engine(tmp_path, "legal legal crash crash")
    engines.append(EnginePool(program))
    service = with_engine(db, clock, engines[0])
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    await service.endings.resign(game.id, ALICE.user_id)
    with pytest.raises(ServiceError, match="what it found is kept"):
        await service.analyses.analyse(game.id)
    seen: list[int] = []

    async def progress(done: int, total: int) -> None:
        seen.append(done)

    await service.analyses.analyse(game.id, progress=progress)
    assert seen == [3, 4]  # two positions were kept from the first attempt


async def test_the_real_engine_marks_a_hanging_bishop(
    db: Database, clock: FakeClock, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fairy_stockfish()))
    service = with_engine(db, clock, engines[0])
    game = await start_game(service)
    # Sente puts the bishop where gote's bishop takes it for nothing.
    await play_all(service, game.id, ["7g7f", "3c3d", "8h3c", "2b3c"])
    await service.endings.resign(game.id, ALICE.user_id)
    analysis = await service.analyses.analyse(game.id)
    assert len(analysis.scores) == 5
    assert [m.ply for m in analysis.marks if m.mover is Color.SENTE] == [3]
    assert analysis.marks[0].best is not None and analysis.marks[0].best.usi != "8h3c"
    assert analysis.scores[-1] < -MISTAKE  # sente is a bishop down

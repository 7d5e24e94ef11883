"""The USI client on its own: reading scores and options, and engines that cannot start,
die, hang or talk nonsense, each an `EngineError` that leaves no process behind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import EngineError, EnginePool, Score, UsiEngine, usi
from bot.engine.pool import parse_options
from bot.engine.usi import parse_score

from ..support.engines import fairy_stockfish, fake_engine

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


@pytest.fixture
async def engines() -> AsyncIterator[list[UsiEngine]]:
    started: list[UsiEngine] = []
    yield started
    for engine in started:
        await engine.close()


@pytest.mark.parametrize(
    ("line", "score"),
    [
        ("info depth 3 score cp -202 nodes 139 pv 5a4b", Score(cp=-202)),
        ("info depth 9 seldepth 2 score mate 1 pv G*5b", Score(mate=1)),
        ("info depth 0 score mate 0", Score(mate=0)),
        ("info depth 5 score mate -4 pv 5a4b", Score(mate=-4)),
        ("info depth 5 score mate + pv 5a4b", Score(mate=1)),  # USI: mate, length unknown
        ("info depth 5 score cp lowerbound", None),
        ("info string hello", None),
    ],
)
def test_scores_are_read_from_info_lines(line: str, score: Score | None) -> None:
    assert parse_score(line) == score


def test_capped_scores_count_any_mate_as_the_cap() -> None:
    assert Score(mate=7).capped(3000) == 3000 and Score(mate=0).capped(3000) == -3000
    assert Score(cp=-5000).capped(3000) == -3000 and Score(cp=12).capped(3000) == 12


def test_options_are_name_value_pairs() -> None:
    assert parse_options("") == {}
    assert parse_options("Hash = 64;;Skill Level=3") == {"Hash": "64", "Skill Level": "3"}
    for bad in ("Hash", "=3", "Hash=1\nquit"):
        with pytest.raises(ValueError, match="Name=value"):
            parse_options(bad)


async def test_a_missing_program_or_one_that_is_no_engine_is_refused(
    tmp_path: Path, engines: list[UsiEngine]
) -> None:
    with pytest.raises(EngineError, match="cannot start"):
        await UsiEngine(str(tmp_path / "nothing")).start()
    quits = tmp_path / "quits"
    quits.write_text("#!/bin/sh\nexit 0\n")
    quits.chmod(0o755)
    engine = UsiEngine(str(quits))
    engines.append(engine)
    with pytest.raises(EngineError, match="did not start as a USI engine"):
        await engine.start()
    assert not engine.alive


async def test_an_engine_that_hangs_is_killed(
    tmp_path: Path, engines: list[UsiEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(usi, "GRACE_SECONDS", 0.3)
    engine = UsiEngine(fake_engine(tmp_path, "hang")[0])
    engines.append(engine)
    await engine.start()
    with pytest.raises(EngineError, match="no move within"):
        await engine.search(START, [], movetime_ms=10)
    assert not engine.alive


async def test_garbage_is_returned_for_the_caller_to_refuse(
    tmp_path: Path, engines: list[UsiEngine]
) -> None:
    """The client passes the engine's word on; reading it as a move is the rules' job."""
    engine = UsiEngine(fake_engine(tmp_path, "garbage")[0])
    engines.append(engine)
    await engine.start()
    assert (await engine.search(START, [], movetime_ms=10)).best == "hello-world"
    assert engine.alive  # nonsense is no failure of the process: it answers the next search
    assert len((await engine.search(START, ["7g7f"], movetime_ms=10)).best) == 4


async def test_one_thread_is_asked_for_and_the_owners_options_passed_on(
    tmp_path: Path, engines: list[UsiEngine]
) -> None:
    """What the bot says to the engine, recorded by a shell wrapper around the fake."""
    log = tmp_path / "said.txt"
    program, _ = fake_engine(tmp_path)
    recorder = tmp_path / "recorder"
    recorder.write_text(f"#!/bin/sh\ntee '{log}' | '{program}'\n")
    recorder.chmod(0o755)
    engine = UsiEngine(str(recorder), {"Hash": "8"})
    engines.append(engine)
    await engine.start()
    await engine.search(START, ["7g7f"], movetime_ms=10, skill=-5)
    await engine.close()
    said = log.read_text().splitlines()
    assert said[0] == "usi"
    assert "setoption name Threads value 1" in said
    assert "setoption name Hash value 8" in said
    assert "setoption name Skill Level value -5" in said
    assert f"position sfen {START} moves 7g7f" in said and "go movetime 10" in said
    assert said[-1] == "quit"


async def test_the_real_engine_finds_a_mate_in_one() -> None:
    pool = EnginePool(fairy_stockfish())
    try:
        found = await pool.search("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", movetime_ms=100, skill=20)
        mated = await pool.search("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", movetime_ms=100)
    finally:
        await pool.close()
    assert found.best == "G*5b" and found.score == Score(mate=1)
    assert mated.best == "resign" and mated.score == Score(mate=0)

"""Export: every record format, with the players, the result and the analysis link."""

from __future__ import annotations

import pytest

from bot.services import GameService, ServiceError
from rules import Color, Termination
from rules.notation import read_record

from .conftest import BOB, play_all, start_game

OPENING = ["7g7f", "3c3d", "8h2b+", "3a2b"]


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa", "usi"])
async def test_records_round_trip_with_the_result(service: GameService, fmt: str) -> None:
    game = await start_game(service)
    await play_all(service, game.id, OPENING)
    await service.endings.resign(game.id, BOB.user_id)
    record = await service.exports.file(game.id, fmt)
    assert record.filename == f"game-{game.id}.{fmt if fmt != 'usi' else 'usi.txt'}"
    back = read_record(record.content, fmt)
    assert [move.usi() for move in back.game.moves] == OPENING
    if fmt != "usi":  # the USI command has no result
        assert back.game.outcome is not None
        assert back.game.outcome.termination is Termination.RESIGNATION
        assert back.game.outcome.winner is Color.SENTE
    if fmt in ("kif", "ki2", "csa"):
        assert "Alice" in record.content and "Bob" in record.content
    assert record.analysis_url == (
        "https://lishogi.org/analysis/lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
        "LNSGKGSNL_b_-_1?moves=7g7f_3c3d_8h2b%2B_3a2b"
    )


async def test_sfen_of_the_current_position_and_handicap_headers(service: GameService) -> None:
    game = await start_game(service, color="gote", handicap="two_piece")
    await play_all(service, game.id, ["5a4b"])
    record = await service.exports.file(game.id, "SFEN")
    assert record.content.strip() == (await service.games.get(game.id)).game.position.sfen()
    kif = await service.exports.file(game.id, "kif")
    assert "手合割：二枚落ち" in kif.content


async def test_unknown_format_is_refused(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(ServiceError, match="kif, kifu, ki2, ki2u, csa, sfen, usi"):
        await service.exports.file(game.id, "pgn")


async def test_an_active_games_record_has_no_analysis_link_until_it_ends(
    service: GameService,
) -> None:
    """lishogi's analysis board runs an engine: a player must not reach one from their
    game while it goes on, as `/analyse` refuses it."""
    game = await start_game(service)
    await play_all(service, game.id, OPENING)
    for fmt in ("kif", "ki2", "csa", "sfen", "usi"):
        during = await service.exports.file(game.id, fmt)
        assert during.analysis_url is None, fmt
        assert during.content.strip()
    await service.endings.resign(game.id, BOB.user_id)
    after = await service.exports.file(game.id, "kif")
    assert after.analysis_url is not None
    assert after.analysis_url.endswith("?moves=7g7f_3c3d_8h2b%2B_3a2b")

"""Impasse through the service: the 27-point declaration and the 24-point count."""

from __future__ import annotations

import pytest

from bot.services import GameService, ImpasseRefused, ImpasseRule, NotYourTurn
from rules import Color, Termination
from rules.impasse import Verdict

from .conftest import ALICE, BOB, play_all, start_game

# Sente needs one more move (8e8b) to have 28 points in the camp; from scalashogi's tests.
DECLARE_SFEN = "2SGS4/+B1GKGLLRB/3G5/9/1+R5pp/8k/9/9/9 b - 1"
# Both kings have entered; sente holds 22 points, gote 32.
COUNT_SFEN = "9/7K1/9/9/9/9/9/1k7/9 b R2G2S2N2L9Pr2b2g2s2n2l9p 1"
COUNT_DRAW_SFEN = "9/7K1/9/9/9/9/9/1k7/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1"


async def test_declaration_refused_with_the_reason_then_won(service: GameService) -> None:
    game = await start_game(service, start_sfen=DECLARE_SFEN)
    report = await service.impasse.report(game.id)
    assert report.rule is ImpasseRule.DECLARATION_27
    assert report.counts[Color.SENTE].camp_points == 23
    assert report.counts[Color.SENTE].king_in_camp is True
    assert report.required_27 == {Color.SENTE: 28, Color.GOTE: 27}  # a set-up position: no uwate
    assert report.declaration is not None and report.declaration.verdict is Verdict.INVALID
    assert report.can_declare is None and report.can_propose_count is False
    with pytest.raises(ImpasseRefused, match="28 points"):
        await service.impasse.declare(game.id, ALICE.user_id)
    assert (await service.games.get(game.id)).status == "active"  # refused, not lost
    await service.moves.play(game.id, ALICE.user_id, "8e8b")
    with pytest.raises(NotYourTurn, match="It is Bob's move"):
        await service.impasse.declare(game.id, ALICE.user_id)
    with pytest.raises(ImpasseRefused, match="not entered"):
        await service.impasse.declare(game.id, BOB.user_id)
    await service.moves.play(game.id, BOB.user_id, "2e2f")
    report = await service.impasse.report(game.id)
    assert report.can_declare is Color.SENTE
    assert report.declaration is not None and report.declaration.points == 28
    with pytest.raises(ImpasseRefused, match="27-point declaration"):
        await service.impasse.propose_count(game.id, ALICE.user_id)
    view = await service.impasse.declare(game.id, ALICE.user_id)
    assert view.outcome is not None
    assert view.outcome.termination is Termination.IMPASSE_27
    assert view.outcome.winner is Color.SENTE
    assert view.status == "finished"


@pytest.mark.parametrize(("sfen", "winner"), [(COUNT_SFEN, Color.GOTE), (COUNT_DRAW_SFEN, None)])
async def test_count_proposed_and_accepted(
    service: GameService, sfen: str, winner: Color | None
) -> None:
    game = await start_game(service, start_sfen=sfen, impasse_rule="24")
    report = await service.impasse.report(game.id)
    assert report.rule is ImpasseRule.COUNT_24 and report.can_propose_count is True
    assert report.declaration is None and report.can_declare is None
    with pytest.raises(ImpasseRefused, match="24-point count"):
        await service.impasse.declare(game.id, ALICE.user_id)
    with pytest.raises(ImpasseRefused, match="has not proposed"):
        await service.impasse.accept_count(game.id, BOB.user_id)
    proposed = await service.impasse.propose_count(game.id, ALICE.user_id)
    assert proposed.pending_count_proposal is Color.SENTE and proposed.status == "active"
    with pytest.raises(ImpasseRefused, match="already proposed"):
        await service.impasse.propose_count(game.id, ALICE.user_id)
    with pytest.raises(ImpasseRefused, match="proposed the count yourself"):
        await service.impasse.accept_count(game.id, ALICE.user_id)  # not your own proposal
    view = await service.impasse.accept_count(game.id, BOB.user_id)
    assert view.outcome is not None
    assert view.outcome.termination is Termination.IMPASSE_24
    assert view.outcome.winner is winner


async def test_a_move_lapses_the_proposal_and_both_proposing_agrees(
    service: GameService,
) -> None:
    game = await start_game(service, start_sfen=COUNT_DRAW_SFEN, impasse_rule="24")
    await service.impasse.propose_count(game.id, BOB.user_id)
    await service.moves.play(game.id, ALICE.user_id, "2b2a")
    view = await service.games.get(game.id)
    assert view.pending_count_proposal is None
    with pytest.raises(ImpasseRefused):
        await service.impasse.accept_count(game.id, ALICE.user_id)
    await service.impasse.propose_count(game.id, BOB.user_id)
    declined = await service.impasse.decline_count(game.id, ALICE.user_id)
    assert declined.pending_count_proposal is None and declined.status == "active"
    await service.impasse.propose_count(game.id, BOB.user_id)
    ended = await service.impasse.propose_count(game.id, ALICE.user_id)  # proposing back agrees
    assert ended.outcome is not None and ended.outcome.termination is Termination.IMPASSE_24


async def test_no_count_before_both_kings_enter(service: GameService) -> None:
    game = await start_game(service, impasse_rule="24")
    report = await service.impasse.report(game.id)
    assert report.can_propose_count is False
    assert report.counts[Color.SENTE].total_points == 27
    with pytest.raises(ImpasseRefused, match="Both kings"):
        await service.impasse.propose_count(game.id, ALICE.user_id)


async def test_handicap_lowers_the_uwates_declaration_threshold(service: GameService) -> None:
    game = await start_game(service, color="gote", handicap="four_piece")
    await play_all(service, game.id, ["5a4b"])
    report = await service.impasse.report(game.id)
    assert report.required_27 == {Color.SENTE: 28, Color.GOTE: 27 - 12}

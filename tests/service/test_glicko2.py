"""Glicko-2 as a pure computation: Glickman's own worked example, and the club's
settings on top of it (one-game periods, deviation growing with idle time and kept
between its bounds, the provisional mark)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.ratings.glicko2 import (
    DEFAULT,
    DRAW,
    LOSS,
    MAX_DEVIATION,
    MAX_VOLATILITY,
    MIN_DEVIATION,
    WIN,
    Rating,
    Result,
    aged,
    rate_game,
    update,
)


def test_glickmans_worked_example() -> None:
    """The example of Glickman's description of Glicko-2: a 1500/200 player beats a
    1400/30 player and loses to 1550/100 and 1700/300 in one period, with tau 0.5."""
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30, 0.06), WIN),
        Result(Rating(1550, 100, 0.06), LOSS),
        Result(Rating(1700, 300, 0.06), LOSS),
    ]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1600, 100, 0.06), [])
    assert (after.rating, after.volatility) == (1600, 0.06)
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_two_new_players_move_apart_by_the_same_amount() -> None:
    winner, loser = rate_game(DEFAULT, DEFAULT, WIN)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert (winner.points, loser.points) == (1662, 1338)
    assert winner.deviation == loser.deviation < DEFAULT.deviation
    drawn = rate_game(DEFAULT, DEFAULT, DRAW)
    assert [side.rating for side in drawn] == [1500, 1500]


def test_an_upset_moves_ratings_more_than_an_expected_result() -> None:
    strong, weak = Rating(1900, 80, 0.06), Rating(1500, 80, 0.06)
    expected = rate_game(strong, weak, WIN)[0].rating - strong.rating
    upset = strong.rating - rate_game(strong, weak, LOSS)[0].rating
    assert 0 < expected < upset


def test_idle_time_widens_the_deviation_within_its_bounds() -> None:
    steady = Rating(1700, 60, 0.06)
    assert aged(steady, timedelta()) == steady
    assert aged(steady, timedelta(days=-3)) == steady  # an ending stored out of order
    a_year = aged(steady, timedelta(days=365)).deviation
    assert a_year == pytest.approx(110, abs=0.5)  # a steady player goes provisional in a year
    assert aged(steady, timedelta(days=30)).deviation < a_year
    assert aged(steady, timedelta(days=100_000)).deviation == MAX_DEVIATION
    assert aged(Rating(1700, 10, 0.06), timedelta()).deviation == MIN_DEVIATION


def test_the_deviation_before_a_game_counts_the_idle_time() -> None:
    settled = Rating(1700, 60, 0.06)
    fresh = rate_game(settled, DEFAULT, LOSS)[0]
    rusty = rate_game(settled, DEFAULT, LOSS, first_idle=timedelta(days=700))[0]
    assert rusty.rating < fresh.rating  # less sure of the old rating: the loss counts more


def test_results_stay_within_the_bounds() -> None:
    player, opponent = DEFAULT, DEFAULT
    for _ in range(300):  # a long run of games between the same two players
        player, opponent = rate_game(player, opponent, DRAW)
        assert MIN_DEVIATION <= player.deviation <= MAX_DEVIATION
        assert player.volatility <= MAX_VOLATILITY
    assert not player.provisional
    assert 50 < player.deviation < 70  # where one-game periods settle: each adds volatility
    erratic = Rating(1500, 50, 0.099)
    for score in [WIN, LOSS] * 50:
        erratic, _ = rate_game(erratic, Rating(2600, 50, 0.06), score)
        assert erratic.volatility <= MAX_VOLATILITY


def test_provisional_while_the_deviation_is_110_or_more() -> None:
    assert DEFAULT.provisional
    assert Rating(1500, 110, 0.06).provisional
    assert not Rating(1500, 109.9, 0.06).provisional

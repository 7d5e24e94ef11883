"""Glicko-2 ratings, as a pure computation (no I/O, no clock).

Glickman's system rates a player by three numbers: the rating, its deviation (how
unsure the rating is) and the volatility (how erratic the player's results are).
`update` is his algorithm as he states it, for a rating period of any number of games.

The club rates the way lishogi rates correspondence games:

- every rated game is a rating period of its own, so a rating changes as soon as a game
  ends (`rate_game`), not in weekly batches;
- a player who has not played for a while is less certain: before a game, the deviation
  grows with the time since the player's last rated game, by `PERIODS_PER_DAY` rating
  periods a day (`aged`), which takes a steady player's deviation from about 60 to about
  110 in a year;
- new players start at 1500 with deviation 350 and volatility 0.06; the system constant
  tau is 0.75;
- after a game the deviation is kept between 45 and 500 and the volatility below 0.1, so
  no run of results, however strange, leaves a rating that never settles again;
- a rating is provisional (shown with "?") while its deviation is 110 or more.

Scores are 1 for a win, 0.5 for a draw (repetition, an impasse draw) and 0 for a loss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

#: Between the Glicko scale (1500-centred points) and Glicko-2's internal one.
SCALE = 173.7178
TAU = 0.75
PERIODS_PER_DAY = 0.21436
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
PROVISIONAL_DEVIATION = 110.0
MAX_VOLATILITY = 0.1
#: The volatility iteration stops when its interval is this narrow.
EPSILON = 1e-6

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, its deviation and volatility, on the usual (1500-centred) scale."""

    rating: float
    deviation: float
    volatility: float

    @property
    def points(self) -> int:
        """The rating as shown: whole points."""
        return round(self.rating)

    @property
    def provisional(self) -> bool:
        """Too few recent games for the rating to mean much yet."""
        return self.deviation >= PROVISIONAL_DEVIATION


#: Where every player starts.
DEFAULT = Rating(1500.0, 350.0, 0.06)


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period: the opponent's rating before it, and the score."""

    opponent: Rating
    score: float


def aged(rating: Rating, idle: timedelta) -> Rating:
    """The rating after `idle` without a rated game: its deviation grown by the rating
    periods that time makes, kept between `MIN_DEVIATION` and `MAX_DEVIATION`.

    >>> aged(Rating(1600, 60, 0.06), timedelta(days=365)).deviation  # doctest: +ELLIPSIS
    110.0...
    """
    periods = max(idle.total_seconds(), 0.0) / 86_400 * PERIODS_PER_DAY
    grown = math.sqrt(rating.deviation**2 + periods * (rating.volatility * SCALE) ** 2)
    return Rating(rating.rating, _clamp(grown, MIN_DEVIATION, MAX_DEVIATION), rating.volatility)


def update(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """Glickman's Glicko-2 update of `player` after one rating period with `results`
    (steps 2 to 8 of his description); no results only widens the deviation.

    >>> update(Rating(1500, 200, 0.06), [Result(Rating(1400, 30, 0.06), WIN)]).points
    1564
    """
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, math.sqrt(phi**2 + sigma**2) * SCALE, sigma)
    games = [
        (_g(r.opponent.deviation / SCALE), (r.opponent.rating - 1500.0) / SCALE, r.score)
        for r in results
    ]
    expected = [1.0 / (1.0 + math.exp(-g * (mu - mu_j))) for g, mu_j, _ in games]
    v = 1.0 / sum(g * g * e * (1.0 - e) for (g, _, _), e in zip(games, expected, strict=True))
    gain = sum(g * (s - e) for (g, _, s), e in zip(games, expected, strict=True))
    new_sigma = _volatility(phi, sigma, v, v * gain, tau)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_mu = mu + new_phi**2 * gain
    return Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma)


def rate_game(
    first: Rating,
    second: Rating,
    score: float,
    *,
    first_idle: timedelta = timedelta(),
    second_idle: timedelta = timedelta(),
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game that `first` scored `score` in (1, 0.5, 0),
    each having waited `*_idle` since their last rated game.

    >>> winner, loser = rate_game(DEFAULT, DEFAULT, WIN)
    >>> (winner.points, loser.points)
    (1662, 1338)
    """
    a, b = aged(first, first_idle), aged(second, second_idle)
    return (
        _bounded(update(a, [Result(b, score)])),
        _bounded(update(b, [Result(a, 1.0 - score)])),
    )


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's f by the Illinois method."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low = a
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)


def _bounded(rating: Rating) -> Rating:
    return Rating(
        rating.rating,
        _clamp(rating.deviation, MIN_DEVIATION, MAX_DEVIATION),
        min(rating.volatility, MAX_VOLATILITY),
    )


def _clamp(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)

"""A game's terms as columns: a challenge's row and its game's row store them alike, under
the same names, so they are listed, read and written here once (`Terms` is their row).
"""

from __future__ import annotations

from .base import Row
from .rows import (
    Terms,
    duration_us,
    duration_us_or_none,
    from_duration_us,
    from_duration_us_or_none,
)

_COLUMNS = ("bank_us", "period_us", "handicap", "impasse_rule", "takebacks", "rated")

#: The terms' columns as an insert names them, in the order of `terms_params`.
TERMS_COLUMNS = ", ".join(_COLUMNS)

#: How many columns `terms_of` reads.
TERMS_WIDTH = len(_COLUMNS)


def terms_columns(table: str) -> str:
    """The terms' columns of `table` (its alias in a query), in the order `terms_of` reads."""
    return ", ".join(f"{table}.{column}" for column in _COLUMNS)


def terms_of(row: Row, at: int) -> Terms:
    """The terms read from `row`, whose columns from `at` are `terms_columns`."""
    bank, period, handicap, impasse_rule, takebacks, rated = row[at : at + TERMS_WIDTH]
    return Terms(
        bank=from_duration_us(bank),
        period=from_duration_us_or_none(period),
        handicap=handicap,
        impasse_rule=impasse_rule,
        takebacks=takebacks,
        rated=bool(rated),
    )


def terms_params(terms: Terms) -> tuple[object, ...]:
    """The values an insert writes into `TERMS_COLUMNS`."""
    return (
        duration_us(terms.bank),
        duration_us_or_none(terms.period),
        terms.handicap,
        terms.impasse_rule,
        terms.takebacks,
        int(terms.rated),
    )

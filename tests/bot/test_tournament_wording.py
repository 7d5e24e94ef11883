"""The tournament's and the daily problem's sentences as a Japanese club reads them: a
tournament under way is 開催中 wherever its state is named (対局中 is a member's game in
progress), and the final post greets several winners alike, not the last one alone."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime, timedelta

import pytest

from bot.db.rows import Terms
from bot.db.tournament_rows import NewTournament, TournamentRow
from bot.services.tournaments.model import State, Tournament
from bot.ui.text.answers import units
from bot.ui.text.base import say
from bot.ui.text.tournaments.tournaments import (
    NO_TOURNAMENT_HERE,
    final_text,
    state_name,
    tournament_choice,
)

START = datetime(2026, 12, 1, 20, tzinfo=UTC)


def _tournament(name: str) -> Tournament:
    setup = NewTournament(
        guild_id=1,
        channel_id=2,
        name=name,
        format="round_robin",
        group_size=4,
        match_games=None,
        terms=Terms(timedelta(days=3), None, "even", "27", "never", True),
        scoring=("1", "1/2", "0"),
        start_at=START,
        registration_closes_at=START,
        max_players=8,
        min_rating=None,
        max_rating=None,
        handicap_table=None,
        organizer_id=3,
        created_at=START - timedelta(days=1),
    )
    return Tournament(TournamentRow(7, setup, State.FINISHED.value, None, START, None), ())


def test_a_running_tournament_is_named_as_the_refusal_names_it() -> None:
    """The refusal says no tournament is 受付中・開催中; the announcement's state of one
    under way, and /profile's, use the same word."""
    refusal = say("ja", NO_TOURNAMENT_HERE)
    assert state_name("ja", State.RUNNING) in refusal


@pytest.mark.parametrize("winners", [["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "Cy"]])
def test_the_final_post_greets_every_winner_alike(winners: list[str]) -> None:
    for lang in ("en", "ja"):
        post = final_text(lang, _tournament("春季リーグ"), winners)
        for name in winners:
            assert name in post
        # An honorific after the list's last name only would single that winner out.
        assert post.count("さん") in (0, len(winners)), post


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("春季リーグ", "春季リーグ"),
        ("杯" * 100, "杯" * 80),  # a kanji counts one, as a Latin letter
        ("𠮷" * 100, "𠮷" * 40),  # beyond the Basic Multilingual Plane: two each
        ("e\u0301" * 100, "e\u0301" * 40),  # a mark stays with its letter
        ("👨\u200d👩\u200d👧" * 30, "👨\u200d👩\u200d👧" * 10),  # whole families only
        ("line\nbreak\x1b[31m", "line break [31m"),
    ],
)
def test_a_suggestions_name_is_cut_within_discords_limit_keeping_number_and_state(
    name: str, kept: str
) -> None:
    for lang, state in (("en", "finished"), ("ja", "終了")):
        shown = tournament_choice(lang, _tournament(name))
        assert units(shown) <= 100 and len(shown) <= 100, shown
        assert shown.startswith("#7 " + kept) and shown.endswith(state), shown
        cut = shown.removeprefix("#7 ").rsplit(" · " if lang == "en" else "・", 1)[0]
        assert not unicodedata.combining(cut[-1]) and cut[-1] not in "\u200d\ufe0f", cut

"""The tournament's and the daily problem's sentences as a Japanese club reads them: a
tournament under way is 開催中 wherever its state is named (対局中 is a member's game in
progress), and the final post greets several winners alike, not the last one alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.db.rows import Terms
from bot.db.tournament_rows import NewTournament, TournamentRow
from bot.services.tournaments.model import State, Tournament
from bot.ui.text.base import say
from bot.ui.text.tournaments.tournaments import NO_TOURNAMENT_HERE, final_text, state_name

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

"""Message texts: what players read, with their names made inert."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot import presenters
from bot.services import GameView, ImpasseRule, MoveResult, MoveText, PlayerRef, TimeControl
from rules import Color, Game, Handicap, Outcome, Termination

ALICE = PlayerRef(1001, "alice")
BOB = PlayerRef(1002, "**@everyone** bob")
DEADLINE = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


def game_view(game: Game | None = None, outcome: Outcome | None = None) -> GameView:
    game = game or Game(moves=["7g7f"])
    return GameView(
        id=7,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        sente=ALICE,
        gote=BOB,
        handicap=Handicap.EVEN,
        time_control=TimeControl.parse("3d"),
        impasse_rule=ImpasseRule.DECLARATION_27,
        game=game,
        status="finished" if outcome else "active",
        outcome=outcome,
        to_move=None if outcome else (ALICE if game.position.turn is Color.SENTE else BOB),
        deadline=None if outcome else DEADLINE,
        last_move=game.moves[-1] if game.moves else None,
        last_move_text=MoveText("7g7f", "７六歩", "P-76") if game.moves else None,
        ply=len(game.moves),
        started_at=DEADLINE - timedelta(days=3),
        pending_count_proposal=None,
    )


def test_names_cannot_format_or_ping() -> None:
    text = presenters.board_caption(game_view())
    assert "@everyone" not in text.replace("@\u200beveryone", "")
    assert "**" not in text


def test_move_text_echoes_both_notations_and_mentions_next_player() -> None:
    view = game_view()
    result = MoveResult(view, MoveText("7g7f", "７六歩", "P-76"), ALICE, False, None, BOB, DEADLINE)
    text = presenters.move_text(result)
    assert "☗７六歩 (P-76)" in text
    assert f"<@{BOB.user_id}> to move" in text
    assert f"<t:{int(DEADLINE.timestamp())}:R>" in text
    assert "Check" not in text


def test_move_text_says_check_and_the_end() -> None:
    view = game_view()
    checking = MoveResult(view, MoveText("a", "b", "c"), ALICE, True, None, BOB, DEADLINE)
    assert "Check!" in presenters.move_text(checking)
    mate = Outcome(Termination.CHECKMATE, Color.SENTE)
    ended = MoveResult(
        game_view(outcome=mate), MoveText("a", "b", "c"), ALICE, True, mate, None, None
    )
    text = presenters.move_text(ended)
    assert "Checkmate" in text and "alice wins" in text and "/export" in text


def test_every_outcome_has_a_sentence() -> None:
    for termination in Termination:
        for winner in (Color.SENTE, Color.GOTE, None):
            outcome = Outcome(termination, winner)
            text = presenters.outcome_text(outcome, game_view(outcome=outcome))
            assert text.endswith("Get the record with `/export`.")
            if winner is not None and termination not in (
                Termination.SENNICHITE,
                Termination.ABORT,
            ):
                assert "wins" in text or "declared" in text


def test_thread_name_fits() -> None:
    long = PlayerRef(5, "x" * 120)
    view = game_view()
    view = GameView(**{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "sente": long})
    assert len(presenters.thread_name(view)) <= 100
    assert presenters.thread_name(game_view()).startswith("☗alice vs ☖")


def test_help_fits_a_message() -> None:
    assert len(presenters.HELP_TEXT) <= presenters.MAX_MESSAGE
    assert "P-7f" in presenters.HELP_TEXT and "７六歩" in presenters.HELP_TEXT


def test_truncate() -> None:
    assert presenters.truncate("a" * 3000).endswith("…")
    assert len(presenters.truncate("a" * 3000)) == presenters.MAX_MESSAGE

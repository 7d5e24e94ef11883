"""Who is told of each event: the README's table "Who is told" is the code's, row for row,
and the rules every row keeps (never the actor, never the bot) hold for every event."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services import PlayerRef
from bot.services.club.audience import (
    TABLE,
    Cast,
    Event,
    Role,
    Row,
    Sending,
    audience,
    ending_event,
)
from rules import Color, Outcome, Termination

README = Path(__file__).resolve().parents[2] / "README.md"

ALICE, BOB = PlayerRef(1, "alice"), PlayerRef(2, "bob")
COMPUTER = PlayerRef(99, "Shogi Bot", is_bot=True)


def readme_table() -> dict[str, tuple[str, str, str]]:
    """The rows of the README's "Who is told" table: event -> (mentioned, messaged, sent
    under)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("## Who is told")
    rows: dict[str, tuple[str, str, str]] = {}
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == 4, line
        if cells[0] == "Event":
            continue
        assert cells[0] not in rows, f"the README names {cells[0]!r} twice"
        rows[cells[0]] = (cells[1], cells[2], cells[3])
    return rows


def test_the_readme_table_is_the_codes_table() -> None:
    documented = readme_table()
    coded = {
        event.value: (row.mentioned.value, row.messaged.value, row.sending.value)
        for event, row in TABLE.items()
    }
    assert documented == coded


def test_every_event_has_a_row() -> None:
    assert set(TABLE) == set(Event)


def every_role(actor: int | None) -> Cast:
    """A cast where every role is played, by alice, bob and the computer."""
    return Cast(
        actor=actor,
        players=(ALICE, BOB, COMPUTER),
        to_move=BOB,
        winner=BOB,
        loser=ALICE,
        challenger=ALICE,
        challenged=BOB,
        asker=ALICE,
        answerer=BOB,
        opponent=(BOB, COMPUTER),
    )


@pytest.mark.parametrize("event", list(Event))
def test_the_actor_and_the_bot_are_never_told(event: Event) -> None:
    for actor in (ALICE.user_id, BOB.user_id):
        told = audience(event, every_role(actor))
        everyone = told.mentioned + told.messaged
        assert actor not in {p.user_id for p in everyone}
        assert not any(p.is_bot for p in everyone)


@pytest.mark.parametrize("event", list(Event))
def test_without_an_actor_the_row_is_told(event: Event) -> None:
    row = TABLE[event]
    cast = every_role(None)
    told = audience(event, cast)
    humans = [p for p in cast.playing(row.messaged) if not p.is_bot]
    assert list(told.messaged) == humans
    assert told.sending is row.sending
    if row.mentioned is Role.NOBODY:
        assert told.mentioned == ()


def test_the_rule_of_thumb_on_endings() -> None:
    """Who resigned is not told; the winner is. A time-out, found by the clock, tells
    both. A mate tells the mated."""
    resigned = Cast(actor=ALICE.user_id, players=(ALICE, BOB), winner=BOB, loser=ALICE)
    assert audience(Event.RESIGNATION, resigned).mentioned == (BOB,)
    timed_out = Cast(actor=None, players=(ALICE, BOB), winner=BOB, loser=ALICE)
    assert audience(Event.TIME_OUT, timed_out).messaged == (ALICE, BOB)
    mated = Cast(actor=BOB.user_id, players=(ALICE, BOB), winner=BOB, loser=ALICE)
    assert audience(Event.CHECKMATE, mated).mentioned == (ALICE,)
    repeated = Cast(actor=BOB.user_id, players=(ALICE, BOB))
    assert audience(Event.SENNICHITE, repeated).messaged == (ALICE,)


def test_two_audiences_in_one_post_name_each_member_once() -> None:
    started = Cast(actor=BOB.user_id, players=(ALICE, BOB), to_move=ALICE, challenger=ALICE)
    both = audience(Event.TURN_BEGAN, started) | audience(Event.CHALLENGE_ACCEPTED, started)
    assert both.mentioned == (ALICE,) and both.messaged == (ALICE,)


@pytest.mark.parametrize(
    ("termination", "by_clock", "event"),
    [
        (Termination.RESIGNATION, False, Event.RESIGNATION),
        (Termination.TIME, True, Event.TIME_OUT),
        (Termination.CHECKMATE, False, Event.CHECKMATE),
        (Termination.STALEMATE, False, Event.NO_LEGAL_MOVE),
        (Termination.SENNICHITE, False, Event.SENNICHITE),
        (Termination.PERPETUAL_CHECK, False, Event.PERPETUAL_CHECK),
        (Termination.FOUL, False, Event.FOUL),
        (Termination.IMPASSE_24, False, Event.IMPASSE_COUNT),
        (Termination.IMPASSE_27, False, Event.IMPASSE_DECLARATION),
        (Termination.IMPASSE_JSA24, False, Event.IMPASSE_DECLARATION),
        (Termination.ABORT, False, Event.ABORT),
        (Termination.ABORT, True, Event.IDLE_ABORT),
    ],
)
def test_each_ending_has_its_row(termination: Termination, by_clock: bool, event: Event) -> None:
    assert ending_event(Outcome(termination, Color.GOTE), by_clock=by_clock) is event


def test_rows_are_rows() -> None:
    """A typo in the table's data would fail here before the README comparison."""
    assert all(isinstance(row, Row) and isinstance(row.sending, Sending) for row in TABLE.values())
    assert TABLE[Event.TURN_BEGAN].sending is Sending.TURN
    assert {row.sending for e, row in TABLE.items() if e is not Event.TURN_BEGAN} == {Sending.EVENT}

"""The single error path: expected errors become their sentence, others an apology."""

from __future__ import annotations

import logging

import pytest
from discord import app_commands

from bot.services import NotYourTurn, PositionChanged
from bot.ui.errors import UserInputError, reply_for, user_message
from bot.ui.text import APOLOGY
from rules import Move, Position
from rules.notation import parse_move


def test_service_error_gives_its_sentence() -> None:
    assert user_message(NotYourTurn("It is not your turn.")) == "It is not your turn."
    assert (
        reply_for(PositionChanged("The position changed."), context="t") == "The position changed."
    )


def test_rules_errors_give_their_sentence() -> None:
    position = Position.initial()
    with pytest.raises(ValueError) as caught:
        parse_move(position, "P*5e")
    assert reply_for(caught.value, context="t") == str(caught.value)
    assert "hand" in str(caught.value)
    illegal = position.explain_illegal(Move.from_usi("8h2b"))
    assert reply_for(illegal, context="t") == str(illegal)


def test_user_input_error() -> None:
    assert reply_for(UserInputError("Pick a game."), context="t") == "Pick a game."


def test_wrapped_command_errors_are_unwrapped() -> None:
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = NotYourTurn("It is not your turn.")
    assert reply_for(wrapped, context="t") == "It is not your turn."


def test_unexpected_error_is_logged_and_apologised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.ui.errors"):
        text = reply_for(KeyError("secret internals"), context="/move")
    assert text == APOLOGY
    assert "secret internals" not in text
    assert any(record.exc_info for record in caplog.records)

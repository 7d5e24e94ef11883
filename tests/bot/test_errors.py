"""The single error path: expected errors become their sentence, others an apology."""

from __future__ import annotations

import logging

import pytest
from discord import app_commands

from bot.services import GameOver, NotYourTurn, PositionChanged
from bot.ui.errors import OptionError, reply_for, user_message
from bot.ui.text import APOLOGY, BAD_OPTION, NOT_POSTED
from bot.ui.threads import NotPosted
from rules import Color, Move, Outcome, Position, Termination
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
    assert reply_for(OptionError("Pick a game."), context="t") == "Pick a game."


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


def _transformer_error(cause: BaseException | None) -> app_commands.TransformerError:
    error = app_commands.TransformerError.__new__(app_commands.TransformerError)
    error.__cause__ = cause
    return error


def test_an_option_discord_could_not_resolve_is_refused_not_apologised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A member option naming someone who left the server fails in discord.py's own
    conversion, with no cause: that is the user's input, not a bug."""
    with caplog.at_level(logging.ERROR, logger="bot.ui.errors"):
        assert reply_for(_transformer_error(None), context="/challenge") == BAD_OPTION
    assert caplog.records == []
    caused = _transformer_error(OptionError("Pick a game."))
    assert reply_for(caused, context="/board") == "Pick a game."


def test_a_stored_action_whose_post_failed_is_not_called_unchanged() -> None:
    """After the service stored the action, 'the game is unchanged' would be false."""
    sentence = reply_for(NotPosted(7), context="button rs:7")
    assert sentence == NOT_POSTED and "unchanged" not in sentence


def test_game_over_is_worded_with_how_it_ended() -> None:
    over = GameOver(Outcome(Termination.TIME, Color.GOTE))
    assert reply_for(over, context="/move") == "This game has already ended on time."
    assert reply_for(GameOver(None), context="/move") == "This game has already ended."

"""The single error path: expected errors become their sentence, others an apology."""

from __future__ import annotations

import logging

import pytest
from discord import app_commands

from bot.services import GameOver, NotYourTurn, PositionChanged
from bot.ui.errors import OptionError, reply_for, user_message
from bot.ui.text import APOLOGY, BAD_GAME_OPTION, BAD_OPTION, NOT_POSTED, say
from bot.ui.threads import NotPosted
from rules import Color, Move, Outcome, Position, Role, Sentence, Square, Termination
from rules.notation import parse_move

NOT_YOUR_TURN = Sentence("It is {name}'s move.", name="**bob**")


def test_service_error_gives_its_sentence_in_the_readers_language() -> None:
    assert user_message(NotYourTurn(NOT_YOUR_TURN), "en") == "It is \\*\\*bob\\*\\*'s move."
    assert user_message(NotYourTurn(NOT_YOUR_TURN), "ja") == "\\*\\*bob\\*\\*さんの手番です。"
    moved_on = PositionChanged(Sentence("The position changed."))
    assert reply_for(moved_on, context="t", lang="en") == "The position changed."


def test_values_are_said_in_the_readers_language() -> None:
    sentence = Sentence("You have no {piece} in hand.", piece=Role.BISHOP)
    assert say("en", sentence) == "You have no bishop in hand."
    assert say("ja", sentence) == "持ち駒に角がありません。"
    square = Sentence("There is no piece on {square}.", square=Square.from_usi("5e"))
    assert say("en", square) == "There is no piece on 5e."
    assert say("ja", square) == "５五に駒がありません。"


def test_rules_errors_give_their_sentence() -> None:
    position = Position.initial()
    with pytest.raises(ValueError) as caught:
        parse_move(position, "P*5e")
    assert reply_for(caught.value, context="t", lang="en") == str(caught.value)
    assert "hand" in str(caught.value)
    assert "持ち駒" in reply_for(caught.value, context="t", lang="ja")
    illegal = position.explain_illegal(Move.from_usi("8h2b"))
    assert reply_for(illegal, context="t", lang="en") == str(illegal)


def test_user_input_error() -> None:
    error = OptionError(BAD_GAME_OPTION)
    assert reply_for(error, context="t", lang="en") == str(BAD_GAME_OPTION)
    assert "対局番号" in reply_for(error, context="t", lang="ja")


def test_wrapped_command_errors_are_unwrapped() -> None:
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = NotYourTurn(NOT_YOUR_TURN)
    assert reply_for(wrapped, context="t", lang="en") == "It is \\*\\*bob\\*\\*'s move."


def test_unexpected_error_is_logged_and_apologised(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.ui.errors"):
        text = reply_for(KeyError("secret internals"), context="/move", lang="en")
    assert text == str(APOLOGY)
    assert "secret internals" not in text
    assert "申し訳ありません" in reply_for(KeyError("x"), context="/move", lang="ja")
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
        refusal = reply_for(_transformer_error(None), context="/challenge", lang="en")
    assert refusal == str(BAD_OPTION)
    assert caplog.records == []
    caused = _transformer_error(OptionError(BAD_GAME_OPTION))
    assert reply_for(caused, context="/board", lang="en") == str(BAD_GAME_OPTION)


def test_a_stored_action_whose_post_failed_is_not_called_unchanged() -> None:
    """After the service stored the action, 'the game is unchanged' would be false."""
    sentence = reply_for(NotPosted(7), context="button rs:7", lang="en")
    assert sentence == str(NOT_POSTED) and "unchanged" not in sentence


def test_game_over_is_worded_with_how_it_ended() -> None:
    over = GameOver(Outcome(Termination.TIME, Color.GOTE))
    assert reply_for(over, context="/move", lang="en") == "This game has already ended on time."
    assert (
        reply_for(over, context="/move", lang="ja") == "この対局はすでに時間切れで終わっています。"
    )
    ended = reply_for(GameOver(None), context="/move", lang="en")
    assert ended == "This game has already ended."

"""Posting into a game's thread: moves, endings, reminders, proposals.

A post in the thread is a new message, so the mention in it notifies the player
(the edit of a deferred answer would not). Posts are made after the service has
stored what they announce; a post that fails raises `NotPosted`, so the player
is told the action stands although the thread did not hear of it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.services import (
    NOBODY,
    Audience,
    Cast,
    Challenge,
    Event,
    GameSnapshot,
    PlayedMove,
    VacationChange,
    ending_event,
)
from bot.services.club.audience import audience
from render import GifTooLarge
from rules import Termination

from . import text
from .boards import upload_size
from .homes import game_channel, open_thread
from .host import GameBot
from .offers import withdraw_lapsed
from .replies import pings

log = logging.getLogger(__name__)


#: A post's text as a function of the language it is written in: the thread's language
#: is looked up once, where the post is made.
Wording = Callable[[str], str]


class NotPosted(Exception):
    """The action was stored, but its post in the game's thread could not be made."""


async def post_to_game(
    bot: GameBot,
    game: GameSnapshot,
    wording: Wording,
    *,
    with_board: bool = False,
    told: Audience = NOBODY,
    view: Callable[[str], discord.ui.View | None] | None = None,
) -> discord.Message:
    """Post `wording` in the game's thread, in the server's language (with the board
    image, and after an ending the game's animation with it, and the `view` built in that
    language, if it builds one), mentioning and pinging exactly `told.mentioned` (see
    `bot.services.club.audience`)."""
    lang = await bot.post_language(game.guild_id)
    built = None if view is None else view(lang)
    extra: dict[str, Any] = {} if built is None else {"view": built}
    note = None
    if with_board:
        try:
            board = await board_post(bot, game, lang)
        except Exception as error:
            log.exception("could not render game %s's board", game.id)
            raise NotPosted(game.id) from error
        extra["files"], note = board.files, board.note
    try:
        channel = await game_channel(bot, game)
        said = text.addressed(wording(lang), told.mentioned)
        content = text.truncate(said if note is None else f"{said}\n{note}")
        return await channel.send(content, allowed_mentions=pings(*told.mentioned), **extra)
    except (discord.HTTPException, LookupError) as error:
        log.warning("could not post in game %s's thread", game.id, exc_info=True)
        raise NotPosted(game.id) from error


async def announce(
    bot: GameBot,
    event: Event,
    game: GameSnapshot,
    wording: Wording,
    *,
    cast: Cast,
    view: Callable[[str], discord.ui.View | None] | None = None,
) -> None:
    """Tell of `event` in the game's thread and by direct message, in the same words: the
    post mentions whom the table names (`bot.services.club.audience`), and they are messaged
    even when the post could not be made (a thread deleted), since the message is then the
    only way the news reaches them. `NotPosted` is raised after the messages are sent."""
    try:
        await post_to_game(bot, game, wording, told=audience(event, cast), view=view)
    finally:
        bot.direct_messages.about_game(event, game, wording, cast=cast)


def _upload_limit(bot: GameBot, game: GameSnapshot) -> int:
    """The largest file the game's server takes."""
    guild = bot.get_guild(game.guild_id)
    return guild.filesize_limit if guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES


def _fits(limit: int, game: GameSnapshot, file: discord.File) -> bool:
    """Whether `file` is within the upload `limit`; an animation is built to fit it, so
    one over it is posted without (`/export` says why)."""
    if upload_size(file) <= limit:
        return True
    log.warning("game %s: its animation is over the upload limit", game.id)
    return False


async def post_board(
    bot: GameBot, game: GameSnapshot, wording: Wording, *, told: Audience = NOBODY
) -> discord.Message:
    """`post_to_game` with the game's board, rendered now, and the buttons under it (see
    `GameBot.board_view`: the turn's while the game goes on); a game that has ended (by a
    move, a resignation, a time-out, ...) also gets its animation and the buttons under
    an ending, wherever it ended."""
    view = functools.partial(bot.board_view, game)
    return await post_to_game(bot, game, wording, with_board=True, told=told, view=view)


async def announce_end(
    bot: GameBot, game: GameSnapshot, *, by: int | None, by_clock: bool = False
) -> None:
    """Post the ending with the final board and, in the same message, the whole game as
    an animation, mentioning whom the table says (`by` is the member who ended it, None
    for the clock or the computer; `by_clock`: found by the deadline task), then note it is
    posted: a restart posts endings that were stored but not posted (see
    `Deadlines.post_left_over_endings`). The direct messages follow, even if the post
    failed."""
    outcome = game.outcome
    if outcome is None:
        return
    log.info("game %s ended: %s", game.id, outcome.termination.value)
    event = ending_event(outcome, by_clock=by_clock)
    told = audience(event, Cast.of_game(game, actor=by))
    try:
        await post_board(bot, game, lambda lang: ending_text(lang, game, event), told=told)
        await ending_posted(bot, game)
    finally:
        bot.direct_messages.about_game(
            event,
            game,
            lambda lang: ending_text(lang, game, event),
            cast=Cast.of_game(game, actor=by),
        )


def ending_text(lang: str, game: GameSnapshot, event: Event) -> str:
    """How `game` ended, as its post says it (an abort by the clock says who was late)."""
    if event is Event.IDLE_ABORT:
        return text.idle_abort_text(lang, game)
    assert game.outcome is not None
    return text.outcome_text(lang, game.outcome, game)


def move_audience(played: PlayedMove) -> Audience:
    """Who a move's post tells: the player whose turn begins, or those an ending made by
    the move concerns. After a forecast reply, the next player has moved already: the
    reply's own post tells them."""
    cast = Cast.of_game(played.game, actor=played.mover.user_id)
    if played.outcome is not None:
        return audience(ending_event(played.outcome), cast)
    if played.forecast is not None:
        return NOBODY
    return audience(Event.TURN_BEGAN, cast)


def as_posted(played: PlayedMove) -> PlayedMove:
    """The move as its own post tells it: when a forecast reply followed at once, the
    player it names as next has already moved, so the post names (and pings) no one."""
    return played if played.forecast is None else replace(played, next_player=None)


async def post_move(bot: GameBot, played: PlayedMove) -> None:
    """A move's board in its game's thread (a member's, or the computer's), and what
    follows the ending when the move ended the game (mate, repetition)."""
    shown = as_posted(played)
    await post_board(
        bot, played.game, lambda lang: text.move_text(lang, shown), told=move_audience(played)
    )
    if played.outcome is not None:
        await ending_posted(bot, played.game)
    elif played.withdrawn:  # a question left unanswered no longer holds
        await withdraw_lapsed(bot, played.game.id)


async def post_forecast_reply(bot: GameBot, played: PlayedMove) -> None:
    """The forecaster's reply, if the move triggered one: its board in the thread, after
    the move's own (the same coroutine posts both, so they come in order)."""
    answer = played.forecast
    if answer is None:
        return
    log.info("game %s ply %s: %s by forecast", answer.game.id, answer.game.ply, answer.move.usi)
    await post_board(
        bot,
        answer.game,
        lambda lang: text.move_text(lang, answer, by_forecast=True),
        told=move_audience(answer),
    )
    if answer.outcome is not None:
        await ending_posted(bot, answer.game)


async def ending_posted(bot: GameBot, game: GameSnapshot) -> None:
    """What follows the post of `game`'s ending, wherever it was made: note it is posted
    (so that a restart does not post it again), withdraw the questions left unanswered,
    then close the game's thread."""
    await bot.service.deadlines.ending_posted(game.id)
    await withdraw_lapsed(bot, game.id)  # before the thread is archived
    await close_thread(bot, game)
    for follow_up in bot.after_endings:  # a tournament's standings, say
        try:
            await follow_up(game)
        except Exception:
            log.exception("game %s: what follows its ending failed", game.id)


async def begin_scheduled_game(
    bot: GameBot, game: GameSnapshot, heading: Wording, *, cap_raises: bool = False
) -> None:
    """A game the bot created for an event (a tournament's, a team match's): its thread
    in its channel, as an accepted challenge's, its first post under `heading`; nothing
    if it has its thread already (opened by another process, or before a restart).
    `cap_raises` as for `begin_game`."""
    if game.thread_id is not None:
        return
    me = bot.user
    await begin_game(
        bot, game, None, by=0 if me is None else me.id, heading=heading, cap_raises=cap_raises
    )


async def begin_game(
    bot: GameBot,
    game: GameSnapshot,
    message: discord.Message | discord.PartialMessage | None,
    *,
    by: int,
    challenge: Challenge | None = None,
    heading: Wording | None = None,
    cap_raises: bool = False,
) -> None:
    """A game just started (by `by`: who accepted `challenge`, or who asked the computer;
    a tournament's, whose first post begins with its `heading`):
    its thread on `message` (the challenge's, or the one announcing the game), the start
    board there with a mention of the member to move first and of the challenger, then
    the direct messages: the challenger hears it was accepted (and whose move it is), the
    member to move first, if another, that it is their move. With `cap_raises`, a
    server at Discord's cap on active threads raises `ThreadCapReached` before anything
    is posted (the game waits for its thread, and an event's game's clock with it: it
    starts as the first post is made, in its thread or, without one, in its channel)."""
    lang = await bot.post_language(game.guild_id)
    thread = await open_thread(
        bot, game, message, text.thread_name(lang, game), cap_raises=cap_raises
    )
    # Recorded before the first post (where the game is played, and an event's game's
    # clock started), so that the post shows the deadline running from now.
    await bot.service.games.set_thread(game.id, None if thread is None else thread.id)
    game = await bot.service.games.get(game.id)
    log.info("game %s started", game.id)
    started = game
    turn = audience(Event.TURN_BEGAN, Cast.of_game(started, actor=by))
    accepted = NOBODY
    if challenge is not None:
        accepted = audience(Event.CHALLENGE_ACCEPTED, Cast.of_challenge(challenge, actor=by))
    try:

        def first_post(lang: str) -> str:
            start = text.game_start_text(lang, started)
            return start if heading is None else f"{heading(lang)}\n{start}"

        await post_board(bot, started, first_post, told=turn | accepted)
    finally:  # after the thread's post, whose link the message gives
        _tell_start(bot, started, challenge, by=by, accepted=accepted)


def _tell_start(
    bot: GameBot,
    game: GameSnapshot,
    challenge: Challenge | None,
    *,
    by: int,
    accepted: Audience,
) -> None:
    """The direct messages of a game's start: one to the challenger (that it was accepted,
    and whose move it is), and the first turn's to the member to move if another."""
    told = {player.user_id for player in accepted.messaged}
    if challenge is not None and told:
        bot.direct_messages.about_game(
            Event.CHALLENGE_ACCEPTED,
            game,
            lambda lang: text.accepted_news(lang, challenge, game),
            cast=Cast.of_challenge(challenge, actor=by),
        )
    first = game.to_move
    if first is not None and first.user_id in told:
        return
    bot.direct_messages.turn_began(game, by=by)


async def close_thread(bot: GameBot, game: GameSnapshot) -> None:
    """Rename a finished game's thread with its result (`#12 ☗alice vs ☖bob · ☗ wins`, in
    the server's language) and archive it, so that the server's thread list shows which
    games go on. Not locked: a member's post, or the bot's (a late note, a reminder left
    over), reopens it as Discord reopens any archived thread. The bot opened the thread,
    so it may do this without Manage Threads; if Discord refuses anyway, the thread only
    stays as it was, and the ending already posted stands."""
    if game.thread_id is None or game.outcome is None:
        return
    name = text.thread_name(await bot.post_language(game.guild_id), game)
    try:
        thread = await bot.channel(game.thread_id)
        if not isinstance(thread, discord.Thread) or (thread.archived and thread.name == name):
            return
        if thread.archived:  # an archived thread takes no change before it is reopened
            thread = await thread.edit(archived=False)
        await thread.edit(name=name, archived=True)
    except discord.NotFound:  # deleted by a moderator: the game went on in its channel
        log.info("game %s's thread is gone; nothing to rename", game.id)
    except discord.HTTPException:
        log.warning("could not rename and archive game %s's thread", game.id, exc_info=True)


@dataclass(frozen=True, slots=True)
class BoardPost:
    """What a post with the board attaches, and a line to add under its text (that the
    animation shows only the last moves of a game too long for the upload limit)."""

    files: list[discord.File]
    note: str | None = None


async def board_post(bot: GameBot, game: GameSnapshot, lang: str) -> BoardPost:
    """The game's board, and after an ending (see `deserves_animation`) its animation, of
    the last moves that fit the server's upload limit. A board that cannot be rendered
    raises; an animation that fails or is still too large for an upload is left out with
    a log line, as it only replays what the record holds."""
    files = [await bot.boards.file(game, lang)]
    note = None
    if deserves_animation(game):
        limit = _upload_limit(bot, game)
        try:
            animation = await bot.boards.animation(game, lang, limit=limit)
        except GifTooLarge:
            log.warning("game %s: its animation is over the upload limit", game.id)
        except Exception:
            log.exception("could not render game %s's animation", game.id)
        else:
            if _fits(limit, game, animation.file):
                files.append(animation.file)
                if animation.shown_moves is not None:
                    note = text.animation_shortened(lang, animation.shown_moves)
    return BoardPost(files, note)


def deserves_animation(game: GameSnapshot) -> bool:
    """Whether a finished game's ending carries its animation: not an aborted game (it
    ended before both players moved and has no result) nor one without a move, whose
    animation would be its final board again."""
    outcome = game.outcome
    return outcome is not None and outcome.termination is not Termination.ABORT and game.ply > 0


async def tell_vacation(bot: GameBot, change: VacationChange, *, by: int | None) -> None:
    """Post a vacation's start or end in each of the player's active games, for their
    opponents, who are sent a direct message too (`by`: the member who began or ended it,
    None when it ran out); a thread that cannot be posted in does not keep the others
    from hearing."""
    vacation = change.vacation
    event = Event.VACATION_BEGAN if vacation.ended_at is None else Event.VACATION_ENDED
    for game in change.games:
        if vacation.ended_at is None:
            wording: Wording = functools.partial(
                text.vacation_started, game=game, vacation=vacation
            )
        else:
            wording = functools.partial(text.vacation_ended, game=game, vacation=vacation)
        cast = replace(Cast.of_game(game, actor=by), opponent=(game.opponent_of(vacation.user_id),))
        try:
            await announce(bot, event, game, wording, cast=cast)
        except NotPosted:
            log.warning("game %s: could not post the vacation of %s", game.id, vacation.user_id)

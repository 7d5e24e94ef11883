"""What the bot does on Discord for each action, shared by slash commands and buttons.

Handlers and buttons stay one line long: they call a flow here, the flow asks
the service, and then decides where the answer goes (the interaction, the
game's thread, or both) and what is ephemeral. All of them run inside
`guarded`, the single error path.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from rules import Color

from . import presenters
from .errors import reply_for
from .services import (
    AmbiguousMove,
    ChooseGame,
    GameOver,
    GameView,
    MoveResult,
    NotFound,
    PlayerRef,
)
from .services.base import ended_sentence
from .views.buttons import JishogiButton, PromotionButton, ResignButton, view_of

if TYPE_CHECKING:
    from .client import ShogiBot

log = logging.getLogger(__name__)
DEFER_AFTER = 1.5  # seconds: past this, defer so Discord's 3-second limit is never missed


def player_of(interaction: discord.Interaction[Any]) -> PlayerRef:
    user = interaction.user
    return PlayerRef(user.id, user.display_name, user.bot)


def mentions(*players: PlayerRef | None) -> discord.AllowedMentions:
    """Allow pings only for the named players, whatever the text contains."""
    users = [discord.Object(p.user_id) for p in players if p is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


async def guarded(
    interaction: discord.Interaction[Any], context: str, flow: Awaitable[None]
) -> None:
    """Run a flow; turn any error into one ephemeral sentence (and log the unexpected)."""
    log.info("%s by user %s in channel %s", context, interaction.user.id, interaction.channel_id)
    try:
        await flow
    except ChooseGame as question:
        log.info("refused %s: %s", context, question.message)
        await send_ephemeral(interaction, presenters.choose_game_text(question))
    except Exception as error:
        await send_refusal(interaction, reply_for(error, context=context))


async def send_refusal(interaction: discord.Interaction[Any], text: str) -> None:
    """An error sentence, which may quote what the user typed or a user's name: shown
    escaped, so it neither formats nor reads as a mention."""
    await send_ephemeral(interaction, presenters.safe(text))


async def send_ephemeral(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    text = presenters.truncate(text)
    allowed = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=allowed, **kwargs
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=allowed, **kwargs
            )
    except discord.HTTPException:
        log.warning("could not deliver an ephemeral reply", exc_info=True)
    finally:
        view = kwargs.get("view")
        if isinstance(view, discord.ui.View):
            # discord.py gives a view sent ephemerally a 15-minute timeout and keeps a timer
            # task for it, even after the client closes.  Our buttons are DynamicItems that
            # the registry dispatches from their custom_id alone, so the view object is not
            # needed once sent: stop it, and no timer outlives the interaction.
            view.stop()


async def game_channel(bot: ShogiBot, game: GameView) -> discord.abc.Messageable:
    """The game's thread, or the channel it started in if the thread is gone."""
    for channel_id in (game.thread_id, game.channel_id):
        if channel_id is None:
            continue
        channel = bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(channel_id)
            except discord.HTTPException:
                continue
        if isinstance(channel, discord.abc.Messageable):
            return channel
    raise LookupError(f"no channel left for game {game.id}")


async def post_to_game(
    bot: ShogiBot,
    game: GameView,
    content: str,
    *,
    board: bool = False,
    ping: PlayerRef | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message:
    channel = await game_channel(bot, game)
    kwargs: dict[str, Any] = {"allowed_mentions": mentions(ping)}
    if board:
        kwargs["file"] = await bot.board_file(game)
    if view is not None:
        kwargs["view"] = view
    return await channel.send(presenters.truncate(content), **kwargs)


async def respond_with_board(
    interaction: discord.Interaction[Any],
    content: str,
    rendering: Awaitable[discord.File],
    *,
    ping: PlayerRef | None = None,
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    budget: float | None = None,
) -> None:
    """Answer with a board image; defer first if rendering is slow today (past `budget`
    seconds, by default `DEFER_AFTER`)."""
    task = asyncio.ensure_future(rendering)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER if budget is None else budget)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    file = await task
    kwargs: dict[str, Any] = {"file": file, "allowed_mentions": mentions(ping)}
    if view is not None:
        kwargs["view"] = view
    content = presenters.truncate(content)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


# ------------------------------------------------------------------ challenges


async def answer_challenge(
    bot: ShogiBot, interaction: discord.Interaction[Any], challenge_id: int, action: str
) -> None:
    user_id = interaction.user.id
    if action != "accept":
        method = bot.service.decline if action == "decline" else bot.service.cancel
        challenge = await method(challenge_id, user_id)
        text = (
            presenters.challenge_text(challenge)
            + "\n"
            + presenters.challenge_closed_text(challenge)
        )
        await interaction.response.edit_message(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
        log.info("challenge %s %s", challenge_id, challenge.status)
        return
    game = await bot.service.accept(challenge_id, user_id)
    challenge = await bot.service.get_challenge(challenge_id)
    await interaction.response.edit_message(
        content=presenters.challenge_text(challenge) + "\nChallenge accepted: good game!",
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    thread = await _open_thread(interaction, presenters.thread_name(game))
    if thread is not None:
        await bot.service.set_game_thread(game.id, thread.id)
        game = await bot.service.get_game(game.id)
    log.info("game %s started (challenge %s)", game.id, challenge_id)
    await post_to_game(bot, game, presenters.game_start_text(game), board=True, ping=game.to_move)


async def _open_thread(interaction: discord.Interaction[Any], name: str) -> discord.Thread | None:
    """A thread on the challenge message, or in the channel; None where threads are impossible."""
    try:
        if interaction.message is not None:
            return await interaction.message.create_thread(name=name, auto_archive_duration=10080)
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            return await channel.create_thread(name=name, auto_archive_duration=10080)
    except discord.HTTPException:
        log.warning("could not open a thread for %s", name, exc_info=True)
    return None


# ------------------------------------------------------------------ moves


async def play_move(
    bot: ShogiBot,
    interaction: discord.Interaction[Any],
    game_id: int | None,
    text: str,
    *,
    expected_ply: int | None = None,
) -> None:
    """Play and announce a move, answering Discord within its 3 seconds however slow the
    database or the renderer is today: past `DEFER_AFTER` the answer is deferred."""
    user = player_of(interaction)
    from_button = interaction.type is discord.InteractionType.component
    loop = asyncio.get_running_loop()
    started = loop.time()
    resolved: list[int] = []

    async def work() -> MoveResult:
        if game_id is None:
            resolved.append(
                await bot.service.resolve_game_id(
                    user.user_id,
                    guild_id=interaction.guild_id or 0,
                    thread_id=interaction.channel_id,
                )
            )
        else:
            resolved.append(game_id)
        # The game is loaded once, by `play`, which also keeps other servers' games out.
        return await bot.service.play(
            resolved[0],
            user.user_id,
            text,
            expected_ply=expected_ply,
            guild_id=interaction.guild_id or 0,
            name=user.name,
        )

    playing = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({playing}, timeout=DEFER_AFTER)
    if not done:
        await _defer(interaction, from_button)
    try:
        result = await playing
    except AmbiguousMove as question:
        if question.promotion_choice is None:
            raise
        game = await bot.service.get_game(resolved[0])
        buttons = [
            PromotionButton(game.id, game.ply, move.usi) for move in question.promotion_choice
        ]
        await send_ephemeral(interaction, presenters.safe(question.message), view=view_of(*buttons))
        return
    log.info("game %s ply %s: %s", result.game.id, result.game.ply, result.move.usi)
    budget = max(0.0, DEFER_AFTER - (loop.time() - started))
    await announce_move(bot, interaction, result, from_button=from_button, budget=budget)


async def _defer(interaction: discord.Interaction[Any], from_button: bool) -> None:
    """Tell Discord an answer is coming. A slash command gets a private "thinking"
    note (the public board goes to the thread); a button keeps its message to edit."""
    try:
        if from_button:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException:
        log.warning("could not defer interaction %s", interaction.id, exc_info=True)


async def announce_move(
    bot: ShogiBot,
    interaction: discord.Interaction[Any],
    result: MoveResult,
    *,
    from_button: bool,
    budget: float = DEFER_AFTER,
) -> None:
    """The board after the move, publicly in the game's thread; an ephemeral note elsewhere.

    The move is stored by now, so the thread hears of it even when Discord has given
    up on the interaction (an answer too late is refused with "unknown interaction").
    """
    game = result.game
    content = presenters.move_text(result)
    note = f"Played {result.move.japanese} ({result.move.western})"
    answered = interaction.response.is_done()
    if from_button:
        if answered:
            await interaction.edit_original_response(content=f"{note}.", view=None)
        else:
            await interaction.response.edit_message(content=f"{note}.", view=None)
    elif interaction.channel_id == game.thread_id and not answered:
        try:
            await respond_with_board(
                interaction, content, bot.board_file(game), ping=result.next_player, budget=budget
            )
            await _note_ending(bot, result)
            return
        except discord.NotFound:
            log.warning("interaction %s expired; posting game %s's move", interaction.id, game.id)
    else:
        # Answer first: rendering the board may take longer than Discord waits for an answer.
        where = f"<#{game.thread_id}>" if game.thread_id else "the game's channel"
        await send_ephemeral(interaction, f"{note} in {where}.")
    await post_to_game(bot, game, content, board=True, ping=result.next_player)
    await _note_ending(bot, result)


async def _note_ending(bot: ShogiBot, result: MoveResult) -> None:
    """A move that ended the game (mate, repetition) announced the ending with its board."""
    if result.outcome is not None:
        await bot.service.mark_end_announced(result.game.id)


async def show_board(
    bot: ShogiBot,
    interaction: discord.Interaction[Any],
    game_id: int | None,
    perspective: str | None,
) -> None:
    user = player_of(interaction)
    game = await _resolve(bot, interaction, game_id)
    if perspective is None:
        own = game.color_of(user.user_id)
        colour = Color.SENTE if own is None else own
    else:
        colour = Color.GOTE if perspective == "gote" else Color.SENTE
    await respond_with_board(
        interaction, presenters.board_caption(game), bot.board_file(game, perspective=colour)
    )


async def _resolve(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int | None
) -> GameView:
    if game_id is not None:
        return in_this_server(interaction, await bot.service.get_game(game_id))
    return await bot.service.resolve_game(
        interaction.user.id, guild_id=interaction.guild_id or 0, thread_id=interaction.channel_id
    )


def in_this_server(interaction: discord.Interaction[Any], game: GameView) -> GameView:
    """A game is only seen and played in the server it belongs to: game ids are small
    numbers anyone can guess, and other servers' games are none of their business."""
    if game.guild_id != interaction.guild_id:
        raise NotFound(f"There is no game {game.id} in this server.")
    return game


# ------------------------------------------------------------------ game endings and time


async def ask_resign(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int | None
) -> None:
    game = await _resolve(bot, interaction, game_id)
    if game.color_of(interaction.user.id) is None:
        await send_ephemeral(interaction, "You are not a player in this game.")
        return
    if not game.is_active:
        raise GameOver(ended_sentence(game.outcome))
    await send_ephemeral(
        interaction,
        f"Resign the game against {presenters.safe(_opponent(game, interaction.user.id).name)}?",
        view=view_of(ResignButton(game.id)),
    )


def _opponent(game: GameView, user_id: int) -> PlayerRef:
    return game.gote if game.sente.user_id == user_id else game.sente


async def confirm_resign(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int
) -> None:
    game = await bot.service.resign(game_id, interaction.user.id)
    await interaction.response.edit_message(content="You resigned.", view=None)
    await announce_end(bot, game)


async def abort(bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int | None) -> None:
    game = await _resolve(bot, interaction, game_id)
    game = await bot.service.abort(game.id, interaction.user.id)
    await send_ephemeral(interaction, "The game is aborted.")
    await announce_end(bot, game)


async def announce_end(bot: ShogiBot, game: GameView) -> None:
    """Post the ending with the final board, then note it is posted: a restart posts
    endings that were stored but not posted (see `post_left_over_endings`)."""
    if game.outcome is None:
        return
    log.info("game %s ended: %s", game.id, game.outcome.termination.value)
    await post_to_game(bot, game, presenters.outcome_text(game.outcome, game), board=True)
    await bot.service.mark_end_announced(game.id)


async def give_time(bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int) -> None:
    game = await bot.service.give_time(game_id, interaction.user.id)
    await send_ephemeral(interaction, "Done: your opponent has a full period again.")
    if game.to_move is not None:
        await post_to_game(
            bot,
            game,
            f"{presenters.mention(game.to_move)}, your opponent gave you more time; "
            f"{presenters.deadline_text(game.deadline)}.",
            ping=game.to_move,
        )


# ------------------------------------------------------------------ impasse


async def show_impasse(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int | None
) -> None:
    game = await _resolve(bot, interaction, game_id)
    report = await bot.service.impasse_report(game.id)

    buttons = []
    if report.can_propose_count:
        proposer = report.game.pending_count_proposal
        action = "accept" if proposer is not None else "propose"
        buttons.append(JishogiButton(action, game.id))
    if report.can_declare is not None:
        buttons.append(JishogiButton("declare", game.id))
    view = view_of(*buttons) if buttons else None
    text = presenters.truncate(presenters.impasse_text(report))
    if view is None:
        await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
    else:
        await interaction.response.send_message(
            text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )


async def impasse_action(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int, action: str
) -> None:
    user_id = interaction.user.id
    if action == "propose":
        game = await bot.service.propose_count(game_id, user_id)
        opponent = _opponent(game, user_id)
        await send_ephemeral(interaction, "Proposal sent.")

        await post_to_game(
            bot,
            game,
            f"{presenters.mention(opponent)}, your opponent proposes to settle the impasse by the "
            "24-point count. Accept with the button or keep playing.",
            ping=opponent,
            view=view_of(JishogiButton("accept", game_id)),
        )
        return
    if action == "accept":
        game = await bot.service.accept_count(game_id, user_id)
    else:
        game = await bot.service.declare(game_id, user_id)
    await send_ephemeral(interaction, "The impasse is settled.")
    await announce_end(bot, game)


# ------------------------------------------------------------------ records


async def export(
    bot: ShogiBot, interaction: discord.Interaction[Any], game_id: int | None, fmt: str
) -> None:
    game = await _resolve(bot, interaction, game_id)
    record = await bot.service.export(game.id, fmt)
    data = record.content.encode("utf-8")
    file = discord.File(io.BytesIO(data), filename=record.filename)
    link = record.analysis_url
    text = f"Record of game {game.id} ({fmt.upper()})."
    text += f"\nAnalyse on lishogi: <{link}>" if len(text) + len(link) < 1900 else ""
    await interaction.response.send_message(
        text, file=file, allowed_mentions=discord.AllowedMentions.none()
    )

"""An event game's thread: the one function the opener calls for every game the bot
created for an event, whichever the event is (a tournament's round and board, a team
match's board and game), so that the opener needs to know no event.
"""

from __future__ import annotations

from bot.services import GameSnapshot

from . import text
from .host import GameBot
from .text.tournaments.team_matches import team_game_heading
from .threads import Wording, begin_scheduled_game


async def open_event_game(bot: GameBot, game_id: int) -> bool:
    """The thread of an event's game in its channel, opened as an accepted challenge's
    is, its first post headed by the event (the tournament, round and board; the team
    match, board and game); False if it got no thread (its posts go to the channel) or
    belongs to no event. Raises `ThreadCapReached` at Discord's cap on active threads,
    before anything is posted."""
    heading = await _heading(bot, game_id)
    if heading is None:
        return False
    game: GameSnapshot = await bot.service.games.get(game_id)
    await begin_scheduled_game(bot, game, heading, cap_raises=True)
    return (await bot.service.games.get(game_id)).thread_id is not None


async def _heading(bot: GameBot, game_id: int) -> Wording | None:
    """The first post's heading of the event the game belongs to; None for no event."""
    tournaments = bot.service.tournaments
    placed = await tournaments.placement(game_id)
    if placed is not None:
        held, scheduled = placed
        tournament = await tournaments.get(held.id)
        round_number, board = scheduled.game.round, scheduled.game.board
        return lambda lang: text.game_heading(lang, tournament, round_number, board)
    match = await bot.service.team_matches.of_game(game_id)
    place = None if match is None else match.place_of(game_id)
    if match is None or place is None:
        return None
    found, board, number = match, place.board, place.game_number
    return lambda lang: team_game_heading(lang, found, board, number)

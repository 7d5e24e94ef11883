"""What follows a stored move, whichever way it came: `/move`, a Promote or Confirm button,
or a message mentioning the bot. One place, so a new way to play cannot forget the
forecaster's reply or a player's direct message."""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any

from bot.services import PlayedMove

from .host import GameBot
from .threads import post_forecast_reply

log = logging.getLogger(__name__)


async def follow_played(
    bot: GameBot, played: PlayedMove, *, by: int, announce: Coroutine[Any, Any, None]
) -> None:
    """Announce `played` (`announce` posts its board), post the forecaster's reply it
    triggered, and send the direct messages, even if the posts failed: the moves are
    stored. `by` is the member who moved, whom nothing notifies."""
    log.info("game %s ply %s: %s", played.game.id, played.game.ply, played.move.usi)
    try:
        await announce
        await post_forecast_reply(bot, played)
    finally:  # after the thread's posts, and even if they failed: the moves are stored
        bot.direct_messages.moved(played, by=by)

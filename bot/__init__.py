"""The Discord bot. `create_bot(settings)` builds it; `python -m bot` runs it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import ShogiBot
    from .config import Settings


def create_bot(settings: Settings, **client_options: Any) -> ShogiBot:
    """Build the bot without touching the network or the database (see `bot.client`)."""
    from .client import create_bot as _create

    return _create(settings, **client_options)


__all__ = ["create_bot"]

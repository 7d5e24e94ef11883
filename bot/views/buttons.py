"""Buttons that keep working after a restart.

Each button is a `DynamicItem`: its `custom_id` carries the action and the
challenge or game id (and for promotion the ply and move), so the bot needs
no memory of the message to act on a click. Who may press what is decided by
the service; a wrong member gets the service's sentence, ephemerally.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord

from .. import flows

if TYPE_CHECKING:
    from ..client import ShogiBot


def _bot(interaction: discord.Interaction[Any]) -> ShogiBot:
    return cast("ShogiBot", interaction.client)


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ch:(?P<action>accept|decline|cancel):(?P<id>\d+)",
):
    """Accept / Decline (the challenged member) and Cancel (the challenger)."""

    STYLES: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "accept": ("Accept", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.danger),
        "cancel": ("Cancel", discord.ButtonStyle.secondary),
    }

    def __init__(self, action: str, challenge_id: int) -> None:
        label, style = self.STYLES[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"ch:{action}:{challenge_id}")
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await flows.guarded(
            interaction,
            f"challenge {self.action} {self.challenge_id}",
            flows.answer_challenge(_bot(interaction), interaction, self.challenge_id, self.action),
        )


def challenge_view(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, challenge_id))
    return view


class ResignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rs:(?P<id>\d+)"):
    """The confirmation that `/resign` asks for."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign", style=discord.ButtonStyle.danger, custom_id=f"rs:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await flows.guarded(
            interaction,
            f"resign {self.game_id}",
            flows.confirm_resign(_bot(interaction), interaction, self.game_id),
        )


class PromotionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"pr:(?P<id>\d+):(?P<ply>\d+):(?P<usi>[1-9][a-i][1-9][a-i]\+?)",
):
    """Promote / Don't promote, for a move that left the choice open.

    The ply in the id makes a late click on an old question fail cleanly
    instead of playing a move into a position that has changed.
    """

    def __init__(self, game_id: int, ply: int, usi: str) -> None:
        promote = usi.endswith("+")
        super().__init__(
            discord.ui.Button(
                label="Promote" if promote else "Don't promote",
                style=discord.ButtonStyle.primary if promote else discord.ButtonStyle.secondary,
                custom_id=f"pr:{game_id}:{ply}:{usi}",
            )
        )
        self.game_id, self.ply, self.usi = game_id, ply, usi

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromotionButton:
        return cls(int(match["id"]), int(match["ply"]), match["usi"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await flows.guarded(
            interaction,
            f"promotion choice {self.usi} in game {self.game_id}",
            flows.play_move(
                _bot(interaction), interaction, self.game_id, self.usi, expected_ply=self.ply
            ),
        )


class JishogiButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"js:(?P<action>propose|accept|declare):(?P<id>\d+)",
):
    """Propose the 24-point count, accept it, or declare under the 27-point rule."""

    LABELS: ClassVar[dict[str, str]] = {
        "propose": "Propose count",
        "accept": "Accept count",
        "declare": "Declare impasse",
    }

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[action],
                style=discord.ButtonStyle.primary,
                custom_id=f"js:{action}:{game_id}",
            )
        )
        self.action, self.game_id = action, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JishogiButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await flows.guarded(
            interaction,
            f"jishogi {self.action} in game {self.game_id}",
            flows.impasse_action(_bot(interaction), interaction, self.game_id, self.action),
        )


class GiveTimeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gt:(?P<id>\d+)"):
    """Give the opponent a fresh period for this move."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Give more time",
                style=discord.ButtonStyle.secondary,
                custom_id=f"gt:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GiveTimeButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await flows.guarded(
            interaction,
            f"give time in game {self.game_id}",
            flows.give_time(_bot(interaction), interaction, self.game_id),
        )


DYNAMIC_ITEMS = (ChallengeButton, ResignButton, PromotionButton, JishogiButton, GiveTimeButton)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view

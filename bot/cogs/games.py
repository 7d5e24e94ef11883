"""The slash commands. Each handler reads its options and hands over to a flow."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from rules import Handicap

from .. import flows, presenters
from ..autocomplete import choice_name, rank_moves
from ..errors import UserInputError, reply_for
from ..services import PlayerRef

if TYPE_CHECKING:
    from ..client import ShogiBot

log = logging.getLogger(__name__)

TIME_PRESETS = [
    ("1 day per move", "1d"),
    ("2 days per move", "2d"),
    ("3 days per move", "3d"),
    ("5 days per move", "5d"),
    ("7 days per move", "7d"),
    ("14 days per move", "14d"),
    ("7 days + 1 day per move", "7d+1d"),
    ("Unlimited", "unlimited"),
]
COLOR_CHOICES = [
    Choice(name="Random", value="random"),
    Choice(name="Sente (☗, moves first in even games)", value="sente"),
    Choice(name="Gote (☖)", value="gote"),
]
HANDICAP_CHOICES = [
    Choice(name="Even" if h is Handicap.EVEN else f"{h.english} ({h.japanese})", value=h.id)
    for h in Handicap
]
IMPASSE_CHOICES = [
    Choice(name="27-point declaration (modern standard)", value="27"),
    Choice(name="24-point count (classic rules)", value="24"),
]
PERSPECTIVE_CHOICES = [Choice(name="Sente", value="sente"), Choice(name="Gote", value="gote")]
FORMAT_CHOICES = [
    Choice(name="KIF", value="kif"),
    Choice(name="KI2", value="ki2"),
    Choice(name="CSA", value="csa"),
    Choice(name="SFEN (current position)", value="sfen"),
    Choice(name="USI (position ... moves ...)", value="usi"),
]
GAME_OPTION = "A game id (pick from the list); default: this thread's game or your game to move"


def parse_game_option(text: str | None) -> int | None:
    """`12`, `#12` or an autocomplete value; None when not given."""
    if text is None or not text.strip():
        return None
    digits = text.strip().lstrip("#")
    if not digits.isdigit() or len(digits) > 18:
        raise UserInputError("Pick a game from the list, or give its number, e.g. 12.")
    return int(digits)


class GamesCog(commands.Cog):
    """Correspondence shogi: challenges, moves, boards, records."""

    def __init__(self, bot: ShogiBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.error(self.on_tree_error)

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command.name if interaction.command else "command"
        await flows.send_refusal(interaction, reply_for(error, context=f"/{command}"))

    # ------------------------------------------------------------ /challenge

    @app_commands.command(name="challenge", description="Challenge a member to a shogi game.")
    @app_commands.describe(
        opponent="The member you want to play",
        color="Your colour (default: random)",
        time="Time per move: a preset, or e.g. 3d, 12h, 7d+1d (bank + per move)",
        handicap="Handicap: the giver plays gote and moves first (default: even)",
        impasse="How an impasse (jishogi) is settled (default: 27-point declaration)",
    )
    @app_commands.choices(color=COLOR_CHOICES, handicap=HANDICAP_CHOICES, impasse=IMPASSE_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        color: str = "random",
        time: str = "3d",
        handicap: str = "even",
        impasse: str = "27",
    ) -> None:
        await flows.guarded(
            interaction,
            "/challenge",
            self._challenge(interaction, opponent, color, time, handicap, impasse),
        )

    async def _challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.Member,
        color: str,
        time: str,
        handicap: str,
        impasse: str,
    ) -> None:
        from ..views.buttons import challenge_view

        challenge = await self.bot.service.challenge(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            challenger=flows.player_of(interaction),
            opponent=PlayerRef(opponent.id, opponent.display_name, opponent.bot),
            color=color,
            time_control=time,
            handicap=handicap,
            impasse_rule=impasse,
        )
        await interaction.response.send_message(
            presenters.challenge_text(challenge),
            view=challenge_view(challenge.id),
            allowed_mentions=flows.mentions(challenge.opponent),
        )
        message = await interaction.original_response()
        await self.bot.service.set_challenge_message(challenge.id, message.id)
        log.info("challenge %s: %s -> %s", challenge.id, interaction.user.id, opponent.id)

    @challenge.autocomplete("time")
    async def time_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        typed = current.strip().lower()
        choices = [Choice(name=name, value=value) for name, value in TIME_PRESETS]
        matching = [c for c in choices if typed in c.value or typed in c.name.lower()]
        if typed and all(c.value != typed for c in matching):
            matching.insert(
                0, Choice(name=f"{current.strip()[:90]} (as typed)", value=current[:100])
            )
        return matching[:25]

    # ------------------------------------------------------------ /move

    @app_commands.command(name="move", description="Play a move: P-7f, ７六歩, 7g7f, ...")
    @app_commands.describe(
        move="Your move in Western (P-7f), Japanese (７六歩) or USI (7g7f) notation",
        game=GAME_OPTION,
    )
    async def move(
        self, interaction: discord.Interaction[Any], move: str, game: str | None = None
    ) -> None:
        await flows.guarded(interaction, "/move", self._move(interaction, move, game))

    async def _move(
        self, interaction: discord.Interaction[Any], move: str, game: str | None
    ) -> None:
        await flows.play_move(self.bot, interaction, parse_game_option(game), move)

    @move.autocomplete("move")
    async def move_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        try:
            game_id = parse_game_option(getattr(interaction.namespace, "game", None))
            if game_id is None:
                view = await self.bot.service.resolve_game(
                    interaction.user.id,
                    guild_id=interaction.guild_id or 0,
                    thread_id=interaction.channel_id,
                )
                game_id = view.id
            moves = await self.bot.service.legal_moves(game_id)
        except Exception as error:
            log.debug("no move suggestions: %s", error)
            return []
        return [Choice(name=choice_name(m), value=m.usi) for m in rank_moves(moves, current)]

    @move.autocomplete("game")
    async def move_game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        return await self._game_choices(interaction, current)

    async def _game_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        try:
            games = await self.bot.service.list_games(
                interaction.user.id, guild_id=interaction.guild_id
            )
        except Exception:
            log.exception("game suggestions failed")
            return []
        typed = current.strip().lower().lstrip("#")
        choices = []
        for summary in games:
            turn = "your turn" if summary.your_turn else "waiting"
            name = f"#{summary.id} vs {summary.opponent.name} · move {summary.ply} · {turn}"
            if typed in name.lower():
                choices.append(Choice(name=name[:100], value=str(summary.id)))
        return choices[:25]

    # ------------------------------------------------------------ /board and friends

    @app_commands.command(name="board", description="Show a game's board.")
    @app_commands.describe(game=GAME_OPTION, perspective="Whose side faces you (default: yours)")
    @app_commands.choices(perspective=PERSPECTIVE_CHOICES)
    async def board(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        perspective: str | None = None,
    ) -> None:
        await flows.guarded(interaction, "/board", self._board(interaction, game, perspective))

    async def _board(
        self, interaction: discord.Interaction[Any], game: str | None, perspective: str | None
    ) -> None:
        await flows.show_board(self.bot, interaction, parse_game_option(game), perspective)

    @board.autocomplete("game")
    async def board_game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        return await self._game_choices(interaction, current)

    @app_commands.command(name="resign", description="Resign a game (asks to confirm).")
    @app_commands.describe(game=GAME_OPTION)
    async def resign(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        await flows.guarded(interaction, "/resign", self._resign(interaction, game))

    async def _resign(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        await flows.ask_resign(self.bot, interaction, parse_game_option(game))

    @resign.autocomplete("game")
    async def resign_game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        return await self._game_choices(interaction, current)

    @app_commands.command(name="abort", description="Abort a game before both players have moved.")
    @app_commands.describe(game=GAME_OPTION)
    async def abort(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        await flows.guarded(interaction, "/abort", self._abort(interaction, game))

    async def _abort(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        await flows.abort(self.bot, interaction, parse_game_option(game))

    @app_commands.command(name="jishogi", description="Impasse count, proposals and declaration.")
    @app_commands.describe(game=GAME_OPTION)
    async def jishogi(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        await flows.guarded(interaction, "/jishogi", self._jishogi(interaction, game))

    async def _jishogi(self, interaction: discord.Interaction[Any], game: str | None) -> None:
        await flows.show_impasse(self.bot, interaction, parse_game_option(game))

    @app_commands.command(name="games", description="List active games.")
    @app_commands.describe(member="Whose games (default: yours)")
    async def games(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        await flows.guarded(interaction, "/games", self._games(interaction, member))

    async def _games(
        self, interaction: discord.Interaction[Any], member: discord.Member | None
    ) -> None:
        owner = (
            PlayerRef(member.id, member.display_name, member.bot)
            if member is not None
            else flows.player_of(interaction)
        )
        games = await self.bot.service.list_games(owner.user_id, guild_id=interaction.guild_id)
        await interaction.response.send_message(
            presenters.games_list_text(owner, games),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="export", description="Download a game record and an analysis link.")
    @app_commands.describe(game=GAME_OPTION + " (finished games too)", format="Record format")
    @app_commands.choices(format=FORMAT_CHOICES)
    async def export(
        self, interaction: discord.Interaction[Any], game: str | None = None, format: str = "kif"
    ) -> None:
        await flows.guarded(interaction, "/export", self._export(interaction, game, format))

    async def _export(
        self, interaction: discord.Interaction[Any], game: str | None, fmt: str
    ) -> None:
        await flows.export(self.bot, interaction, parse_game_option(game), fmt)

    @app_commands.command(name="help", description="How to play: notations, commands, rules.")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(presenters.HELP_TEXT, ephemeral=True)

"""Tournaments: `/tournament` creates one and announces it in the channel, with Join and
Leave (restart-proof buttons); `/tournament_start`, `/tournament_cancel`,
`/tournament_withdraw`, `/tournament_standings`, and `/tournament_settings` (the organizer
role and the cap on tournament games under way, for members who may manage the server).

Who may run a tournament is the service's decision: the command passes whether the
member may manage the server and their roles. Every change the service returns is
posted by `bot.ui.tournaments.Posts` (rounds, standings, the final post; the games'
threads through the bot's `opener`), also after a game's ending and for what the clock
did.
"""

from __future__ import annotations

import logging
from datetime import datetime, tzinfo

import discord
from discord import app_commands
from discord.app_commands import Choice, Range

from bot.services import ImpasseRule, TakebackPolicy
from bot.services.tournaments.handicaps import HandicapTable
from bot.services.tournaments.model import (
    MAX_GAME_CAP,
    MAX_GROUP,
    Format,
    Runner,
    State,
    Tournament,
)
from bot.services.tournaments.pairings import MAX_PLAYERS
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, OptionError
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import server_of
from bot.ui.replies import Reply, player_of, reader_language, send_ephemeral
from bot.ui.text.tournaments.bracket import bracket_words
from bot.ui.text.tournaments.crosstable import crosstable_words
from bot.ui.tournament_options import suggested
from bot.ui.tournaments import Posts, bracket_file, escaped_bracket
from render.bracket import describe_bracket
from render.crosstable import describe_crosstable

log = logging.getLogger(__name__)
#: The largest tournament number a command takes: Discord's largest integer option.
MAX_TOURNAMENT_ID = 2**53 - 1
#: The longest date and time typed for a start (`2026-12-01 20:00` and some room).
MAX_WHEN = 40
_WHEN_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y/%m/%d %H:%M")


class EntryButton(GameButton, template=r"tj:(?P<action>join|leave):(?P<tournament_id>\d+)"):
    """Join or Leave under a tournament's announcement while registration is open; who
    may is the service's decision (a closed registration, a full field, a rating band)."""

    def __init__(self, action: str, tournament_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.secondary
        self.show(f"tj:{action}:{tournament_id}", text.button_label(lang, f"tj:{action}"), style)
        self.action = action
        self.tournament_id = tournament_id

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        tournaments = bot.service.tournaments
        guild_id = server_of(interaction)
        reader = reader_language(interaction)
        if self.action == "join":
            joined = await tournaments.join(
                self.tournament_id, player_of(interaction), guild_id=guild_id
            )
            await send_ephemeral(interaction, text.joined_text(reader, joined))
        else:
            left = await tournaments.leave(
                self.tournament_id, interaction.user.id, guild_id=guild_id
            )
            await send_ephemeral(interaction, text.left_text(reader, left))
        await _posts_of(bot).refresh(self.tournament_id)


def entry_buttons(tournament: Tournament, lang: str) -> discord.ui.View | None:
    if tournament.state is not State.REGISTRATION:
        return None
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave"):
        view.add_item(EntryButton(action, tournament.id, lang))
    return view


def _posts_of(bot: GameBot) -> Posts:
    """The tournaments' posts of this bot (made when the feature loads)."""
    feature = bot.get_cog(TournamentsFeature.__name__)
    if not isinstance(feature, TournamentsFeature):
        raise RuntimeError("the tournaments feature is not loaded")
    return feature.posts


class TournamentsFeature(Feature):
    """Tournaments: their commands, the Join and Leave buttons, and their posts."""

    BUTTONS = (EntryButton,)

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.posts = Posts(bot, entry_buttons)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.after_endings.append(self.posts.after_ending)
        self.bot.service.tournaments.add_listener(self.posts.post_change)

    async def cog_unload(self) -> None:
        self.bot.after_endings.remove(self.posts.after_ending)
        await super().cog_unload()

    @command(
        "tournament",
        format="tournament_format",
        starts="tournament_start",
        closes="registration_closes",
        rated="tournament_rated",
        takebacks="tournament_takebacks",
    )
    @app_commands.choices(
        format=[
            Choice(name=name, value=value) for value, name in text.TOURNAMENT_FORMAT_NAMES.items()
        ],
        impasse=[Choice(name=text.rule_choice(r), value=r.value) for r in ImpasseRule],
        takebacks=[Choice(name=text.TAKEBACK_NAMES[p], value=p.value) for p in TakebackPolicy],
    )
    async def tournament(
        self,
        interaction: Interaction,
        name: Range[str, 1, 6000],
        format: str,
        starts: Range[str, 1, MAX_WHEN],
        closes: Range[str, 1, MAX_WHEN] | None = None,
        time: Range[str, 1, 100] = "3d",
        max_players: Range[int, 2, MAX_PLAYERS] = 32,
        group_size: Range[int, 2, MAX_GROUP] | None = None,
        pairing_games: Range[int, 1, 2] = 1,
        min_rating: Range[int, 0, 4000] | None = None,
        max_rating: Range[int, 0, 4000] | None = None,
        rated: bool = True,
        handicaps: bool = False,
        impasse: str = "27",
        takebacks: str = "never",
    ) -> None:
        """Create a tournament in this channel and post its announcement here, with Join
        and Leave. Times are in the server's zone."""
        guild_id = server_of(interaction)
        zone = await self.bot.server_zone(guild_id)
        member = interaction.user
        roles = frozenset(r.id for r in member.roles) if isinstance(member, discord.Member) else ()
        tournament = await self.bot.service.tournaments.create(
            guild_id=guild_id,
            channel_id=interaction.channel_id or 0,
            organizer=player_of(interaction),
            may_manage=interaction.permissions.manage_guild,
            role_ids=roles,
            name=name,
            format=format,
            start_at=_when(starts, zone),
            registration_closes_at=None if closes is None else _when(closes, zone),
            max_players=max_players,
            group_size=group_size,
            match_games=pairing_games,
            time_control=time,
            impasse_rule=impasse,
            takebacks=takebacks,
            rated=rated,
            rating_band=(min_rating, max_rating),
            handicap_table=HandicapTable.default().text() if handicaps else None,
        )
        log.info("tournament %s created by %s", tournament.id, interaction.user.id)
        await send_ephemeral(
            interaction, text.created_text(reader_language(interaction), tournament)
        )
        await self.posts.announce(tournament)

    @command("tournament_start")
    async def tournament_start(
        self, interaction: Interaction, tournament: Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        """Start the tournament now, before its time (its organizer, or a manager)."""
        chosen = await self._chosen(interaction, tournament, (State.REGISTRATION,))
        reply = Reply(interaction)
        await reply.defer(ephemeral=True)
        change = await self.bot.service.tournaments.start(
            chosen.id, _runner(interaction), guild_id=server_of(interaction)
        )
        count = len(change.games_created)
        await send_ephemeral(
            interaction, text.started_text(reader_language(interaction), chosen, count)
        )
        await self.posts.post_change(change)

    @command("tournament_cancel")
    async def tournament_cancel(
        self, interaction: Interaction, tournament: Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        """Cancel a tournament before it starts (its organizer, or a manager)."""
        chosen = await self._chosen(interaction, tournament, (State.REGISTRATION,))
        cancelled = await self.bot.service.tournaments.cancel(
            chosen.id, _runner(interaction), guild_id=server_of(interaction)
        )
        lang = reader_language(interaction)
        await send_ephemeral(interaction, text.cancelled_text(lang, cancelled))
        await self.posts.refresh(cancelled.id)

    @command("tournament_withdraw")
    async def tournament_withdraw(
        self, interaction: Interaction, tournament: Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        """Withdraw from a tournament under way: your games left are forfeited."""
        chosen = await self._chosen(interaction, tournament, (State.RUNNING,))
        reply = Reply(interaction)
        await reply.defer(ephemeral=True)
        changes = await self.bot.service.tournaments.withdraw(
            chosen.id, interaction.user.id, guild_id=server_of(interaction)
        )
        await send_ephemeral(
            interaction, text.tournament_withdrawn_text(reader_language(interaction), chosen)
        )
        for change in changes:
            await self.posts.post_change(change)

    @command("tournament_standings")
    async def tournament_standings(
        self, interaction: Interaction, tournament: Range[int, 1, MAX_TOURNAMENT_ID] | None = None
    ) -> None:
        """The standings, privately: the crosstable or bracket image and its text for
        screen readers, in as many messages as Discord's 2,000 characters need."""
        chosen = await self._chosen(
            interaction, tournament, (State.RUNNING, State.FINISHED), latest_finished=True
        )
        lang = reader_language(interaction)
        reply = Reply(interaction)
        await reply.defer(ephemeral=True)
        if chosen.format is Format.KNOCKOUT:
            drawn = await self.bot.service.tournaments.bracket_drawing(chosen.id)
            if drawn is not None:
                said = describe_bracket(escaped_bracket(drawn), words=bracket_words(lang))
                pieces = text.chunks(said)
                picture = await bracket_file(drawn, lang)
                await send_ephemeral(interaction, pieces[0], files=[picture])
                for piece in pieces[1:]:
                    await send_ephemeral(interaction, piece)
                return
            names = await self.bot.service.tournaments.names([e.user_id for e in chosen.entrants])
            lines = await self.posts.bracket_lines(chosen, names, lang)
            for chunk in text.chunks("\n".join(lines) or text.no_standings_text(lang, chosen)):
                await send_ephemeral(interaction, chunk)
            return
        tables = await self.bot.service.tournaments.crosstables(chosen.id)
        if not tables:
            await send_ephemeral(interaction, text.no_standings_text(lang, chosen))
            return
        files = await self.posts.standings_files(chosen.id, lang)
        words = crosstable_words(lang)
        described = "\n\n".join(describe_crosstable(table, words=words) for table in tables)
        pieces = text.chunks(described)
        await send_ephemeral(interaction, pieces[0], files=files)
        for piece in pieces[1:]:
            await send_ephemeral(interaction, piece)

    @command("tournament_settings")
    @app_commands.default_permissions(manage_guild=True)
    async def tournament_settings(
        self,
        interaction: Interaction,
        organizer_role: discord.Role | None = None,
        remove_role: bool = False,
        game_cap: Range[int, 0, MAX_GAME_CAP] | None = None,
    ) -> None:
        """The role whose members may run tournaments, and how many tournament games may
        be under way at once (0: the default). Manage Server only."""
        guild_id = server_of(interaction)
        lang = reader_language(interaction)
        if not interaction.permissions.manage_guild:
            raise OptionError(text.GAME_CAP_MANAGERS_ONLY)
        service = self.bot.service.tournaments
        said = []
        if organizer_role is not None or remove_role:
            role_id = None if remove_role or organizer_role is None else organizer_role.id
            await service.set_organizer_role(guild_id, role_id)
            said.append(text.organizer_role_text(lang, role_id))
        changes = []
        if game_cap is not None:
            cap = None if game_cap == 0 else game_cap
            changes = await service.set_game_cap(guild_id, cap)
            said.append(text.game_cap_text(lang, cap))
        await send_ephemeral(interaction, "\n".join(said) or text.settings_unchanged(lang))
        for change in changes:
            await self.posts.post_change(change)

    @tournament_start.autocomplete("tournament")
    async def start_suggestions(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        """The tournaments still taking entries: those a start may start."""
        return await suggested(interaction, current, (State.REGISTRATION,))

    @tournament_cancel.autocomplete("tournament")
    async def cancel_suggestions(self, interaction: Interaction, current: str) -> list[Choice[int]]:
        """The tournaments still taking entries: those a cancellation may cancel."""
        return await suggested(interaction, current, (State.REGISTRATION,))

    @tournament_withdraw.autocomplete("tournament")
    async def withdraw_suggestions(
        self, interaction: Interaction, current: str
    ) -> list[Choice[int]]:
        """The tournaments under way: those a player may withdraw from."""
        return await suggested(interaction, current, (State.RUNNING,))

    @tournament_standings.autocomplete("tournament")
    async def standings_suggestions(
        self, interaction: Interaction, current: str
    ) -> list[Choice[int]]:
        """Every tournament but a cancelled one (which never has standings)."""
        states = (State.REGISTRATION, State.RUNNING, State.FINISHED)
        return await suggested(interaction, current, states)

    async def _chosen(
        self,
        interaction: Interaction,
        tournament_id: int | None,
        states: tuple[State, ...],
        *,
        latest_finished: bool = False,
    ) -> Tournament:
        """The tournament named, or the server's only one in `states` (the latest finished
        one, for standings, when none is under way)."""
        guild_id = server_of(interaction)
        service = self.bot.service.tournaments
        if tournament_id is not None:
            return await service.get(tournament_id, guild_id=guild_id)
        if latest_finished:  # the one under way; else the latest finished
            found = await service.latest(guild_id, [State.RUNNING], limit=2)
            if not found:
                found = await service.latest(guild_id, [State.FINISHED], limit=1)
        else:
            found = await service.latest(guild_id, states, limit=2)  # one, or more than one
        if not found:
            raise OptionError(text.NO_TOURNAMENT_HERE)
        if len(found) > 1:
            raise OptionError(text.NAME_THE_TOURNAMENT)
        return await service.get(found[0].id, guild_id=guild_id)


def _runner(interaction: Interaction) -> Runner:
    member = interaction.user
    roles = (
        frozenset(r.id for r in member.roles) if isinstance(member, discord.Member) else frozenset()
    )
    return Runner(interaction.user.id, interaction.permissions.manage_guild, roles)


def _when(typed: str, zone: tzinfo) -> datetime:
    """A date and time typed in the server's zone, as an aware datetime."""
    cleaned = " ".join(typed.split())
    for shape in _WHEN_FORMATS:
        try:
            naive = datetime.strptime(cleaned, shape)
        except ValueError:
            continue
        return naive.replace(tzinfo=zone)
    raise OptionError(text.BAD_START_TIME)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TournamentsFeature(bot))

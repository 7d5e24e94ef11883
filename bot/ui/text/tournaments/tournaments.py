"""A tournament as the bot posts it: its announcement (terms, entrants, state), the post
of a round, a game's heading in its thread, the final post, and the answers of the
tournament commands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.services import TimeControl
from bot.services.tournaments.model import Format, State, Tournament
from rules import Sentence

from ..answers import MAX_CHOICE_NAME, fit, units
from ..base import MAX_MESSAGE, plural_translator, safe, time_control_text, timestamp, translator

#: The most entrants an announcement names; the rest are counted (a message holds 2,000
#: characters, and a name up to 32).
LISTED_ENTRANTS = 40

BAD_START_TIME = Sentence(
    "Write the start as a date and time in this server's zone, e.g. 2026-12-01 20:00."
)
NOT_IN_TOURNAMENT_CHANNEL = Sentence("Use this command in a server's text channel.")
NO_TOURNAMENT_HERE = Sentence("This server has no tournament open or under way.")
NAME_THE_TOURNAMENT = Sentence(
    "This server has several tournaments: name one with the tournament option."
)
GAME_CAP_MANAGERS_ONLY = Sentence(
    "Only members who may manage this server can change its tournament settings."
)


def format_name(lang: str, tournament: Tournament) -> str:
    """How the tournament pairs its players, in words."""
    _ = translator(lang)
    setup = tournament.row.setup
    if tournament.format is Format.KNOCKOUT:
        if setup.match_games == 2:
            return _("knockout, two games a pairing")
        return _("knockout, one game a pairing")
    double = tournament.format is Format.DOUBLE_ROUND_ROBIN
    if setup.group_size is not None:
        if double:
            return _("double round robin in groups of up to {size}").format(size=setup.group_size)
        return _("round robin in groups of up to {size}").format(size=setup.group_size)
    return _("double round robin") if double else _("round robin")


def state_name(lang: str, state: State) -> str:
    _ = translator(lang)
    return {
        State.REGISTRATION: _("registration open"),
        State.RUNNING: _("under way"),
        State.FINISHED: _("finished"),
        State.CANCELLED: _("cancelled"),
    }[state]


def announcement_text(lang: str, tournament: Tournament, names: Mapping[int, str]) -> str:
    """The tournament's announcement: name, terms, state and entrants (edited on every
    change; once it starts, the entrants are counted, and named by the standings or the
    bracket the post adds)."""
    _ = translator(lang)
    _n = plural_translator(lang)
    setup = tournament.row.setup
    terms = setup.terms
    lines = [
        _("**Tournament #{id}: {name}**").format(id=tournament.id, name=safe(tournament.name)),
        _("Format: {format}.").format(format=format_name(lang, tournament)),
        _("Time: {time}.").format(
            time=time_control_text(lang, TimeControl(terms.bank, terms.period))
        ),
        _("Rated.") if terms.rated else _("Unrated."),
    ]
    if setup.handicap_table is not None:
        lines.append(_("Games between different ratings are played with handicaps."))
    if setup.min_rating is not None or setup.max_rating is not None:
        low = "" if setup.min_rating is None else str(setup.min_rating)
        high = "" if setup.max_rating is None else str(setup.max_rating)
        lines.append(_("Ratings: {low}–{high}.").format(low=low, high=high))
    state = tournament.state
    if state is State.REGISTRATION:
        lines.append(
            _("Registration closes {closes}; the tournament starts {start}.").format(
                closes=timestamp(setup.registration_closes_at, "f"),
                start=timestamp(setup.start_at, "f"),
            )
        )
    else:
        lines.append(_("State: {state}.").format(state=state_name(lang, state)))
    entrants = tournament.entrants
    count = len(entrants)
    lines.append(
        _n("{count} of {most} player:", "{count} of {most} players:", count).format(
            count=count, most=setup.max_players
        )
    )
    if state is not State.REGISTRATION:
        return "\n".join(lines)  # the standings or the bracket below name them all
    shown = [safe(names.get(e.user_id, str(e.user_id))) for e in entrants[:LISTED_ENTRANTS]]
    if shown:
        lines.append(_(", ").join(shown))
    if count > LISTED_ENTRANTS:
        lines.append(_("…and {count} more.").format(count=count - LISTED_ENTRANTS))
    if state is State.REGISTRATION:
        lines.append(_("Press Join to enter, Leave to leave before the start."))
    return "\n".join(lines)


def round_text(lang: str, tournament: Tournament, number: int, games: int) -> str:
    """The post of a round's start."""
    _n = plural_translator(lang)
    return _n(
        "**{name}**: round {round} begins ({count} game).",
        "**{name}**: round {round} begins ({count} games).",
        games,
    ).format(name=safe(tournament.name), round=number, count=games)


def started_text(lang: str, tournament: Tournament, games: int) -> str:
    """The post of a tournament's start."""
    _n = plural_translator(lang)
    return _n(
        "**{name}** has started: {count} game is being opened.",
        "**{name}** has started: {count} games are being opened.",
        games,
    ).format(name=safe(tournament.name), count=games)


def game_heading(lang: str, tournament: Tournament, round_number: int, board: int) -> str:
    """The line above a tournament game's first post: which tournament, round and board."""
    _ = translator(lang)
    return _("**{name}**, round {round}, board {board}.").format(
        name=safe(tournament.name), round=round_number, board=board
    )


def cancelled_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("**{name}** was cancelled.").format(name=safe(tournament.name))


def final_text(lang: str, tournament: Tournament, winners: Sequence[str]) -> str:
    """The final post: the winners (one per group, or the champion)."""
    _ = translator(lang)
    _n = plural_translator(lang)
    names = _(", ").join(safe(name) for name in winners)
    if not winners:
        return _("**{name}** is over.").format(name=safe(tournament.name))
    return _n(
        "**{name}** is over. Winner: {winners}. Congratulations!",
        "**{name}** is over. Winners: {winners}. Congratulations!",
        len(winners),
    ).format(name=safe(tournament.name), winners=names)


def created_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("Tournament #{id} is created and announced here.").format(id=tournament.id)


def joined_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("You have entered **{name}**.").format(name=safe(tournament.name))


def left_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("You have left **{name}**.").format(name=safe(tournament.name))


def tournament_withdrawn_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("You have withdrawn from **{name}**.").format(name=safe(tournament.name))


def no_standings_text(lang: str, tournament: Tournament) -> str:
    _ = translator(lang)
    return _("**{name}** has no standings yet.").format(name=safe(tournament.name))


def bracket_lines(lang: str, rounds: Sequence[Sequence[tuple[str, str, str | None]]]) -> list[str]:
    """A knockout's matches round by round, the latest first (a post cut at Discord's
    2,000 characters loses the early rounds, not the final): the two players (their names
    escaped by the caller) and the winner once decided."""
    _ = translator(lang)
    lines = []
    for number, matches in reversed(list(enumerate(rounds, start=1))):
        lines.append(_("Round {round}:").format(round=number))
        for first, second, winner in matches:
            if winner is None:
                lines.append(_("{first} against {second}").format(first=first, second=second))
            else:
                lines.append(
                    _("{first} against {second}: {winner} won").format(
                        first=first, second=second, winner=winner
                    )
                )
    return lines


def organizer_role_text(lang: str, role_id: int | None) -> str:
    _ = translator(lang)
    if role_id is None:
        return _("Only members who may manage this server can run tournaments now.")
    return _("Members with <@&{role}> may now run tournaments too.").format(role=role_id)


def game_cap_text(lang: str, cap: int | None) -> str:
    _ = translator(lang)
    if cap is None:
        return _("Tournament games under way at once: the default.")
    return _("Tournament games under way at once: at most {count}.").format(count=cap)


def profile_tournaments(lang: str, entered: Sequence[tuple[Tournament, int | None]]) -> str:
    """The lines `/profile` ends with: the member's tournaments, newest first (nothing
    for a member who entered none)."""
    if not entered:
        return ""
    _ = translator(lang)
    lines = [_("Tournaments:")]
    lines += [f"• {profile_line(lang, tournament, rank)}" for tournament, rank in entered]
    return "\n" + "\n".join(lines)


def profile_line(lang: str, tournament: Tournament, rank: int | None) -> str:
    """A member's tournament in their profile: its name, and their rank or its state."""
    _ = translator(lang)
    name = safe(tournament.name)
    if rank is not None:
        return _("{name}: rank {rank} ({state})").format(
            name=name, rank=rank, state=state_name(lang, tournament.state)
        )
    return _("{name}: {state}").format(name=name, state=state_name(lang, tournament.state))


def tournament_choice(lang: str, tournament: Tournament) -> str:
    """One tournament among a `tournament` option's suggestions: its number, its name and
    its state, within the 100 characters Discord allows (the name is cut, not the number
    or the state): `#12 春季リーグ · registration open`, in Japanese
    `#12 春季リーグ・参加受付中`."""
    _ = translator(lang)
    template = _("#{id} {name} · {state}")
    values = {"id": tournament.id, "state": state_name(lang, tournament.state)}
    room = MAX_CHOICE_NAME - units(template.format(name="", **values))
    return fit(template.format(name=fit(tournament.name, room), **values), MAX_CHOICE_NAME)


def settings_unchanged(lang: str) -> str:
    _ = translator(lang)
    return _("Nothing was changed: choose a role or a cap.")


def chunks(said: str, limit: int = MAX_MESSAGE) -> list[str]:
    """`said` cut into messages of at most `limit` characters, at line ends where it can.

    >>> [len(piece) for piece in chunks("a" * 5 + "\\n" + "b" * 7, 6)]
    [5, 6, 1]
    """
    pieces: list[str] = []
    current = ""
    for line in said.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        joined = line if not current else f"{current}\n{line}"
        if len(joined) > limit:
            pieces.append(current)
            joined = line
        current = joined
    if current or not pieces:
        pieces.append(current)
    return pieces

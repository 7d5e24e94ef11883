"""Between two moves: preferences and turn messages, takebacks, forecasts, private
notes and vacations."""

from __future__ import annotations

from datetime import tzinfo

from bot.services import (
    Forecast,
    GameSnapshot,
    MoveText,
    Note,
    Notifications,
    PlayerRef,
    Preferences,
    Takeback,
    Vacation,
    VacationStatus,
)

from ..base import (
    deadline_text,
    duration_text,
    mention,
    move_echo,
    plural_translator,
    safe,
    sentences,
    timestamp,
    translator,
    truncate,
)
from ..sides import players_line
from .games import to_move_text


def preferences_text(lang: str, preferences: Preferences, *, changed: bool, zone: tzinfo) -> str:
    """`/preferences`: the player's settings, just saved (`changed`) or as they are. `zone`
    is the one their hours are read in: theirs, or the server's while they chose none."""
    _ = translator(lang)
    on, off = _("on"), _("off")
    lines = [_("Your preferences are saved:") if changed else _("Your preferences:")]
    lines.append(
        _("• Confirm each move on its board before it is played: {state}").format(
            state=on if preferences.confirm_moves else off
        )
    )
    if preferences.notifications is Notifications.EACH_TURN:
        messages = _("• Direct messages: at each turn, and when a game ends or an offer waits")
    elif preferences.notifications is Notifications.DIGEST:
        messages = _(
            "• Direct messages: a digest of your games to move every day at {hour}:00, "
            "and when a game ends or an offer waits"
        ).format(hour=preferences.digest_hour)
    else:
        messages = _("• Direct messages: none (the game threads mention you)")
    lines.append(messages)
    if preferences.time_zone is None:
        where = _("• Time zone: `{zone}` (this server's; choose yours with `time_zone`)")
    else:
        where = _("• Time zone: `{zone}`")
    lines.append(where.format(zone=zone_name(zone)))
    if preferences.quiet_hours is not None:
        lines.append(
            _("• Quiet hours: {start}:00 to {end}:00, messages arrive without a sound").format(
                start=preferences.quiet_hours.start, end=preferences.quiet_hours.end
            )
        )
    if preferences.direct_messages:
        lines.append(
            _(
                "The messages are written in the language your Discord is in now. If none "
                "arrives, allow direct messages from this server's members in its privacy "
                "settings; the game's thread still mentions you."
            )
        )
    if not changed:
        lines.append(_("Change them with the options of `/preferences`."))
    return "\n".join(lines)


def zone_name(zone: tzinfo) -> str:
    """A zone as members write it: its IANA name (`Asia/Tokyo`)."""
    return str(getattr(zone, "key", zone))


def turn_message(lang: str, game: GameSnapshot, link: str) -> str:
    """The direct message to a player whose turn has come: which game, the last move,
    until when, and the link to the game's thread."""
    _ = translator(lang)
    players = players_line(lang, safe(game.sente.name), safe(game.gote.name), game.handicap)
    lines = [
        _("Your move in game #{id} ({players}); {deadline}.").format(
            id=game.id, players=players, deadline=deadline_text(lang, game.deadline)
        )
    ]
    written = game.last_move_text
    if written is not None:
        mover = game.turn.opponent
        lines.append(_("Last move: {move}").format(move=move_echo(lang, mover, written)))
    lines.append(_("The game: {link}").format(link=link))
    return truncate("\n".join(lines))


def game_news(lang: str, game: GameSnapshot, body: str, link: str) -> str:
    """A direct message about a game: which game, what its thread was told, and the link
    to the thread."""
    _ = translator(lang)
    players = players_line(lang, safe(game.sente.name), safe(game.gote.name), game.handicap)
    lines = [
        _("Game #{id} ({players}):").format(id=game.id, players=players),
        body,
        _("The game: {link}").format(link=link),
    ]
    return truncate("\n".join(lines))


def challenge_news(lang: str, body: str, link: str) -> str:
    """A direct message about a challenge: what its message says, and the link to it."""
    _ = translator(lang)
    return truncate(f"{body}\n" + _("The challenge: {link}").format(link=link))


def takeback_moves(lang: str, takeback: Takeback) -> str:
    """The moves a takeback request takes back, as posts show moves (☗７六歩, ☖３四歩):
    the asker's first, then the opponent's reply."""
    _ = translator(lang)
    colors = (takeback.asker_color, takeback.asker_color.opponent)
    echoes = [move_echo(lang, c, m) for c, m in zip(colors, takeback.moves, strict=False)]
    return _(", ").join(echoes)


def takeback_question(lang: str, takeback: Takeback) -> str:
    """Posted in the thread: the opponent is asked to accept or decline a takeback."""
    _ = translator(lang)
    values = {
        "player": mention(takeback.answerer),
        "asker": safe(takeback.asker.name),
        "move": move_echo(lang, takeback.asker_color, takeback.moves[0]),
    }
    if len(takeback.moves) == 1:
        question = _("{player}, {asker} asks to take back their move {move}.")
    else:
        values["reply"] = move_echo(lang, takeback.asker_color.opponent, takeback.moves[1])
        question = _(
            "{player}, {asker} asks to take back their move {move} and your reply {reply}."
        )
    how = _("Accept or decline with the buttons; a move by either player cancels the request.")
    return sentences(question.format_map(values), how)


def takeback_sent(lang: str, takeback: Takeback) -> str:
    """The private answer to `/takeback`: the request went to the opponent."""
    _ = translator(lang)
    return _("Takeback requested: {name} can accept or decline it in the game's thread.").format(
        name=safe(takeback.answerer.name)
    )


def takeback_answered(lang: str, takeback: Takeback) -> str:
    """The request's post once answered: the question, then the answer (its buttons go)."""
    _ = translator(lang)
    name = safe(takeback.answerer.name)
    if takeback.request.status == "accepted":
        answer = _("{name} accepted the takeback.").format(name=name)
    else:
        answer = _("{name} declined the takeback.").format(name=name)
    return takeback_question(lang, takeback) + "\n" + answer


def takeback_done(lang: str, takeback: Takeback) -> str:
    """Posted with the board once a takeback is accepted: what was taken back, and that
    the asker is to move again."""
    _ = translator(lang)
    game = takeback.game
    lines = [
        _("Takeback: {moves} taken back with {name}'s consent.").format(
            moves=takeback_moves(lang, takeback), name=safe(takeback.answerer.name)
        )
    ]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=True))
    return "\n".join(lines)


def takeback_declined(lang: str, takeback: Takeback) -> str:
    """Posted in the thread when the opponent declines, so that the asker hears of it."""
    _ = translator(lang)
    return _("{player}, {name} declined your takeback; the game goes on.").format(
        player=mention(takeback.asker), name=safe(takeback.answerer.name)
    )


def forecast_line_text(lang: str, forecast: Forecast, moves: tuple[MoveText, ...]) -> str:
    """One forecast line as the player reads it: each of the opponent's moves with the
    reply, ☖３四歩 → ☗２六歩, pairs separated by commas."""
    _ = translator(lang)
    mine, theirs = forecast.color, forecast.color.opponent
    pairs = [
        f"{move_echo(lang, theirs, moves[i])} → {move_echo(lang, mine, moves[i + 1])}"
        for i in range(0, len(moves) - 1, 2)
    ]
    return _(", ").join(pairs)


def forecast_text(
    lang: str, forecast: Forecast, *, added: bool = False, cleared: int | None = None
) -> str:
    """The private answer to `/forecast`: what was done (a line stored, lines cleared),
    then the player's lines in the game as they now stand."""
    _, _n = translator(lang), plural_translator(lang)
    game_id = forecast.game.id
    lines = []
    if cleared is not None:
        lines.append(
            _("Cleared your forecasts in game #{id} ({count}).").format(id=game_id, count=cleared)
        )
    if added:
        lines.append(_("Forecast stored."))
        if forecast.replaced:
            lines.append(
                _n(
                    "It replaces {count} older line that answered differently.",
                    "It replaces {count} older lines that answered differently.",
                    forecast.replaced,
                ).format(count=forecast.replaced)
            )
    if not forecast.lines:
        lines.append(
            _(
                "You have no forecasts in game #{id}. While you wait, add a line with /forecast:"
                " your opponent's move, then your reply, e.g. 3c3d 2g2f."
            ).format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your forecasts in game #{id} (only you see them):").format(id=game_id))
    for number, line in enumerate(forecast.lines, start=1):
        lines.append(f"{number}. {forecast_line_text(lang, forecast, line.moves)}")
    return "\n".join(lines)


def note_saved(lang: str, note: Note) -> str:
    """The private answer to `/note`: where the note was stored and who can see it."""
    _ = translator(lang)
    return _(
        "Note {number} saved at move {move_number}. Only you can see it: "
        "`/notes` lists your notes, and your private `/export` carries them as comments."
    ).format(number=note.id, move_number=note.move_number)


#: How much of each note `/notes` shows: fifty full notes would not fit in one message.
NOTE_PREVIEW = 200


def notes_text(lang: str, game_id: int, notes: list[Note], *, deleted: int | None) -> str:
    """`/notes`: the member's own notes on a game, each with its number and move, after
    saying how many were just deleted (`deleted`)."""
    _, _n = translator(lang), plural_translator(lang)
    lines = []
    if deleted is not None:
        lines.append(
            _n("Deleted {count} note.", "Deleted {count} notes.", deleted).format(count=deleted)
        )
    if not notes:
        lines.append(
            _("You have no notes on game #{id}. Write one with `/note`.").format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your notes on game #{id} (only you can see them):").format(id=game_id))
    for note in notes:
        body = " ".join(note.text.split())
        if len(body) > NOTE_PREVIEW:
            body = body[: NOTE_PREVIEW - 1] + "…"
        lines.append(
            _("• {number} (move {move_number}): {text}").format(
                number=note.id, move_number=note.move_number, text=safe(body)
            )
        )
    lines.append(
        _("Delete one with `/notes delete:<number>` or all of them with `/notes delete:all`.")
    )
    return truncate("\n".join(lines))


def _away_player(game: GameSnapshot, vacation: Vacation) -> PlayerRef:
    """The player the vacation is about (a vacation is only ever posted in its own
    player's games)."""
    color = game.color_of(vacation.user_id)
    assert color is not None  # posted only in the games of the player away
    return game.player(color)


def vacation_started(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player who went on vacation."""
    _ = translator(lang)
    name = safe(_away_player(game, vacation).name)
    return _(
        "{name} is on vacation until {date} at the latest: their clock is paused in this "
        "game, and their deadline moves later by the time they are away."
    ).format(name=name, date=timestamp(vacation.ends_by, "f"))


def vacation_ended(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player back from vacation: whose move, until when."""
    _ = translator(lang)
    name = safe(_away_player(game, vacation).name)
    lines = [_("{name} is back from vacation; their clock runs again.").format(name=name)]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=False))
    return "\n".join(lines)


def vacation_text(lang: str, status: VacationStatus, *, games: int | None = None) -> str:
    """`/vacation`: the player's vacation now, and the year's allowance; `games`, after a
    start or an end, how many active games were told."""
    _ = translator(lang)
    lines = []
    current = status.current
    if current is not None:
        lines.append(
            _("You are on vacation until {date} at the latest; your clocks are paused.").format(
                date=timestamp(current.ends_by, "f")
            )
        )
    elif games is not None:
        lines.append(_("Welcome back: your vacation is over and your clocks run again."))
    else:
        lines.append(_("You are not on vacation."))
    lines.append(
        _("Vacation in {year}: {used} used of {allowance}, {left} left.").format(
            year=status.year,
            used=duration_text(lang, status.used),
            allowance=duration_text(lang, status.allowance),
            left=duration_text(lang, status.left),
        )
    )
    # One sentence per case rather than plural machinery: "1 games" must never be read.
    if games == 1:
        lines.append(_("Your opponent was told in your game's thread."))
    elif games:
        lines.append(
            _("Your opponents were told in the threads of your {count} games.").format(count=games)
        )
    if current is None and games is None:
        lines.append(_("Start one with `/vacation action:Start`; each hour begun counts."))
    return "\n".join(lines)

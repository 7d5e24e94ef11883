"""Challenges and games: how they start, what each move and ending says, the board's
captions and alt text, the lists of games, the impasse count and reminders."""

from __future__ import annotations

from datetime import datetime

from bot.services import (
    Challenge,
    ChooseGame,
    GameSnapshot,
    GameSummary,
    ImpasseReport,
    ImpasseRule,
    PlayedMove,
    PlayerRef,
    TakebackPolicy,
)
from rules import Color, Handicap, Outcome, Termination

from ...i18n import N_, gettext
from ..base import (
    banks_text,
    deadline_text,
    handicap_text,
    mention,
    move_echo,
    named,
    safe,
    say,
    sentences,
    time_control_text,
    timestamp,
    translator,
    truncate,
)
from ..club.challenges import challenge_heading, challenge_taken, start_text
from ..controls import rule_name
from ..ratings.standings import rated_setting, rating_line
from ..sides import player_in_turn, players_line, side_name

# ---------------------------------------------------------------- challenges and games


def challenge_text(lang: str, challenge: Challenge) -> str:
    """The challenge message: who challenges whom, the settings, the expiry."""
    _ = translator(lang)
    settings = [time_control_text(lang, challenge.time_control), _sides_setting(lang, challenge)]
    settings.append(rule_name(lang, challenge.impasse_rule))
    if challenge.takebacks is TakebackPolicy.NEVER:
        settings.append(_("no takebacks"))
    settings.append(rated_setting(lang, challenge.rated))
    lines = [
        challenge_heading(lang, challenge),
        _("Settings: {settings}.").format(settings=_(", ").join(settings)),
    ]
    if challenge.start_sfen is not None and challenge.handicap is Handicap.EVEN:
        lines.append(start_text(lang, challenge.start_sfen))
    lines.append(
        _("The challenge expires {relative}.").format(relative=timestamp(challenge.expires_at))
    )
    return "\n".join(lines)


def _sides_setting(lang: str, challenge: Challenge) -> str:
    """Who plays which side: in an even game the challenger's colour (or the lot); in a
    handicap game the handicap and whether the challenger gives it (as uwate, gote) or
    receives it (the service has settled it: never by lot)."""
    _ = translator(lang)
    name = safe(challenge.challenger.name)
    if challenge.handicap is not Handicap.EVEN:
        handicap = handicap_text(lang, challenge.handicap)
        if challenge.color == "sente":
            given = _("{handicap} handicap, received by {name} (Shitate)")
        else:
            given = _("{handicap} handicap, given by {name} (Uwate)")
        return given.format(handicap=handicap, name=name)
    colour = {
        "sente": _("{name} plays ☗ Sente"),
        "gote": _("{name} plays ☖ Gote"),
    }.get(challenge.color, _("colours by lot"))
    return colour.format(name=name)


def challenge_closed(
    lang: str, challenge: Challenge, taker: PlayerRef | None = None, *, taken_unrated: bool = False
) -> str:
    """A challenge message once answered: the challenge, then how it was closed (by whom,
    for an open challenge taken by `taker`; `taken_unrated`: a rated challenge accepted as an
    unrated game, which the settings above it no longer say)."""
    closed = challenge_closed_text(lang, challenge, taker, taken_unrated=taken_unrated)
    return challenge_text(lang, challenge) + "\n" + closed


def challenge_closed_text(
    lang: str, challenge: Challenge, taker: PlayerRef | None = None, *, taken_unrated: bool = False
) -> str:
    """How a challenge was closed: accepted (by `taker`; `taken_unrated`: as an unrated game),
    declined, withdrawn or expired."""
    _ = translator(lang)
    if challenge.status == "declined" and challenge.opponent is not None:
        return _("{name} declined the challenge.").format(name=safe(challenge.opponent.name))
    if challenge.status == "cancelled":
        return _("{name} cancelled the challenge.").format(name=safe(challenge.challenger.name))
    if challenge.status == "expired":
        return _("The challenge expired unanswered.")
    if taker is not None and challenge.opponent is None:
        return challenge_taken(lang, taker, taken_unrated=taken_unrated)
    if taken_unrated:
        return _("Challenge accepted as an unrated game: have a good game!")
    return _("Challenge accepted: have a good game!")


def accepted_news(lang: str, challenge: Challenge, game: GameSnapshot) -> str:
    """What the challenger is told in a direct message when their challenge is accepted:
    who took it, and whose move it is."""
    taker = game.opponent_of(challenge.challenger.user_id)
    lines = [challenge_closed_text(lang, challenge, taker)]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=False))
    return "\n".join(lines)


def game_start_text(lang: str, game: GameSnapshot) -> str:
    """The first post in a game's thread: the players, the time, whether it is rated (a
    rated challenge may have been accepted unrated), who moves first."""
    _ = translator(lang)
    lines = [_("**Game #{id}**").format(id=game.id), *_players_lines(lang, game)]
    time = time_control_text(lang, game.time_control, labelled=True)
    lines.append(_("Time: {time}.").format(time=time))
    if game.takebacks is TakebackPolicy.NEVER:
        lines.append(_("No takebacks in this game."))
    lines.append(_("This game is rated.") if game.rated else _("This game is unrated."))
    if game.to_move is not None:
        lines.append(_first_move_line(lang, game, game.to_move))
        lines += _banks(lang, game)
        lines.append(
            _("Play with `/move`, for example `/move P-7f`, `/move ７六歩` or `/move 7g7f`.")
        )
    return "\n".join(lines)


def _players_lines(lang: str, game: GameSnapshot) -> list[str]:
    """Who plays which side; in a handicap game, who gives it (uwate moves first)."""
    _ = translator(lang)
    sente, gote = safe(game.sente.name), safe(game.gote.name)
    if game.handicap is Handicap.EVEN:
        return [_("☗ Sente: {sente}   ☖ Gote: {gote}").format(sente=sente, gote=gote)]
    return [
        _("☗ Shitate: {shitate}   ☖ Uwate: {uwate}").format(shitate=sente, uwate=gote),
        _("{handicap} handicap: {uwate} (Uwate) gives it and moves first.").format(
            handicap=handicap_text(lang, game.handicap), uwate=gote
        ),
    ]


def _first_move_line(lang: str, game: GameSnapshot, player: PlayerRef) -> str:
    """The start's call to the player who moves first (uwate, in a handicap game)."""
    _ = translator(lang)
    deadline = deadline_text(lang, game.deadline)
    if game.handicap is Handicap.EVEN:
        return _("{player}, you move first; {deadline}.").format(
            player=mention(player), deadline=deadline
        )
    return _("{player} (Uwate), you move first; {deadline}.").format(
        player=mention(player), deadline=deadline
    )


_HOW = {
    Termination.CHECKMATE: N_("by checkmate"),
    Termination.STALEMATE: N_("because a player had no legal move"),
    Termination.SENNICHITE: N_("in sennichite (repetition)"),
    Termination.PERPETUAL_CHECK: N_("by perpetual check"),
    Termination.RESIGNATION: N_("by resignation"),
    Termination.TIME: N_("on time"),
    Termination.FOUL: N_("by an illegal move"),
    Termination.IMPASSE_24: N_("by the impasse count"),
    Termination.IMPASSE_27: N_("by an impasse declaration"),
    Termination.IMPASSE_JSA24: N_("by an impasse declaration"),
}


def already_ended(lang: str, outcome: Outcome | None) -> str:
    """The refusal for an action in a game that is over, saying how it ended."""
    _ = translator(lang)
    if outcome is None:
        return _("This game has already ended.")
    if outcome.termination is Termination.ABORT:
        return _("This game was already aborted.")
    how = gettext(lang, _HOW[outcome.termination])
    return _("This game has already ended {how}.").format(how=how)


#: The result of a game, by how it ended and whether someone won; in Japanese as a KIF
#: ends (まで83手で先手の勝ち).
_RESULTS = {
    (Termination.CHECKMATE, True): N_("Checkmate after move {move_number}: {winner} wins."),
    (Termination.STALEMATE, True): N_(
        "{loser} has no legal move after move {move_number} and loses: {winner} wins."
    ),
    (Termination.SENNICHITE, False): N_(
        "Sennichite after move {move_number}: the same position appeared four times. Draw."
    ),
    (Termination.PERPETUAL_CHECK, True): N_(
        "{loser} loses by perpetual check after move {move_number}: {winner} wins."
    ),
    (Termination.RESIGNATION, True): N_(
        "{loser} resigned after move {move_number}: {winner} wins."
    ),
    (Termination.TIME, True): N_(
        "{loser} ran out of time after move {move_number}: {winner} wins."
    ),
    (Termination.ABORT, False): N_("The game was aborted; it has no result."),
    (Termination.FOUL, True): N_(
        "{loser} lost by an illegal move after move {move_number}: {winner} wins."
    ),
    (Termination.IMPASSE_24, True): N_("Impasse count after move {move_number}: {winner} wins."),
    (Termination.IMPASSE_24, False): N_("Impasse count after move {move_number}: jishogi, a draw."),
    (Termination.IMPASSE_27, True): N_(
        "{winner} declared an impasse win (27-point rule) after move {move_number}."
    ),
    (Termination.IMPASSE_JSA24, True): N_(
        "Impasse declaration after move {move_number}: {winner} wins."
    ),
    (Termination.IMPASSE_JSA24, False): N_(
        "Impasse declaration after move {move_number}: jishogi, a draw."
    ),
}
#: An ending the rules never produce (a checkmate without a winner) still gets a sentence.
_ENDED = N_("The game ended after move {move_number}.")


def result_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """How the game ended, in one sentence."""
    won = outcome.winner
    template = _RESULTS.get((outcome.termination, won is not None), _ENDED)
    names: dict[str, object] = {"move_number": game.move_number}
    if won is not None:
        names |= {"winner": named(lang, game, won), "loser": named(lang, game, won.opponent)}
    return gettext(lang, template).format_map(names)


def outcome_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """The ending as posted: the result, where to get the record, and what a rated game
    did to the players' ratings."""
    _ = translator(lang)
    ending = sentences(result_text(lang, outcome, game), _("Get the record with `/export`."))
    ratings = rating_line(lang, game)
    return f"{ending}\n{ratings}" if ratings else ending


def idle_abort_text(lang: str, game: GameSnapshot) -> str:
    """The ending of a game whose player to move never made a first move in time."""
    _ = translator(lang)
    late = game.player(game.turn)
    ending = _(
        "{player} did not make a first move in time, so the game is aborted without a result."
    ).format(player=mention(late))
    ratings = rating_line(lang, game)
    return f"{ending}\n{ratings}" if ratings else ending


def move_text(lang: str, result: PlayedMove, *, by_forecast: bool = False) -> str:
    """The public answer to a move: what was played, check, and who is next. A reply a
    forecast (予約手) played is said to be one, and the away lines are left to the move
    it answered, whose post stands just above."""
    _ = translator(lang)
    game = result.game
    color = game.color_of(result.mover.user_id)
    assert color is not None  # the mover is one of the game's players
    values = {
        "move_number": game.move_number,
        "move": move_echo(lang, color, result.move),
        "player": safe(result.mover.name),
    }
    if by_forecast:
        first = _("{move_number}. {move} by {player}, played by forecast.").format_map(values)
    else:
        first = _("{move_number}. {move} by {player}.").format_map(values)
    if result.outcome is not None:
        return f"{first}\n{outcome_text(lang, result.outcome, game)}"
    lines = [_("{text} Check!").format(text=first) if result.check else first]
    if result.next_player is not None and not result.next_player.is_bot:
        lines.append(to_move_text(lang, game, result.next_player, result.deadline, ping=True))
        lines += _banks(lang, game)
    if not by_forecast:
        lines += away_lines(lang, game)
    return "\n".join(lines)


def away_lines(lang: str, game: GameSnapshot) -> list[str]:
    """A line for each player of an active game who is on vacation, and until when."""
    _ = translator(lang)
    if not game.is_active:
        return []
    lines = []
    for color in Color:
        until = game.away_until(color)
        if until is not None:
            lines.append(
                _(
                    "{name} is on vacation until {date} at the latest; their clock is paused."
                ).format(name=safe(game.player(color).name), date=timestamp(until, "f"))
            )
    return lines


def to_move_text(
    lang: str, game: GameSnapshot, player: PlayerRef, deadline: datetime | None, *, ping: bool
) -> str:
    """Whose move it is in `game` and until when (with their side in a handicap game:
    「上手の…さんの手番です」); `ping` names them with a mention."""
    _ = translator(lang)
    who = mention(player) if ping else safe(player.name)
    color = game.color_of(player.user_id)
    if color is not None:
        who = player_in_turn(lang, color, who, game.handicap)
    return _("{player} to move; {deadline}.").format(
        player=who, deadline=deadline_text(lang, deadline)
    )


def _banks(lang: str, game: GameSnapshot, now: datetime | None = None) -> list[str]:
    """The line of both players' banks, if the game's time control has banks."""
    line = banks_text(lang, game, now)
    return [] if line is None else [line]


def board_caption(lang: str, game: GameSnapshot, now: datetime | None = None) -> str:
    """Text above a `/board` image: players, move number, last move, whose turn, and both
    banks as they stand at `now` (when the turn began, without it)."""
    _ = translator(lang)
    players = players_line(lang, safe(game.sente.name), safe(game.gote.name), game.handicap)
    lines = [
        _("{players} · move {move_number}").format(players=players, move_number=game.move_number)
    ]
    written = game.last_move_text
    if written is not None:
        mover = game.turn.opponent
        lines.append(_("Last move: {move}").format(move=move_echo(lang, mover, written)))
    if game.outcome is not None:
        lines.append(outcome_text(lang, game.outcome, game))
    elif game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=False))
        lines += _banks(lang, game, now)
    lines += away_lines(lang, game)
    return "\n".join(lines)


def frame_caption(lang: str, number: int, turn: Color, handicap: Handicap) -> str:
    """The line drawn on a board while the game goes on (each frame of its animation
    too): the number of the last move played, as the game numbers it, and whose turn."""
    _ = translator(lang)
    return _("Move {move_number} · {side} to move").format(
        move_number=number, side=side_name(lang, turn, handicap)
    )


def image_caption(lang: str, game: GameSnapshot) -> str:
    """The line drawn on the board image: the move count, whose turn, or the result."""
    _ = translator(lang)
    outcome = game.outcome
    if outcome is None:
        return frame_caption(lang, game.move_number, game.turn, game.handicap)
    if outcome.termination is Termination.ABORT:
        return _("Move {move_number} · aborted").format(move_number=game.move_number)
    if outcome.winner is None:
        return _("Move {move_number} · draw").format(move_number=game.move_number)
    return _("Move {move_number} · {side} wins").format(
        move_number=game.move_number, side=side_name(lang, outcome.winner, game.handicap)
    )


def players_text(lang: str, game: GameSnapshot) -> str:
    """Who plays whom, as written (not escaped: for alt text and thread names)."""
    return players_line(lang, game.sente.name, game.gote.name, game.handicap)


def _where(lang: str, summary: GameSummary) -> str:
    _ = translator(lang)
    if summary.thread_id:
        return f"<#{summary.thread_id}>"
    return _("game #{id}").format(id=summary.id)


def choose_game_text(lang: str, question: ChooseGame) -> str:
    """The answer when a command could mean several games: which ones, and how to say."""
    _ = translator(lang)
    lines = [say(lang, question.sentence)]
    for summary in question.games[:20]:
        turn = _("your turn") if summary.your_turn else _("waiting")
        lines.append(
            _("• {where} (game #{id}): vs {opponent}, move {move_number}, {turn}").format(
                where=_where(lang, summary),
                id=summary.id,
                opponent=safe(summary.opponent.name),
                move_number=summary.move_number,
                turn=turn,
            )
        )
    lines.append(_("Use the command in the game's thread, or pick the game in its `game` option."))
    return truncate("\n".join(lines))


def impasse_text(lang: str, report: ImpasseReport) -> str:
    """What `/jishogi` shows: both players' counts under the game's own rule (pieces and
    points in the camp for the 27-point declaration, points on the whole board for the
    24-point count; the other rule's numbers would only mislead), and what it allows now."""
    _ = translator(lang)
    game = report.game
    lines = [_("Impasse count ({rule}):").format(rule=rule_name(lang, report.rule))]
    for color in Color:
        count = report.counts[color]
        values = {
            "player": named(lang, game, color),
            "pieces": count.pieces_in_camp,
            "points": count.camp_points,
            "required": report.required_27[color],
            "total": count.total_points,
        }
        if report.rule is ImpasseRule.COUNT_24:
            line = (
                _("{player}: king entered; {total}/24 points on board + hand.")
                if count.king_in_camp
                else _("{player}: king not entered; {total}/24 points on board + hand.")
            )
        elif count.king_in_camp:
            line = _(
                "{player}: king entered; {pieces}/10 pieces in camp; "
                "{points}/{required} points in camp + hand."
            )
        else:
            line = _(
                "{player}: king not entered; {pieces}/10 pieces in camp; "
                "{points}/{required} points in camp + hand."
            )
        lines.append(line.format_map(values))
    if report.declaration is not None:
        verdict = report.declaration
        who = safe(game.player(verdict.declarer).name)
        if verdict.reason is None:
            lines.append(_("{name} can declare now and would win.").format(name=who))
        else:
            lines.append(
                _("{name} cannot declare yet. {reason}").format(
                    name=who, reason=say(lang, verdict.reason)
                )
            )
    if report.can_propose_count:
        lines.append(_("Both kings have entered: either player may propose the 24-point count."))
    return "\n".join(lines)


def reminder_text(lang: str, game: GameSnapshot, now: datetime | None = None) -> str:
    """The reminder to the player to move, before their deadline, with both banks as
    they stand at `now`; the button under it is for the opponent, who may give them
    more time."""
    _ = translator(lang)
    if game.to_move is None or game.deadline is None:
        return ""
    late = game.to_move
    late_color = game.color_of(late.user_id)
    player = mention(late)
    if late_color is not None:
        player = player_in_turn(lang, late_color, player, game.handicap)
    reminder = _(
        "{player}, your move is due {relative} ({date}). {opponent} can give you more "
        "time with the button."
    ).format(
        player=player,
        relative=timestamp(game.deadline),
        date=timestamp(game.deadline, "f"),
        opponent=safe(game.opponent_of(late.user_id).name),
    )
    return "\n".join([reminder, *_banks(lang, game, now)])

"""Challenges and rematches: the challenge message (whom it is to, its settings, its
expiry) and how it closed, who took an open one, what the player who pressed Rematch is
told, and the first post of the game a challenge starts."""

from __future__ import annotations

from bot.services import (
    AlreadyStarted,
    Challenge,
    GameSnapshot,
    PlayerRef,
    TakebackPolicy,
    turn_of,
)
from rules import Handicap, Sentence

from ..base import (
    deadline_text,
    handicap_text,
    mention,
    safe,
    say,
    sentences,
    time_control_text,
    timestamp,
    translator,
    truncate,
)
from ..controls import rule_name
from ..play.turns import banks_lines, to_move_text
from ..ratings.standings import rated_setting
from ..sides import side_name

CHALLENGE_NOT_POSTED = Sentence(
    "The challenge could not be posted in this channel, so it was withdrawn; try again later."
)
REMATCH_NOT_POSTED = Sentence(
    "The rematch could not be posted in its channel, so it was withdrawn; try again later."
)


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


def challenge_heading(lang: str, challenge: Challenge) -> str:
    """The first line of a challenge message: to whom, or to anyone, and whether it offers
    a finished game again."""
    _ = translator(lang)
    challenger = safe(challenge.challenger.name)
    if challenge.opponent is None:
        return _(
            "{challenger} challenges anyone here to shogi: the first member to press Accept plays."
        ).format(challenger=challenger)
    if challenge.rematch_of is not None:
        return _("{opponent}, {challenger} offers you a rematch.").format(
            opponent=mention(challenge.opponent), challenger=challenger
        )
    return _("{opponent}, {challenger} challenges you to shogi.").format(
        opponent=mention(challenge.opponent), challenger=challenger
    )


def challenge_taken(lang: str, taker: PlayerRef, *, taken_unrated: bool = False) -> str:
    """How an open challenge closed: who took it (`taken_unrated`: as an unrated game, though
    the challenge offered a rated one)."""
    _ = translator(lang)
    if taken_unrated:
        taken = _("{name} took up the challenge as an unrated game: have a good game!")
    else:
        taken = _("{name} took up the challenge: have a good game!")
    return taken.format(name=safe(taker.name))


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


def challenge_news(lang: str, body: str, link: str) -> str:
    """A direct message about a challenge: what its message says, and the link to it."""
    _ = translator(lang)
    return truncate(f"{body}\n" + _("The challenge: {link}").format(link=link))


def already_started(lang: str, error: AlreadyStarted) -> str:
    """A second press of a button that starts a game: that it started, and its thread."""
    _ = translator(lang)
    said = say(lang, error.sentence)
    if error.thread_id is None:  # the first press is still opening it
        return said
    return sentences(said, _("It is played in {thread}.").format(thread=f"<#{error.thread_id}>"))


def rematch_offered(lang: str, challenge: Challenge) -> str:
    """The private answer to Rematch: the offer is posted where the game's challenge was."""
    _ = translator(lang)
    name = "" if challenge.opponent is None else safe(challenge.opponent.name)
    return _("Rematch offered to {name} in {channel}.").format(
        name=name, channel=f"<#{challenge.channel_id}>"
    )


def rematch_accepted(lang: str, challenge: Challenge) -> str:
    """The private answer to Rematch when the other player had offered it: it starts."""
    _ = translator(lang)
    return _("You accepted {name}'s rematch: have a good game!").format(
        name=safe(challenge.challenger.name)
    )


def start_text(lang: str, sfen: str) -> str:
    """The set-up start a challenge offers: its SFEN in a code span (to copy into any
    shogi program) and who moves first there (a start that is a handicap's is offered as
    that handicap, whose sides the settings name)."""
    _ = translator(lang)
    return _("Start position: `{sfen}` ({side} moves first).").format(
        sfen=sfen, side=side_name(lang, turn_of(sfen), Handicap.EVEN)
    )


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
        lines += banks_lines(lang, game)
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

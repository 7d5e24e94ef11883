"""Your move: `/next` (the game to play first, with its board), the daily digest (every
game waiting for the player, in a direct message), and the direct messages that tell a
player their turn has come or what their game's thread was told."""

from __future__ import annotations

from bot.services import GameList, GameSnapshot, GameSummary
from rules import Sentence

from ..base import MAX_MESSAGE, deadline_text, move_echo, safe, translator, truncate
from ..sides import players_line, side_mark

NOTHING_TO_MOVE = Sentence("No game is waiting for your move right now. Enjoy the calm!")
NOT_YOUR_NEXT = Sentence(
    "These buttons are for the member who ran `/next`; run it yourself for your own games."
)


def moved_since(game_id: int) -> Sentence:
    """The Next button under a game that moved since it was shown."""
    return Sentence(
        "Game #{id} has moved since; run `/next` again to see where it is your move.", id=game_id
    )


def next_text(lang: str, game: GameSnapshot, position: int, listed: GameList, link: str) -> str:
    """Above `/next`'s board: which of the games waiting for the member this is (they are
    ordered by deadline, `position` counts from 1), the game, its deadline, the last move
    and the link to its thread."""
    _ = translator(lang)
    count = len(listed.games)
    if listed.more:
        heading = _(
            "Game {position} of the {count} with the nearest deadlines"
            " ({total} games wait for your move):"
        ).format(position=position, count=count, total=count + listed.more)
    else:
        heading = _("Game {position} of {count} where it is your move, nearest deadline first:")
        heading = heading.format(position=position, count=count)
    players = players_line(lang, safe(game.sente.name), safe(game.gote.name), game.handicap)
    lines = [
        heading,
        _("Game #{id} ({players}), move {move_number}; {deadline}.").format(
            id=game.id,
            players=players,
            move_number=game.move_number,
            deadline=deadline_text(lang, game.deadline),
        ),
    ]
    written = game.last_move_text
    if written is not None:
        lines.append(
            _("Last move: {move}").format(move=move_echo(lang, game.turn.opponent, written))
        )
    lines.append(_("The game: {link}").format(link=link))
    return "\n".join(lines)


def digest_text(lang: str, listed: GameList, links: dict[int, str]) -> str:
    """The daily digest: every game waiting for the player, the nearest deadline first,
    each with its deadline and the link to its thread (`links`, by game id). Lines that
    would not fit in one message are counted at the end instead."""
    _ = translator(lang)
    lines = [_("Your daily digest: it is your move in these games.")]
    left = len(listed.games) + listed.more
    for summary in listed.games:
        line = _digest_line(lang, summary, links[summary.id])
        rest = _("…and {count} more: `/next` shows them one by one.").format(count=left)
        if len("\n".join([*lines, line, rest])) > MAX_MESSAGE:
            break
        lines.append(line)
        left -= 1
    if left:
        lines.append(_("…and {count} more: `/next` shows them one by one.").format(count=left))
    return "\n".join(lines)


def _digest_line(lang: str, summary: GameSummary, link: str) -> str:
    _ = translator(lang)
    return _(
        "• Game #{id}: You ({color}) vs {opponent}, move {move_number}; {deadline}. {link}"
    ).format(
        id=summary.id,
        color=side_mark(lang, summary.your_color, summary.handicap),
        opponent=safe(summary.opponent.name),
        move_number=summary.move_number,
        deadline=deadline_text(lang, summary.deadline),
        link=link,
    )


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

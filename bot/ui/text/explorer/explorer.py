"""`/explorer`: the moves played from a position in the server's finished games, as a list
a screen reader reads (each move with its count and results), the menu to follow one, and
the board's alt text."""

from __future__ import annotations

from bot.services import Exploration, ExploredMove
from rules import Handicap, Sentence

from ...i18n import SOURCE_LANGUAGE
from ..base import move_echo, plural_translator, side_label, translator, truncate
from ..records.board import fit_sentences, position_sentences

#: Said when `/explorer` is given a move number but neither a game nor a record.
EXPLORER_MOVE_WITHOUT_GAME = Sentence(
    "`at_move` goes with a game or a record: give one, or leave `at_move` out to start "
    "from the usual start."
)
#: The most moves the list shows (the menu offers every move found).
LISTED_MOVES = 10


def _link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def _list_separator(lang: str) -> str:
    """Between the items of a list: `, ` in English, `、` in Japanese."""
    return ", " if lang == SOURCE_LANGUAGE else "、"


def explored_move_text(lang: str, explored: Exploration, move: ExploredMove) -> str:
    """A move as the list and the menu name it, in the reader's notation (`☗７六歩` in
    Japanese, `☗７六歩 (P-7f)` in English, as posts write moves)."""
    return move_echo(lang, explored.position.turn, move.text)


def results_text(lang: str, move: ExploredMove) -> str:
    """How a move's games ended for the side that played it: `12 games: 50% won, 8%
    drawn, 42% lost`."""
    _, _n = translator(lang), plural_translator(lang)
    games = _n("{count} game", "{count} games", move.games).format(count=move.games)
    return _("{games}: {won}% won, {drawn}% drawn, {lost}% lost").format(
        games=games,
        won=move.percent(move.wins),
        drawn=move.percent(move.draws),
        lost=move.percent(move.losses),
    )


def explorer_text(lang: str, explored: Exploration, guild_id: int) -> str:
    """Above the explorer's board: whose move it is, then each move played here, most
    played first, with its count and results, and links to the latest games that passed
    here; or one sentence when no game did."""
    _, _n = translator(lang), plural_translator(lang)
    side = side_label(lang, explored.position.turn)
    lines = []
    if not explored.moves:
        lines.append(_("No finished game of this server has reached this position."))
    else:
        lines.append(
            _n(
                "{side} to move. Played here {count} time in this server's finished games:",
                "{side} to move. Played here {count} times in this server's finished games:",
                explored.total,
            ).format(side=side, count=explored.total)
        )
        for rank, move in enumerate(explored.moves[:LISTED_MOVES], start=1):
            lines.append(
                f"`{rank}.` {explored_move_text(lang, explored, move)} — "
                + results_text(lang, move)
            )
        if len(explored.moves) > LISTED_MOVES:
            more = len(explored.moves) - LISTED_MOVES
            lines.append(
                _n(
                    "…and {count} more move in the menu.",
                    "…and {count} more moves in the menu.",
                    more,
                ).format(count=more)
            )
    if explored.games:
        links = _list_separator(lang).join(
            "[{name}](<{link}>)".format(
                name=_("game #{id}").format(id=game.game_id),
                link=_link(guild_id, game.channel_id if game.thread_id is None else game.thread_id),
            )
            for game in explored.games
        )
        lines.append(_("Latest games through here: {links}").format(links=links))
    if explored.pending:
        lines.append(
            _n(
                "{count} older game is not counted yet: it will be at the next uses.",
                "{count} older games are not counted yet: they will be at the next uses.",
                explored.pending,
            ).format(count=explored.pending)
        )
    return truncate("\n".join(lines))


def explorer_placeholder(lang: str) -> str:
    """The menu's prompt."""
    _ = translator(lang)
    return _("Follow a move…")


def explorer_option(lang: str, explored: Exploration, move: ExploredMove) -> str:
    """A move in the menu: how it is written and its count, within a menu option's 100
    characters."""
    _n = plural_translator(lang)
    games = _n("{count} game", "{count} games", move.games).format(count=move.games)
    return f"{explored_move_text(lang, explored, move)} · {games}"[:100]


def explorer_alt_text(lang: str, explored: Exploration) -> str:
    """The alt text of the explorer's board: the arrows' moves with their counts, then the
    whole position in words."""
    _ = translator(lang)
    if explored.moves:
        drawn = ("; " if lang == SOURCE_LANGUAGE else "、").join(
            f"{explored_move_text(lang, explored, move)} {results_text(lang, move)}"
            for move in explored.moves[:LISTED_MOVES]
        )
        head = _("Explorer board, arrows for the moves played here: {moves}.").format(moves=drawn)
    else:
        head = _("Explorer board: no move was played here.")
    return fit_sentences(lang, [head, *position_sentences(lang, explored.position, Handicap.EVEN)])

"""Wording of the board in its three forms: the caption above the picture and the line
drawn on it, its alt text, the game as an animation, and the position as a text diagram.

The alt text says the whole position in words, so that a reader who cannot see the
picture can follow the game: each side's pieces by kind and square, then its hand.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from bot.services import GameSnapshot
from rules import Color, Handicap, Outcome, Piece, Position, Role, Square, Termination
from rules.notation.bod import write_bod, write_grid, write_hand

from ...i18n import N_, SOURCE_LANGUAGE, gettext
from ..base import move_echo, safe, square_text, translator
from ..clock.vacations import away_lines
from ..play.endings import outcome_text
from ..play.turns import banks_lines, to_move_text
from ..sides import players_line, side_name

#: Discord takes at most 1,024 characters as an attachment's description; a little
#: less leaves room for what a client may add.
ALT_TEXT_LIMIT = 1000
#: A message holds at most 2,000 characters; the diagram and its fence stay well within.
DIAGRAM_LIMIT = 2000

#: The result as the final board shows it, where the turn was: short enough for the
#: picture's footer beside a long name. In Japanese as a record ends (まで83手で先手の勝ち).
_IMAGE_RESULTS = {
    Termination.CHECKMATE: N_("Move {move_number} · {side} wins by checkmate"),
    Termination.STALEMATE: N_("Move {move_number} · {side} wins, no legal move left"),
    Termination.PERPETUAL_CHECK: N_("Move {move_number} · {side} wins, perpetual check"),
    Termination.RESIGNATION: N_("Move {move_number} · {side} wins by resignation"),
    Termination.TIME: N_("Move {move_number} · {side} wins on time"),
    Termination.FOUL: N_("Move {move_number} · {side} wins by an illegal move"),
    Termination.IMPASSE_24: N_("Move {move_number} · {side} wins by impasse"),
    Termination.IMPASSE_27: N_("Move {move_number} · {side} wins by impasse"),
    Termination.IMPASSE_JSA24: N_("Move {move_number} · {side} wins by impasse"),
}
_IMAGE_DRAWS = {
    Termination.SENNICHITE: N_("Move {move_number} · sennichite, a draw"),
    Termination.IMPASSE_24: N_("Move {move_number} · jishogi, a draw"),
    Termination.IMPASSE_JSA24: N_("Move {move_number} · jishogi, a draw"),
}


def image_result(lang: str, game: GameSnapshot) -> str:
    """The result line drawn on a finished game's board (its caption otherwise)."""
    outcome = game.outcome
    if outcome is None:
        return image_caption(lang, game)
    side = "" if outcome.winner is None else side_name(lang, outcome.winner, game.handicap)
    line = ending_line(lang, outcome, game.move_number, side)
    return image_caption(lang, game) if line is None else line


def ending_line(lang: str, outcome: Outcome, move_number: int, side: str) -> str | None:
    """The result line drawn on a final board, the winner called `side`; None for an
    ending it has no line for (an abort)."""
    if outcome.winner is not None and outcome.termination in _IMAGE_RESULTS:
        template = _IMAGE_RESULTS[outcome.termination]
        return gettext(lang, template).format(move_number=move_number, side=side)
    if outcome.winner is None and outcome.termination in _IMAGE_DRAWS:
        return gettext(lang, _IMAGE_DRAWS[outcome.termination]).format(move_number=move_number)
    return None


# ---------------------------------------------------------------- the captions


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
        lines += banks_lines(lang, game, now)
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


# ---------------------------------------------------------------- the position in words

#: Pieces in the order a reader meets them: the king, the major pieces, then down.
_ROLE_ORDER = (
    Role.KING, Role.ROOK, Role.DRAGON, Role.BISHOP, Role.HORSE, Role.GOLD, Role.SILVER,
    Role.PROMOTED_SILVER, Role.KNIGHT, Role.PROMOTED_KNIGHT, Role.LANCE,
    Role.PROMOTED_LANCE, Role.PAWN, Role.TOKIN,
)  # fmt: skip
_HAND_ORDER = (
    Role.ROOK, Role.BISHOP, Role.GOLD, Role.SILVER, Role.KNIGHT, Role.LANCE, Role.PAWN,
)  # fmt: skip
#: Each side's pieces and hand, by whether the game is a handicap game (下手 and 上手, as a
#: KIF of it writes 「上手の持駒」), then by colour.
_PIECES = {
    False: {Color.SENTE: N_("Sente: {pieces}."), Color.GOTE: N_("Gote: {pieces}.")},
    True: {Color.SENTE: N_("Shitate: {pieces}."), Color.GOTE: N_("Uwate: {pieces}.")},
}
_HANDS = {
    False: {
        Color.SENTE: N_("Sente in hand: {hand}."),
        Color.GOTE: N_("Gote in hand: {hand}."),
    },
    True: {
        Color.SENTE: N_("Shitate in hand: {hand}."),
        Color.GOTE: N_("Uwate in hand: {hand}."),
    },
}


def _piece_words(lang: str, role: Role, count: int) -> str:
    """The name that opens the list of one kind of piece: `golds`, `金`."""
    if lang != SOURCE_LANGUAGE:
        return role.kanji
    return role.english + ("s" if count > 1 else "")  # every English piece name is regular


def pieces_text(lang: str, position: Position, color: Color) -> str:
    """`color`'s pieces on the board by kind, each kind with its squares (file, then rank):
    `king 5i; golds 4i, 6i` in English, `玉５九、金４九・６九` in Japanese."""
    by_role: dict[Role, list[Square]] = defaultdict(list)
    for square, piece in position.pieces():
        if piece.color is color:
            by_role[piece.role].append(square)
    _ = translator(lang)
    groups = []
    for role in _ROLE_ORDER:
        squares = sorted(by_role.get(role, ()), key=lambda s: (s.file, s.rank))
        if squares:
            # The list's punctuation is the catalog's too: Japanese writes 金４九・６九、銀…
            where = square_text(lang, squares[0])
            for square in squares[1:]:
                where = _("{squares}, {square}").format(
                    squares=where, square=square_text(lang, square)
                )
            words = _piece_words(lang, role, len(squares))
            groups.append(_("{pieces} {squares}").format(pieces=words, squares=where))
    return _("; ").join(groups)


def hand_text(lang: str, position: Position, color: Color) -> str:
    """`color`'s pieces in hand with their counts: `2 pawns, bishop` in English, and in
    Japanese as a record writes them (`歩二　角`, `なし`)."""
    _ = translator(lang)
    if lang != SOURCE_LANGUAGE:
        return write_hand(position, color)
    hand = position.hand(color)
    parts = []
    for role in _HAND_ORDER:
        count = hand.get(role, 0)
        if count:
            words = _piece_words(lang, role, count)
            parts.append(f"{count} {words}" if count > 1 else words)
    return ", ".join(parts) if parts else _("none")


def position_sentences(lang: str, position: Position, handicap: Handicap) -> list[str]:
    """The position in words: each side's pieces, then its hand, one sentence each (the
    sides named uwate and shitate in a handicap game)."""
    sentences = []
    given = handicap is not Handicap.EVEN
    for color in Color:
        pieces = pieces_text(lang, position, color)
        sentences.append(gettext(lang, _PIECES[given][color]).format(pieces=pieces))
        hand = hand_text(lang, position, color)
        sentences.append(gettext(lang, _HANDS[given][color]).format(hand=hand))
    return sentences


def fit_sentences(lang: str, sentences: list[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """As many whole sentences as fit in `limit` characters, in order; the last ones are
    left out (and an ellipsis says so) rather than cut in the middle of a word."""
    joiner = " " if lang == SOURCE_LANGUAGE else ""
    text = ""
    for index, sentence in enumerate(sentences):
        joined = sentence if not text else text + joiner + sentence
        room = limit if index == len(sentences) - 1 else limit - len(joiner) - 1
        if len(joined) > room:
            return text + joiner + "…" if text else sentence[: limit - 1] + "…"
        text = joined
    return text


def board_alt_text(lang: str, game: GameSnapshot) -> str:
    """The alt text of a board image, for screen readers: the players, the move count and
    whose turn or the result, the last move, then the whole position in words."""
    _ = translator(lang)
    caption = image_result(lang, game)
    values = {"players": players_text(lang, game), "caption": caption}
    written = game.last_move_text
    if written is None:
        head = _("Shogi board. {players}. {caption}.").format_map(values)
    else:
        values["move"] = move_echo(lang, game.turn.opponent, written)
        head = _("Shogi board. {players}. {caption}. Last move: {move}.").format_map(values)
    position = position_sentences(lang, game.game.position, game.handicap)
    return fit_sentences(lang, [head, *position])


def animation_alt_text(lang: str, game: GameSnapshot) -> str:
    """The alt text of the game's animation: what it shows, then its last frame's words."""
    _ = translator(lang)
    head = _("Animation of the game, one frame per move from the start.")
    return fit_sentences(lang, [head, board_alt_text(lang, game)])


# ---------------------------------------------------------------- the text diagram


def text_diagram(lang: str, game: GameSnapshot) -> str:
    """The position as a text diagram in a code block (monospace), for readers who want
    text, not a picture: the pieces, both hands, whose turn, the move count or result.

    Japanese readers get the diagram a KIF file draws (BOD), which every Japanese club
    knows. English readers get the same layout in the letters of Western notation
    (P-7f), which they type already and can read without kanji: upper case for sente,
    lower case for gote, as in SFEN, a `+` before a promoted piece, and the ranks a..i
    on the right as the squares are written (7f)."""
    over = game.outcome is not None
    lines = position_diagram(lang, game.game.position, handicap=game.handicap)
    if not over and (lang == SOURCE_LANGUAGE or game.turn is Color.SENTE):
        lines.append(_turn_line(lang, game))  # a BOD names only gote's turn
    lines.append(_move_line(lang, game))
    return "```\n" + "\n".join(lines) + "\n```"


def position_diagram(
    lang: str, position: Position, *, handicap: Handicap = Handicap.EVEN
) -> list[str]:
    """The lines of a position's diagram: a BOD in Japanese, letters in English (see
    `text_diagram`); the turn is left to the caller, as a BOD names only gote's."""
    if lang == SOURCE_LANGUAGE:
        return _letters_diagram(lang, position, handicap)
    return write_bod(position, handicap=handicap is not Handicap.EVEN)


def _turn_line(lang: str, game: GameSnapshot) -> str:
    _ = translator(lang)
    line = _("{side} to move").format(side=side_name(lang, game.turn, game.handicap))
    return line[:1].upper() + line[1:]  # a line of its own starts with a capital


def _move_line(lang: str, game: GameSnapshot) -> str:
    _ = translator(lang)
    if game.outcome is not None:
        return image_result(lang, game)
    return _("Move {move_number}").format(move_number=game.move_number)


_FILES_HEADER = "  9  8  7  6  5  4  3  2  1"
_RANK_LETTERS = "abcdefghi"


def _letters_diagram(lang: str, position: Position, handicap: Handicap) -> list[str]:
    _ = translator(lang)
    given = handicap is not Handicap.EVEN
    hands = _HANDS[given]
    lines = [
        _("Upper case: Shitate (☗); lower case: Uwate (☖); + promoted.")
        if given
        else _("Upper case: Sente (☗); lower case: Gote (☖); + promoted."),
        gettext(lang, hands[Color.GOTE]).format(hand=hand_text(lang, position, Color.GOTE)),
        _FILES_HEADER,
    ]
    lines += write_grid(position, _letter_cell, _RANK_LETTERS)
    lines.append(
        gettext(lang, hands[Color.SENTE]).format(hand=hand_text(lang, position, Color.SENTE))
    )
    return lines


def _letter_cell(piece: Piece | None) -> str:
    """` . ` for an empty square, else the piece's SFEN letter, lower case for gote's."""
    if piece is None:
        return " . "
    letter = piece.role.sfen if piece.color is Color.SENTE else piece.role.sfen.lower()
    return letter.rjust(2) + " "


def animation_shortened(lang: str, shown_moves: int) -> str:
    """Under an ending whose animation shows only the game's last moves, and why."""
    _ = translator(lang)
    return _(
        "The whole game is larger than Discord accepts, so its animation shows the last "
        "{count} moves."
    ).format(count=shown_moves)

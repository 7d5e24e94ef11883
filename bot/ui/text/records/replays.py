"""`/replay`: the caption above each board, with the moves around the one shown."""

from __future__ import annotations

from bot.services import ReplayStep

from ..base import move_echo, safe, translator, truncate
from ..play.endings import result_text
from ..sides import players_line


def replay_text(lang: str, step: ReplayStep) -> str:
    """Above a `/replay` board: which game, which move of how many, and the moves around
    it, the current one marked. Every number is a move number as the game's record
    counts it (`board.numbering`): "of 50" is the last move's number, as a KIF's
    `まで50手` is, also in a game set up after move 30 that played 20 moves."""
    _ = translator(lang)
    board = step.board
    number = board.numbering.number
    players = players_line(lang, safe(board.sente.name), safe(board.gote.name), board.handicap)
    last = number(step.last)
    if step.ply == 0:
        where = _("start position (the game goes to move {last})").format(last=last)
    else:
        where = _("move {move_number} of {last}").format(move_number=number(step.ply), last=last)
    lines = [
        _("Replay of game #{id}, {players}: {where}").format(
            id=board.id, players=players, where=where
        )
    ]
    first_mover = board.game.start.turn
    for offset, move in enumerate(step.moves):
        ply = step.first + offset
        color = first_mover if ply % 2 else first_mover.opponent
        mark = "▶" if ply == step.ply else " "
        lines.append(f"`{mark}{number(ply):>3}` {move_echo(lang, color, move)}")
    if step.ply == step.last and board.outcome is not None:
        lines.append(result_text(lang, board.outcome, board))
    return truncate("\n".join(lines))

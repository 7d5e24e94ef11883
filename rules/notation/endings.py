"""How a game ended, as the KIF, KI2 and CSA readers and writers name it: one key an ending.

A reader turns the end word or code it met into a key (`END_WORDS`, `END_CODES`) and
gives the game that outcome (`apply_ending`); a writer asks a finished game for its key
(`ending_of`) and writes the word or code for it (`WRITTEN_WORDS`, `WRITTEN_CODES`), KIF
and KI2 with the closing `まで…` line.
"""

from __future__ import annotations

import re
from enum import StrEnum

from ..game import Game, Outcome, Termination
from ..types import Color


class End(StrEnum):
    """How a game ended, as one key shared by the KIF, KI2 and CSA readers and writers."""

    RESIGN = "resign"
    MATE = "mate"
    TIME = "time"
    ABORT = "abort"
    REPETITION = "rep"
    IMPASSE = "imp"
    DECLARE = "declare"
    FOUL_WIN = "foul_win"
    FOUL_LOSS = "foul_loss"


#: Each ending's words in KIF and KI2 and its codes in CSA, the first of each the one
#: written; a reader takes any. CSA has no code for a foul won by the side to move: its
#: writer names whose foul it was with `%±ILLEGAL_ACTION`.
_SPELLINGS = {
    End.RESIGN: ("投了", "%TORYO"),
    End.MATE: ("詰み", "%TSUMI"),
    End.TIME: ("切れ負け 時間切れ", "%TIME_UP"),
    End.ABORT: ("中断", "%CHUDAN"),
    End.REPETITION: ("千日手", "%SENNICHITE"),
    End.IMPASSE: ("持将棋", "%JISHOGI %HIKIWAKE"),
    End.DECLARE: ("入玉勝ち 宣言勝ち", "%KACHI"),
    End.FOUL_WIN: ("反則勝ち", ""),
    End.FOUL_LOSS: ("反則負け", "%ILLEGAL_MOVE %+ILLEGAL_ACTION %-ILLEGAL_ACTION"),
}
END_WORDS = {word: key for key, (words, _) in _SPELLINGS.items() for word in words.split()}
END_CODES = {code: key for key, (_, codes) in _SPELLINGS.items() for code in codes.split()}
WRITTEN_WORDS = {key: words.split()[0] for key, (words, _) in _SPELLINGS.items()}
WRITTEN_CODES = {key: codes.split()[0] for key, (_, codes) in _SPELLINGS.items() if codes}


def ending_of(game: Game) -> End | None:
    """The ending key of a finished game, None while it goes on.

    A 24-point count is `End.IMPASSE` whoever won (the outcome keeps the winner): it is
    neither a declaration nor a foul, whichever side was to move.
    """
    outcome = game.outcome
    if outcome is None:
        return None
    to_move = game.position.turn
    kind = outcome.termination
    simple = {
        Termination.RESIGNATION: End.RESIGN,
        Termination.CHECKMATE: End.MATE,
        Termination.STALEMATE: End.MATE,
        Termination.TIME: End.TIME,
        Termination.ABORT: End.ABORT,
        Termination.SENNICHITE: End.REPETITION,
        Termination.IMPASSE_24: End.IMPASSE,
    }
    if kind in simple:
        return simple[kind]
    if outcome.winner is None:
        return End.IMPASSE
    if kind in (Termination.PERPETUAL_CHECK, Termination.FOUL):
        return End.FOUL_WIN if outcome.winner == to_move else End.FOUL_LOSS
    return End.DECLARE if outcome.winner == to_move else End.FOUL_LOSS


def apply_ending(game: Game, key: End, winner: Color | None = None) -> None:
    """Give `game` the outcome an end word describes, unless the moves decided it already.

    Without a stated `winner`, the side to move is the one who resigned, lost on time,
    declared, committed the foul of 反則負け or won by the foul of 反則勝ち. An impasse
    with a stated winner is a 24-point count that someone lost; without one, a draw.
    """
    if game.outcome is not None or key == End.MATE:
        return
    to_move = game.position.turn
    if key == End.RESIGN:
        game.resign(to_move if winner is None else winner.opponent)
    elif key == End.TIME:
        game.time_out(to_move if winner is None else winner.opponent)
    elif key == End.ABORT:
        game.set_outcome(Outcome(Termination.ABORT, None))
    elif key == End.REPETITION:
        game.set_outcome(Outcome(Termination.SENNICHITE, None))
    elif key == End.IMPASSE:
        game.set_outcome(Outcome(Termination.IMPASSE_24, winner))
    elif key == End.DECLARE:
        game.set_outcome(Outcome(Termination.IMPASSE_27, to_move if winner is None else winner))
    elif key == End.FOUL_WIN:
        game.set_outcome(Outcome(Termination.FOUL, to_move if winner is None else winner))
    elif key == End.FOUL_LOSS:
        game.set_outcome(Outcome(Termination.FOUL, to_move.opponent if winner is None else winner))


def side_name(color: Color | None, handicap: bool) -> str:
    """先手/後手, or 下手/上手 in a handicap game."""
    if color == Color.SENTE:
        return "下手" if handicap else "先手"
    return "上手" if handicap else "後手"


def summary(game: Game, handicap: bool) -> str | None:
    """The closing `まで…` line of KIF and KI2, None while the game goes on.

    A count someone lost reads `まで100手で後手の勝ち`, after the `COUNT_MARK` comment
    with the points: readers that know only `…の勝ち` find the winner (some take any
    more text on that line, or the word 持将棋 in it, as no result), and ours the count.
    """
    key = ending_of(game)
    if key is None:
        return None
    assert game.outcome is not None
    plies = game.start.move_number - 1 + len(game.moves)  # counted as the moves are numbered
    winner = side_name(game.outcome.winner, handicap)
    to_move = side_name(game.position.turn, handicap)
    if key == End.IMPASSE and game.outcome.winner is not None:
        return f"まで{plies}手で{winner}の勝ち"
    text = {
        End.RESIGN: f"{winner}の勝ち",
        End.MATE: f"{winner}の勝ち",
        End.TIME: f"時間切れにより{winner}の勝ち",
        End.ABORT: "中断",
        End.REPETITION: "千日手",
        End.IMPASSE: "持将棋",
        End.DECLARE: f"{winner}の入玉勝ち",
        End.FOUL_WIN: f"{to_move}の反則勝ち",
        End.FOUL_LOSS: f"{to_move}の反則負け",
    }[key]
    return f"まで{plies}手で{text}"


#: The comment before the closing line of a 24-point count that someone lost.
COUNT_MARK = "*持将棋（24点法）"


def count_comment(game: Game, handicap: bool) -> str | None:
    """`*持将棋（24点法）：先手23点、後手31点` for a count someone lost, else None."""
    if game.outcome is None or game.outcome.termination is not Termination.IMPASSE_24:
        return None
    if game.outcome.winner is None:
        return None
    count = game.count_24()
    sente, gote = side_name(Color.SENTE, handicap), side_name(Color.GOTE, handicap)
    return f"{COUNT_MARK}：{sente}{count.sente_points}点、{gote}{count.gote_points}点"


def summary_winner(line: str) -> Color | None:
    """The winner a `まで…` line names: `…で先手の勝ち`, or the other side of
    `…で先手の反則負け`."""
    found = re.search("(先手|下手|後手|上手)の(入玉|反則)?(勝ち|負け)", line)
    if found is None:
        return None
    named = Color.SENTE if found[1] in ("先手", "下手") else Color.GOTE
    return named if found[3] == "勝ち" else named.opponent


def read_summary(line: str) -> End | None:
    """The ending key a `まで…` line states (KI2 has no other end mark)."""
    rest = line.partition("手で")[2] or line.partition("手")[2]  # まで49手詰: a problem's end
    for word, key in (
        ("中断", End.ABORT), ("千日手", End.REPETITION), ("持将棋", End.IMPASSE),
        ("詰", End.MATE), ("時間切れ", End.TIME), ("切れ負け", End.TIME),
        ("入玉", End.DECLARE), ("宣言", End.DECLARE), ("反則勝ち", End.FOUL_WIN),
        ("反則負け", End.FOUL_LOSS), ("勝ち", End.RESIGN),
    ):  # fmt: skip
        if word in rest:
            return key
    return None

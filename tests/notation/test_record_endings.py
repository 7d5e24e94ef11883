"""Endings that records used to get wrong: counts, fouls and resignations out of turn.

Each is written by us and read back by us (KIF, KI2, CSA) with the same outcome, and read by
cshogi's KIF and CSA readers with the same winner (cshogi: 1 sente won, 2 gote won, 0 a draw;
its KI2 reader fails on the board-free records it writes itself, so it is left out).
"""

from __future__ import annotations

from collections.abc import Callable

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from rules import Color, Game, Outcome, Position, Termination
from rules.notation import (
    Record,
    read_csa,
    read_ki2,
    read_kif,
    read_record,
    write_csa,
    write_ki2,
    write_kif,
)

# Both kings in the enemy camp, sente short of 24 points: a count gote wins.
ENTERED = "4K4/9/9/9/9/9/9/9/4k4 b 4G4S2r2b4n4l18p 1"
CSHOGI_WINNER = {Color.SENTE: 1, Color.GOTE: 2, None: 0}


def counted(moves: list[str]) -> Game:
    game = Game(Position.from_sfen(ENTERED), moves)
    game.settle_by_count()
    return game


def ended(outcome: Outcome, moves: tuple[str, ...] = ("7g7f", "3c3d", "2g2f")) -> Game:
    game = Game(moves=list(moves))
    game.set_outcome(outcome)
    return game


def cshogi_winners(game: Game) -> list[int | None]:
    kif = cshogi.KIF.Parser.parse_str(write_kif(game))
    csa = cshogi.CSA.Parser.parse_str(write_csa(game))[0]
    return [kif.win, csa.win]


def ours(game: Game) -> list[Outcome | None]:
    return [read(write(game)).game.outcome for read, write in READERS]


READERS: list[tuple[Callable[[str], Record], Callable[..., str]]] = [
    (read_kif, write_kif),
    (read_ki2, write_ki2),
    (read_csa, write_csa),
]


@pytest.mark.parametrize(
    "moves", [["5a4a"], ["5a4a", "5i4i"]], ids=["winner_to_move", "loser_to_move"]
)
def test_a_count_reads_back_as_the_same_count(moves: list[str]) -> None:
    game = counted(moves)
    assert game.outcome == Outcome(Termination.IMPASSE_24, Color.GOTE)
    assert ours(game) == [game.outcome] * 3
    kif = write_kif(game)
    assert "持将棋" in kif and "反則" not in kif and "入玉勝ち" not in kif
    assert "*持将棋（24点法）：先手8点、後手46点\nまで" in kif and "手で後手の勝ち\n" in kif
    csa = write_csa(game)
    assert "%JISHOGI" in csa and "ILLEGAL" not in csa and "%KACHI" not in csa
    # cshogi reads KIF only from a 手合割 start: the same ending after three even moves.
    even = ended(game.outcome, ("7g7f", "3c3d", "2g2f", "8c8d")[: 2 + len(moves)])
    assert ours(even) == [game.outcome] * 3
    # Its KIF reader finds the winner; its CSA reader takes 持将棋 as a draw, not a foul.
    assert cshogi_winners(even) == [2, 0]


def test_a_drawn_count_stays_a_draw() -> None:
    game = Game(Position.from_sfen("4K4/9/9/9/9/9/9/9/4k4 b 2R4G4S9P2b4n4l9p 1"), ["5a4a"])
    game.settle_by_count()
    assert game.outcome == Outcome(Termination.IMPASSE_24, None)
    assert ours(game) == [game.outcome] * 3
    assert cshogi_winners(ended(game.outcome)) == [0, 0]


@pytest.mark.parametrize("winner", [Color.SENTE, Color.GOTE])
def test_fouls_read_back_with_their_winner(winner: Color) -> None:
    game = ended(Outcome(Termination.FOUL, winner))
    assert ours(game) == [game.outcome] * 3
    assert cshogi_winners(game) == [CSHOGI_WINNER[winner]] * 2


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("%ILLEGAL_MOVE", Color.SENTE),  # gote, to move, played an illegal move
        ("%+ILLEGAL_ACTION", Color.GOTE),
        ("%-ILLEGAL_ACTION", Color.SENTE),
    ],
)
def test_csa_foul_codes_name_their_winner(text: str, winner: Color) -> None:
    record = read_csa(f"V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n{text}\n")
    assert record.game.outcome == Outcome(Termination.FOUL, winner)
    assert (
        cshogi.CSA.Parser.parse_str(record_text := write_csa(record))[0].win
        == {
            Color.SENTE: 1,
            Color.GOTE: 2,
        }[winner]
    ), record_text


@pytest.mark.parametrize(
    ("text", "winner"),
    [("まで3手で先手の反則負け", Color.GOTE), ("まで3手で後手の反則勝ち", Color.GOTE)],
)
def test_kif_foul_words_name_their_winner(text: str, winner: Color) -> None:
    word = text.rsplit("の", 1)[1]
    kif = f"手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 {word}\n{text}\n"
    assert read_kif(kif).game.outcome == Outcome(Termination.FOUL, winner)
    assert read_ki2(f"▲７六歩 △３四歩 ▲２六歩\n{text}\n").game.outcome == Outcome(
        Termination.FOUL, winner
    )


@pytest.mark.parametrize("resigner", [Color.SENTE, Color.GOTE])
def test_a_resignation_on_either_turn_has_the_right_winner_everywhere(resigner: Color) -> None:
    game = Game(moves=["7g7f", "3c3d", "2g2f"])  # gote to move
    game.resign(resigner)
    assert ours(game) == [game.outcome] * 3
    assert cshogi_winners(game) == [CSHOGI_WINNER[resigner.opponent]] * 2
    csa = write_csa(game)
    assert ("%TORYO" in csa) == (resigner is Color.GOTE)


def test_a_count_before_any_move_reads_back_from_ki2() -> None:
    """A KI2 of no move has no line a KI2 alone has, so it is read as a KIF: that reader
    took its count for a resignation, as it did not look for the count's comment."""
    game = Game(Position.from_sfen(ENTERED))
    game.settle_by_count()
    ki2 = write_ki2(game)
    assert "*持将棋（24点法）" in ki2 and "▲" not in ki2
    assert read_record(ki2).game.outcome == game.outcome == read_ki2(ki2).game.outcome


#: Every end word and code the readers know, an ending's spellings together, the one our
#: writers use first (CSA writes a foul as `%±ILLEGAL_ACTION`, naming whose foul it was).
KIF_SPELLINGS = [
    ("投了",), ("詰み",), ("切れ負け", "時間切れ"), ("中断",), ("千日手",), ("持将棋",),
    ("入玉勝ち", "宣言勝ち"), ("反則勝ち",), ("反則負け",),
]  # fmt: skip
CSA_SPELLINGS = [
    ("%TORYO",), ("%TSUMI",), ("%TIME_UP",), ("%CHUDAN",), ("%SENNICHITE",),
    ("%JISHOGI", "%HIKIWAKE"), ("%KACHI",), ("%ILLEGAL_MOVE",),
]  # fmt: skip


FOUL = Termination.FOUL


def test_every_spelling_of_an_ending_reads_alike_and_the_first_is_written() -> None:
    """Each end word of KIF (and code of CSA) means one ending, its other spellings the same
    one, and a record of that ending is written with its first spelling."""
    kif_moves = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n"
    csa_moves = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n"
    for spellings, read, write, head, end_line in [
        (KIF_SPELLINGS, read_kif, write_kif, kif_moves, "   4 {}\n"),
        (CSA_SPELLINGS, read_csa, write_csa, csa_moves, "{}\n"),
    ]:
        outcomes = []
        for first, *others in spellings:
            record = read(head + end_line.format(first))
            outcome = record.game.outcome
            for other in others:
                assert read(head + end_line.format(other)).game.outcome == outcome, other
            outcomes.append(outcome)
            csa_foul = read is read_csa and outcome is not None and outcome.termination is FOUL
            if outcome is not None and not csa_foul:
                assert first in write(record).split(), (first, write(record))
        # 詰み with no mate on the board leaves the game going on; every other differs.
        assert len({*outcomes}) == len(outcomes), outcomes

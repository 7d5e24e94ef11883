"""Suggested moves in the order a player most likely wants them."""

from __future__ import annotations

from bot.services.play.likely import likely_order
from rules import Game, Move, Position, Role


def usis(moves: list[Move]) -> list[str]:
    return [move.usi() for move in moves]


def test_king_moves_come_last_and_developing_moves_first() -> None:
    position = Position.initial()
    ordered = likely_order(position, position.legal_moves(), None, None)
    kings = [m for m in ordered if m.from_square == position.king_square(position.turn)]
    assert len(kings) == 3 and ordered[-3:] == kings
    first = position.piece_at(ordered[0].from_square or 0)
    assert first is not None and first.role is Role.PAWN
    assert sorted(usis(ordered)) == sorted(usis(position.legal_moves()))  # same moves


def test_a_recapture_comes_first_then_checks_then_captures() -> None:
    game = Game(moves=["7g7f", "3c3d", "8h2b+"])  # the bishop takes on 2b, promoting
    position, last = game.position, game.moves[-1]
    ordered = likely_order(position, position.legal_moves(), last, game.moves[-2])
    assert usis(ordered)[0] == "3a2b"  # 同銀 takes the horse back

    checks = Game(moves=["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"])  # gote can check with B*...
    after = checks.position
    ordered = likely_order(after, after.legal_moves(), checks.moves[-1], checks.moves[-2])
    giving = [m for m in ordered if after.gives_check(m)]
    assert giving and ordered[: len(giving)] == giving


def test_the_piece_moved_last_comes_before_other_quiet_moves() -> None:
    game = Game(moves=["7g7f", "3c3d", "6i7h", "4c4d"])  # sente's last move: the gold to 7h
    position = game.position
    ordered = likely_order(position, position.legal_moves(), game.moves[-1], game.moves[-2])
    gold = [m for m in ordered if m.from_square == game.moves[-2].to_square]
    quiet = [
        m for m in ordered if not position.gives_check(m) and not position.piece_at(m.to_square)
    ]
    assert gold and quiet[: len(gold)] == gold


def test_a_promotion_comes_before_the_same_move_unpromoted() -> None:
    game = Game(moves=["7g7f", "3c3d", "2g2f", "4a3b", "2f2e", "5a4b", "2e2d", "6a5b"])
    position = game.position
    ordered = usis(likely_order(position, position.legal_moves(), game.moves[-1], None))
    assert ordered.index("2d2c+") < ordered.index("2d2c")

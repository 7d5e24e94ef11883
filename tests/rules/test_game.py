"""Game-level behaviour beyond the labelled cases: endings by the players, handicaps."""

from __future__ import annotations

import pytest

from rules import Color, Game, GameError, Handicap, IllegalMoveError, Move, Position, Termination


def test_fools_mate_style_checkmate_ends_the_game() -> None:
    game = Game("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1")
    game.push(Move.from_usi("G*4b"))
    assert game.outcome is not None
    assert game.outcome.termination is Termination.CHECKMATE
    assert game.outcome.winner is Color.SENTE
    assert game.outcome.loser is Color.GOTE
    with pytest.raises(IllegalMoveError):
        game.push(Move.from_usi("5a6a"))


def test_illegal_move_changes_nothing() -> None:
    game = Game(moves=["7g7f"])
    with pytest.raises(IllegalMoveError):
        game.push(Move.from_usi("7f7e"))  # not gote's piece
    assert [m.usi() for m in game.moves] == ["7g7f"]
    assert game.position.sfen() == Game(moves=["7g7f"]).position.sfen()


@pytest.mark.parametrize("color", list(Color))
def test_resignation_any_time(color: Color) -> None:
    game = Game(moves=["7g7f"])  # gote to move; either side may resign
    outcome = game.resign(color)
    assert outcome.termination is Termination.RESIGNATION
    assert outcome.winner is color.opponent
    with pytest.raises(GameError):
        game.resign(color.opponent)


def test_time_out_loses() -> None:
    game = Game()
    assert game.time_out(Color.SENTE).winner is Color.GOTE


def test_abort_only_before_both_moved() -> None:
    assert Game(moves=["7g7f"]).abort().winner is None
    game = Game(moves=["7g7f", "3c3d"])
    with pytest.raises(GameError):
        game.abort()
    assert game.outcome is None


@pytest.mark.parametrize("handicap", list(Handicap))
def test_handicap_starts(handicap: Handicap) -> None:
    game = Game(Position.initial(handicap))
    assert game.handicap is handicap
    expected_first = Color.SENTE if handicap is Handicap.EVEN else Color.GOTE
    assert game.position.turn is expected_first
    assert Handicap.parse(handicap.japanese) is handicap
    assert Handicap.parse(handicap.id) is handicap


def test_handicap_missing_points() -> None:
    assert Game().missing_points() == 0
    assert Game(Position.initial("two_piece")).missing_points() == 10
    assert Game(Position.initial("four_piece")).missing_points() == 12
    assert Game(Position.initial("lance")).missing_points() == 1


def test_start_position_without_moves_can_already_be_over() -> None:
    game = Game("8k/9/9/9/9/9/1sg6/1p7/K8 b - 1")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.STALEMATE
    assert game.outcome.winner is Color.GOTE


def test_position_at_replays_a_prefix() -> None:
    game = Game(moves=["7g7f", "3c3d", "8h2b+"])
    assert game.position_at(0).sfen() == Game().position.sfen()
    assert game.position_at(2).sfen() == Game(moves=["7g7f", "3c3d"]).position.sfen()
    assert game.position_at(3).sfen() == game.position.sfen()
    with pytest.raises(IndexError):
        game.position_at(4)


def test_replay_matches_pushing_and_names_a_bad_move() -> None:
    moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d"]
    pushed = Game(moves=moves)
    replayed = Game.replay(None, moves)
    assert replayed.position.sfen() == pushed.position.sfen()
    assert replayed.moves == pushed.moves
    with pytest.raises(IllegalMoveError, match="Move 3"):
        Game.replay(None, ["7g7f", "3c3d", "7f7e+"])


def test_replay_finds_the_end_and_refuses_moves_after_it() -> None:
    mated = Game.replay("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1", ["G*4b"])
    assert mated.outcome is not None and mated.outcome.termination is Termination.CHECKMATE
    with pytest.raises(IllegalMoveError):
        Game.replay("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1", ["G*4b", "5a6a"])
    repeated = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3
    draw = Game.replay(None, repeated)
    assert draw.outcome is not None and draw.outcome.termination is Termination.SENNICHITE
    with pytest.raises(IllegalMoveError):
        Game.replay(None, [*repeated, "7g7f"])


def test_copy_is_independent_and_keeps_counting_repetitions() -> None:
    shuffle = ["5i4h", "5a4b", "4h5i", "4b5a"]
    game = Game(moves=shuffle * 2)  # the start position has now occurred three times
    copy = game.copy()
    copy.push(Move.from_usi("7g7f"))
    assert game.ply == 8 and game.position.sfen() == Position.initial().sfen().replace(" 1", " 9")
    assert copy.ply == 9 and copy.moves[:8] == game.moves
    # The original still counts its own repetitions: one more cycle is the fourth time.
    for usi in shuffle:
        game.push(Move.from_usi(usi))
    assert game.outcome is not None and game.outcome.termination is Termination.SENNICHITE
    assert copy.outcome is None
    # And a copy taken before the last cycle reaches sennichite on its own.
    other = Game(moves=shuffle * 2).copy()
    for usi in shuffle:
        other.push(Move.from_usi(usi))
    assert other.outcome == game.outcome

"""The picker's choices: every legal move reachable exactly once by pointing, in the
autocomplete's order, and the picker refused to anyone but the player to move."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.services import GameService, files_of, squares_of_file
from bot.services.errors import NotAPlayer, NotYourTurn
from bot.services.play.picker import PieceChoice, choices_of
from bot.services.play.snapshots import LegalMoveCache
from rules import Game, Position
from rules.notation import read_record

from .conftest import ALICE, BOB, CAROL, GUILD, start_game

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def record_positions() -> Iterator[tuple[str, Position, Game, int]]:
    """Every position of every record under tests/data/records (with the game and ply)."""
    for path in sorted(RECORDS.iterdir()):
        if path.name.endswith(".txt"):
            continue
        game = read_record(path.read_bytes()).game
        position = game.position_at(0)
        for ply, move in enumerate(game.moves):
            yield path.name, position.copy(), game, ply
            position.push_unchecked(move)


def reached(piece: PieceChoice) -> list[str]:
    """The USI moves a player can reach with `piece`: each destination, with each legal
    promotion answer."""
    moves = []
    for destination in piece.destinations:
        if destination.promote:
            moves.append(piece.move_text(destination, promote=True))
        if destination.keep:
            moves.append(piece.move_text(destination, promote=False))
    return moves


def test_every_legal_move_of_the_records_is_reachable_exactly_once() -> None:
    cache = LegalMoveCache()
    count = 0
    for _name, position, game, ply in record_positions():
        last = game.moves[ply - 1] if ply else None
        moves = cache.get(position, last)
        pieces = choices_of(position, moves)
        pointed = [usi for piece in pieces for usi in reached(piece)]
        assert sorted(pointed) == sorted(m.usi for m in moves)
        assert len(set(pointed)) == len(pointed)
        assert len({piece.key for piece in pieces}) == len(pieces)
        # The game's own move is among them, and the piece order follows the moves' order.
        assert game.moves[ply].usi() in pointed
        firsts = [next(m.usi for m in moves if m.usi.startswith(p.key[:2])) for p in pieces]
        assert [moves.index(next(m for m in moves if m.usi == u)) for u in firsts] == sorted(
            moves.index(next(m for m in moves if m.usi == u)) for u in firsts
        )
        count += 1
    assert count > 300  # the records hold hundreds of positions


def test_a_piece_names_its_captures_and_its_promotion_answers() -> None:
    # The bishop on 8h sees gote's bishop on 2b through the opened diagonal.
    position = Position.from_sfen(
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    )
    pieces = choices_of(position, LegalMoveCache().get(position, None))
    bishop = next(p for p in pieces if p.key == "8h")
    at_2b = bishop.destination("2b")
    assert at_2b is not None and at_2b.capture and at_2b.promote and at_2b.keep
    assert bishop.open_text(at_2b) == "B8h-2b"
    at_3c = bishop.destination("3c")
    assert at_3c is not None and not at_3c.capture and at_3c.promote and at_3c.keep
    seven_f = next(p for p in pieces if p.key == "7f").destination("7e")
    assert seven_f is not None and not seven_f.capture and seven_f.keep and not seven_f.promote


def test_a_drop_over_every_empty_square_is_split_by_file() -> None:
    position = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1")  # a gold in hand, 79 squares
    pieces = choices_of(position, LegalMoveCache().get(position, None))
    gold = next(p for p in pieces if p.key == "G*")
    assert gold.is_drop and len(gold.destinations) == 79
    files = files_of(gold)
    assert [file for file, _ in files] == list(range(9, 0, -1))
    assert sum(count for _, count in files) == 79 and all(count <= 9 for _, count in files)
    fifth = squares_of_file(gold, 5)
    assert [d.square for d in fifth] == [f"5{r}" for r in "bcdefgh"]


async def test_only_the_player_to_move_gets_the_choices(service: GameService) -> None:
    game = await start_game(service)  # alice is sente
    picker = await service.pointing.choices(game.id, ALICE.user_id, guild_id=GUILD)
    assert picker.ply == 0 and picker.position_mark == game.position_mark
    assert len(picker.on_board) >= 9 and picker.in_hand == ()
    with pytest.raises(NotYourTurn):
        await service.pointing.choices(game.id, BOB.user_id, guild_id=GUILD)
    with pytest.raises(NotAPlayer):
        await service.pointing.choices(game.id, CAROL.user_id, guild_id=GUILD)

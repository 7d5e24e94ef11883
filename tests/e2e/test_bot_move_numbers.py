"""A game started from a record at move 30, end to end: its start board says move 30,
its thread numbers the moves 31, 32 as the record did and as its KIF export does, and
every command that shows or takes a move number (/replay from_move, /note, /board,
/games) uses the same numbers; a number before the start is refused with the first
move's number. In English and in Japanese. The PNGs are saved under /tmp/movenumbers/
to look at."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from tests.fakediscord import FakeAttachment, InteractionResult, UserFile
from tests.support.checks import assert_board, record_text
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese

RECORD = Path(__file__).parents[1] / "data" / "records" / "kfjs_ryuou4.kifu"
SHOWN = Path("/tmp/movenumbers")


def saved(attachment: FakeAttachment, name: str) -> str:
    """Save a board PNG for the eye and return its alt text."""
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "PNG"
    SHOWN.mkdir(parents=True, exist_ok=True)
    (SHOWN / name).write_bytes(attachment.data)
    assert attachment.description is not None
    return attachment.description


async def from_move_30(club: Club) -> Table:
    """alice (sente) and bob play on from the 30th move of a title game's record."""
    record = UserFile("ryuou4.kifu", RECORD.read_bytes())
    challenge = await club.challenge(
        club.alice, club.bob, color="sente", record=record, start_move=30
    )
    return await club.accept(challenge, club.bob)


async def slash(club: Club, table: Table, name: str, **options: object) -> InteractionResult:
    return await club.fake.slash(name, dict(options), user=club.alice, channel=table.thread)


async def test_a_game_from_move_30_numbers_its_moves_from_31(club: Club) -> None:
    table = await from_move_30(club)
    assert_board(table.start.attachments)
    start_alt = saved(table.start.attachments[-1], "start-en.png")
    assert "Move 30 · Sente to move" in start_alt, start_alt

    first = await club.move(club.alice, "2i3g", table)
    assert first.reply is not None and first.reply.content.startswith("31. ☗３七桂"), first.content
    assert "Move 31 · Gote to move" in saved(first.reply.attachments[-1], "move31-en.png")
    second = await club.move(club.bob, "4b3c", table)
    assert second.reply is not None and second.reply.content.startswith("32. ☖３三銀")

    replay = await slash(club, table, "replay", from_move=31)
    assert replay.ephemeral and "move 31 of 32" in replay.content, replay.content
    assert "`▶ 31` ☗３七桂" in replay.content and "`  32` ☖３三銀" in replay.content
    assert "Last move: ☗３七桂" in (replay.files[-1].description or "")
    start = await slash(club, table, "replay", from_move=30)
    assert "start position" in start.content and "Last move" not in (
        start.files[-1].description or ""
    )
    early = await slash(club, table, "replay", from_move=29)
    assert early.ephemeral and early.files == []
    assert early.content == "This game starts after move 30: its first move is move 31."

    note = await slash(club, table, "note", text="the knight jumps")
    assert "saved at move 32" in note.content
    notes = await slash(club, table, "notes")
    assert "(move 32): the knight jumps" in notes.content
    board = await slash(club, table, "board")
    assert "☗alice vs ☖bob · move 32" in board.content
    games = await club.fake.slash("games", {}, user=club.alice, channel=club.channel)
    assert ", move 32, " in games.content, games.content

    exported = await slash(club, table, "export", format="kif")
    [kif] = [a for a in exported.files if a.filename.endswith(".kif")]
    lines = record_text(kif).splitlines()
    assert "手数＝30" in lines
    assert [line[:4] for line in lines if line[4:5] == " " and line[:4].strip().isdigit()] == [
        "  31",
        "  32",
    ]  # the thread's numbers


async def test_a_normal_game_still_numbers_from_1(club: Club) -> None:
    table = await club.new_game()
    assert "Move 0 · Sente to move" in (table.start.attachments[-1].description or "")
    first = await club.move(club.alice, "7g7f", table)
    assert first.reply is not None and first.reply.content.startswith("1. ☗７六歩")
    replay = await slash(club, table, "replay", from_move=1)
    assert "move 1 of 1" in replay.content
    assert "start position" in (await slash(club, table, "replay", from_move=0)).content


async def test_move_numbers_from_move_30_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await from_move_30(club)
    start_alt = saved(table.start.attachments[-1], "start-ja.png")
    assert "手数＝30・先手番" in start_alt, start_alt
    first = await club.move(club.alice, "2i3g", table)
    assert first.reply is not None and first.reply.content.startswith("31手目 ☗３七桂")
    assert "手数＝31・後手番" in saved(first.reply.attachments[-1], "move31-ja.png")
    replay = await slash(club, table, "replay", from_move=31)
    assert "31手目（31手まで）" in replay.content, replay.content
    early = await slash(club, table, "replay", from_move=12)
    assert early.content == ("この対局は30手目の局面から始まっています。最初の指し手は31手目です。")
    note = await slash(club, table, "note", text="桂跳ね")
    assert_japanese(table.start, first.reply, replay, early, note)

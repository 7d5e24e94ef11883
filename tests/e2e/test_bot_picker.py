"""Moving by pointing through the real bot and the fake Discord: Move under the board of
the player to move, a piece, a square (a file first for a drop on more than 25 squares),
Promote / Don't promote; a whole game of a record played by pointing only, in English and
Japanese; a stale step after a takeback, a spectator's press, a double press and a restart
in the middle of a choice."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from PIL import Image

from rules.notation import read_record
from tests.fakediscord import FakeMessage
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese
from tests.support.pointing import move_button, offered, open_picker, point

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
UPDATE_MESSAGE = 7  # Discord's response that edits the message a component sits on


async def stored(club: Club, table: Table) -> list[str]:
    game = await club.game(table.game_id)
    return [move.usi() for move in game.game.moves]


async def board_shelf(club: Club, table: Table) -> tuple[FakeMessage, str]:
    """Alice's picker at the start of a game, and its select of pieces on the board."""
    picker = (await open_picker(club, table, club.alice)).reply
    assert picker is not None
    [shelf] = [c for c in picker.custom_ids if c.startswith("pk:")]
    return picker, shelf


def picture(message: FakeMessage) -> Image.Image:
    [board] = [a for a in message.attachments if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(board.data))
    image.load()
    return image


async def test_point_at_a_piece_then_a_square(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    post, custom_id = move_button(club, table)
    assert custom_id.startswith(f"mv:{table.game_id}:0:h") and "Move" in post.labels

    opened = await open_picker(club, table, alice)
    picker = opened.reply
    assert picker is not None and opened.ephemeral
    assert picker.content == "Your move: choose a piece, then the square it goes to."
    assert_board(picker.attachments)
    alt = picker.attachments[-1].description or ""
    assert alt.startswith("Board: your pieces that can move are marked: P 9g") and "K 5i" in alt
    [shelf] = [c for c in picker.custom_ids if c.startswith("pk:")]  # nothing in hand
    assert shelf.endswith(":b")
    before = len(club.fake.channel_history(table.thread))

    chose = await club.fake.choose(picker, shelf, "7g", user=alice)
    assert chose.ephemeral and picker.content.startswith("P 7g: choose the square")
    assert chose.response_type == UPDATE_MESSAGE and chose.followups == []  # one response
    assert "the squares it can go to: 7f" in (picker.attachments[-1].description or "")
    assert any(c.startswith("pb:") for c in picker.custom_ids)  # Back
    assert len(club.fake.channel_history(table.thread)) == before  # nothing public yet
    back = next(c for c in picker.custom_ids if c.startswith("pb:"))
    await club.fake.click(picker, back, user=alice)
    assert picker.content.startswith("Your move: choose a piece")

    pointed = await point(club, table, alice, "7g7f", opened=opened)
    assert pointed.taps == 2
    assert await stored(club, table) == ["7g7f"]
    assert pointed.last.ephemeral and "Played ７六歩 (P-7f)" in pointed.last.content
    newest = club.fake.channel_history(table.thread)[-1]
    assert "７六歩" in newest.content and any(c.startswith("mv:") for c in newest.custom_ids)
    # The next player points too.
    await point(club, table, bob, "3c3d")
    assert await stored(club, table) == ["7g7f", "3c3d"]


async def test_a_spectator_and_the_waiting_player_are_told_privately(club: Club) -> None:
    table = await club.new_game()
    post, custom_id = move_button(club, table)
    for member, said in ((club.carol, "not a player"), (club.bob, "alice's move")):
        pressed = await club.fake.click(post, custom_id, user=member)
        assert pressed.ephemeral and said in pressed.content, pressed.content
        assert pressed.files == [] and pressed.custom_ids == []
    assert await stored(club, table) == []


async def test_a_step_after_a_takeback_is_refused_and_plays_nothing(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    opened = await open_picker(club, table, alice)
    picker = opened.reply
    assert picker is not None
    await club.fake.slash("takeback", user=bob, channel=table.thread)
    asked = [m for m in club.fake.channel_history(table.thread) if "take back" in m.content][-1]
    accept = next(c for c in asked.custom_ids if c.startswith("tb:accept:"))
    await club.fake.click(asked, accept, user=alice)
    await club.play(table, [(bob, "8c8d")])  # the same ply again, in another position
    assert await stored(club, table) == ["7g7f", "8c8d"]
    [shelf] = [c for c in picker.custom_ids if c.startswith("pk:")]
    stale = await club.fake.choose(picker, shelf, "2g", user=alice)
    assert stale.ephemeral and "The game has moved on: press Move again." in stale.content
    assert await stored(club, table) == ["7g7f", "8c8d"]


async def test_a_double_press_plays_the_move_once(club: Club) -> None:
    alice = club.alice
    table = await club.new_game()
    picker, shelf = await board_shelf(club, table)
    await club.fake.choose(picker, shelf, "2g", user=alice)
    square = next(c for c in picker.custom_ids if c.startswith("pd:"))
    channel = club.fake.channels[picker.channel_id]
    presses = [
        await club.fake.forge_choice(picker, square, ["2f"], user=alice, channel=channel)
        for _ in range(2)
    ]
    await asyncio.gather(*(p.wait_final() for p in presses))
    assert await stored(club, table) == ["2g2f"]
    boards = [m for m in club.fake.channel_history(table.thread) if "２六歩" in m.content]
    assert len(boards) == 1
    refused = [p for p in presses if "moved on" in p.content or "changed" in p.content]
    assert len(refused) == 1, [p.content for p in presses]


async def test_a_choice_survives_a_restart(club: Club) -> None:
    alice = club.alice
    table = await club.new_game()
    picker, shelf = await board_shelf(club, table)
    await club.fake.choose(picker, shelf, "7g", user=alice)
    await club.restart()
    square = next(c for c in picker.custom_ids if c.startswith("pd:"))
    played = await club.fake.choose(picker, square, "7f", user=alice)
    assert "Played ７六歩" in played.content
    assert await stored(club, table) == ["7g7f"]


async def test_slash_move_without_text_opens_the_picker(club: Club) -> None:
    table = await club.new_game()
    opened = await club.fake.slash("move", {}, user=club.alice, channel=table.thread)
    assert opened.ephemeral and opened.content.startswith("Your move: choose a piece")
    await point(club, table, club.alice, "2g2f", opened=opened)
    assert await stored(club, table) == ["2g2f"]


async def play_record_by_pointing(club: Club, name: str, plies: int) -> list[int]:
    """The first `plies` moves of a record, every one by pointing; the taps of each."""
    record = read_record((RECORDS / name).read_bytes())
    moves = [move.usi() for move in record.game.moves[:plies]]
    table = await club.new_game()
    players = (club.alice, club.bob)
    taps = []
    for ply, usi in enumerate(moves):
        taps.append((await point(club, table, players[ply % 2], usi)).taps)
    assert await stored(club, table) == moves
    return taps


async def test_a_whole_game_by_pointing(club: Club) -> None:
    taps = await play_record_by_pointing(club, "kfjs_20091203.ki2u", 400)
    assert len(taps) == 172 and 3 in taps  # promotions asked and drops' files on the way
    assert sorted(taps)[len(taps) // 2] == 2  # the median move is two taps


async def test_a_drop_on_more_than_25_squares_takes_a_file_first(japanese_club: Club) -> None:
    club = japanese_club
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d"), (alice, "8h2b+"), (bob, "3a2b")])
    opened = await open_picker(club, table, alice)
    picker = opened.reply
    assert picker is not None
    assert_japanese(picker)
    shelves = [c for c in picker.custom_ids if c.startswith("pk:")]
    assert len(shelves) == 2  # the board and the hand
    hand = next(c for c in shelves if c.endswith(":h"))
    await club.fake.choose(picker, hand, "B*", user=alice)
    assert "持ち駒 角" in picker.content and "筋" in picker.content
    assert any(c.startswith("pf:") for c in picker.custom_ids)
    assert not any(c.startswith("pd:") for c in picker.custom_ids)
    alt = picker.attachments[-1].description or ""
    assert "持ち駒 角" in alt and "５五" in alt
    pointed = await point(club, table, alice, "B*5e", opened=opened)
    assert pointed.taps == 3
    assert (await stored(club, table))[-1] == "B*5e"
    assert "５五角打" in pointed.last.content or "５五角" in pointed.last.content
    # Promote / Don't promote, asked in Japanese.
    await club.play(table, [(bob, "8c8d")])
    pointed = await point(club, table, alice, "5e2b+")  # takes the silver, promoting
    assert pointed.taps == 3 and (await stored(club, table))[-1] == "5e2b+"
    assert_japanese(pointed.picker)


async def test_a_japanese_game_by_pointing(japanese_club: Club) -> None:
    taps = await play_record_by_pointing(japanese_club, "bioshogi_sample.csa", 400)
    assert len(taps) == 113 and max(taps) <= 4


#: Sente has 27 pieces on the board that can move, more than a select holds, and knights
#: and lances in hand to drop (the pawns in hand have no file left).
CROWDED = "4k4/9/+P1+P1+P1+P1+P/R7R/1G1G1G1G1/S1S3S1S/PPPPPPPPP/NB5BN/2L1K1L2 b 2N2L4P 1"


async def test_more_movable_pieces_than_a_select_holds(club: Club) -> None:
    alice = club.alice
    table = await club.new_game(start=CROWDED)
    opened = await club.fake.slash("move", {}, user=alice, channel=table.thread)
    picker = opened.reply
    assert picker is not None, opened.content
    shelves = [c for c in picker.custom_ids if c.startswith("pk:")]
    assert [c[-1] for c in shelves] == ["b", "c", "h"]
    board = offered(picker, shelves[0]) + offered(picker, shelves[1])
    assert len(board) == 27 and len(set(board)) == 27
    assert sorted(offered(picker, shelves[2])) == ["L*", "N*"]
    # The lance's drop: three piece selects, the files and the squares fill the five rows.
    pointed = await point(club, table, alice, "L*5d", opened=opened)
    assert pointed.taps == 3 and await stored(club, table) == ["L*5d"]
    await club.play(table, [(club.bob, "5a4a")])
    again = await club.fake.slash("move", {}, user=alice, channel=table.thread)
    assert again.reply is not None
    # The least likely piece, in the second select of the board's, is played as well.
    second = next(c for c in again.reply.custom_ids if c.startswith("pk:") and c.endswith(":c"))
    await club.fake.choose(again.reply, second, offered(again.reply, second)[-1], user=alice)
    squares = next(c for c in again.reply.custom_ids if c.startswith("pd:"))
    target = offered(again.reply, squares)[0]
    played = await club.fake.choose(again.reply, squares, target, user=alice)
    assert "Played" in played.content, played.content
    assert len(await stored(club, table)) == 3


async def test_a_choice_forged_by_another_member_or_not_offered_plays_nothing(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game()
    picker, shelf = await board_shelf(club, table)
    channel = club.fake.channels[picker.channel_id]
    for member, values, said in (
        (bob, ["7g"], "alice's move"),
        (carol, ["7g"], "not a player"),
        (alice, ["5e"], "not on offer"),  # no piece of hers there
        (alice, ["P*"], "not on offer"),  # a drop in the board's select
        (alice, ["7g", "2g"], "not on offer"),
    ):
        forged = await club.fake.forge_choice(picker, shelf, values, user=member, channel=channel)
        await forged.wait_final()
        assert forged.ephemeral and said in forged.content, (values, forged.content)
    await club.fake.choose(picker, shelf, "7g", user=alice)
    square = next(c for c in picker.custom_ids if c.startswith("pd:"))
    forged = await club.fake.forge_choice(picker, square, ["7e"], user=alice, channel=channel)
    await forged.wait_final()
    assert "not on offer" in forged.content  # a pawn goes one square
    assert await stored(club, table) == []
    assert len(club.fake.channel_history(table.thread)) == 1  # the start's board only

"""The board in its three forms end to end: the final board and the game's GIF at every
ending, `/export format:gif`, `/board style:text`, and alt text that says the position."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageSequence

from render import board as drawing
from render import layout, render_board
from rules import Color, Position, Square
from tests.fakediscord import FakeAttachment, FakeMessage
from tests.support.boardwords import alt_text_position, board_part, diagram_position
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese

MATE = ["7g7f", "3c3d", "8h2b+", "4a5b", "B*4b", "5a4a", "2b3a"]  # alice (sente) mates


def frames(attachment: FakeAttachment) -> list[Image.Image]:
    with Image.open(io.BytesIO(attachment.data)) as gif:
        assert gif.format == "GIF" and gif.info["loop"] == 0
        return [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]


def picture(attachment: FakeAttachment) -> Image.Image:
    with Image.open(io.BytesIO(attachment.data)) as png:
        assert png.format == "PNG"
        return png.convert("RGB")


def colours(image: Image.Image, box: layout.Box) -> set[object]:
    found = image.crop(box).getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _count, colour in found}


def by_suffix(message: FakeMessage, suffix: str) -> FakeAttachment:
    [found] = [a for a in message.attachments if a.filename.endswith(suffix)]
    return found


async def play(club: Club, table: Table, moves: list[str]) -> None:
    players = [club.alice, club.bob]
    await club.play(table, [(players[i % 2], usi) for i, usi in enumerate(moves)])


async def test_resignation_posts_the_final_board_and_the_whole_game_as_a_gif(club: Club) -> None:
    table = await club.new_game()
    await play(club, table, MATE[:3])
    await club.resign(table, club.bob)
    [ending] = await club.posts(table.thread, "resigned")
    assert [a.filename.rsplit(".", 1)[1] for a in ending.attachments] == ["png", "gif"]
    final = picture(by_suffix(ending, ".png"))
    # the result where the turn pill was: nobody is shown to move, the red result pill
    for band in (layout.HEADER, layout.FOOTER):
        assert drawing.PILL not in colours(final, band)
    assert drawing.RED in colours(final, layout.FOOTER)
    game = await club.game(table.game_id)
    resigned_king = layout.square_box(game.game.position.king_square(game.turn))
    assert drawing.RESIGNED in colours(final, resigned_king)

    gif = by_suffix(ending, ".gif")
    assert (gif.content_type, gif.payload()["width"]) == ("image/gif", layout.WIDTH)
    shown = frames(gif)
    assert len(shown) == len(MATE[:3]) + 1
    assert ImageChops.difference(shown[-1], final).getbbox() is None  # ends on the final board
    for attachment in ending.attachments:
        assert attachment.description is not None and len(attachment.description) <= 1024
        assert alt_text_position("en", attachment.description) == board_part(game.game.position)
    assert "Gote to move" not in (by_suffix(ending, ".png").description or "")
    assert "Sente wins by resignation" in (by_suffix(ending, ".png").description or "")


async def test_the_mating_move_is_marked_and_its_answer_carries_the_gif(club: Club) -> None:
    table = await club.new_game()
    await play(club, table, MATE[:-1])
    mate = await club.move(club.alice, MATE[-1], table)
    answer = mate.reply
    assert answer is not None and "Checkmate" in answer.content
    assert [a.filename.rsplit(".", 1)[1] for a in answer.attachments] == ["png", "gif"]
    final = picture(by_suffix(answer, ".png"))
    shown = frames(by_suffix(answer, ".gif"))
    assert len(shown) == len(MATE) + 1
    assert ImageChops.difference(shown[-1], final).getbbox() is None
    mating = layout.square_box(Square.from_usi("3a"))  # where the horse gave mate
    assert drawing.CHECK_EDGE in colours(final, mating)
    assert drawing.LAST in colours(final, mating)
    before = picture(by_suffix(club.bot_posts(table.thread, "５二金左")[-1], ".png"))
    last_move = layout.square_box(Square.from_usi("5b"))  # an ordinary last move: no frame
    assert drawing.CHECK_EDGE not in colours(before, last_move)


async def test_an_aborted_game_has_no_gif(club: Club) -> None:
    table = await club.new_game()
    await play(club, table, MATE[:1])
    await club.fake.slash("abort", user=club.bob, channel=table.thread)
    [note] = await club.posts(table.thread, "aborted")
    assert [a.filename.rsplit(".", 1)[1] for a in note.attachments] == ["png"]


async def test_export_gives_an_active_games_gif_up_to_its_current_move(club: Club) -> None:
    table = await club.new_game()
    await play(club, table, MATE[:2])
    export = await club.fake.slash(
        "export", {"format": "gif"}, user=club.alice, channel=table.thread
    )
    assert not export.ephemeral
    assert f"Game #{table.game_id} as an animation, from the start to move 2." in export.content
    [gif] = export.files
    assert gif.filename == f"game-{table.game_id}.gif"
    shown = frames(gif)
    assert len(shown) == 3
    board = await club.fake.slash("board", user=club.alice, channel=table.thread)
    [png] = board.files
    assert ImageChops.difference(shown[-1], picture(png)).getbbox() is None
    game = await club.game(table.game_id)
    assert alt_text_position("en", gif.description or "") == board_part(game.game.position)
    # a spectator's export is private by default, and the same animation
    watched = await club.fake.slash(
        "export", {"format": "gif"}, user=club.carol, channel=table.thread
    )
    assert watched.ephemeral and watched.files[0].data == gif.data


async def test_board_as_text_in_english(club: Club) -> None:
    table = await club.new_game()
    await play(club, table, MATE[:3])
    shown = await club.fake.slash("board", {"style": "text"}, user=club.bob, channel=table.thread)
    assert shown.files == [] and not shown.ephemeral
    assert "```" in shown.content and "Gote to move" in shown.content
    assert len(shown.content) <= 2000
    game = await club.game(table.game_id)
    assert diagram_position("en", shown.content) == board_part(game.game.position)
    assert "Sente in hand: bishop." in shown.content


async def test_board_text_gif_and_alt_text_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    await play(club, table, MATE[:3])
    shown = await club.fake.slash("board", {"style": "text"}, user=club.bob, channel=table.thread)
    game = await club.game(table.game_id)
    assert diagram_position("ja", shown.content) == board_part(game.game.position)
    assert "先手の持駒：角" in shown.content and "後手番" in shown.content
    picture_board = await club.fake.slash("board", user=club.bob, channel=table.thread)
    [png] = picture_board.files
    assert alt_text_position("ja", png.description or "") == board_part(game.game.position)
    await club.resign(table, club.bob)
    [ending] = await club.posts(table.thread, "投了")
    gif = by_suffix(ending, ".gif")
    assert len(frames(gif)) == 4
    assert "まで3手で先手の勝ち（投了）" in (gif.description or "")
    export = await club.fake.slash(
        "export", {"format": "gif"}, user=club.alice, channel=table.thread
    )
    assert "再生" in export.content and export.files[0].data == gif.data
    assert_japanese(shown, picture_board, ending, export)


async def test_hanakos_flower_is_on_the_board(japanese_club: Club) -> None:
    club = japanese_club  # はなこ🌸 plays gote: her name is drawn above the board
    table = await club.new_game()
    [image] = table.start.attachments
    posted = picture(image).crop(layout.name_box(Color.GOTE))

    def header(name: str) -> Image.Image:
        drawn = render_board(Position.initial(), sente_name="山田太郎", gote_name=name)
        with Image.open(io.BytesIO(drawn)) as png:
            return png.convert("RGB").crop(layout.name_box(Color.GOTE))

    assert ImageChops.difference(posted, header("はなこ🌸")).getbbox() is None
    flower = ImageChops.difference(posted, header("はなこ")).getbbox()
    assert flower is not None  # drawn, not dropped
    left, _top, right, _bottom = flower
    # Where "はなこ" ends, the flower's pixels: drawn on the paper, not left blank.
    drawn = posted.crop((left, 0, right, posted.height))
    paper = drawing.PAGE
    assert sum(count for count, c in drawn.getcolors(1 << 16) or [] if c != paper) > 40

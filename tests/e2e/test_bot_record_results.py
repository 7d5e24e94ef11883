"""`/board` of a record says how the record ended, end to end through the real client and
the fake Discord: the bot's own exports pasted on one line (as Discord's text box sends
them), shown at their last move (the result drawn on the board, as a finished game's final
board shows it, and said in the caption and the alt text) and at an earlier move (the
result said under that move's caption), in English and in Japanese as a KIF ends
(まで3手で先手の勝ち), a handicap record naming the giver and the receiver."""

from __future__ import annotations

import io

from PIL import Image

from rules import Color, Game, Position
from rules.notation import write_ki2, write_kif
from tests.fakediscord import InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese


def resigned(game: Game, color: Color) -> Game:
    game.resign(color)
    return game


EVEN = resigned(Game(moves=["7g7f", "3c3d", "2g2f"]), Color.GOTE)  # sente wins at move 3
HANDICAP = resigned(Game(Position.initial("two_piece"), ["5a4b", "7g7f"]), Color.SENTE)


def alt_text(result: InteractionResult) -> str:
    """The alt text of the answer's image, which must be a PNG."""
    [image] = result.files
    with Image.open(io.BytesIO(image.data)) as picture:
        assert picture.format == "PNG"
    assert image.description is not None
    return image.description


async def paste(club: Club, record: str, **options: object) -> InteractionResult:
    one_line = record.replace("\n", " ")
    return await club.fake.slash(
        "board", {"position": one_line, **options}, user=club.carol, channel=club.channel
    )


async def test_a_record_s_result_is_shown_at_its_end_and_before(club: Club) -> None:
    ki2 = write_ki2(EVEN, sente="Ann Lee", gote="はなこ🌸", comments={1: ["a quiet start"]})
    end = await paste(club, ki2)
    assert "☗Ann Lee vs ☖はなこ🌸 · move 3 of 3" in end.content
    assert "Sente won by resignation at move 3." in end.content
    assert "to move" not in end.content  # nobody moves after a resignation
    alt = alt_text(end)
    assert alt.startswith("Shogi board. Move 3 · Sente wins by resignation.")
    assert "won by resignation" not in alt  # said once

    earlier = await paste(club, ki2, at_move=1)
    assert "Move 1 · Gote to move" in earlier.content
    assert "Sente won by resignation at move 3." in earlier.content
    alt = alt_text(earlier)
    assert alt.startswith("Shogi board. Move 1 · Gote to move. Sente won by resignation at move 3.")


async def test_a_record_without_a_result_says_none(club: Club) -> None:
    going_on = await paste(club, write_kif(Game(moves=["7g7f"]), sente="Ann", gote="Bo"))
    assert "Move 1 · Gote to move" in going_on.content and " won " not in going_on.content
    assert " won " not in alt_text(going_on)


async def test_a_record_s_result_in_japanese_names_the_handicap_sides(japanese_club: Club) -> None:
    kif = write_kif(HANDICAP, sente="はなこ🌸", gote="先生")
    assert "まで2手で上手の勝ち" in kif
    end = await paste(japanese_club, kif)
    assert "まで2手で上手の勝ち。" in end.content
    assert alt_text(end).startswith("将棋盤。まで2手で上手の勝ち（投了）。")
    earlier = await paste(japanese_club, kif, at_move=1)
    assert "まで2手で上手の勝ち。" in earlier.content
    assert "まで2手で上手の勝ち。" in alt_text(earlier)
    assert_japanese(end, earlier)

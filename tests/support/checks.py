"""Checks many bot tests make: a board is a real PNG, a stored game replays legally."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot.services import GameSnapshot
from rules import Game
from tests.fakediscord import FakeAttachment


def png_width(attachment: FakeAttachment) -> int:
    """Decode the attachment with Pillow (fails unless it is a PNG) and return its width."""
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "PNG", f"{attachment.filename} is {image.format}, not a PNG"
        image.load()
        return image.width


def assert_board(attachments: list[FakeAttachment], min_width: int = 720) -> None:
    """The board image (the PNG among the attachments; an ending also carries the game's
    GIF) is at least ``min_width`` pixels wide."""
    boards = [a for a in attachments if a.filename.endswith(".png")]
    assert boards, f"expected a board image among {[a.filename for a in attachments]}"
    assert png_width(boards[-1]) >= min_width


def assert_replays(view: GameSnapshot) -> None:
    """The stored move list replays legally to the stored position."""
    replayed = Game(view.game.start.sfen(), [m.usi() for m in view.game.moves])
    assert replayed.position.sfen() == view.game.position.sfen()
    assert len(replayed.moves) == view.ply


_POSITION_MARK = re.compile(r":h[0-9a-f]{8}$")


def without_mark(custom_id: str) -> str:
    """A button's id without the position mark the bot adds (`pr:7:2:8h2b+:h1a2b3c4d` is
    `pr:7:2:8h2b+`): tests name buttons by game, ply and move."""
    return _POSITION_MARK.sub("", custom_id)


def button_id(custom_ids: list[str], unmarked: str) -> str:
    """The one id among `custom_ids` that is `unmarked` once its position mark is off."""
    [found] = [c for c in custom_ids if without_mark(c) == unmarked]
    return found


def record_text(attachment: FakeAttachment) -> str:
    """An exported record's text as a program reading the file gets it: `.kif` and `.ki2`
    in Shift_JIS with CR LF, the others in UTF-8."""
    shift_jis = attachment.filename.endswith((".kif", ".ki2"))
    return attachment.data.decode("cp932" if shift_jis else "utf-8").replace("\r\n", "\n")

"""Playing a move by pointing through the real bot: Move under the board (or `/move`
without text), a piece, a file when a drop has more squares than a select holds, a
square, and Promote / Don't promote when both are legal; counting the taps."""

from __future__ import annotations

from dataclasses import dataclass

from tests.fakediscord import FakeMember, FakeMessage, InteractionResult
from tests.support.club import Club, Table


@dataclass
class Pointed:
    """What pointing one move took: the taps (Move not counted, as the typed `/move` is
    not), the private messages it went through, and the last answer."""

    taps: int
    picker: FakeMessage
    last: InteractionResult


def move_button(club: Club, table: Table) -> tuple[FakeMessage, str]:
    """The newest board post in the game's thread with a Move button, and its id."""
    for message in reversed(club.fake.channel_history(table.thread)):
        ids = [c for c in message.custom_ids if c.startswith("mv:")]
        if ids:
            return message, ids[0]
    raise AssertionError("no board with a Move button in the thread")


def offered(message: FakeMessage, custom_id: str) -> list[str]:
    """The values the select `custom_id` of `message` offers."""
    select = message.component(custom_id) or {}
    return [option["value"] for option in select.get("options", [])]


def select_id(message: FakeMessage, prefix: str) -> str | None:
    return next((c for c in message.custom_ids if c.startswith(prefix)), None)


def _newest_ply(club: Club, table: Table) -> int | None:
    """The ply of the newest board with a Move button in the thread (its id says it)."""
    try:
        _, custom_id = move_button(club, table)
    except AssertionError:
        return None
    return int(custom_id.split(":")[2])


async def open_picker(club: Club, table: Table, user: FakeMember) -> InteractionResult:
    """Move under the game's board, once the thread shows the board of the game's ply: the
    post of the move just played follows its answer, and a member presses what they see."""
    ply = (await club.game(table.game_id)).ply
    await club.fake.wait_for(
        lambda: _newest_ply(club, table) == ply, what=f"the board after move {ply} in the thread"
    )
    post, custom_id = move_button(club, table)
    return await club.fake.click(post, custom_id, user=user)


async def point(
    club: Club, table: Table, user: FakeMember, usi: str, *, opened: InteractionResult | None = None
) -> Pointed:
    """`user` plays `usi` by pointing (Move under the newest board unless `opened`)."""
    fake = club.fake
    opened = opened if opened is not None else await open_picker(club, table, user)
    assert opened.ephemeral and opened.reply is not None, opened.content
    picker = opened.reply
    piece = f"{usi[0]}*" if usi[1] == "*" else usi[:2]
    target = usi[2:4]
    shelves = [c for c in picker.custom_ids if c.startswith("pk:")]
    shelf = next(c for c in shelves if piece in offered(picker, c))
    last = await fake.choose(picker, shelf, piece, user=user)
    taps = 1
    files = select_id(picker, "pf:")
    if files is not None:
        last = await fake.choose(picker, files, target[0], user=user)
        taps += 1
    squares = select_id(picker, "pd:")
    assert squares is not None, (picker.content, picker.custom_ids)
    last = await fake.choose(picker, squares, target, user=user)
    taps += 1
    answers = [c for c in picker.custom_ids if c.startswith("pr:")]
    if answers:
        [answer] = [c for c in answers if c.split(":")[3] == usi]
        last = await fake.click(picker, answer, user=user)
        taps += 1
    return Pointed(taps, picker, last)

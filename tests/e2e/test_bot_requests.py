"""What each way of playing costs in requests to Discord, through the real bot, discord.py and
the fake Discord, which counts them by route and by whether Discord's global limit (50 a
second per bot token, interaction responses exempt) counts them.

Why pinned: that limit, not the bot's CPU, is what caps a large bot, so a feature that adds
a request to every move must show up here.  A move typed with /move in its own thread is
answered by the interaction response alone: it must never cost a global-limited request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable

from tests.fakediscord import (
    CALLBACK,
    CREATE_MESSAGE,
    MODIFY_CHANNEL,
    OPEN_DM,
    is_global_limited,
)
from tests.support.club import Club, Table
from tests.support.pointing import point

THREAD = "POST /channels/{channel_id}/messages/{message_id}/threads"
HISTORY = "GET /channels/{channel_id}/messages"
GET_ORIGINAL = "GET /webhooks/{application_id}/{token}/messages/{message_id}"


async def cost(
    club: Club, step: Awaitable[object], *, until: Callable[[], bool] | None = None
) -> Counter[str]:
    """The requests the bot made for ``step``, by route, once ``until`` holds (what the
    bot sends after the answer may come late on a busy machine) and the bot went quiet."""
    fake = club.fake
    await fake.wait_quiet()
    fake.request_counts.reset()
    await step
    if until is not None:
        await fake.wait_for(until, what="the step's last request")
    await fake.wait_quiet()
    return Counter(fake.request_counts.by_route)


def posted(club: Club, table: Table, move: str) -> bool:
    """Whether the bot's newest post in the game's thread shows ``move``."""
    return move in club.fake.last_message(table.thread).content


def limited(counts: Counter[str]) -> int:
    return sum(n for route, n in counts.items() if is_global_limited(route))


async def test_a_move_typed_in_its_thread_costs_one_exempt_response(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    # A plain move, a capture with promotion, a recapture, a drop: each one response.
    for member, move in ((alice, "7g7f"), (bob, "3c3d"), (alice, "8h2b+"), (bob, "3a2b")):
        spent = await cost(club, club.move(member, move, table))
        assert spent == {CALLBACK: 1}, (move, spent)
        assert club.fake.request_counts.global_limited == 0, move
    spent = await cost(club, club.move(alice, "B*4e", table))
    assert spent == {CALLBACK: 1} and club.fake.request_counts.global_limited == 0
    assert (await club.game(table.game_id)).ply == 5


async def test_a_start_and_a_resignation(club: Club) -> None:
    alice, bob = club.alice, club.bob
    tables = []

    async def start() -> None:
        tables.append(await club.new_game(alice, bob))

    # /challenge and Accept are answered; the thread is opened on the challenge's message
    # (read through the interaction's webhook) and the start board posted in it.
    spent = await cost(club, start())
    assert spent == {CALLBACK: 2, GET_ORIGINAL: 1, THREAD: 1, CREATE_MESSAGE: 1}, spent
    assert club.fake.request_counts.global_limited == limited(spent) == 2
    [table] = tables
    await club.move(alice, "7g7f", table)

    # /resign and its confirmation are answered; the ending is posted, the thread's history
    # read for questions and Move buttons to withdraw, and the thread archived.
    spent = await cost(club, club.resign(table, bob), until=lambda: table.thread.archived)
    assert spent == {CALLBACK: 2, CREATE_MESSAGE: 1, HISTORY: 1, MODIFY_CHANNEL: 1}, spent
    assert club.fake.request_counts.global_limited == 3
    assert not (await club.game(table.game_id)).is_active


async def test_a_move_typed_elsewhere_posts_its_board_in_the_thread(club: Club) -> None:
    table = await club.new_game(club.alice, club.bob)
    elsewhere = club.fake.slash(
        "move", {"move": "P-7f", "game": str(table.game_id)}, user=club.alice, channel=club.channel
    )
    spent = await cost(club, elsewhere, until=lambda: posted(club, table, "７六歩"))
    assert spent == {CALLBACK: 1, CREATE_MESSAGE: 1}, spent
    assert club.fake.request_counts.global_limited == 1
    assert "７六歩" in club.fake.last_message(table.thread).content


async def test_a_move_by_pointing_and_by_mention_post_one_board(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    # Move, a piece, a square: three responses, then the public board in the thread.
    spent = await cost(
        club, point(club, table, alice, "7g7f"), until=lambda: posted(club, table, "７六歩")
    )
    assert spent == {CALLBACK: 3, CREATE_MESSAGE: 1}, spent
    assert club.fake.request_counts.global_limited == 1
    # A mention is a message, not an interaction: the board is a post.
    spent = await cost(
        club, club.say(bob, "3c3d", table.thread), until=lambda: posted(club, table, "３四歩")
    )
    assert spent == {CREATE_MESSAGE: 1}, spent
    assert (await club.game(table.game_id)).ply == 2


async def test_a_turn_message_costs_a_direct_message(club: Club) -> None:
    alice, bob = club.alice, club.bob
    await club.prefer(bob, notifications="each")
    table = await club.new_game(alice, bob)
    before = len(club.fake.direct_messages(bob))

    async def told(move: str, count: int) -> None:
        await club.move(alice, move, table)
        await club.fake.wait_for(
            lambda: len(club.fake.direct_messages(bob)) == count, what="bob's turn message"
        )

    # The direct channel with bob was opened when he was challenged: one post per turn.
    spent = await cost(club, told("7g7f", before + 1))
    assert spent == {CALLBACK: 1, CREATE_MESSAGE: 1}, spent
    await club.move(bob, "3c3d", table)
    spent = await cost(club, told("2g2f", before + 2))
    assert spent == {CALLBACK: 1, CREATE_MESSAGE: 1}, spent
    assert OPEN_DM not in spent

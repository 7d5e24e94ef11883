"""Who may do what: every action, tried by every kind of member, through the bot.

The table below is the specification.  Actors:

* ``right``: the member the action is for (the player to move, the challenged member, ...);
* ``opponent``: the other player of the game (or the other side of the challenge);
* ``stranger``: a member of the same server who plays in neither;
* ``bot``: a bot account in the same server;
* ``other server``: a member of another server the bot is in, who is not in the game's
  server (the game id typed in, a button's custom_id forged from there).

A click on a button the actor can see is a real click (``fake.click``); a click on someone
else's ephemeral message, or from another server, is forged: the interaction is sent with
the button's custom_id, which is what a modified client can do, so the bot must check.

An allowed action must have its effect (stored) and a refused one must leave everything as
it was and answer the actor with an ephemeral sentence.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.services import GameService, PlayerRef
from rules import Color
from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeMessage,
    InteractionResult,
)
from tests.support.clock import FakeClock
from tests.support.club import Club

from .inputs import sentence_problems

ACTORS = ("right", "opponent", "stranger", "bot", "other server")
DECLARABLE = "4K4/GGGGSSSS1/PPPPPPPPP/9/9/9/9/9/4k4 b 2R2B4l4n9p 1"


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember
    robo: FakeMember
    other_guild: FakeGuild
    other_channel: FakeChannel
    dave: FakeMember
    alice_elsewhere: FakeMember
    club: Club

    @property
    def clock(self) -> FakeClock:
        return self.club.clock

    @property
    def service(self) -> GameService:
        return self.club.service


def ref(member: FakeMember) -> PlayerRef:
    return PlayerRef(member.id, member.user.username)


@dataclass
class Scenario:
    """Fresh state for one row, and what the row does."""

    right: FakeMember
    opponent: FakeMember
    act: Callable[[FakeMember, FakeChannel], Awaitable[InteractionResult | None]]
    state: Callable[[], Awaitable[Any]]
    #: Did the allowed action take effect? (given state before, state after, actor)
    took_effect: Callable[[Any, Any, FakeMember], bool]
    channel: FakeChannel  # where the action is taken (a thread, or the challenge channel)
    read_only: bool = False
    cleanup: Callable[[], Awaitable[None]] | None = None


# ------------------------------------------------------------------ making state


async def new_game(
    w: World, *, sfen: str | None = None, impasse: str = "27", moves: tuple[str, ...] = ()
) -> tuple[int, FakeChannel]:
    """A game between Alice (sente) and Bob, with its own thread, made through the service."""
    challenge = await w.service.challenges.offer(
        guild_id=w.guild.id, channel_id=w.channel.id, challenger=ref(w.alice),
        opponent=ref(w.bob), color="sente", time_control="3d", impasse_rule=impasse,
        start_sfen=sfen,
    )  # fmt: skip
    game = await w.service.challenges.accept(challenge.id, w.bob.id)
    thread = w.fake.add_thread(w.channel, f"game {game.id}", owner=w.alice)
    await w.service.games.set_thread(game.id, thread.id)
    for text in moves:
        view = await w.service.games.get(game.id)
        assert view.to_move is not None
        await w.service.moves.play(game.id, view.to_move.user_id, text)
    return game.id, thread


def game_state(w: World, game_id: int) -> Callable[[], Awaitable[Any]]:
    async def state() -> Any:
        view = await w.service.games.get(game_id)
        outcome = view.outcome
        return {
            "ply": view.ply,
            "status": view.status,
            "termination": None if outcome is None else outcome.termination.value,
            "winner": None if outcome is None or outcome.winner is None else outcome.winner,
            "proposal": view.pending_count_proposal,
            "deadline": view.deadline,
            "takebacks": [t.status for t in await w.service.takebacks.history(game_id)],
            "view": view,
        }

    return state


def challenge_state(w: World, challenge_id: int) -> Callable[[], Awaitable[Any]]:
    async def state() -> Any:
        return {"status": (await w.service.challenges.get(challenge_id)).status}

    return state


def member_in_game(w: World, view: Any, color: Color) -> FakeMember:
    return w.guild.members[view.player(color).user_id]


async def slash(w: World, command: str, options: dict[str, Any], actor: FakeMember,
                channel: FakeChannel) -> InteractionResult:  # fmt: skip
    if actor is w.dave:
        channel = w.other_channel
    return await w.fake.slash(command, options, user=actor, channel=channel)


async def click(
    w: World, message: FakeMessage, custom_id: str, actor: FakeMember, *, visible: bool
) -> InteractionResult | None:
    """A real click where the actor can see the button, else a forged interaction.

    From another server the click is forged on a message there: Discord (and discord.py,
    which looks the custom_id up on the interaction's message) cannot deliver it, so the
    bot must ignore it; None is returned after a quiet moment.
    """
    if visible and actor is not w.dave:
        return await w.fake.click(message, custom_id, user=actor)
    channel = w.fake.channels[message.channel_id]
    where = message
    if actor is w.dave:
        channel = w.other_channel
        where = await w.fake.say(w.other_channel, w.dave, "hello")
    result = await w.fake.forge_click(where, custom_id, user=actor, channel=channel)
    if actor is w.dave:
        await w.fake.wait_quiet(0.1)
        return None if result.response_type is None else result
    return await result.wait_final()


def button(result: InteractionResult | list[FakeMessage], prefix: str) -> tuple[FakeMessage, str]:
    messages = result.messages if isinstance(result, InteractionResult) else result
    for message in reversed(messages):
        for cid in message.custom_ids:
            if cid.startswith(prefix):
                return message, cid
    raise AssertionError(f"no button {prefix!r} in {[m.custom_ids for m in messages]}")


# ------------------------------------------------------------------ the actions


async def scenario_move(w: World) -> Scenario:
    game_id, thread = await new_game(w)
    mover, other = w.alice, w.bob

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult:
        text = "7g7f" if actor is not other else "3c3d"
        return await slash(w, "move", {"move": text, "game": str(game_id)}, actor, channel)

    return Scenario(mover, other, act, game_state(w, game_id),
                    lambda a, b, _: b["ply"] == a["ply"] + 1, thread)  # fmt: skip


async def scenario_resign(w: World) -> Scenario:
    """/resign asks, the ephemeral Yes button confirms; each player may resign himself.
    The question is Alice's; others press her button with a forged click. Both have
    moved (before that a resignation aborts the game, as `scenario_abort` does)."""
    game_id, thread = await new_game(w, moves=("7g7f", "3c3d", "2g2f"))
    asked = await w.fake.slash("resign", {"game": str(game_id)}, user=w.alice, channel=thread)
    message, cid = button(asked, "rs:")

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        if actor is not w.alice:  # /resign itself must refuse a non-player
            own = await slash(w, "resign", {"game": str(game_id)}, actor, channel)
            if actor in (w.carol, w.robo, w.dave) and (own.custom_ids or not own.ephemeral):
                return own  # offered a resignation button: reported by the row check
        return await click(w, message, cid, actor, visible=actor is w.alice)

    def took(a: Any, b: Any, actor: FakeMember) -> bool:
        loser = b["view"].color_of(actor.id)
        return b["termination"] == "resignation" and loser is not None and b["winner"] is not loser

    return Scenario(w.alice, w.bob, act, game_state(w, game_id), took, thread)


async def scenario_abort(w: World) -> Scenario:
    game_id, thread = await new_game(w, moves=("7g7f",))

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult:
        return await slash(w, "abort", {"game": str(game_id)}, actor, channel)

    return Scenario(w.alice, w.bob, act, game_state(w, game_id),
                    lambda a, b, _: b["termination"] == "abort", thread)  # fmt: skip


async def scenario_challenge(w: World, action: str) -> Scenario:
    """Alice challenges Bob in the channel; the buttons on the public message."""
    posted = await w.fake.slash("challenge", {"opponent": w.bob}, user=w.alice, channel=w.channel)
    message, cid = button(posted, f"ch:{action}:")
    challenge_id = int(cid.rsplit(":", 1)[1])
    right, opponent = (w.alice, w.bob) if action == "cancel" else (w.bob, w.alice)
    expected = {
        "accept": "accepted",
        "accept_unrated": "accepted",
        "decline": "declined",
        "cancel": "cancelled",
    }[action]

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=True)

    async def cleanup() -> None:  # the next row challenges again between the same two
        if (await w.service.challenges.get(challenge_id)).status == "open":
            await w.service.challenges.cancel(challenge_id, w.alice.id)
        # Past the wait after a decline, and past the challenges sent Bob lately.
        w.clock.advance(w.service.budgets.rechallenge_after)

    return Scenario(right, opponent, act, challenge_state(w, challenge_id),
                    lambda a, b, _: b["status"] == expected, w.channel,
                    cleanup=cleanup)  # fmt: skip


async def scenario_open_challenge(w: World) -> Scenario:
    """Alice challenges anyone: any member but her may accept, in this server only."""
    posted = await w.fake.slash("challenge", {}, user=w.alice, channel=w.channel)
    message, cid = button(posted, "ch:accept:")
    challenge_id = int(cid.rsplit(":", 1)[1])

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=actor is not w.dave)

    async def cleanup() -> None:
        if (await w.service.challenges.get(challenge_id)).status == "open":
            await w.service.challenges.cancel(challenge_id, w.alice.id)

    return Scenario(w.bob, w.alice, act, challenge_state(w, challenge_id),
                    lambda a, b, _: b["status"] == "accepted", w.channel,
                    cleanup=cleanup)  # fmt: skip


async def scenario_rematch(w: World) -> Scenario:
    """Under the ending of a game Bob resigned: Rematch is for either player."""
    game_id, thread = await new_game(w, moves=("7g7f",))
    ended = await w.service.endings.resign(game_id, w.bob.id)
    await w.service.store.events.ending_unannounced(ended)
    await w.fake.wait_for(
        lambda: any(f"rm:{game_id}" in m.custom_ids for m in w.fake.channel_history(thread)),
        what="the ending with its Rematch button",
    )
    message, cid = button(w.fake.channel_history(thread), "rm:")

    async def state() -> Any:
        async with w.service.store.db.read() as tx:
            offered = await tx.challenges.rematch_of(game_id)
        return {"rematch": None if offered is None else offered.challenger.user_id}

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=actor is not w.dave)

    async def cleanup() -> None:  # the next row's game is challenged between the same two
        async with w.service.store.db.read() as tx:
            offered = await tx.challenges.rematch_of(game_id)
        if offered is not None:
            await w.service.challenges.cancel(offered.id, offered.challenger.user_id)

    return Scenario(w.alice, w.bob, act, state,
                    lambda a, b, actor: b["rematch"] == actor.id, thread,
                    cleanup=cleanup)  # fmt: skip


async def scenario_promotion(w: World) -> Scenario:
    """Bx2b leaves the promotion open: Alice gets Promote / Don't promote (ephemeral)."""
    game_id, thread = await new_game(w, moves=("7g7f", "3c3d"))
    asked = await w.fake.slash("move", {"move": "Bx2b", "game": str(game_id)}, user=w.alice,
                               channel=thread)  # fmt: skip
    message, cid = button(asked, "pr:")

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=actor is w.alice)

    return Scenario(w.alice, w.bob, act, game_state(w, game_id),
                    lambda a, b, _: b["ply"] == a["ply"] + 1, thread)  # fmt: skip


async def scenario_confirm(w: World) -> Scenario:
    """Alice confirms her moves: /move P-7f shows her the board with Confirm (ephemeral)."""
    await w.service.preferences.change(w.alice.id, confirm_moves=True)
    game_id, thread = await new_game(w)
    asked = await w.fake.slash("move", {"move": "P-7f", "game": str(game_id)}, user=w.alice,
                               channel=thread)  # fmt: skip
    message, cid = button(asked, "cf:play:")

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=actor is w.alice)

    return Scenario(w.alice, w.bob, act, game_state(w, game_id),
                    lambda a, b, _: b["ply"] == a["ply"] + 1, thread)  # fmt: skip


async def scenario_jishogi(w: World, action: str) -> Scenario:
    """Both kings entered; /jishogi in the thread shows the buttons (public)."""
    rule = "27" if action == "declare" else "24"
    game_id, thread = await new_game(w, sfen=DECLARABLE, impasse=rule)
    right, opponent = w.alice, w.bob
    if action == "accept":  # Alice proposed; accepting is Bob's
        await w.service.impasse.propose_count(game_id, w.alice.id)
        right, opponent = w.bob, w.alice
    shown = await w.fake.slash(
        "jishogi", {"game": str(game_id), "public": True}, user=w.carol, channel=thread
    )
    message, cid = button(shown, f"js:{action}:")

    def took(a: Any, b: Any, actor: FakeMember) -> bool:
        if action == "propose":
            return b["proposal"] is not None and b["proposal"] is b["view"].color_of(actor.id)
        return b["termination"] in ("impasse27", "impasse24")

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=True)

    return Scenario(right, opponent, act, game_state(w, game_id), took, thread)


async def scenario_give_time(w: World) -> Scenario:
    """The reminder in the thread carries "Give more time"; it is for the waiting player."""
    game_id, thread = await new_game(w, moves=("7g7f",))
    w.clock.now += timedelta(days=2)
    view = await w.service.games.get(game_id)
    await w.service.store.events.deadline_reminder(view)
    await w.fake.wait_for(
        lambda: any(f"gt:{game_id}" in m.custom_ids for m in w.fake.channel_history(thread)),
        what="the reminder with its button",
    )
    message, cid = button(w.fake.channel_history(thread), "gt:")
    waiting = member_in_game(w, view, view.turn.opponent)
    to_move = member_in_game(w, view, view.turn)

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=True)

    return Scenario(waiting, to_move, act, game_state(w, game_id),
                    lambda a, b, _: b["deadline"] > a["deadline"], thread)  # fmt: skip


async def scenario_takeback_ask(w: World) -> Scenario:
    """Alice just moved: /takeback is hers to ask (Bob, to move, has no move of his yet)."""
    game_id, thread = await new_game(w, moves=("7g7f",))

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult:
        return await slash(w, "takeback", {"game": str(game_id)}, actor, channel)

    return Scenario(w.alice, w.bob, act, game_state(w, game_id),
                    lambda a, b, _: b["takebacks"] == ["pending"], thread)  # fmt: skip


async def scenario_takeback_answer(w: World, action: str) -> Scenario:
    """Alice asked to take her move back: the question in the thread is Bob's to answer."""
    game_id, thread = await new_game(w, moves=("7g7f",))
    await w.fake.slash("takeback", {"game": str(game_id)}, user=w.alice, channel=thread)
    message, cid = button(w.fake.channel_history(thread), f"tb:{action}:")

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult | None:
        return await click(w, message, cid, actor, visible=True)

    def took(a: Any, b: Any, _: FakeMember) -> bool:
        plies: int = a["ply"] - b["ply"]
        statuses: list[str] = b["takebacks"]
        if action == "accept":
            return plies == 1 and statuses == ["accepted"]
        return plies == 0 and statuses == ["declined"]

    return Scenario(w.bob, w.alice, act, game_state(w, game_id), took, thread)


async def scenario_read(w: World, command: str) -> Scenario:
    """/board of an active game, /export of a finished one: anyone in the server may, and
    post it for everyone when they ask (a spectator's answer is otherwise private)."""
    moves = ("7g7f", "3c3d")
    game_id, thread = await new_game(w, moves=moves)
    if command == "export":
        await w.service.endings.resign(game_id, w.bob.id)
    options: dict[str, Any] = {"game": str(game_id), "public": True}

    async def act(actor: FakeMember, channel: FakeChannel) -> InteractionResult:
        return await slash(w, command, options, actor, w.channel)

    return Scenario(w.alice, w.bob, act, game_state(w, game_id),
                    lambda a, b, _: True, thread, read_only=True)  # fmt: skip


ACTIONS: dict[str, Callable[[World], Awaitable[Scenario]]] = {
    "move": scenario_move,
    "resign": scenario_resign,
    "abort": scenario_abort,
    "accept": lambda w: scenario_challenge(w, "accept"),
    "accept unrated": lambda w: scenario_challenge(w, "accept_unrated"),
    "decline": lambda w: scenario_challenge(w, "decline"),
    "cancel": lambda w: scenario_challenge(w, "cancel"),
    "accept open challenge": scenario_open_challenge,
    "rematch": scenario_rematch,
    "promotion button": scenario_promotion,
    "confirm button": scenario_confirm,
    "jishogi declare": lambda w: scenario_jishogi(w, "declare"),
    "jishogi propose": lambda w: scenario_jishogi(w, "propose"),
    "jishogi accept": lambda w: scenario_jishogi(w, "accept"),
    "give more time": scenario_give_time,
    "takeback": scenario_takeback_ask,
    "takeback accept": lambda w: scenario_takeback_answer(w, "accept"),
    "takeback decline": lambda w: scenario_takeback_answer(w, "decline"),
    "board (spectator)": lambda w: scenario_read(w, "board"),
    "export finished game": lambda w: scenario_read(w, "export"),
}

#: Who may: the specification.  Both players may resign, abort, and propose the count.
ALLOWED: dict[str, set[str]] = {
    "move": {"right"},
    "resign": {"right", "opponent"},
    "abort": {"right", "opponent"},
    "accept": {"right"},
    "accept unrated": {"right"},
    "decline": {"right"},
    "cancel": {"right"},
    "accept open challenge": {"right", "stranger"},
    "rematch": {"right", "opponent"},
    "promotion button": {"right"},
    "confirm button": {"right"},
    "jishogi declare": {"right"},
    "jishogi propose": {"right", "opponent"},
    "jishogi accept": {"right"},
    "give more time": {"right"},
    "takeback": {"right"},
    "takeback accept": {"right"},
    "takeback decline": {"right"},
    "board (spectator)": {"right", "opponent", "stranger", "bot"},
    "export finished game": {"right", "opponent", "stranger", "bot"},
}


@pytest.fixture
async def world(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path,
                e2e_guard: E2EGuard) -> World:  # fmt: skip
    fake = fake_discord
    fake.settle = 0.02
    clock = FakeClock(datetime(2025, 3, 1, 12, 0, tzinfo=UTC))
    club = Club(fake, bot_runner, e2e_guard, tmp_path, clock)
    robo = fake.add_member(club.guild, "robo", bot=True)
    other = fake.add_guild("Other Club", channels=("lobby",))
    dave = fake.add_member(other, "dave")
    alice_elsewhere = fake.add_member(other, "alice", same_as=club.alice)  # the same person
    w = World(fake, club.guild, club.channel, club.alice, club.bob, club.carol, robo, other,
              fake.channel("lobby", other), dave, alice_elsewhere, club)  # fmt: skip
    await club.start()
    return w


def actor_member(w: World, scenario: Scenario, actor: str) -> FakeMember:
    return {
        "right": scenario.right,
        "opponent": scenario.opponent,
        "stranger": w.carol,
        "bot": w.robo,
        "other server": w.dave,
    }[actor]


async def run_row(w: World, action: str, actor: str) -> str | None:
    """One row: None if the bot did what the table says, else what went wrong."""
    scenario = await ACTIONS[action](w)
    member = actor_member(w, scenario, actor)
    before = await scenario.state()
    result = await scenario.act(member, scenario.channel)
    after = await scenario.state()
    if scenario.cleanup is not None:
        await scenario.cleanup()
    allowed = actor in ALLOWED[action]
    label = f"{action} by {actor}"
    changed = {k for k in before if k != "view" and before[k] != after[k]}
    if result is None:  # a click Discord could not deliver: ignored, nothing may change
        return f"{label}: an undeliverable click changed {sorted(changed)}" if changed else None
    if result.reply is None or not result.content.strip():
        return f"{label}: no answer ({result!r})"
    if scenario.read_only:
        shown = bool(result.files) and not result.ephemeral
        if shown != allowed:
            return f"{label}: {'shown' if shown else 'refused'} ({result.content[:120]!r})"
        return None
    if allowed:
        if not scenario.took_effect(before, after, member):
            return f"{label}: should be allowed, but {result.content[:160]!r} (changed {changed})"
        return None
    if changed:
        return f"{label}: should be refused, but it changed {sorted(changed)}: {result.content!r}"
    if not result.ephemeral:
        return f"{label}: refused publicly: {result.content[:160]!r}"
    problems = sentence_problems(result.content)
    if problems:
        return f"{label}: refusal is not a short sentence ({problems}): {result.content!r}"
    return None


@pytest.mark.parametrize("action", list(ACTIONS))
async def test_authority_table(world: World, action: str) -> None:
    wrong = [problem for actor in ACTORS if (problem := await run_row(world, action, actor))]
    assert not wrong, "\n".join(wrong)


async def test_a_player_cannot_move_through_another_server(world: World) -> None:
    """Alice is in both servers; her game lives in the first.  With ``game:`` typed in the
    second server, the bot must answer as it does for every other game id of another server
    (``resolve_game``: "There is no game #N in this server.") and store nothing."""
    w = world
    game_id, _thread = await new_game(w)
    result = await w.fake.slash("move", {"move": "7g7f", "game": str(game_id)},
                                user=w.alice_elsewhere, channel=w.other_channel)  # fmt: skip
    view = await w.service.games.get(game_id)
    assert view.ply == 0, f"the move was played from another server: {result.content!r}"
    assert result.ephemeral and "server" in result.content, result.content

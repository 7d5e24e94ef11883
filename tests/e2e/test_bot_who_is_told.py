"""The README's table "Who is told", walked row by row through the real bot, in an English and
a Japanese club: for each event, the members its post mentions (really pings) and the members
who get a direct message are exactly those the table names, with the member whose action it
was left out, in each recipient's language, with the link to the game or the challenge.

Both players turned their direct messages on; what each scenario expects comes from the
table (`bot.services.club.audience.TABLE`) and from who plays which role in it, which the
scenario says itself (who resigned, who won, who must answer).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest

from bot.services.club.audience import TABLE, Event, Role
from tests.fakediscord import BotRunner, E2EGuard, FakeChannel, FakeDiscord, FakeMember, FakeMessage
from tests.support.club import JAPANESE, Club, Table, open_club
from tests.support.computer_games import start
from tests.support.engines import fake_engine
from tests.support.japanese import english_in

LANGUAGES: dict[str, dict[str, object]] = {"en": {}, "ja": JAPANESE}
#: A game played here never ends by a foul: the rules refuse an illegal move before it is
#: played (a foul only comes in a record read with `/board`).
NEVER_IN_A_GAME = {Event.FOUL}

#: Sente mates with G*1b (the pawn on 1c guards the gold).
MATE_IN_ONE = "8k/9/8P/9/9/9/9/9/4K4 b G 1"
#: Sente's N*3c leaves gote's king on 1a no move, without check.
NO_MOVE_IN_ONE = "8k/9/7G1/9/9/9/9/9/4K4 b N 1"
#: Sente's dragon checks on ranks b and a, gote's king steps between 1b and 1a.
PERPETUAL = "9/8k/4+R4/9/9/9/9/9/4K4 b - 1"
PERPETUAL_MOVES = ["5c5b"] + ["1b1a", "5b5a", "1a1b", "5a5b"] * 3
#: Sente's king has entered with 28 points; gote's stands in sente's camp.
ENTERED = "RB5BR/4K4/1PPPPPPP1/9/9/9/9/4k4/9 b P2g2s2n2l9p 1"


@dataclass
class Watch:
    """What the bot sends from now on: new posts, and new direct messages per member."""

    club: Club
    mark: int = 0
    before: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Watch from now on: what the scenario did to set the event up is not counted."""
        self.mark = max(self.club.fake.messages, default=0)
        self.before = {m.user.id: len(self.club.fake.direct_messages(m)) for m in self.members}

    @property
    def members(self) -> tuple[FakeMember, ...]:
        return (self.club.alice, self.club.bob, self.club.carol)

    def posts(self, channel: FakeChannel) -> list[FakeMessage]:
        return [
            m
            for m in self.club.fake.channel_history(channel)
            if m.id > self.mark and m.author.id == self.club.fake.bot_user.id
        ]

    async def post(self, channel: FakeChannel, which: int = -1) -> FakeMessage:
        """The bot's newest post in `channel` since the watch began, once there is one."""
        await self.club.fake.wait_for(lambda: bool(self.posts(channel)), what="a new post")
        await self.club.fake.wait_quiet()
        return self.posts(channel)[which]

    def new_messages(self, member: FakeMember) -> list[FakeMessage]:
        return self.club.fake.direct_messages(member)[self.before[member.user.id] :]


@dataclass
class Seen:
    """What a scenario did: the post it made (None: no post, only an edit), who played
    which role, and whose action it was."""

    post: FakeMessage | None
    roles: dict[Role, tuple[FakeMember, ...]]
    actor: FakeMember | None


Scenario = Callable[[Club, Watch], Awaitable[Seen]]


async def game_from(club: Club, sfen: str, impasse: str = "27") -> Table:
    """A game from a set-up position: alice (sente) challenged, bob accepted."""
    challenge = await club.challenge(
        club.alice, club.bob, color="sente", start=sfen, impasse=impasse
    )
    return await club.accept(challenge, club.bob)


async def fresh(club: Club, watch: Watch) -> Table:
    """A new game (alice sente, bob gote), the watch reset after its start."""
    table = await club.new_game()
    await club.fake.wait_quiet()
    watch.reset()
    return table


async def turn_began(club: Club, watch: Watch) -> Seen:
    table = await fresh(club, watch)
    played = await club.move(club.alice, "7g7f", table)
    assert played.reply is not None
    return Seen(played.reply, {Role.TO_MOVE: (club.bob,)}, club.alice)


async def reminder(club: Club, watch: Watch) -> Seen:
    table = await club.new_game()
    await club.move(club.alice, "7g7f", table)
    await club.fake.wait_quiet()
    watch.reset()
    club.clock.advance(timedelta(days=2, hours=12))
    club.wake_deadlines()
    post = await watch.post(table.thread)
    assert post.custom_ids == [f"gt:{table.game_id}"]
    return Seen(post, {Role.TO_MOVE: (club.bob,)}, None)


async def resignation(club: Club, watch: Watch) -> Seen:
    table = await fresh(club, watch)
    await club.resign(table, club.alice)
    return Seen(await watch.post(table.thread), {Role.WINNER: (club.bob,)}, club.alice)


async def time_out(club: Club, watch: Watch) -> Seen:
    table = await club.new_game(time="1d")
    await club.play(table, [(club.alice, "7g7f"), (club.bob, "3c3d")])
    await club.fake.wait_quiet()
    await club.fake.wait_quiet()
    watch.reset()
    club.clock.advance(timedelta(days=1, minutes=1))
    club.wake_deadlines()
    post = await watch.post(table.thread)
    outcome = (await club.game(table.game_id)).outcome
    assert outcome is not None and outcome.termination.value == "time"
    return Seen(post, {Role.PLAYERS: (club.alice, club.bob)}, None)


async def played_to_end(
    club: Club, watch: Watch, sfen: str, moves: list[str], ending: str
) -> FakeMessage:
    """Alice and bob play `moves` from `sfen`; the last move's post, which ends the game."""
    table = await game_from(club, sfen)
    players = (club.alice, club.bob)
    await club.play(table, [(players[i % 2], m) for i, m in enumerate(moves[:-1])])
    await club.fake.wait_quiet()
    watch.reset()
    last = await club.move(players[(len(moves) - 1) % 2], moves[-1], table)
    assert last.reply is not None and not last.ephemeral, last.content
    outcome = (await club.game(table.game_id)).outcome
    assert outcome is not None and outcome.termination.value == ending
    return last.reply


async def checkmate(club: Club, watch: Watch) -> Seen:
    post = await played_to_end(club, watch, MATE_IN_ONE, ["G*1b"], "checkmate")
    return Seen(post, {Role.LOSER: (club.bob,)}, club.alice)


async def no_legal_move(club: Club, watch: Watch) -> Seen:
    post = await played_to_end(club, watch, NO_MOVE_IN_ONE, ["N*3c"], "stalemate")
    return Seen(post, {Role.LOSER: (club.bob,)}, club.alice)


async def sennichite(club: Club, watch: Watch) -> Seen:
    shuffle = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3
    table = await club.new_game()
    players = (club.alice, club.bob)
    await club.play(table, [(players[i % 2], m) for i, m in enumerate(shuffle[:-1])])
    await club.fake.wait_quiet()
    watch.reset()
    last = await club.move(club.bob, shuffle[-1], table)
    assert last.reply is not None
    return Seen(last.reply, {Role.PLAYERS: players}, club.bob)


async def perpetual_check(club: Club, watch: Watch) -> Seen:
    table = await game_from(club, PERPETUAL)
    players = (club.alice, club.bob)
    moves = PERPETUAL_MOVES
    await club.play(table, [(players[i % 2], m) for i, m in enumerate(moves[:-1])])
    await club.fake.wait_quiet()
    watch.reset()
    last = await club.move(club.alice, moves[-1], table)
    assert last.reply is not None and not last.ephemeral, last.content
    outcome = (await club.game(table.game_id)).outcome
    assert outcome is not None and outcome.termination.value == "perpetual_check"
    return Seen(last.reply, {Role.PLAYERS: players}, club.alice)


async def jishogi_report(club: Club, table: Table) -> FakeMessage:
    shown = await club.fake.slash(
        "jishogi", {"public": True}, user=club.alice, channel=table.thread
    )
    assert shown.reply is not None and not shown.ephemeral, shown.content
    return shown.reply


async def impasse_declaration(club: Club, watch: Watch) -> Seen:
    table = await game_from(club, ENTERED, "27")
    report = await jishogi_report(club, table)
    await club.fake.wait_quiet()
    watch.reset()
    await club.fake.click(report, f"js:declare:{table.game_id}", user=club.alice)
    return Seen(await watch.post(table.thread), {Role.PLAYERS: (club.alice, club.bob)}, club.alice)


async def proposed(club: Club, watch: Watch) -> tuple[Table, FakeMessage]:
    table = await game_from(club, ENTERED, "24")
    report = await jishogi_report(club, table)
    await club.fake.wait_quiet()
    watch.reset()
    await club.fake.click(report, f"js:propose:{table.game_id}", user=club.alice)
    return table, await watch.post(table.thread)


async def count_proposed(club: Club, watch: Watch) -> Seen:
    _, offer = await proposed(club, watch)
    return Seen(offer, {Role.ANSWERER: (club.bob,)}, club.alice)


async def impasse_count(club: Club, watch: Watch) -> Seen:
    table, offer = await proposed(club, watch)
    watch.reset()
    await club.fake.click(offer, f"js:accept:{table.game_id}", user=club.bob)
    return Seen(await watch.post(table.thread), {Role.PLAYERS: (club.alice, club.bob)}, club.bob)


async def abort(club: Club, watch: Watch) -> Seen:
    table = await fresh(club, watch)
    await club.fake.slash("abort", user=club.alice, channel=table.thread)
    return Seen(await watch.post(table.thread), {Role.PLAYERS: (club.alice, club.bob)}, club.alice)


async def idle_abort(club: Club, watch: Watch) -> Seen:
    table = await club.new_game(time="1d")
    await club.move(club.alice, "7g7f", table)
    await club.fake.wait_quiet()
    watch.reset()
    club.clock.advance(timedelta(days=1, minutes=1))
    club.wake_deadlines()
    post = await watch.post(table.thread)
    outcome = (await club.game(table.game_id)).outcome
    assert outcome is not None and outcome.termination.value == "abort"
    return Seen(post, {Role.PLAYERS: (club.alice, club.bob)}, None)


async def challenge_received(club: Club, watch: Watch) -> Seen:
    challenge = await club.challenge(club.alice, club.bob)
    assert challenge.reply is not None
    return Seen(challenge.reply, {Role.CHALLENGED: (club.bob,)}, club.alice)


async def challenge_accepted(club: Club, watch: Watch) -> Seen:
    challenge = await club.challenge(club.alice, club.bob, color="gote")  # bob moves first
    await club.fake.wait_quiet()
    watch.reset()
    table = await club.accept(challenge, club.bob)
    return Seen(table.start, {Role.CHALLENGER: (club.alice,)}, club.bob)


async def closed_challenge(club: Club, watch: Watch, action: str, by: FakeMember) -> None:
    challenge = await club.challenge(club.alice, club.bob)
    assert challenge.reply is not None
    await club.fake.wait_quiet()
    watch.reset()
    button = next(c for c in challenge.reply.custom_ids if c.startswith(f"ch:{action}:"))
    await club.fake.click(challenge.reply, button, user=by)


async def challenge_declined(club: Club, watch: Watch) -> Seen:
    await closed_challenge(club, watch, "decline", club.bob)
    return Seen(None, {Role.CHALLENGER: (club.alice,)}, club.bob)


async def challenge_withdrawn(club: Club, watch: Watch) -> Seen:
    await closed_challenge(club, watch, "cancel", club.alice)
    return Seen(None, {Role.CHALLENGED: (club.bob,)}, club.alice)


async def challenge_expired(club: Club, watch: Watch) -> Seen:
    message = (await club.challenge(club.alice, club.bob)).reply
    assert message is not None
    await club.fake.wait_quiet()
    watch.reset()
    club.clock.advance(timedelta(days=7, minutes=1))
    club.wake_deadlines()
    await club.fake.wait_for(lambda: not message.custom_ids, what="the closed challenge")
    return Seen(None, {Role.CHALLENGER: (club.alice,)}, None)


async def asked(club: Club, watch: Watch) -> tuple[Table, FakeMessage]:
    table = await club.new_game()
    await club.move(club.alice, "7g7f", table)
    watch.reset()
    await club.fake.slash("takeback", user=club.alice, channel=table.thread)
    return table, await watch.post(table.thread)


async def takeback_asked(club: Club, watch: Watch) -> Seen:
    _, question = await asked(club, watch)
    return Seen(question, {Role.ANSWERER: (club.bob,)}, club.alice)


async def takeback_answered(club: Club, watch: Watch) -> Seen:
    table, question = await asked(club, watch)
    watch.reset()
    accept = next(c for c in question.custom_ids if c.startswith("tb:accept:"))
    await club.fake.click(question, accept, user=club.bob)
    return Seen(await watch.post(table.thread), {Role.ASKER: (club.alice,)}, club.bob)


async def rematch_offered(club: Club, watch: Watch) -> Seen:
    table = await club.new_game()
    await club.resign(table, club.alice)
    rematch = f"rm:{table.game_id}"
    [ending] = [m for m in club.fake.channel_history(table.thread) if rematch in m.custom_ids]
    await club.fake.wait_quiet()
    watch.reset()
    await club.fake.click(ending, f"rm:{table.game_id}", user=club.alice)
    return Seen(await watch.post(club.channel), {Role.CHALLENGED: (club.bob,)}, club.alice)


async def vacation(club: Club, watch: Watch, action: str) -> Seen:
    table = await club.new_game()
    if action == "end":
        await club.fake.slash(
            "vacation", {"action": "start"}, user=club.alice, channel=club.channel
        )
    await club.fake.wait_quiet()
    watch.reset()
    await club.fake.slash("vacation", {"action": action}, user=club.alice, channel=club.channel)
    return Seen(await watch.post(table.thread), {Role.OPPONENT: (club.bob,)}, club.alice)


async def vacation_began(club: Club, watch: Watch) -> Seen:
    return await vacation(club, watch, "start")


async def vacation_ended(club: Club, watch: Watch) -> Seen:
    return await vacation(club, watch, "end")


SCENARIOS: dict[Event, Scenario] = {
    Event.TURN_BEGAN: turn_began,
    Event.REMINDER: reminder,
    Event.RESIGNATION: resignation,
    Event.TIME_OUT: time_out,
    Event.CHECKMATE: checkmate,
    Event.NO_LEGAL_MOVE: no_legal_move,
    Event.SENNICHITE: sennichite,
    Event.PERPETUAL_CHECK: perpetual_check,
    Event.IMPASSE_DECLARATION: impasse_declaration,
    Event.IMPASSE_COUNT: impasse_count,
    Event.COUNT_PROPOSED: count_proposed,
    Event.ABORT: abort,
    Event.IDLE_ABORT: idle_abort,
    Event.CHALLENGE_RECEIVED: challenge_received,
    Event.CHALLENGE_ACCEPTED: challenge_accepted,
    Event.CHALLENGE_DECLINED: challenge_declined,
    Event.CHALLENGE_EXPIRED: challenge_expired,
    Event.CHALLENGE_WITHDRAWN: challenge_withdrawn,
    Event.TAKEBACK_ASKED: takeback_asked,
    Event.TAKEBACK_ANSWERED: takeback_answered,
    Event.REMATCH_OFFERED: rematch_offered,
    Event.VACATION_BEGAN: vacation_began,
    Event.VACATION_ENDED: vacation_ended,
}


def test_every_row_is_walked() -> None:
    walked = set(SCENARIOS) | {Event.COMPUTER_FAILED} | NEVER_IN_A_GAME
    assert walked == set(TABLE)


def expected(seen: Seen, role: Role) -> set[int]:
    """The members `role` names in the scenario, without the actor: the table's rule."""
    members = seen.roles.get(role, ()) if role is not Role.NOBODY else ()
    return {m.user.id for m in members if seen.actor is None or m.user.id != seen.actor.user.id}


async def check_told(club: Club, watch: Watch, event: Event, seen: Seen, lang: str) -> None:
    row = TABLE[event]
    assert row.mentioned is Role.NOBODY or row.mentioned in seen.roles, "the scenario lacks it"
    assert row.messaged in seen.roles, f"the scenario does not say who is {row.messaged}"
    mentioned = expected(seen, row.mentioned)
    if seen.post is None:
        assert mentioned == set()
        for channel in (club.channel, *club.fake.threads(club.channel)):
            assert all(p.mentioned_user_ids == [] for p in watch.posts(channel))
    else:
        assert set(seen.post.mentioned_user_ids) == mentioned, seen.post.content
        assert f"<@{club.fake.bot_user.id}>" not in seen.post.content
    messaged = expected(seen, row.messaged)
    assert messaged, f"{event}: the table tells someone by direct message"
    for member in watch.members:
        if member.user.id in messaged:
            await club.fake.wait_for(
                lambda m=member: bool(watch.new_messages(m)),  # type: ignore[misc]
                what=f"a direct message to {member.user.username} of {event}",
            )
    await club.fake.wait_quiet()
    for member in watch.members:
        got = watch.new_messages(member)
        assert len(got) == (member.user.id in messaged), (member.user.username, event, got)
        for message in got:
            assert message.mentions == [] and "https://discord.com/channels/" in message.content
            if lang == "ja":  # the bot's own name (the computer's seat) aside
                named = message.content.replace(club.fake.bot_user.global_name or "", "")
                assert english_in(named) == [], message.content
                assert (
                    "対局のスレッド：" in message.content or "対局の申し込み：" in message.content
                )
            else:
                assert "The game: " in message.content or "The challenge: " in message.content


async def told_club(
    fake: FakeDiscord, runner: BotRunner, guard: E2EGuard, tmp_path: Path, lang: str, **more: object
) -> Club:
    club = await open_club(fake, runner, guard, tmp_path, **LANGUAGES[lang], **more)
    for member in (club.alice, club.bob):
        await club.prefer(member, notifications="each")
    return club


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("event", list(SCENARIOS), ids=lambda e: e.name.lower())
async def test_each_row_is_told_to_whom_the_table_says(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    event: Event,
    lang: str,
) -> None:
    club = await told_club(fake_discord, bot_runner, e2e_guard, tmp_path, lang)
    await club.fake.wait_quiet()
    watch = Watch(club)
    seen = await SCENARIOS[event](club, watch)
    await check_told(club, watch, event, seen, lang)


@pytest.mark.parametrize("lang", list(LANGUAGES))
async def test_the_computer_failing_is_told_to_its_member(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    lang: str,
) -> None:
    program, _ = fake_engine(tmp_path, "illegal illegal")
    club = await told_club(fake_discord, bot_runner, e2e_guard, tmp_path, lang, engine_path=program)
    await club.fake.wait_quiet()
    watch = Watch(club)
    game_id, thread = await start(club, level=2, color="gote")
    await club.fake.wait_for(
        lambda: any(p.custom_ids == [f"cp:{game_id}"] for p in watch.posts(thread)),
        what="the post saying the computer failed",
    )
    [failed] = [p for p in watch.posts(thread) if p.custom_ids == [f"cp:{game_id}"]]
    seen = Seen(failed, {Role.PLAYERS: (club.alice,)}, None)
    bot_name = (await club.game(game_id)).sente.name
    await check_told(club, watch, Event.COMPUTER_FAILED, seen, lang)
    [message] = watch.new_messages(club.alice)
    assert bot_name in message.content


async def test_a_digest_reader_hears_of_endings_but_not_of_turns_and_none_hears_nothing(
    club: Club,
) -> None:
    """The last column: bob reads a digest (his turns wait for it, his game's ending does
    not); alice chose none (nothing reaches her, the threads mention her)."""
    alice, bob = club.alice, club.bob
    await club.prefer(bob, notifications="digest")
    await club.prefer(alice, notifications="none")
    table = await club.new_game()
    await club.fake.wait_quiet()
    [challenged] = club.fake.direct_messages(bob)  # a challenge cannot wait for a digest
    assert challenged.content.startswith("bob, alice challenges you to shogi.")
    played = await club.move(alice, "7g7f", table)
    assert played.reply is not None and played.reply.mentioned_user_ids == [bob.user.id]
    await club.move(bob, "3c3d", table)
    await club.fake.slash("takeback", user=bob, channel=table.thread)  # alice would answer
    [question] = await club.posts(table.thread, "asks to take back")
    assert question.mentioned_user_ids == [alice.user.id]
    await club.resign(table, alice)
    await club.fake.wait_for(
        lambda: len(club.fake.direct_messages(bob)) == 2, what="the ending, to bob"
    )
    await club.fake.wait_quiet()
    ending = club.fake.direct_messages(bob)[-1]
    assert "alice resigned" in ending.content, ending.content
    assert club.fake.direct_messages(alice) == []
    [post] = await club.posts(table.thread, "alice resigned")
    assert post.mentioned_user_ids == [bob.user.id]

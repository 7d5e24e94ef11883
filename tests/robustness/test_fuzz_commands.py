"""Every command option and every button id shape, sent hostile, through the real bot.

The command tree is read from the running bot, so a new command or option is fuzzed without
being listed here. For each option:

* what Discord itself would let through (the fake Discord checks it as Discord does): text
  of the option's longest length, control characters, markdown and mentions, thousands of
  digits, runs of U+3000, right-to-left marks, emoji; integers at the ends of their range;
  files that are not records;
* what only a modified client can send (an interaction written by hand): integers out of
  range or of 2^63, a choice not offered, a value of the wrong type, a file announcing a
  huge size;
* the same text typed into autocomplete.

Every button template is pressed with forged ids: 0, -1, 2^63 - 1, 2^63, 10^5000, the id of
another server's game, of an ended game, a wrong action word. A game whose thread a
moderator deleted goes on in its channel.

Each answer must be a sentence (never the generic apology), a refusal must post nothing
publicly, nothing may ping anyone the input named, the log must hold no traceback (the e2e
guard fails on ERROR logs; WARNING records with a traceback are collected here), and the
event loop must never stall more than 100 ms. Members alternate between an English and a
Japanese locale, and between the channel and a game's thread. Meanwhile the players of
another game keep playing, and each of their moves is answered with its board.
"""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.services import PlayerRef
from bot.ui import text
from bot.ui.errors import GameButton, GameSelect
from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    InteractionType,
    ResponseType,
    UserFile,
)
from tests.support.club import Club, Table, open_club
from tests.support.stall import LoopProbe

from .conftest import Scale
from .inputs import live_mentions

APOLOGIES = {text.say(lang, text.APOLOGY) for lang in ("en", "ja")}
HOSTILE_MENTION = "<@123456789012345678>"
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"
    b"\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\r\xefF\xb8\x00"
    b"\x00\x00\x00IEND\xaeB`\x82"
)


def hostile_texts(longest: int) -> dict[str, str]:
    """Text Discord lets a member type into an option of at most ``longest`` characters.
    Runs without spaces stay at 2,000 characters here: a longer one pasted as a position
    stalls in rules/notation (see the expected failure at the end)."""
    texts = {
        "longest": ("7g7f " * longest)[:longest],
        "control": "P-7f\x00\x1b[2J\r\n\x07\u0085\u2028",
        "markdown and mentions": f"**@everyone** @here {HOSTILE_MENTION} <@&1> __x__ `y` ||z||",
        "digits": "9" * min(longest, 2_000),
        "ideographic spaces": "\u3000" * min(longest, 2_000),
        "right to left": "\u202e\u200f7g7f\u202c\u2066x\u2069",
        "emoji": "🐉👍🏽🇯🇵" * 3,
        "kanji number": "十十日",
        "huge number": "99999999999999999999d+1" + "0" * 30,
        "zero width": "\u200b\ufeff" * min(longest // 2, 500),
        "hash digits": "#" + "1" * min(longest - 1, 30),
    }
    return {kind: value[:longest] for kind, value in texts.items() if value[:longest].strip()}


FILES = {
    "empty": UserFile("empty.kif", b""),
    "image": UserFile("board.png", PNG),
    "binary": UserFile("game.kif", bytes(range(256)) * 8),
    "utf-16": UserFile("game.csa", "P1-KY-KE\n".encode("utf-16")),
}


@dataclass
class Findings:
    """Problems found, one line each."""

    problems: list[str] = field(default_factory=list)
    checked: int = 0

    def add(self, case: str, problem: str, content: str = "") -> None:
        self.problems.append(f"{case}: {problem} {content[:160]!r}")


class Tracebacks(logging.Handler):
    """WARNING records that carry a traceback (ERROR ones fail the e2e guard already)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(f"{record.name}: {record.getMessage()[:200]}")


@dataclass
class Bench:
    """The club, a game in play for the fuzzing, and a game whose players keep playing."""

    club: Club
    table: Table
    other: Table
    findings: Findings = field(default_factory=Findings)
    #: The long run (``--long-robustness``) also sends what is merely unusual (booleans).
    long: bool = False
    step: int = 0
    replies: list[str] = field(default_factory=list)

    @property
    def fake(self) -> FakeDiscord:
        return self.club.fake

    def actor(self) -> FakeMember:
        """Alice (English) and Bob (Japanese) in turn."""
        return self.club.alice if self.step % 2 == 0 else self.club.bob

    def channel(self) -> FakeChannel:
        return self.club.channel if self.step % 4 < 2 else self.table.thread

    async def keep_playing(self) -> None:
        """A move in the other game, which must be answered with its board."""
        view = await self.club.game(self.other.game_id)
        if not view.is_active or view.to_move is None:
            return
        legal = sorted(move.usi() for move in view.game.position.legal_moves())
        mover = self.club.member(view.to_move.user_id)
        result = await self.club.move(mover, legal[view.ply % len(legal)], self.other)
        if result.ephemeral or not result.files:
            self.findings.add(
                "a player's /move meanwhile", "not answered with its board", result.content
            )


def commands(club: Club) -> list[app_commands.Command[Any, ..., Any]]:
    assert club.bot is not None
    found = [c for c in club.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(found) > 10, [c.name for c in found]
    return sorted(found, key=lambda command: command.qualified_name)


def plain_value(club: Club, parameter: app_commands.Parameter) -> Any:
    """A value the member could pick, for required options not being fuzzed."""
    if parameter.choices:
        return parameter.choices[0].value
    if parameter.type is AppCommandOptionType.integer:
        return parameter.min_value if parameter.min_value is not None else 1
    if parameter.type is AppCommandOptionType.boolean:
        return False
    if parameter.type is AppCommandOptionType.user:
        return club.carol
    if parameter.type is AppCommandOptionType.attachment:
        return FILES["empty"]
    if parameter.type is AppCommandOptionType.role:
        return club.guild.everyone
    return {"move": "7g7f"}.get(parameter.name, "note")


def discord_values(parameter: app_commands.Parameter, long: bool) -> Iterator[tuple[str, Any]]:
    """Hostile values Discord's own client lets through for ``parameter``."""
    kind = parameter.type
    if kind is AppCommandOptionType.string and not parameter.choices:
        longest = int(parameter.max_value) if parameter.max_value is not None else 6_000
        yield from hostile_texts(longest).items()
    elif kind is AppCommandOptionType.integer:
        low = -(2**53) if parameter.min_value is None else int(parameter.min_value)
        high = 2**53 if parameter.max_value is None else int(parameter.max_value)
        yield from (("least", low), ("most", high))
    elif kind is AppCommandOptionType.attachment:
        yield from FILES.items()
    elif kind is AppCommandOptionType.boolean and long:
        yield from (("true", True), ("false", False))


def forged_values(parameter: app_commands.Parameter) -> Iterator[tuple[str, Any]]:
    """Values only a modified client sends: out of range, not offered, of the wrong type."""
    kind = parameter.type
    if kind is AppCommandOptionType.integer:
        low = parameter.min_value if parameter.min_value is not None else 0
        high = parameter.max_value if parameter.max_value is not None else 2**53
        yield from (("below", low - 1), ("above", high + 1), ("2^63", 2**63))
        yield from (("-2^63-1", -(2**63) - 1), ("300 digits", 10**300), ("text", "12"))
    elif kind is AppCommandOptionType.string:
        if parameter.choices:
            yield "not offered", "x" * 50
        yield from (("number", 12), ("too long", "x" * 7_000))
    elif kind is AppCommandOptionType.boolean:
        yield "text", "yes"
    elif kind in (AppCommandOptionType.user, AppCommandOptionType.role):
        yield from (("unresolved id", "1"), ("2^64", str(2**64)), ("not an id", "@everyone"))


async def check(
    bench: Bench, case: str, result: InteractionResult, typed: str, before: set[int]
) -> None:
    """The answer is a sentence, a refusal posts nothing publicly, nothing pings."""
    bench.findings.checked += 1
    fake, club = bench.fake, bench.club
    updated = result.response_type == ResponseType.DEFERRED_UPDATE_MESSAGE
    if result.reply is None and not updated:
        bench.findings.add(case, "no answer")
        return
    content = result.original.content if updated and result.original else result.content
    if content in APOLOGIES:
        bench.findings.add(case, "the generic apology", content)
    for mention in live_mentions(content):
        if mention in typed:
            bench.findings.add(case, f"live mention {mention}", content)
    members = {club.alice.id, club.bob.id, club.carol.id}
    for message in fake.messages.values():
        if message.id in before or message.ephemeral or message.source == "user":
            continue
        if result.ephemeral and message.interaction_id != result.interaction.id:
            bench.findings.add(case, "refused, yet posted publicly", message.content)
        if message.mention_everyone or message.mention_role_ids:
            bench.findings.add(case, "@everyone or a role pinged", message.content)
        if set(message.pinged_user_ids) - members:
            bench.findings.add(case, "pinged a stranger", message.content)
    bench.replies.append(content)


async def forged_slash(
    fake: FakeDiscord, command: str, options: dict[str, Any], forged: dict[str, Any], *,
    user: FakeMember, channel: FakeChannel,
) -> InteractionResult:  # fmt: skip
    """``/command`` as a modified client sends it: ``options`` written as Discord would,
    then the values of ``forged`` put in their place."""
    data = fake.actions.command_data(command, options, channel=channel)
    for option in data["options"]:
        if option["name"] not in forged:
            continue
        if option["type"] == AppCommandOptionType.attachment.value:
            data["resolved"]["attachments"][option["value"]]["size"] = forged[option["name"]]
        else:
            option["value"] = forged[option["name"]]
    interaction = await fake.actions.create_interaction(
        InteractionType.APPLICATION_COMMAND, member=user, channel=channel, data=data,
        label=f"forged /{command}",
    )  # fmt: skip
    result = InteractionResult(fake, interaction)
    await result.wait_final()
    return result


async def forged_autocomplete(bench: Bench, command: app_commands.Command[Any, ..., Any]) -> None:
    """Suggestions asked while an option holds what only a modified client sends (the text
    typed so far as a number, another option out of its bounds): an empty list of
    suggestions, never an exception."""
    fake, club = bench.fake, bench.club
    focused = next((p for p in command.parameters if p.autocomplete), None)
    if focused is None:
        return
    forgeries = [(focused.display_name, "typed as a number", 12)]
    for other in command.parameters:
        if other.display_name != focused.display_name:
            name = other.display_name
            forgeries += [(name, kind, value) for kind, value in list(forged_values(other))[:2]]
    for name, kind, forged in forgeries:
        bench.step += 1
        user, channel = bench.actor(), bench.channel()
        other = command.get_parameter(name) or focused
        options = {name: plain_value(club, other), focused.display_name: "3"}
        data = fake.actions.command_data(
            command.qualified_name, options, channel=channel, focused=focused.display_name
        )
        for option in data["options"]:
            if option["name"] == name:
                option["value"] = forged
        interaction = await fake.actions.create_interaction(
            InteractionType.AUTOCOMPLETE, member=user, channel=channel, data=data,
            label=f"forged autocomplete /{command.qualified_name}",
        )  # fmt: skip
        result = await InteractionResult(fake, interaction).wait_response()
        bench.findings.checked += 1
        if result.response_type != ResponseType.AUTOCOMPLETE_RESULT:
            case = f"autocomplete /{command.qualified_name} with {name}={kind}"
            bench.findings.add(case, f"answered with type {result.response_type}")


async def fuzz_option(
    bench: Bench, command: app_commands.Command[Any, ..., Any], parameter: app_commands.Parameter
) -> None:
    club, fake = bench.club, bench.fake
    name = command.qualified_name
    required = {p.display_name: plain_value(club, p) for p in command.parameters if p.required}
    sent: list[tuple[str, Any, Any]] = [
        (kind, value, None) for kind, value in discord_values(parameter, bench.long)
    ]
    plain = plain_value(club, parameter)
    sent += [(kind, plain, value) for kind, value in forged_values(parameter)]
    if parameter.type is AppCommandOptionType.attachment:
        sent.append(("huge size announced", FILES["utf-16"], 2**40))
    if parameter.type is AppCommandOptionType.role:  # every member; the bot's own role
        bots = next(role for role in club.guild.roles.values() if role.managed)
        sent += [("@everyone", club.guild.everyone, None), ("the bot's role", bots, None)]
    for kind, value, forged in sent:
        bench.step += 1
        user, channel = bench.actor(), bench.channel()
        case = f"/{name} {parameter.display_name}={kind} ({user.user.locale})"
        options = {**required, parameter.display_name: value}
        before = set(fake.messages)
        if forged is None:
            result = await fake.slash(name, options, user=user, channel=channel)
        else:
            result = await forged_slash(
                fake, name, options, {parameter.display_name: forged}, user=user, channel=channel
            )
        await check(bench, case, result, str(value if forged is None else forged), before)
        if isinstance(value, str) and parameter.autocomplete:
            # The fake refuses suggestions Discord would refuse (names of 1-100 characters,
            # values of the option's type), and the guard fails on the error it causes.
            await fake.autocomplete(
                name, {**required, parameter.display_name: value},
                focused=parameter.display_name, user=user, channel=channel,
            )  # fmt: skip
            bench.findings.checked += 1
        if bench.step % 25 == 0:
            await bench.keep_playing()


# ------------------------------------------------------------------ buttons

#: Every button's custom_id, with {id} where a forged number goes. A new template must be
#: added here (the test checks that every registered template is covered).
BUTTON_SHAPES = (
    "ch:accept:{id}", "ch:accept_unrated:{id}", "ch:decline:{id}", "ch:cancel:{id}",
    "rm:{id}", "rs:{id}", "gt:{id}", "cp:{id}", "ca:{id}",
    "pr:{id}:0:7g7f", "pr:{game}:{id}:5a5b", "cf:play:{id}:0:7g7f", "cf:cancel:{id}:0:7g7f",
    "js:propose:{id}", "js:accept:{id}", "js:declare:{id}",
    "tb:accept:{id}:0:1", "tb:decline:{game}:0:{id}", "rp:next:{id}:0", "rp:last:{game}:{id}",
    "nx:{id}:{game}:0", "nx:0:{id}:{id}", "mv:{id}:0:h00000000", "pb:{game}:{id}:h00000000",
    "tz:{id}",
    "tj:join:{id}", "tj:leave:{id}",
)  # fmt: skip
#: Every select's custom_id (the picker's), each chosen with every value of `HOSTILE_VALUES`.
SELECT_SHAPES = (
    "pk:{id}:0:h00000000:b", "pk:{game}:{id}:h00000000:h", "pd:{id}:0:h00000000:7g",
    "pd:{game}:0:h00000000:7g", "pf:{game}:{id}:h00000000:P*", "pk:{game}:0:h00000000:b",
    "ex:{id}", "ex:ffffffffffffffff",
)  # fmt: skip
#: What a modified client may send as a select's values.
HOSTILE_VALUES: tuple[list[Any], ...] = (
    ["7g"],
    ["7f"],
    ["P*"],
    ["9"],
    [],
    ["7g", "7f"],
    ["x" * 5_000],
    [12],
    [None],
    ["<@1>"],
)
#: The buttons that only ever sit under a member's private answer (their press edits it).
PRIVATE_BUTTONS = ("pr:", "cf:", "rp:", "nx:", "pb:")
WRONG_WORDS = ("ch:steal:{game}", "rs:{game}:1", "js:win:{game}", "rp:jump:{game}:0", "xx:{game}")


async def private_message(bench: Bench) -> FakeMessage:
    """A private answer to the member about to press: where a private button sits."""
    result = await bench.fake.slash(
        "replay", {"game": str(bench.table.game_id)}, user=bench.actor(), channel=bench.channel()
    )
    assert result.ephemeral and result.reply is not None, result.content
    return result.reply


def registered_templates(club: Club) -> set[str]:
    assert club.bot is not None
    store = club.bot._connection._view_store
    return {
        pattern.pattern
        for pattern, item in store._dynamic_items.items()
        if issubclass(item, GameButton | GameSelect)
    }


async def forge_button(
    bench: Bench, custom_id: str, carrier: FakeMessage, *, answered: bool
) -> InteractionResult:
    """A press of ``custom_id`` on ``carrier``, as if the bot had put that button there
    (discord.py only dispatches a custom_id the message holds); ``answered``: a template
    matches it, so the bot answers."""
    saved = copy.deepcopy(carrier.components)
    carrier.components = [
        {"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": custom_id},
        ]},
    ]  # fmt: skip
    try:
        result = await bench.fake.forge_click(
            carrier, custom_id, user=bench.actor(), channel=bench.fake.channels[carrier.channel_id]
        )
        if answered:
            await result.wait_final()
        else:
            await bench.fake.wait_quiet(0.05)
        return result
    finally:
        carrier.components = saved


async def forge_select(
    bench: Bench, custom_id: str, values: list[Any], carrier: FakeMessage
) -> InteractionResult:
    """A choice of `values` in the select `custom_id` on `carrier`, as if the bot had put
    that select there."""
    saved = copy.deepcopy(carrier.components)
    carrier.components = [
        {"type": 1, "components": [
            {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}]},
        ]},
    ]  # fmt: skip
    try:
        result = await bench.fake.forge_choice(
            carrier, custom_id, values, user=bench.actor(),
            channel=bench.fake.channels[carrier.channel_id],
        )  # fmt: skip
        await result.wait_final()
        return result
    finally:
        carrier.components = saved


async def fuzz_selects(bench: Bench, numbers: dict[str, str], game: str) -> None:
    """Every select shape with forged numbers, and the live game's with hostile values."""
    for shape in SELECT_SHAPES:
        cases = [(what, number, ["7g"]) for what, number in numbers.items()]
        cases += [("hostile values", "0", values) for values in HOSTILE_VALUES]
        for what, number, values in cases:
            bench.step += 1
            custom_id = shape.format(id=number, game=game)
            carrier = await private_message(bench)
            before = set(bench.fake.messages)
            result = await forge_select(bench, custom_id, values, carrier)
            case = f"select {custom_id[:40]} {str(values)[:20]} ({what})"
            await check(bench, case, result, custom_id, before)
            if result.reply is not None and not result.ephemeral:
                bench.findings.add(case, "answered publicly", result.content)


async def fuzz_buttons(bench: Bench, ended: int, elsewhere: int) -> None:
    club = bench.club
    patterns = registered_templates(club)
    for pattern in patterns:
        prefix = pattern.split(":", 1)[0]
        shapes = BUTTON_SHAPES + SELECT_SHAPES
        assert any(shape.startswith(prefix + ":") for shape in shapes), pattern
    numbers = {
        "0": "0", "2^63-1": str(2**63 - 1), "2^63": str(2**63), "2^64": str(2**64),
        "10^5000": "1" + "0" * 5_000,
        "other server's game": str(elsewhere), "ended game": str(ended),
    }  # fmt: skip
    public = club.bot_posts(club.channel, "")[-1]
    game = str(bench.table.game_id)
    for shape in BUTTON_SHAPES:
        for what, number in numbers.items():
            bench.step += 1
            custom_id = shape.format(id=number, game=game)
            carrier = public
            if shape.startswith(PRIVATE_BUTTONS):
                carrier = await private_message(bench)
            before = set(bench.fake.messages)
            result = await forge_button(bench, custom_id, carrier, answered=True)
            case = f"button {custom_id[:40]} ({what})"
            await check(bench, case, result, custom_id, before)
            if result.reply is not None and not result.ephemeral:
                bench.findings.add(case, "answered publicly", result.content)
    await fuzz_selects(bench, numbers, game)
    unmatched = [shape.format(id="-1", game=game) for shape in BUTTON_SHAPES[:4]]
    stale = {text.say(lang, text.STALE_BUTTON) for lang in ("en", "ja")}
    for custom_id in unmatched + [shape.format(game=game) for shape in WRONG_WORDS]:
        bench.step += 1
        before = set(bench.fake.messages)
        result = await forge_button(bench, custom_id, public, answered=True)
        await check(bench, f"button {custom_id}", result, custom_id, before)
        if not result.ephemeral or result.content not in stale:
            bench.findings.add(f"button {custom_id}", "not answered as stale", result.content)


# ------------------------------------------------------------------ the test


@pytest.fixture
async def bench(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Any
) -> Bench:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("en-US", "ja", "en-US")
    )
    table = await club.new_game()
    other = await club.new_game(club.bob, club.alice)
    return Bench(club, table, other)


async def ended_game(bench: Bench) -> int:
    """A game that ended in this server, played by neither member who presses."""
    club = bench.club
    erin = bench.fake.add_member(club.guild, "erin")
    carol = PlayerRef(club.carol.id, "carol")
    challenge = await club.service.challenges.offer(
        guild_id=club.guild.id, channel_id=club.channel.id,
        challenger=carol, opponent=PlayerRef(erin.id, "erin"),
    )  # fmt: skip
    game = await club.service.challenges.accept(challenge.id, erin.id)
    await club.service.endings.resign(game.id, club.carol.id)
    return game.id


async def other_server_game(bench: Bench) -> int:
    """A game between two members of another server the bot is in."""
    fake, service = bench.fake, bench.club.service
    guild = fake.add_guild("Elsewhere", channels=("shogi",))
    dave, erin = fake.add_member(guild, "dave"), fake.add_member(guild, "erin")
    challenge = await service.challenges.offer(
        guild_id=guild.id, channel_id=fake.channel("shogi", guild).id,
        challenger=PlayerRef(dave.id, "dave"), opponent=PlayerRef(erin.id, "erin"),
    )  # fmt: skip
    return (await service.challenges.accept(challenge.id, erin.id)).id


async def test_every_option_and_button_answers_hostile_input_with_a_sentence(
    bench: Bench, scale: Scale
) -> None:
    club = bench.club
    bench.long = scale.long
    # A mention of nobody here in /team_match's member lists is looked up, and Discord
    # answers Unknown Member: the bot says so in one sentence.
    club.fake.expect_rejections(ErrorCode.UNKNOWN_MEMBER)
    # A role's members are read from the member list, which Discord refuses to an
    # application whose Server Members intent is off (the fake's default).
    club.fake.expect_rejections(ErrorCode.MISSING_ACCESS)
    ended = await ended_game(bench)
    elsewhere = await other_server_game(bench)
    tracebacks = Tracebacks()
    logging.getLogger().addHandler(tracebacks)
    try:
        async with LoopProbe() as probe:
            for command in commands(club):
                for parameter in command.parameters:
                    await fuzz_option(bench, command, parameter)
                await forged_autocomplete(bench, command)
            await fuzz_buttons(bench, ended, elsewhere)
            await bench.keep_playing()
    finally:
        logging.getLogger().removeHandler(tracebacks)
    findings = bench.findings
    assert findings.checked > 200, findings.checked
    assert not findings.problems, f"{len(findings.problems)} problems:\n  " + "\n  ".join(
        findings.problems[:40]
    )
    assert not tracebacks.records, "\n".join(tracebacks.records[:20])
    print(f"{findings.checked} interactions checked; {probe.report()}")
    assert probe.worst < 0.1, probe.report()
    japanese = [reply for reply in bench.replies if re.search("[ぁ-んァ-ン]", reply)]
    assert japanese, "no answer in Japanese: the Japanese member's locale was not used"


async def test_a_game_whose_thread_was_deleted_goes_on_in_a_new_thread(club: Club) -> None:
    """A moderator deletes a game's thread: moves and resignation still get their sentence,
    the board goes to the new thread the bot opens in the game's channel, and the log has no
    traceback."""
    table = await club.new_game()
    thread = table.thread
    club.fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)
    await club.fake.delete_thread(thread)
    tracebacks = Tracebacks()
    logging.getLogger().addHandler(tracebacks)
    try:
        game = str(table.game_id)
        moved = await club.fake.slash(
            "move", {"move": "7g7f", "game": game}, user=club.alice, channel=club.channel
        )
        assert moved.content not in APOLOGIES and moved.ephemeral, moved.content
        [home] = club.fake.threads(club.channel)
        boards = club.bot_posts(home, "")
        assert any(post.attachments for post in boards), [post.content for post in boards]
        ask = await club.fake.slash("resign", {"game": game}, user=club.bob, channel=club.channel)
        resigned = await club.fake.click(ask, f"rs:{game}", user=club.bob)
        assert resigned.content not in APOLOGIES, resigned.content
        assert (await club.game(table.game_id)).status == "finished"
        await club.fake.wait_quiet(0.3)  # the ending, and the thread's renaming, come after
    finally:
        logging.getLogger().removeHandler(tracebacks)
    assert not tracebacks.records, "\n".join(tracebacks.records)


@pytest.mark.parametrize("pasted", ["x" * 6_000, "\u200b\ufeff" * 3_000], ids=("letters", "zw"))
async def test_a_pasted_position_without_spaces_does_not_stall_the_loop(
    club: Club, pasted: str
) -> None:
    """The longest `/board position` Discord lets through, with no space to stop a scan."""
    async with LoopProbe() as probe:
        result = await club.fake.slash(
            "board", {"position": pasted}, user=club.carol, channel=club.channel
        )
    assert result.ephemeral and result.content not in APOLOGIES, result.content
    assert probe.worst < 0.1, probe.report()

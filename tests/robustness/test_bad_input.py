"""Generated bad input for every door a player can type into: move text, SFEN, record files.

Each target gets ``scale.fuzz_inputs`` inputs (5,000 in CI, 100,000 with
``--long-robustness``) of every kind in :mod:`tests.robustness.inputs`.  Two properties are
checked separately, so that each failure names one problem:

* only the documented errors come out (rules: InvalidMoveError / IllegalMoveError /
  AmbiguousMoveError, SfenError, RecordError; the service: ServiceError subclasses);
* every error message is one short sentence: one line, at most 300 characters, no control
  characters.

Through the bot (``scale.bot_fuzz_inputs`` of them via ``/move`` in the fake Discord), the
answer must also never ping anyone it should not, and never echo what the player typed in a
way that formats (markdown) or renders as a mention.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.db import open_database
from bot.services import GameService, PlayedMove, PlayerRef, ServiceError
from bot.ui.text import APOLOGY
from rules import Game, IllegalMoveError, InvalidMoveError, Position, SfenError
from rules.notation import (
    AmbiguousMoveError,
    RecordError,
    parse_move,
    read_csa,
    read_ki2,
    read_kif,
    read_record,
    read_usi,
)
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.checks import assert_replays
from tests.support.club import Club, open_club

from .conftest import Scale
from .inputs import (
    generate,
    live_mentions,
    move_kinds,
    record_kinds,
    sample_games,
    sentence_problems,
    sfen_kinds,
    unescaped_markdown,
)

RULES_MOVE_ERRORS = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)
READERS: tuple[Callable[[Any], Any], ...] = (read_record, read_kif, read_ki2, read_csa, read_usi)


@dataclass
class Findings:
    """What went wrong over many inputs: counted by kind, with the first examples kept."""

    checked: int = 0
    problems: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)

    def add(self, what: str, text: object, detail: str) -> None:
        self.problems[what] = self.problems.get(what, 0) + 1
        if len(self.examples) < 12:
            self.examples.append(f"{what}: input {_short(text)} -> {detail[:240]!r}")

    def report(self) -> str:
        return (
            f"{sum(self.problems.values())} problems in {self.checked} inputs {self.problems}; "
            "first examples:\n  " + "\n  ".join(self.examples)
        )


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else f"{text[:100]}... ({len(value)} long)"  # type: ignore[arg-type]


def check_message(findings: Findings, kind: str, text: object, error: BaseException) -> None:
    message = getattr(error, "message", None) or str(error)
    for problem in sentence_problems(message):
        findings.add(f"{kind}/{type(error).__name__}: {problem.split(' (')[0]}", text, message)


# ------------------------------------------------------------------ move text: rules


@cache
def _move_findings(count: int, seed: int) -> tuple[Findings, Findings]:
    """(undocumented errors, message problems) of ``parse_move`` over ``count`` inputs."""
    rng = random.Random(seed)
    games = sample_games()
    errors, messages = Findings(), Findings()
    for index, (kind, text) in enumerate(generate(move_kinds(), rng, count)):
        game = games[index % len(games)]
        last = game.moves[-1] if game.moves else None
        errors.checked += 1
        messages.checked += 1
        try:
            move = parse_move(game.position, str(text), last_move=last)
        except RULES_MOVE_ERRORS as error:
            check_message(messages, kind, text, error)
        except Exception as error:
            errors.add(f"{kind}: {type(error).__name__}", text, repr(error))
        else:
            if not game.position.is_legal(move):
                errors.add(f"{kind}: illegal move returned", text, move.usi())
    return errors, messages


def test_parse_move_raises_only_documented_errors(scale: Scale) -> None:
    errors, _ = _move_findings(scale.fuzz_inputs, 101)
    assert not errors.problems, errors.report()


def test_parse_move_errors_are_one_short_line(scale: Scale) -> None:
    _, messages = _move_findings(scale.fuzz_inputs, 101)
    assert not messages.problems, messages.report()


@pytest.mark.parametrize("text", ["7g7g", "+7777FU", "+G-5h", "+K-5h"])
def test_parse_move_near_misses_are_invalid_moves(text: str) -> None:
    """Minimal cases the fuzzer found: a move to its own square, a promoted gold or king."""
    with pytest.raises(RULES_MOVE_ERRORS) as caught:
        parse_move(Position.initial(), text)
    assert not sentence_problems(str(caught.value))


@pytest.mark.parametrize("text", ["P-7f\nP-7g", "x\x1b[2Jx", "P-7f\x00"])
def test_move_error_does_not_echo_line_breaks_or_controls(text: str) -> None:
    with pytest.raises(RULES_MOVE_ERRORS) as caught:
        parse_move(Position.initial(), text)
    message = str(caught.value)
    assert not sentence_problems(message), repr(message)


# ------------------------------------------------------------------ move text: the service


ALICE = PlayerRef(1001, "Alice")
BOB = PlayerRef(2002, "Bob")


async def _new_game(service: GameService) -> int:
    challenge = await service.challenges.offer(
        guild_id=1, channel_id=2, challenger=ALICE, opponent=BOB, color="sente"
    )
    return (await service.challenges.accept(challenge.id, BOB.user_id)).id


_service_cache: dict[tuple[int, int], tuple[Findings, Findings, int]] = {}


async def _service_findings(count: int, seed: int) -> tuple[Findings, Findings, int]:
    """``Moves.play`` over ``count`` inputs by the player to move (a move that lands
    goes on; a finished game is replaced).  Returns (errors, messages, moves landed)."""
    key = (count, seed)
    if key in _service_cache:
        return _service_cache[key]
    rng = random.Random(seed)
    errors, messages = Findings(), Findings()
    landed = 0
    db = await open_database(":memory:")
    try:
        service = GameService(db)
        game_id = await _new_game(service)
        view = await service.games.get(game_id)
        for kind, text in generate(move_kinds(), rng, count):
            if not view.is_active:
                assert_replays(view)
                game_id = await _new_game(service)
                view = await service.games.get(game_id)
            assert view.to_move is not None
            errors.checked += 1
            messages.checked += 1
            try:
                result = await service.moves.play(game_id, view.to_move.user_id, str(text))
            except ServiceError as error:
                check_message(messages, kind, text, error)
                after = await service.games.get(game_id)
                if after.ply != view.ply:
                    errors.add(f"{kind}: refused but stored", text, error.message)
                view = after
            except Exception as error:
                errors.add(f"{kind}: {type(error).__name__}", text, repr(error))
                view = await service.games.get(game_id)
            else:
                assert isinstance(result, PlayedMove)
                landed += 1
                view = await service.games.get(game_id)
        assert_replays(await service.games.get(game_id))
    finally:
        await db.close()
    _service_cache[key] = (errors, messages, landed)
    return errors, messages, landed


async def test_service_play_raises_only_service_errors(scale: Scale) -> None:
    errors, _, landed = await _service_findings(scale.fuzz_inputs, 202)
    assert landed > 0, "no generated input was ever a legal move: the generator is broken"
    assert not errors.problems, errors.report()


@pytest.mark.parametrize("text", ["7g7g", "+G-5h", "P-7f\nP-7g", "**P-7f**"])
async def test_service_play_refuses_near_misses_with_a_sentence(text: str) -> None:
    """What the fuzzer found, through the service: a refusal, never another exception."""
    db = await open_database(":memory:")
    try:
        service = GameService(db)
        game_id = await _new_game(service)
        with pytest.raises(ServiceError) as caught:
            await service.moves.play(game_id, ALICE.user_id, text)
        assert not sentence_problems(caught.value.message), repr(caught.value.message)
        assert (await service.games.get(game_id)).ply == 0
    finally:
        await db.close()


async def test_service_play_errors_are_one_short_line(scale: Scale) -> None:
    _, messages, _ = await _service_findings(scale.fuzz_inputs, 202)
    assert not messages.problems, messages.report()


# ------------------------------------------------------------------ SFEN


@cache
def _sfen_findings(count: int, seed: int) -> tuple[Findings, Findings]:
    rng = random.Random(seed)
    errors, messages = Findings(), Findings()
    for kind, text in generate(sfen_kinds(), rng, count):
        errors.checked += 1
        messages.checked += 1
        try:
            position = Position.from_sfen(str(text))
        except SfenError as error:
            check_message(messages, kind, text, error)
        except Exception as error:
            errors.add(f"{kind}: {type(error).__name__}", text, repr(error))
        else:
            again = Position.from_sfen(position.sfen())
            if again != position:
                errors.add(f"{kind}: does not round-trip", text, position.sfen())
    return errors, messages


def test_sfen_raises_only_sfen_error(scale: Scale) -> None:
    errors, _ = _sfen_findings(scale.fuzz_inputs, 303)
    assert not errors.problems, errors.report()


def test_sfen_errors_are_one_short_line(scale: Scale) -> None:
    _, messages = _sfen_findings(scale.fuzz_inputs, 303)
    assert not messages.problems, messages.report()


async def test_challenge_from_a_bad_sfen_is_a_service_error(scale: Scale) -> None:
    """The import door of the service: a set-up start position given as SFEN."""
    rng = random.Random(304)
    findings = Findings()
    db = await open_database(":memory:")
    try:
        service = GameService(db)
        for index, (kind, text) in enumerate(generate(sfen_kinds(), rng, scale.fuzz_inputs // 10)):
            findings.checked += 1
            try:
                challenge = await service.challenges.offer(
                    guild_id=index, channel_id=2, challenger=ALICE, opponent=BOB,
                    start_sfen=str(text),
                )  # fmt: skip
            except ServiceError as error:
                check_message(findings, kind, text, error)
            except Exception as error:
                findings.add(f"{kind}: {type(error).__name__}", text, repr(error))
            else:
                game = await service.challenges.accept(challenge.id, BOB.user_id)
                assert_replays(game)
    finally:
        await db.close()
    assert not findings.problems, findings.report()


# ------------------------------------------------------------------ record files


@cache
def _record_findings(count: int, seed: int, every_reader: bool) -> tuple[Findings, Findings]:
    """Each input goes to ``read_record`` (what an import would call) and to one of the
    format readers in turn, or to all of them with ``every_reader`` (the long run)."""
    rng = random.Random(seed)
    errors, messages = Findings(), Findings()
    for index, (kind, data) in enumerate(generate(record_kinds(), rng, count)):
        readers = READERS if every_reader else (read_record, READERS[1 + index % 4])
        for reader in readers:
            errors.checked += 1
            messages.checked += 1
            try:
                record = reader(data)
            except RecordError as error:
                check_message(messages, f"{reader.__name__}/{kind}", data, error)
            except Exception as error:
                errors.add(f"{reader.__name__}/{kind}: {type(error).__name__}", data, repr(error))
            else:
                game: Game = record.game
                # A record's start may be irregular (nifu...): it reads back as the record did.
                start = Position.from_sfen_with_warnings(game.start.sfen())[0]
                replayed = Game(start, [m.usi() for m in game.moves])
                if replayed.position != game.position:
                    errors.add(f"{reader.__name__}/{kind}: does not replay", data, "")
    return errors, messages


def test_record_readers_raise_only_record_error(scale: Scale) -> None:
    errors, _ = _record_findings(scale.fuzz_inputs, 404, scale.long)
    assert not errors.problems, errors.report()


def test_record_reader_errors_are_one_short_line(scale: Scale) -> None:
    _, messages = _record_findings(scale.fuzz_inputs, 404, scale.long)
    assert not messages.problems, messages.report()


@pytest.mark.parametrize(
    ("reader", "text"),
    [
        (read_kif, "手合割：" + "x" * 1000),
        (read_kif, "1 " + "７六歩" * 200),
        (read_usi, "position startpos moves 7g7f " + "z" * 1000),
    ],
    ids=["kif-unknown-handicap", "kif-long-move", "usi-long-move"],
)
def test_record_error_quotes_are_cut_short(reader: Callable[[str], object], text: str) -> None:
    with pytest.raises(RecordError) as caught:
        reader(text)
    assert not sentence_problems(str(caught.value)), f"{len(str(caught.value))} characters"


# ------------------------------------------------------------------ through the bot


SPECIAL_MOVES = [
    "@everyone", "@here", "<@{alice}>", "<@&{guild}>", "**P-7f**", "`7g7f`", "||7g7f||",
    "__P-76__", "~~P-76~~", "> 7g7f", "# 7g7f", "P-7f\nP-7g", "7g7g", "+G-5h",
    "P-7f @everyone", "<@{bob}> 7g7f", "*" * 50, "_" * 200, "x" * 6000, "\u202e7g7f",
]  # fmt: skip


def _bot_inputs(count: int, seed: int, ids: dict[str, int]) -> list[tuple[str, str]]:
    specials = [("special", s.format(**ids)) for s in SPECIAL_MOVES]
    rng = random.Random(seed)
    generated = [
        (kind, str(text))
        for kind, text in generate(move_kinds(max_len=6000), rng, count * 2)
        if str(text).strip()
    ]
    return (specials + generated)[:count]


async def test_move_replies_never_ping_or_format_what_was_typed(club: Club, scale: Scale) -> None:
    fake = club.fake
    fake.settle = 0.01
    game = await club.new_game()
    ids = {"alice": club.alice.id, "bob": club.bob.id, "guild": club.guild.id}
    findings = Findings()
    for kind, text in _bot_inputs(scale.bot_fuzz_inputs, 505, ids):
        view = await club.service.games.get(game.game_id)
        if not view.is_active:
            game = await club.new_game()
            view = await club.service.games.get(game.game_id)
        assert view.to_move is not None
        mover = club.member(view.to_move.user_id)
        result = await fake.slash("move", {"move": text}, user=mover, channel=game.thread)
        findings.checked += 1
        after = await club.service.games.get(game.game_id)
        sent = result.sent
        for message in sent:
            pinged = set(message.mentioned_user_ids)
            if message.mention_everyone or message.mention_role_ids:
                findings.add(f"{kind}: @everyone/role ping", text, message.content)
            if pinged - {after.to_move.user_id if after.to_move else -1}:
                findings.add(f"{kind}: pinged {sorted(pinged)}", text, message.content)
        if result.reply is None:
            findings.add(f"{kind}: no answer", text, "")
            continue
        content = result.content
        if after.ply == view.ply:  # refused: one ephemeral sentence about what was typed
            if not result.ephemeral:
                findings.add(f"{kind}: public refusal", text, content)
            if content == APOLOGY:
                findings.add(f"{kind}: unexpected error (apology)", text, content)
            for problem in sentence_problems(content):
                findings.add(f"{kind}: reply {problem.split(' (')[0]}", text, content)
            for char in unescaped_markdown(content, text):
                findings.add(f"{kind}: unescaped {char!r}", text, content)
            for mention in live_mentions(content):
                if mention in text:
                    findings.add(f"{kind}: live mention {mention}", text, content)
        elif after.ply != view.ply + 1:
            findings.add(f"{kind}: {after.ply - view.ply} moves stored", text, content)
    assert_replays(await club.service.games.get(game.game_id))
    assert not findings.problems, findings.report()


async def test_player_names_in_refusals_are_escaped(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """A display name is typed by a member too: refusals that name a player must escape it."""
    fake = fake_discord
    odd_names = ("**al_ice** @everyone", "`bob`", "carol")
    club = await open_club(fake, bot_runner, e2e_guard, tmp_path, names=odd_names)
    game = await club.new_game()
    answers: Iterable[tuple[str, str]] = []
    wrong_turn = await fake.slash("move", {"move": "3c3d"}, user=club.bob, channel=game.thread)
    challenge = await fake.slash(
        "challenge", {"opponent": club.bob}, user=club.carol, channel=club.channel
    )
    accept = next(c for c in challenge.custom_ids if c.startswith("ch:accept"))
    stranger = await fake.click(challenge, accept, user=club.alice)
    answers = [("not your turn", wrong_turn.content), ("accept by a stranger", stranger.content)]
    bad = []
    for what, content in answers:
        names = club.alice.user.username + club.bob.user.username
        if unescaped_markdown(content, names) or live_mentions(content):
            bad.append(f"{what}: {content!r}")
    assert not bad, "names are not escaped:\n  " + "\n  ".join(bad)

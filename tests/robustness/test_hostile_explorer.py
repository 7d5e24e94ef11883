"""A hostile member at `/explorer` through the real client and the fake Discord, while two
others play: a 256 KiB pasted record, a bad SFEN, a record built to slow a reader, forged
menu choices (a move nobody played there, two values, a value too long, another server's
key, an id of no shape the bot makes) and the first use over 300 older games to index.
Each answer is one sentence (or the explorer's board, where the text was a position
after all), the players' moves are answered with their boards meanwhile, and the event
loop never stalls more than 100 ms."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.db import BulkGame, MoveRow, NewGame, PlayerRow, Terms
from bot.services import position_hash
from rules import Game, Position
from tests.fakediscord import InteractionResult
from tests.fakediscord.constants import InteractionType
from tests.support.club import Club, Table
from tests.support.hostile_records import legitimate, shapes
from tests.support.japanese import assert_japanese
from tests.support.stall import LoopProbe

MOVES = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e")
STALL = 0.1
OLDER_GAMES = 300


def one_sentence(result: InteractionResult) -> str:
    assert result.ephemeral, result.content
    text = result.content
    assert text and "\n" not in text and len(text) <= 400, text
    assert not result.files, text
    return text


async def older_games(club: Club, count: int) -> None:
    """Finished games stored as a club that played before the explorer existed left them:
    none of them indexed yet."""
    started = datetime(2025, 1, 1, tzinfo=UTC)
    terms = Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27")
    games = []
    for n in range(count):
        game = Game.replay(None, MOVES[: 2 + n % 5])
        moves = tuple(
            MoveRow(0, ply + 1, move.usi(), club.alice.id if ply % 2 == 0 else club.bob.id, started)
            for ply, move in enumerate(game.moves)
        )
        new = NewGame(club.guild.id, club.channel.id, club.alice.id, club.bob.id, terms,
                      Position.initial().sfen(), started)  # fmt: skip
        games.append(BulkGame(new, moves, game.position.sfen(), started, "resignation", "sente"))
    async with club.service.store.db.transaction() as tx:
        await tx.players.upsert(PlayerRow(club.alice.id, "alice"), started)
        await tx.players.upsert(PlayerRow(club.bob.id, "bob"), started)
        for game_id in await tx.games.bulk_insert(games):
            await tx.games.mark_end_announced(game_id, started)  # posted long ago


async def pasted(club: Club, record: str) -> InteractionResult:
    """`/explorer position:` with `record` as a modified client sends it: Discord's own
    client stops at 6,000 characters."""
    data = club.fake.actions.command_data("explorer", {"position": "x"}, channel=club.channel)
    [option] = data["options"]
    option["value"] = record
    interaction = await club.fake.actions.create_interaction(
        InteractionType.APPLICATION_COMMAND, member=club.carol, channel=club.channel, data=data,
        label="forged /explorer",
    )  # fmt: skip
    return await InteractionResult(club.fake, interaction).wait_final()


async def play(club: Club, table: Table) -> None:
    for number, usi in enumerate(MOVES):
        mover = club.alice if number % 2 == 0 else club.bob
        result = await club.move(mover, usi, table)
        assert not result.ephemeral and result.files, f"{usi}: {result.content}"


async def test_hostile_explorer_input_gets_one_sentence_and_stalls_nothing(club: Club) -> None:
    await older_games(club, OLDER_GAMES)
    table = await club.new_game()
    carol = club.carol
    answers: dict[str, InteractionResult] = {}
    huge = legitimate(256 * 1024)  # built before the probe: the test's own work
    slow = shapes(5800)["kif-digits-move-number-one-line"]

    async def attack() -> None:
        first = await club.fake.slash("explorer", user=carol, channel=club.channel)
        answers["first use"] = first
        answers["256 KiB record"] = await pasted(club, huge)
        answers["bad SFEN"] = await club.fake.slash(
            "explorer", {"position": "lnsgkgsnl/9/ppppp b - 1"}, user=carol, channel=club.channel
        )
        answers["slow record"] = await club.fake.slash(
            "explorer", {"position": slow[:6000]}, user=carol, channel=club.channel
        )
        message = first.reply
        assert message is not None
        [select] = [c for c in message.custom_ids if c.startswith("ex:")]
        for name, values in {
            "move not played": ["5g5f"],
            "two values": ["7g7f", "2g2f"],
            "value too long": ["7g7f" * 40],
            "not a move": ["'; DROP TABLE games; --"],
        }.items():
            forged = await club.fake.forge_choice(
                message, select, values, user=carol, channel=club.channel
            )
            answers[name] = await forged.wait_final()
        elsewhere = f"ex:{position_hash(Position.initial()) % (1 << 64) ^ 1:016x}"
        forged = await club.fake.forge_choice(
            message, elsewhere, ["7g7f"], user=carol, channel=club.channel
        )
        answers["unknown key"] = await forged.wait_final()
        forged = await club.fake.forge_choice(
            message, "ex:" + "f" * 4000, ["7g7f"], user=carol, channel=club.channel
        )
        answers["no such id"] = await forged.wait_final()

    async with LoopProbe() as probe:
        await asyncio.gather(attack(), play(club, table))
    assert probe.worst < STALL, probe.report()

    first = answers.pop("first use")
    assert first.ephemeral and first.files
    # The first use indexed a bounded batch of the older games and says so; the next, the rest.
    assert first.content.startswith("Sente to move. Played here 200 times"), first.content
    assert first.content.endswith(
        "100 older games are not counted yet: they will be at the next uses."
    )
    again = await club.fake.slash("explorer", user=carol, channel=club.channel)
    assert again.content.startswith("Sente to move. Played here 300 times"), again.content
    assert "older games" not in again.content
    said = {name: one_sentence(result) for name, result in answers.items()}
    assert "6,000" in said["256 KiB record"] or "6000" in said["256 KiB record"]
    assert said["move not played"].startswith("That move was not played from this position")
    assert said["not a move"] == said["move not played"]
    assert said["two values"] == said["value too long"] == said["move not played"]
    assert said["unknown key"] == said["no such id"]  # a menu its message does not carry
    assert "at most 6 digits" in said["slow record"]
    assert len((await club.game(table.game_id)).game.moves) == len(MOVES)


async def test_the_refusals_read_in_japanese(club: Club) -> None:
    club.carol.user.locale = "ja"
    bad = await club.fake.slash(
        "explorer", {"position": "lnsgkgsnl/9/ppppp b - 1"}, user=club.carol, channel=club.channel
    )
    one_sentence(bad)
    assert_japanese(bad)
    alone = await club.fake.slash("explorer", {"at_move": 3}, user=club.carol, channel=club.channel)
    assert one_sentence(alone).startswith("「手数」は対局か棋譜と一緒に")

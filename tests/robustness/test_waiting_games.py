"""A hostile player of a tournament game whose thread is not open yet, through the real
client and the fake Discord, while two others play: a hundred `/move`s at once in the
waiting game, by its number, in every notation, none that parses and none at all (the
piece picker), and a forged "give more time" by the opponent. Each answer is one
sentence, the game's clock stays stopped (no move, no deadline) until its first post,
the other game's moves are answered with their boards meanwhile, and the event loop
never stalls more than 100 ms."""

from __future__ import annotations

from datetime import timedelta

from bot.services import PlayerRef
from bot.services.tournaments.model import Runner
from tests.fakediscord import InteractionResult
from tests.support.club import Club
from tests.support.stall import LoopProbe

STALL = 0.1
PRESSES = 100
TYPED = ("7g7f", "P-7f", "７六歩", "x" * 4000, "")


def one_sentence(result: InteractionResult) -> str:
    assert result.ephemeral, result.content
    said = result.content
    assert said and "\n" not in said and len(said) <= 400, said
    return said


async def test_a_flood_of_moves_in_a_game_waiting_for_its_thread_changes_nothing(
    club: Club,
) -> None:
    entrants = [club.fake.add_member(club.guild, name) for name in ("dan", "eve", "fay")]
    assert club.bot is not None
    await club.bot.wait_until_ready()  # its own look for games without a thread is done
    service = club.service
    tournament = await service.tournaments.create(
        guild_id=club.guild.id,
        channel_id=club.channel.id,
        organizer=PlayerRef(club.alice.id, "alice"),
        may_manage=True,
        name="Cup",
        format="round_robin",
        start_at=club.clock.now + timedelta(days=1),
        time_control="1d",
    )
    for member in entrants:
        player = PlayerRef(member.id, member.user.username)
        await service.tournaments.join(tournament.id, player, guild_id=club.guild.id)
    # Started below the Discord layer: the games are stored, their threads not opened.
    change = await service.tournaments.start(
        tournament.id, Runner(club.alice.id, True), guild_id=club.guild.id
    )
    waiting = await club.game(change.games_created[0])
    assert waiting.to_move is not None and waiting.deadline is None
    attacker = club.member(waiting.to_move.user_id)
    opponent = club.member(waiting.player(waiting.turn.opponent).user_id)

    async with LoopProbe() as probe:
        table = await club.new_game()
        moves = [
            await club.fake.slash(
                "move",
                {"move": TYPED[n % len(TYPED)], "game": str(waiting.id)},
                user=attacker,
                channel=club.channel,
                wait=False,
            )
            for n in range(PRESSES)
        ]
        reply = await club.move(club.alice, "7g7f", table)
        assert not reply.ephemeral and reply.files, reply.content
        answers = [one_sentence(await move.wait_final()) for move in moves]
        # "Give more time" for it, forged: no reminder carrying it was ever posted.
        gift = await club.fake.forge_click(
            table.start, f"gt:{waiting.id}", user=opponent, channel=club.channel
        )
        await gift.wait_final()
        answers.append(one_sentence(gift))
        reply = await club.move(club.bob, "3c3d", table)
        assert not reply.ephemeral and reply.files, reply.content
    assert probe.worst < STALL, f"the event loop stalled {probe.worst * 1000:.0f} ms"
    waits = sum("thread is still being opened" in said for said in answers[:PRESSES])
    assert waits == PRESSES, set(answers)
    assert "no longer works" in answers[-1]  # a button the bot never put there
    still = await club.game(waiting.id)
    assert still.ply == 0 and still.deadline is None and still.row.clock_waits

"""`/explorer` through the real discord.py client and the fake Discord: games are played and
finished in the server, then the explorer's counts from the start, from a game's later
move and after following a move in its menu are those an independent replay of the same
games with the rules core gives, in English and in Japanese; a game in progress and a
game of another server are not counted."""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass

from PIL import Image

from bot.services import PlayerRef
from bot.services.play.snapshots import move_text
from rules import Color, Game, Move, Position
from tests.fakediscord import FakeMember, InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese

OTHER_SERVER = 987654321


@dataclass(frozen=True)
class Finished:
    game_id: int
    moves: tuple[str, ...]
    winner: Color


#: Who resigns each game: the side to move after its moves. The first and second reach
#: one position in two orders (7g7f 3c3d 2g2f = 2g2f 3c3d 7g7f).
GAMES = (
    ("7g7f", "3c3d", "2g2f"),
    ("2g2f", "3c3d", "7g7f", "8c8d"),
    ("7g7f", "8c8d"),
)


async def play_and_resign(club: Club, moves: tuple[str, ...]) -> Finished:
    table = await club.new_game()
    players = (club.alice, club.bob)
    await club.play(table, [(players[n % 2], usi) for n, usi in enumerate(moves)])
    loser: FakeMember = players[len(moves) % 2]
    await club.resign(table, loser)
    winner = Color.GOTE if len(moves) % 2 == 0 else Color.SENTE
    outcome = (await club.game(table.game_id)).outcome
    assert outcome is not None and outcome.winner is winner
    return Finished(table.game_id, moves, winner)


async def elsewhere_and_ongoing(club: Club) -> tuple[int, int]:
    """A finished game of another server (through the service: the bot serves that server
    too) and a game still going on here: neither may be counted."""
    service = club.service
    alice = PlayerRef(club.alice.id, "alice")
    bob = PlayerRef(club.bob.id, "bob")
    offer = await service.challenges.offer(
        guild_id=OTHER_SERVER, channel_id=1, challenger=alice, opponent=bob, color="sente"
    )
    other = await service.challenges.accept(offer.id, bob.user_id)
    await service.moves.play(other.id, alice.user_id, "9g9f")
    await service.moves.play(other.id, bob.user_id, "1c1d")
    await service.endings.resign(other.id, bob.user_id)
    going = await club.new_game()
    await club.play(going, [(club.alice, "5g5f"), (club.bob, "5c5d")])
    return other.id, going.game_id


def expected_at(games: list[Finished], at: Position) -> dict[str, tuple[int, int, int]]:
    """The independent count: each game replayed with the rules core; for every move played
    from a position equal to `at` (board, hands, side to move), its games, wins and
    losses for the side that played it."""
    found: dict[str, list[int]] = {}
    for finished in games:
        game = Game.replay(None, finished.moves)
        for ply, move in enumerate(game.moves):
            before = game.position_at(ply)
            if before.key() == at.key():
                counts = found.setdefault(move.usi(), [0, 0, 0])
                counts[0] += 1
                counts[1 if before.turn is finished.winner else 2] += 1
    return {usi: (n, w, lost) for usi, (n, w, lost) in found.items()}


def shown_counts(
    result: InteractionResult | str, at: Position, lang: str
) -> dict[str, tuple[int, int, int]]:
    """What the answer's list says of each move: its games and won and lost percentages,
    read back as counts, keyed by the move's USI (found by how the reader's notation
    writes it)."""
    content = result if isinstance(result, str) else result.content
    shown: dict[str, tuple[int, int, int]] = {}
    for move in at.legal_moves():
        written = move_text(at, move, None)
        name = written.western if lang == "en" else written.japanese
        pattern = (
            rf"\({re.escape(name)}\) — (\d+) games?: (\d+)% won, \d+% drawn, (\d+)% lost"
            if lang == "en"
            else rf"[☗☖]{re.escape(name)} — (\d+)局：勝ち(\d+)%・引き分け\d+%・負け(\d+)%"
        )
        found = re.search(pattern, content)
        if found is not None:
            games, won, lost = (int(group) for group in found.groups())
            shown[move.usi()] = (games, round(games * won / 100), round(games * lost / 100))
    return shown


def menu_values(result: InteractionResult) -> list[str]:
    message = result.reply
    assert message is not None
    [select] = [c for c in message.custom_ids if c.startswith("ex:")]
    component = message.component(select) or {}
    return [str(option["value"]) for option in component.get("options", [])]


def has_arrows(result: InteractionResult) -> bool:
    [png] = [a for a in result.files if a.filename.endswith(".png")]
    image = Image.open(io.BytesIO(png.data)).convert("RGB")
    image.load()
    colours: list[tuple[int, tuple[int, int, int]]] = image.getcolors(maxcolors=1 << 20) or []  # type: ignore[assignment]
    return any(b > r + 60 and b > g + 30 for _, (r, g, b) in colours)


async def test_the_explorer_counts_what_an_independent_replay_counts(club: Club) -> None:
    finished = [await play_and_resign(club, moves) for moves in GAMES]
    other_id, going_id = await elsewhere_and_ongoing(club)
    start = Position.initial()

    answer = await club.fake.slash("explorer", user=club.carol, channel=club.channel)
    assert answer.ephemeral, answer.content
    expected = expected_at(finished, start)
    assert expected == {"7g7f": (2, 1, 1), "2g2f": (1, 0, 1)}
    assert shown_counts(answer, start, "en") == expected
    assert answer.content.startswith("Sente to move. Played here 3 times")
    assert sorted(menu_values(answer)) == sorted(expected)  # not 5g5f, nor 9g9f
    assert "5g5f" not in answer.content and "P-5f" not in answer.content
    assert f"#{going_id}" not in answer.content and f"#{other_id}" not in answer.content
    assert has_arrows(answer)
    alt = answer.files[0].description or ""
    assert alt.startswith("Explorer board, arrows for the moves played here: ☗７六歩 (P-7f)")

    # From the first game after its third move: two orders met there.
    later = Game.replay(None, GAMES[0]).position
    from_game = await club.fake.slash(
        "explorer",
        {"game": str(finished[0].game_id), "at_move": 3},
        user=club.carol,
        channel=club.channel,
    )
    assert from_game.ephemeral
    assert expected_at(finished, later) == {"8c8d": (1, 1, 0)}
    assert shown_counts(from_game, later, "en") == expected_at(finished, later)
    assert "Gote to move" in from_game.content

    # Following 7g7f in the start's menu edits the same private message.
    message = answer.reply
    assert message is not None
    [select] = [c for c in message.custom_ids if c.startswith("ex:")]
    followed = await club.fake.choose(message, select, "7g7f", user=club.carol)
    after = Game.replay(None, ["7g7f"]).position
    assert followed.ephemeral
    assert expected_at(finished, after) == {"3c3d": (1, 0, 1), "8c8d": (1, 1, 0)}
    assert shown_counts(message.content, after, "en") == expected_at(finished, after)
    assert sorted(v for v in menu_values(answer)) == ["3c3d", "8c8d"]


async def test_nothing_played_and_a_pasted_position(club: Club) -> None:
    finished = [await play_and_resign(club, GAMES[2])]
    nothing = await club.fake.slash(
        "explorer",
        {"position": "lnsgkgsnl/1r5b1/ppppppppp/9/9/4P4/PPPP1PPPP/1B5R1/LNSGKGSNL w - 2"},
        user=club.alice,
        channel=club.channel,
    )
    assert nothing.ephemeral
    assert nothing.content == "No finished game of this server has reached this position."
    assert not [c for c in (nothing.reply.custom_ids if nothing.reply else []) if "ex:" in c]
    record = await club.fake.slash(
        "explorer", {"position": "▲７六歩 △８四歩"}, user=club.alice, channel=club.channel
    )
    at = Game.replay(None, ["7g7f"]).position
    assert shown_counts(
        await club.fake.slash(
            "explorer",
            {"position": "▲７六歩 △８四歩", "at_move": 1},
            user=club.alice,
            channel=club.channel,
        ),
        at,
        "en",
    ) == expected_at(finished, at)
    assert record.content == nothing.content  # after ７六歩 ８四歩: no game went there


async def test_the_explorer_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    finished = [await play_and_resign(club, moves) for moves in GAMES[:2]]
    start = Position.initial()
    answer = await club.fake.slash("explorer", user=club.carol, channel=club.channel)
    assert answer.ephemeral
    assert_japanese(answer)
    assert answer.content.startswith("先手番。このサーバーの終局した対局で、この局面から2回")
    assert shown_counts(answer, start, "ja") == expected_at(finished, start)
    assert "☗７六歩 — 1局：勝ち100%・引き分け0%・負け0%" in answer.content
    message = answer.reply
    assert message is not None
    [select] = [c for c in message.custom_ids if c.startswith("ex:")]
    await club.fake.choose(message, select, "2g2f", user=club.carol)
    after = Game.replay(None, ["2g2f"]).position
    assert shown_counts(message.content, after, "ja") == expected_at(finished, after)
    assert message.content.startswith("後手番。")


def test_the_counts_are_read_back_from_the_list() -> None:
    """The parser of the list fails on a count that differs: it is no empty check."""
    start = Position.initial()
    line = "`1.` ☗７六歩 (P-7f) — 2 games: 50% won, 0% drawn, 50% lost"
    assert shown_counts(line, start, "en") == {"7g7f": (2, 1, 1)}
    assert Move.from_usi("7g7f") in start.legal_moves()
    assert shown_counts("nothing", start, "en") == {}
    assert Counter(shown_counts(line, start, "en")) != Counter({"7g7f": (2, 2, 0)})

"""Regenerate the sample images in `docs/`: `python scripts/make_samples.py`.

The midgame and the final position come from a professional game (Joryu
Oza-sen 2017, Kato Momoko vs Satomi Kana; the record is
`bioshogi_sample.csa` in the shared test data, from akicho8/bioshogi),
written out below as USI so that this script needs nothing else.
"""

from __future__ import annotations

import random
import sys
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.services.ratings.glicko2 import DEFAULT, Rating, rate_game  # noqa: E402
from render import Ending, describe, render_board, render_gif, render_rating_chart  # noqa: E402
from rules import Color, Move, Position  # noqa: E402

MOVES = """
2g2f 3c3d 2f2e 2b3c 7g7f 3a4b 3i4h 5c5d 5i6h 5d5e 3g3f 8b5b 4h3g 4b5c 3g4f 5c4d 4i5h 5a6b
6h7h 6b7b 6g6f 7b8b 5h6g 7a7b 8h7g 9c9d 7h8h 9d9e 9i9h 8c8d 8h9i 7b8c 7i8h 6a7b 6f6e 7c7d
6g6f 8a7c 7g8f 5b5a 2h7h 8d8e 8f5i 3c4b 6i7i 2a3c 7f7e 7d7e 6f7e 4b7e 7h7e P*7d 7e7f G*7e
7f7h 5e5f 5g5f 7e6e 5f5e P*5f 5i2f 1c1d P*6b 4a5b 6b6a+ 5a6a 5e5d 6e6f 7h6h 6f7f P*7g 7f7e
6h5h 7e6f 5h6h 6f6e B*3b 8e8f 8g8f 3d3e 3b2c+ 6c6d 3f3e 6a2a 2c3d 9a9b 2f4h 2a9a 2e2d 6e7e
3d5f P*8d 4h7e 7d7e 6h6d 5b6c 6d6h B*6e 6h6e 7c6e 5f6e R*5i N*6f 7b7c B*5b 6c6d 6e6d 7c6d
P*6e B*4h 6e6d 4h6f+ G*7c
"""
GAME = MOVES.split()
SENTE, GOTE = "Kato Momoko", "Satomi Kana"
#: A short game that ends in mate: sente takes the bishop, drops it back and mates.
MATE = ["7g7f", "3c3d", "8h2b+", "4a5b", "B*4b", "5a4a", "2b3a"]


def replay(count: int) -> tuple[Position, Position, Move]:
    """The position after `count` moves, the one before it, and the last move."""
    position = Position.initial()
    previous = position.copy()
    move = Move.from_usi(GAME[0])
    for text in GAME[:count]:
        move = Move.from_usi(text)
        previous = position.copy()
        position.push(move)
    return position, previous, move


def write(name: str, png: bytes, alt: str) -> None:
    path = ROOT / "docs" / name
    path.write_bytes(png)
    print(f"{path.relative_to(ROOT)}: {len(png):,} bytes; alt: {alt}")


def main() -> int:
    start = Position.initial()
    write("board-start.png", render_board(start), describe(start))

    midgame, before, move = replay(79)
    caption = f"Move {midgame.move_number} · Joryu Oza-sen 2017"
    png = render_board(midgame, last_move=move, sente_name=SENTE, gote_name=GOTE, caption=caption)
    write("board-midgame.png", png, describe(midgame, move, previous=before))

    final, before, move = replay(len(GAME))
    caption = f"Move {final.move_number} · 後手投了 (gote resigns)"
    png = render_board(
        final,
        last_move=move,
        perspective=Color.GOTE,
        sente_name=SENTE,
        gote_name=GOTE,
        caption=caption,
    )
    write("board-gote.png", png, describe(final, move, previous=before))

    # Player names in other scripts (the names font: JIS X 0208, Latin, Greek, Cyrillic).
    midgame, before, move = replay(79)
    alt = describe(midgame, move, previous=before)
    samples = [
        (
            "japanese",
            "加藤桃子 (女流王座)",
            "里見香奈 (5段)",
            f"第{midgame.move_number}手 · 女流王座戦 2017",
            Color.SENTE,
        ),
        (
            "mixed",
            "Ελένη Παπαδοπούλου",
            "Дмитрий Łukasz Dvořák",
            f"Move {midgame.move_number} · 対局中",
            Color.GOTE,
        ),
        ("emoji", "🐉 Dragon 龍王 🐉", "さくら🌸" + "とても長い名前" * 12, None, Color.SENTE),
    ]
    for tag, sente, gote, note, perspective in samples:
        png = render_board(
            midgame,
            last_move=move,
            perspective=perspective,
            sente_name=sente,
            gote_name=gote,
            caption=note,
        )
        write(f"board-names-{tag}.png", png, alt)
    endings()
    ratings = rating_history()
    alt = f"Rating after each of {len(ratings) - 1} rated games, now {round(ratings[-1])}"
    write("rating-chart.png", render_rating_chart(ratings, title="Hanako: rating"), alt)
    title = "はなこ🌸　レーティング推移"
    write("rating-chart-japanese.png", render_rating_chart(ratings, title=title), alt)
    crosstables()
    brackets()
    return 0


def endings() -> None:
    """The final board after mate and after a resignation, and a short game as a GIF."""
    final, before, move = replay(len(GAME))
    result = f"まで{len(GAME)}手で先手の勝ち（投了）"
    ending = Ending(result, winner=Color.SENTE, resigned=Color.GOTE)
    png = render_board(final, last_move=move, sente_name=SENTE, gote_name=GOTE, ending=ending)
    write("board-resigned.png", png, describe(final, move, previous=before))

    position = Position.initial()
    moves = [Move.from_usi(usi) for usi in MATE]
    for mate in moves:
        position.push(mate)
    mated = Ending(f"Move {len(MATE)} · sente wins by checkmate", winner=Color.SENTE, mate=True)
    png = render_board(
        position, last_move=moves[-1], sente_name="alice", gote_name="bob", ending=mated
    )
    write("board-mate.png", png, describe(position, moves[-1]))
    sides = ("sente", "gote")
    captions = [f"Move {ply} · {sides[ply % 2]} to move" for ply in range(len(MATE))]
    gif = render_gif(
        Position.initial(),
        moves,
        sente_name="alice",
        gote_name="bob",
        captions=captions,
        ending=mated,
    )
    write("game-mate.gif", gif, f"the game above, {len(MATE) + 1} frames")


def rating_history(games: int = 40, strength: float = 1750.0) -> list[float]:
    """A new member's ratings through `games` rated games against members of a club with
    settled ratings, each won with the chance a `strength` player has (a fixed seed, so
    the sample is the same every time): the Glicko-2 of the bot, as it moves a rating."""
    rng = random.Random(15)
    player = DEFAULT
    ratings = [player.rating]
    for _ in range(games):
        opponent = Rating(rng.uniform(1350, 2050), rng.uniform(60, 120), 0.06)
        expected = 1 / (1 + 10 ** ((opponent.rating - strength) / 400))
        score = 1.0 if rng.random() < expected else 0.0
        idle = timedelta(days=rng.uniform(2, 20))  # correspondence: days between games
        player, _ = rate_game(player, opponent, score, first_idle=idle)
        ratings.append(player.rating)
    return ratings


#: The sample season: six players of a club by rating, in Japanese and in English.
SEASON = {
    1: ("佐藤 花子 (四段)", "Sato Hanako"),
    2: ("鈴木一郎", "Suzuki Ichiro"),
    3: ("はなこ🌸", "Hanako🌸"),
    4: ("高橋 健", "Takahashi Ken"),
    5: ("Łukasz", "Łukasz"),
    6: ("田中 美咲", "Tanaka Misaki"),
}


def crosstables() -> None:
    """A six-player double round robin in its second cycle (a fixed seed; one game lost
    by forfeit), as the standings post shows it, in Japanese and in English."""
    from bot.services.tournaments.pairings import Entrant, round_robin
    from bot.services.tournaments.ranking import Game, Result, standings
    from bot.services.tournaments.tables import crosstable
    from bot.ui.text.tournaments.crosstable import crosstable_words
    from render.crosstable import describe_crosstable, render_crosstable

    rng = random.Random(27)
    entrants = [Entrant(p, 1900 - 60 * p) for p in SEASON]
    games = []
    for played, pairing in enumerate(
        g for r in round_robin(list(SEASON), double=True) for g in r.games
    ):
        if played >= 22:
            games.append(Game(pairing.sente, pairing.gote))
            continue
        stronger = min(pairing.sente, pairing.gote)
        roll = rng.random()
        winner = (
            stronger
            if roll < 0.55
            else None
            if roll < 0.65
            else pairing.sente + pairing.gote - stronger
        )
        result = (
            Result.DRAW
            if winner is None
            else (Result.SENTE_WINS if winner == pairing.sente else Result.GOTE_WINS)
        )
        games.append(
            Game(pairing.sente, pairing.gote, result, forfeit=played == 9 and winner is not None)
        )
    table = standings(entrants, games)
    for lang, name, index, title in (
        ("ja", "crosstable.png", 0, "第1回 クラブリーグ（二回戦総当たり）"),
        ("en", "crosstable-english.png", 1, "Club league 1 (double round robin)"),
    ):
        names = {p: SEASON[p][index] for p in SEASON}
        drawn = crosstable(table, games, names, games_per_pair=2, title=title)
        words = crosstable_words(lang)
        write(name, render_crosstable(drawn, words=words), describe_crosstable(drawn, words=words))


KNOCKOUT = [
    ("佐藤 花子 (四段)", "Sato Hanako", 2105),
    ("鈴木一郎", "Suzuki Ichiro", 1980),
    ("はなこ🌸", "Hanako🌸", 1942),
    ("高橋 健", "Takahashi Ken", 1876),
    ("Łukasz", "Łukasz", 1851),
    ("田中 美咲", "Tanaka Misaki", 1790),
    ("伊藤 翔太", "Ito Shota", 1744),
    ("渡辺 さくら", "Watanabe Sakura", 1702),
    ("山本 大輝", "Yamamoto Daiki", 1655),
    ("中村 ゆい", "Nakamura Yui", 1610),
    ("小林 蓮", "Kobayashi Ren", 1588),
    ("Mia Schneider", "Mia Schneider", 1523),
]


def brackets() -> None:
    """A 12-player knockout (four byes) in its semifinals, with a sennichite replayed
    (指し直し) and a game being played, as the announcement shows it, in Japanese and in
    English."""
    from bot.services.tournaments.pairings import Entrant, knockout_bracket, next_round
    from bot.ui.text.tournaments.bracket import bracket_words
    from render.bracket import (
        Bracket,
        Game,
        Outcome,
        Pairing,
        Player,
        Side,
        describe_bracket,
        render_bracket,
    )

    entrants = [Entrant(seed, rating) for seed, (_, _, rating) in enumerate(KNOCKOUT, start=1)]
    rng = random.Random(27)
    for lang, name, index, title in (
        ("ja", "bracket.png", 0, "第1回 クラブ選手権（トーナメント）"),
        ("en", "bracket-english.png", 1, "Club championship 1 (knockout)"),
    ):
        players = {
            seed: Player(japanese if index == 0 else english, seed, rating)
            for seed, (japanese, english, rating) in enumerate(KNOCKOUT, start=1)
        }
        rng.seed(27)
        rounds: list[tuple[Pairing, ...]] = []
        matches = knockout_bracket(entrants)
        for number in range(3):  # two rounds played, the semifinals under way
            pairings = []
            for board, match in enumerate(matches):
                upper = players[match.upper]
                if match.lower is None:
                    pairings.append(Pairing(upper))
                    continue
                sente = rng.random() < 0.5
                if number == 2 and board == 1:  # still being played
                    pairings.append(
                        Pairing(upper, players[match.lower], (Game(sente, Outcome.PLAYING),))
                    )
                    continue
                upset = rng.random() < 0.3
                games = [Game(sente, Outcome.LOWER_WON if upset else Outcome.UPPER_WON)]
                if number == 0 and board == 1:  # a sennichite first, replayed
                    games.insert(0, Game(not sente, Outcome.REPLAYED))
                winner = Side.LOWER if upset else Side.UPPER
                pairings.append(Pairing(upper, players[match.lower], tuple(games), winner))
            rounds.append(tuple(pairings))
            through = [p.winning() for p in pairings]
            if number < 2:
                matches = next_round([p.seed for p in through if p is not None])
        drawn = Bracket(tuple(rounds), title=title)
        words = bracket_words(lang)
        write(name, render_bracket(drawn, words=words), describe_bracket(drawn, words=words))


if __name__ == "__main__":
    raise SystemExit(main())

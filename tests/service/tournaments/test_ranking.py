"""Standings: the points, tie-breaks and ranks of crosstables computed by hand (the hand
computation is written beside each), the event's own scoring, forfeits and withdrawals."""

from __future__ import annotations

from fractions import Fraction

from bot.services.tournaments.pairings import Entrant, round_robin
from bot.services.tournaments.ranking import (
    Game,
    Result,
    Scoring,
    Standing,
    counted_games,
    standings,
)

S, G, D = Result.SENTE_WINS, Result.GOTE_WINS, Result.DRAW
F = Fraction

# Table 1: six players, ratings 1800 (A = 1) down to 1550 (F = 6) by 50.
#        A  B  C  D  E  F   points   Sonneborn-Berger
#   A    .  1  ½  0  1  1   3½       2½ + ½·3 + 2 + 1½            = 7½
#   B    0  .  1  ½  1  0   2½       3 + ½·2½ + 2                  = 6¼
#   C    ½  0  .  1  ½  1   3        ½·3½ + 2½ + ½·2 + 1½          = 6¾
#   D    1  ½  0  .  0  1   2½       3½ + ½·2½ + 1½                = 6¼
#   E    0  0  ½  1  .  ½   2        ½·3 + 2½ + ½·1½               = 4¾
#   F    0  1  0  0  ½  .   1½       2½ + ½·2                      = 3½
# B and D: equal points and SB; head to head a draw (½ each); two wins each; B's rating
# (1750) is above D's (1650). Ranks: A, C, B, D, E, F.
TABLE_1 = [
    Game(1, 2, S), Game(3, 1, D), Game(1, 4, G), Game(5, 1, G), Game(1, 6, S),
    Game(2, 3, S), Game(4, 2, D), Game(2, 5, S), Game(6, 2, S),
    Game(3, 4, S), Game(5, 3, D), Game(3, 6, S),
    Game(4, 5, G), Game(6, 4, G),
    Game(5, 6, D),
]  # fmt: skip

# Table 2: six players, ratings 1750 (1) down to 1500 (6) by 50.
#        1  2  3  4  5  6   points   Sonneborn-Berger
#   1    .  1  0  0  1  1   3        2 + 2 + 3                     = 7
#   2    0  .  1  0  ½  ½   2        2½ + ½·2 + ½·3                = 5
#   3    1  0  .  1  ½  0   2½       3 + 2½ + ½·2                  = 6½
#   4    1  1  0  .  ½  0   2½       3 + 2 + ½·2                   = 6
#   5    0  ½  ½  ½  .  ½   2        ½·(2 + 2½ + 2½ + 3)           = 5
#   6    0  ½  1  1  ½  .   3        ½·2 + 2½ + 2½ + ½·2           = 7
# 1 and 6: equal points and SB; 1 beat 6 (head to head 1 against 0). 2 and 5: equal points
# and SB, drew (½ each); 2 won a game, 5 none. Ranks: 1, 6, 3, 4, 2, 5.
TABLE_2 = [
    Game(1, 2, S), Game(1, 3, G), Game(1, 4, G), Game(1, 5, S), Game(1, 6, S),
    Game(2, 3, S), Game(2, 4, G), Game(2, 5, D), Game(2, 6, D),
    Game(3, 4, S), Game(3, 5, D), Game(3, 6, G),
    Game(4, 5, D), Game(4, 6, G),
    Game(5, 6, D),
]  # fmt: skip


def figures(table: tuple[Standing, ...]) -> list[tuple[object, ...]]:
    """Each line's player, rank, points, SB, head to head and wins."""
    return [(s.player, s.rank, s.points, s.sonneborn_berger, s.head_to_head, s.wins) for s in table]


def test_table_1_rating_decides_last() -> None:
    entrants = [Entrant(p, 1850 - 50 * p) for p in range(1, 7)]
    assert figures(standings(entrants, TABLE_1)) == [
        (1, 1, F(7, 2), F(15, 2), 0, 3),
        (3, 2, F(3), F(27, 4), 0, 2),
        (2, 3, F(5, 2), F(25, 4), F(1, 2), 2),
        (4, 4, F(5, 2), F(25, 4), F(1, 2), 2),
        (5, 5, F(2), F(19, 4), 0, 1),
        (6, 6, F(3, 2), F(7, 2), 0, 1),
    ]
    # With the ratings turned round, D passes B: the rating is what separated them.
    reversed_ratings = [Entrant(p, 1500 + 50 * p) for p in range(1, 7)]
    order = [s.player for s in standings(reversed_ratings, TABLE_1)]
    assert order.index(4) < order.index(2)


def test_table_2_head_to_head_then_wins() -> None:
    entrants = [Entrant(p, 1800 - 50 * p) for p in range(1, 7)]
    assert figures(standings(entrants, TABLE_2)) == [
        (1, 1, F(3), F(7), F(1), 3),
        (6, 2, F(3), F(7), F(0), 2),
        (3, 3, F(5, 2), F(13, 2), 0, 2),
        (4, 4, F(5, 2), F(6), 0, 2),
        (2, 5, F(2), F(5), F(1, 2), 1),
        (5, 6, F(2), F(5), F(1, 2), 0),
    ]


# Table 3: six players, ratings 1750 (1) down to 1500 (6) by 50.
#        1  2  3  4  5  6   points   Sonneborn-Berger
#   1    .  ½  ½  1  1  ½   3½       ½·2½ + ½·3½ + 2½ + ½ + ½·2½   = 7¼
#   2    ½  .  1  0  1  0   2½       ½·3½ + 3½ + ½                 = 5¾
#   3    ½  0  .  1  1  1   3½       ½·3½ + 2½ + ½ + 2½            = 7¼
#   4    0  1  0  .  1  ½   2½       2½ + ½ + ½·2½                 = 4¼
#   5    0  0  0  0  .  ½   ½        ½·2½                          = 1¼
#   6    ½  1  0  ½  ½  .   2½       ½·3½ + 2½ + ½·2½ + ½·½        = 5¾
# 1 and 3: equal points and SB, drew; 3 won three games, 1 two: 3 first although rated
# lower. 6 and 2: equal points and SB; 6 beat 2: 6 first although 2 won more games and is
# rated higher. 4 has 2½ too but less SB. Ranks: 3, 1, 6, 2, 4, 5.
TABLE_3 = [
    Game(1, 2, D), Game(1, 3, D), Game(1, 4, S), Game(1, 5, S), Game(1, 6, D),
    Game(2, 3, S), Game(2, 4, G), Game(2, 5, S), Game(2, 6, G),
    Game(3, 4, S), Game(3, 5, S), Game(3, 6, S),
    Game(4, 5, S), Game(4, 6, D),
    Game(5, 6, D),
]  # fmt: skip


def test_table_3_head_to_head_comes_before_wins_and_wins_before_rating() -> None:
    entrants = [Entrant(p, 1800 - 50 * p) for p in range(1, 7)]
    assert figures(standings(entrants, TABLE_3)) == [
        (3, 1, F(7, 2), F(29, 4), F(1, 2), 3),
        (1, 2, F(7, 2), F(29, 4), F(1, 2), 2),
        (6, 3, F(5, 2), F(23, 4), F(1), 1),
        (2, 4, F(5, 2), F(23, 4), F(0), 2),
        (4, 5, F(5, 2), F(17, 4), 0, 2),
        (5, 6, F(1, 2), F(5, 4), 0, 0),
    ]


def test_players_equal_in_everything_share_a_rank() -> None:
    entrants = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1500)]
    games = [Game(1, 2, D), Game(2, 3, D), Game(3, 1, D)]
    assert [s.rank for s in standings(entrants, games)] == [1, 1, 1]


def test_head_to_head_waits_until_the_tied_players_have_met() -> None:
    entrants = [Entrant(p, 1500) for p in (1, 2, 3, 4)]
    # 1 and 2 are level on points and SB (both beat a player on 0) and have not met.
    games = [Game(1, 3, S), Game(2, 4, S), Game(1, 2)]
    table = standings(entrants, games)
    assert [s.head_to_head for s in table] == [0, 0, 0, 0]
    assert table[0].rank == table[1].rank == 1


def test_the_events_own_scoring() -> None:
    entrants = [Entrant(p, 1850 - 50 * p) for p in range(1, 7)]
    three = Scoring(win=F(3), draw=F(1), loss=F(0))
    table = {s.player: s for s in standings(entrants, TABLE_1, scoring=three)}
    # A: 3 wins, 1 draw = 10 points; SB: B's 7 + ½·C's 8 + E's 5 + F's 4 = 20.
    assert table[1].points == 10
    assert table[1].sonneborn_berger == 20
    assert table[3].points == 8  # C: 2 wins, 2 draws


def test_a_double_round_robin_counts_both_games_of_a_pair() -> None:
    entrants = [Entrant(1, 1600), Entrant(2, 1500)]
    games = [Game(g.sente, g.gote, S) for r in round_robin([1, 2], double=True) for g in r.games]
    table = standings(entrants, games)
    assert [(s.player, s.points, s.sonneborn_berger, s.played) for s in table] == [
        (1, F(1), F(1), 2),
        (2, F(1), F(1), 2),
    ]
    assert table[0].rank == 1 and table[1].rank == 2  # separated by rating only


def test_a_forfeit_counts_as_a_played_game_for_the_tie_breaks() -> None:
    entrants = [Entrant(p, 1500) for p in (1, 2, 3)]
    games = [Game(1, 2, S, forfeit=True), Game(2, 3, S), Game(3, 1, D)]
    table = {s.player: s for s in standings(entrants, games)}
    assert table[1].points == F(3, 2)
    assert table[1].sonneborn_berger == 1 + F(1, 2) * F(1, 2)  # B's 1 + ½·C's ½
    assert table[1].wins == 1


def schedule(players: int) -> list[Game]:
    return [
        Game(g.sente, g.gote) for r in round_robin(list(range(1, players + 1))) for g in r.games
    ]


def finish(games: list[Game], results: dict[frozenset[int], Result]) -> list[Game]:
    return [
        Game(g.sente, g.gote, results.get(frozenset((g.sente, g.gote)), g.result)) for g in games
    ]


def test_a_withdrawal_before_half_annuls_every_game_of_the_player() -> None:
    entrants = [Entrant(p, 1600 - p) for p in range(1, 7)]
    # Player 6 finished 2 of 5 games (beat 1, lost to 2), then withdrew.
    games = finish(schedule(6), {frozenset((6, 1)): G, frozenset((6, 2)): G})
    sixes = [g for g in games if 6 in (g.sente, g.gote) and g.result is not None]
    assert len(sixes) == 2
    games = [g if (g.sente, g.gote) != (1, 6) else Game(1, 6, G) for g in games]
    table = standings(entrants, games, withdrawn=[6])
    assert all(6 not in (g.sente, g.gote) for g in counted_games(games, [6]))
    by_player = {s.player: s for s in table}
    assert by_player[6].rank is None and by_player[6].withdrawn
    assert by_player[6].played == 0 and by_player[6].points == 0
    assert by_player[1].points == 0  # the loss to 6 is gone
    assert table[-1].player == 6


def test_a_withdrawal_after_half_forfeits_the_unfinished_games() -> None:
    entrants = [Entrant(p, 1600 - p) for p in range(1, 7)]
    # Player 6 won 3 games (against 1, 2, 3), then withdrew: 4 and 5 win by forfeit.
    games = schedule(6)
    finished = []
    for g in games:
        if 6 in (g.sente, g.gote) and g.opponent_of(6) in (1, 2, 3):
            finished.append(Game(g.sente, g.gote, S if g.sente == 6 else G))
        else:
            finished.append(g)
    counted = counted_games(finished, [6])
    forfeits = [g for g in counted if g.forfeit]
    assert sorted(g.opponent_of(6) for g in forfeits) == [4, 5]
    assert all(g.score_of(6) == 0 for g in forfeits)
    table = {s.player: s for s in standings(entrants, finished, withdrawn=[6])}
    assert table[6].rank is not None and table[6].withdrawn
    assert table[6].points == 3 and table[6].played == 5
    assert table[4].points == 1 and table[4].wins == 1


def test_two_withdrawn_players_lose_their_unfinished_game_to_each_other() -> None:
    entrants = [Entrant(p, 1500) for p in (1, 2, 3, 4)]
    # Both 1 and 2 won their two finished games, then withdrew before their game 1-2;
    # 4-3 is simply not played yet.
    games = [Game(1, 4, S), Game(2, 3, S), Game(4, 3), Game(1, 2), Game(2, 4, S), Game(3, 1, G)]
    counted = counted_games(games, [1, 2])
    assert Game(1, 2, None, forfeit=True) in counted and Game(4, 3) in counted
    table = {s.player: s for s in standings(entrants, games, withdrawn=[1, 2])}
    assert table[1].points == table[2].points == 2  # no point from their game 1-2
    assert table[1].played == table[2].played == 2
    assert table[1].rank == table[2].rank == 1

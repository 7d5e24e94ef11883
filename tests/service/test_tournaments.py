"""Tournaments through the service, on real SQLite files and PostgreSQL: a 6-player round
robin and an 8-player knockout played to the end by finishing their games as members do
(resigning, running out of time with the test's clock, a sennichite replayed in the
knockout), a withdrawal, a restart in the middle, two processes racing, and the
refusals. The standings are checked against a computation written here, independently
of `ranking`."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from bot.db import Database, RatingRow, ShardScope, open_database
from bot.services import GameService, PlayerRef, ServiceError
from bot.services.tournaments.handicaps import HandicapTable
from bot.services.tournaments.model import Runner, Tournament, TournamentChange
from render.bracket import Outcome, Player, Side, describe_bracket
from rules import Color, Termination

from .conftest import GUILD, FakeClock, RecordingEvents, checked, first_posts, play_all

CHANNEL = 777
ORGANIZER = PlayerRef(5, "Organizer")
PLAYERS = [PlayerRef(100 + number, f"P{number}") for number in range(1, 9)]
SENNICHITE = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3


class Club:
    """A service over a database that the test can close and reopen (a restart), with
    the changes the clock reported."""

    def __init__(self, location: str | Path, clock: FakeClock) -> None:
        self.location = location
        self.clock = clock
        self.heard: list[TournamentChange] = []
        self.db: Database | None = None
        self.service: GameService | None = None

    async def open(self) -> GameService:
        self.db = await open_database(self.location)
        self.service = GameService(
            self.db, clock=self.clock, events=RecordingEvents(), rng=random.Random(11)
        )

        async def hear(change: TournamentChange) -> None:
            self.heard.append(change)

        self.service.tournaments.add_listener(hear)
        return self.service

    async def restart(self) -> GameService:
        assert self.service is not None and self.db is not None
        await self.service.close()
        await self.db.close()
        return await self.open()

    async def close(self) -> None:
        if self.service is not None and self.db is not None:
            await self.service.close()
            await self.db.close()


@asynccontextmanager
async def club(location: str | Path, clock: FakeClock) -> AsyncIterator[Club]:
    opened = Club(location, clock)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


async def entered(
    service: GameService, clock: FakeClock, players: list[PlayerRef], **setup: object
) -> Tournament:
    """A tournament starting in a day, with `players` entered."""
    tournament = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organizer=ORGANIZER,
        may_manage=True,
        name="春季リーグ",
        start_at=clock() + timedelta(days=1),
        **setup,  # type: ignore[arg-type]
    )
    for player in players:
        tournament = await service.tournaments.join(tournament.id, player, guild_id=GUILD)
    return tournament


async def resign_for(service: GameService, game_id: int, winner: Color) -> None:
    game = await service.games.get(game_id)
    loser = game.player(winner.opponent)
    await service.endings.resign(game_id, loser.user_id)


async def players_of(service: GameService, game_id: int) -> tuple[int, int]:
    game = await service.games.get(game_id)
    return game.sente.user_id, game.gote.user_id


# --------------------------------------------------------------------- round robin


async def test_a_six_player_round_robin_runs_to_its_end(
    shared_location: str | Path, clock: FakeClock
) -> None:
    six = PLAYERS[:6]
    ids = [p.user_id for p in six]
    async with club(shared_location, clock) as c:
        assert c.service is not None
        t = await entered(c.service, clock, six, format="round_robin", time_control="1d")
        assert [e.user_id for e in t.entrants] == ids

        clock.advance(days=1, seconds=1)  # the start time: the clock starts it
        await checked(c.service)
        (started,) = c.heard
        assert started.round_started == 1 and len(started.games_created) == 15
        games = list(started.games_created)
        await first_posts(c.service, *games)
        pairs = [await players_of(c.service, g) for g in games]
        assert sorted(tuple(sorted(p)) for p in pairs) == sorted(
            (a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]
        )

        # The results decided here: the lower id wins, but P6 beats P5, one draw
        # (P2-P3 by sennichite), and P1-P2 is left for the clock (no-show: sente loses).
        wins: dict[tuple[int, int], int | None] = {}
        p = {n: PLAYERS[n - 1].user_id for n in range(1, 9)}
        for game_id, (sente, gote) in zip(games, pairs, strict=True):
            key = (min(sente, gote), max(sente, gote))
            if key == (p[1], p[2]):
                continue
            if key == (p[2], p[3]):
                await play_all(c.service, game_id, SENNICHITE)
                wins[key] = None
            elif p[6] in key and not {p[5]} & set(key):
                continue  # P6's other games: played after the restart or withdrawn
            else:
                winner = p[6] if key == (p[5], p[6]) else key[0]
                await resign_for(c.service, game_id, Color.SENTE if winner == sente else Color.GOTE)
                wins[key] = winner
            # Acted on by the member's ending (the Discord layer calls it), or left for
            # the clock's sweep: both ways.
            if game_id % 2:
                await c.service.tournaments.game_ended(game_id)

        service = await c.restart()  # a restart in the middle
        await checked(service)
        # P6 plays two more (losing to P1 and P2), then withdraws: 3 of 5 finished, so
        # their results stand and the remaining two games are forfeited to P3 and P4.
        for game_id, (sente, gote) in zip(games, pairs, strict=True):
            key = (min(sente, gote), max(sente, gote))
            if key in ((p[1], p[6]), (p[2], p[6])):
                await resign_for(service, game_id, Color.SENTE if key[0] == sente else Color.GOTE)
                wins[key] = key[0]
                await service.tournaments.game_ended(game_id)
        changes = await service.tournaments.withdraw(t.id, p[6], guild_id=GUILD)
        assert changes[0].standings_changed and not changes[0].finished
        assert changes[0].tables == tuple((await service.tournaments.standings(t.id)).values())
        assert [line.player for line in changes[0].tables[0] if line.withdrawn] == [p[6]]
        with pytest.raises(ServiceError, match="not playing"):
            await service.tournaments.withdraw(t.id, p[6], guild_id=GUILD)
        await checked(service)  # the aborted games' endings are posted
        for key in ((p[3], p[6]), (p[4], p[6])):
            wins[key] = key[0]  # forfeited

        # P1-P2: nobody moves; P1 or P2 (whoever has sente) loses on time.
        (last,) = [g for g, pr in zip(games, pairs, strict=True) if set(pr) == {p[1], p[2]}]
        no_show_sente, _ = await players_of(service, last)
        c.heard.clear()
        clock.advance(days=1, seconds=1)
        await checked(service)
        ended = await service.games.get(last)
        assert ended.outcome is not None and ended.outcome.termination is Termination.TIME
        wins[(p[1], p[2])] = p[2] if no_show_sente == p[1] else p[1]
        (finished,) = [change for change in c.heard if change.finished]
        assert (await service.tournaments.get(t.id)).state == "finished"

        table = (await service.tournaments.standings(t.id))[1]
        points, sb = independent_table(ids, wins)
        assert {line.player: line.points for line in table} == points
        assert {line.player: line.sonneborn_berger for line in table} == sb
        best = max(points.values())
        assert set(finished.winners) == {
            player
            for player in ids
            if points[player] == best and sb[player] == max(sb[q] for q in ids if points[q] == best)
        }
        assert [line.player for line in table if line.withdrawn] == [p[6]]


def independent_table(
    players: list[int], wins: dict[tuple[int, int], int | None]
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Points (1, ½, 0) and Sonneborn-Berger from each pair's result, by hand."""
    assert len(wins) == len(players) * (len(players) - 1) // 2
    score: dict[int, dict[int, Fraction]] = defaultdict(dict)
    for (a, b), winner in wins.items():
        mine = Fraction(1, 2) if winner is None else Fraction(int(winner == a))
        score[a][b], score[b][a] = mine, 1 - mine
    points = {player: sum(score[player].values(), Fraction(0)) for player in players}
    sb = {
        player: sum((s * points[o] for o, s in score[player].items()), Fraction(0))
        for player in players
    }
    return points, sb


# --------------------------------------------------------------------- knockout


async def test_an_eight_player_knockout_replays_a_sennichite_and_crowns_a_champion(
    shared_location: str | Path, clock: FakeClock
) -> None:
    eight = PLAYERS[:8]
    async with club(shared_location, clock) as c:
        assert c.service is not None
        service = c.service
        t = await entered(service, clock, eight, format="knockout", time_control="3d")
        change = await service.tournaments.start(
            t.id, Runner(ORGANIZER.user_id, False), guild_id=GUILD
        )
        assert change.round_started == 1 and len(change.games_created) == 4
        await first_posts(service, *change.games_created)
        # Seeds by rating (all equal: the order they joined): 1 v 8, 4 v 5, 2 v 7, 3 v 6.
        seed = {p.user_id: n for n, p in enumerate(eight, start=1)}
        firsts = change.games_created
        assert [sorted(seed[x] for x in await players_of(service, g)) for g in firsts] == [
            [1, 8], [4, 5], [2, 7], [3, 6],
        ]  # fmt: skip

        # Round 1: the better seed wins, but 4 v 5 is a sennichite, replayed with colours
        # swapped, which 5 wins.
        drawn = firsts[1]
        drawn_sente, drawn_gote = await players_of(service, drawn)
        await play_all(service, drawn, SENNICHITE)
        (replay,) = await service.tournaments.game_ended(drawn)
        assert not replay.standings_changed and len(replay.games_created) == 1
        again = replay.games_created[0]
        await first_posts(service, again)
        assert await players_of(service, again) == (drawn_gote, drawn_sente)
        for game_id in (firsts[0], firsts[2], firsts[3]):
            sente, gote = await players_of(service, game_id)
            await resign_for(
                service, game_id, Color.SENTE if seed[sente] < seed[gote] else Color.GOTE
            )
            await service.tournaments.game_ended(game_id)

        service = await c.restart()  # a restart before the round's last result
        five = eight[4].user_id
        sente, _ = await players_of(service, again)
        await resign_for(service, again, Color.SENTE if sente == five else Color.GOTE)
        (semis,) = await service.tournaments.game_ended(again)
        assert semis.round_started == 2 and len(semis.games_created) == 2
        await first_posts(service, *semis.games_created)
        seeds = [sorted(seed[x] for x in await players_of(service, g)) for g in semis.games_created]
        assert seeds == [[1, 5], [2, 3]]

        # Semi-finals: 5 and 2 win, 5's game on time (1 never moves).
        one = eight[0].user_id
        first_semi, second_semi = semis.games_created
        sente, gote = await players_of(service, second_semi)
        await resign_for(service, second_semi, Color.SENTE if seed[sente] == 2 else Color.GOTE)
        await service.tournaments.game_ended(second_semi)
        sente, gote = await players_of(service, first_semi)
        if sente == five:  # 5 moves first; then 1 never answers
            await service.moves.play(first_semi, five, "7g7f")
        c.heard.clear()
        clock.advance(days=3, seconds=1)
        await checked(service)
        lost = await service.games.get(first_semi)
        assert lost.outcome is not None and lost.outcome.termination is Termination.TIME
        assert lost.player(lost.outcome.winner).user_id == five  # type: ignore[arg-type]
        (final_round,) = [change for change in c.heard if change.round_started == 3]
        (final,) = final_round.games_created
        assert set(await players_of(service, final)) == {five, eight[1].user_id}
        sente, gote = await players_of(service, final)
        await resign_for(service, final, Color.SENTE if sente == five else Color.GOTE)
        (done,) = await service.tournaments.game_ended(final)
        assert done.finished and done.winners == (five,)
        assert await service.tournaments.game_ended(final) == []  # acted on once
        shown = await service.tournaments.bracket(t.id)
        assert shown is not None and shown.champion == five and len(shown.rounds) == 3
        assert one not in {view.winner for view in shown.rounds[1]}

        # The bracket as drawn: seeds and names, the sennichite replayed with colours
        # swapped and won by the lower seed, the champion the final's upper player.
        drawing = await service.tournaments.bracket_drawing(t.id)
        assert drawing is not None and len(drawing.rounds) == 3
        assert [(p.upper.seed, p.lower and p.lower.seed) for p in drawing.rounds[0]] == [
            (1, 8), (4, 5), (2, 7), (3, 6),
        ]  # fmt: skip
        replayed = drawing.rounds[0][1]
        assert [g.outcome for g in replayed.games] == [Outcome.REPLAYED, Outcome.LOWER_WON]
        assert replayed.games[0].upper_sente == (drawn_sente == eight[3].user_id)
        assert replayed.games[1].upper_sente != replayed.games[0].upper_sente
        assert replayed.winner is Side.LOWER and replayed.lower == Player("P5", 5, 1500)
        assert [p.winner for p in drawing.rounds[0]] == [Side.UPPER, Side.LOWER, *[Side.UPPER] * 2]
        assert drawing.rounds[2][0].winner is Side.UPPER
        champion = drawing.champion()
        assert champion is not None and champion.name == "P5"


# --------------------------------------------------------------------- races


async def test_two_processes_start_a_tournament_and_act_on_a_result_once(
    shared_location: str | Path,
) -> None:
    clock = FakeClock()
    async with club(shared_location, clock) as a, club(shared_location, clock) as b:
        assert a.service is not None and b.service is not None
        t = await entered(a.service, clock, PLAYERS[:4], format="round_robin")
        clock.advance(days=1)
        first, second = await asyncio.gather(
            a.service.tournaments.run_due(), b.service.tournaments.run_due()
        )
        started = [change for change in first + second if change.round_started == 1]
        assert len(started) == 1 and len(started[0].games_created) == 6
        async with a.db.read() as tx:  # type: ignore[union-attr]
            assert len(await tx.tournaments.scheduled(t.id)) == 6
            assert await tx.games.count() == 6

        game_id = started[0].games_created[0]
        await resign_for(a.service, game_id, Color.SENTE)
        one, two = await asyncio.gather(
            a.service.tournaments.game_ended(game_id), b.service.tournaments.game_ended(game_id)
        )
        assert [change.standings_changed for change in one + two] == [True]
        table = (await b.service.tournaments.standings(t.id))[1]
        assert sum(line.points for line in table) == 1

        # The last seat of a tournament, taken by two members at once: one gets it.
        full = await entered(a.service, clock, PLAYERS[:1], format="knockout", max_players=2)
        tries = await asyncio.gather(
            a.service.tournaments.join(full.id, PLAYERS[1], guild_id=GUILD),
            b.service.tournaments.join(full.id, PLAYERS[2], guild_id=GUILD),
            return_exceptions=True,
        )
        refused = [r for r in tries if isinstance(r, ServiceError)]
        assert len(refused) == 1 and "full" in refused[0].message
        assert len((await a.service.tournaments.get(full.id)).entrants) == 2


# --------------------------------------------------------------------- waves, handicaps


async def test_games_start_in_waves_under_the_servers_cap(
    service: GameService, clock: FakeClock
) -> None:
    await service.tournaments.set_game_cap(GUILD, 3)
    t = await entered(service, clock, PLAYERS[:5], format="round_robin")
    change = await service.tournaments.start(t.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD)
    assert len(change.games_created) == 3
    await resign_for(service, change.games_created[0], Color.GOTE)
    (after,) = await service.tournaments.game_ended(change.games_created[0])
    assert after.standings_changed and len(after.games_created) == 1
    with pytest.raises(ServiceError, match="At most 900"):
        await service.tournaments.set_game_cap(GUILD, 1000)
    # A larger cap starts waiting games at once: of 10, 1 is over and 3 under way.
    (more,) = await service.tournaments.set_game_cap(GUILD, 5)
    assert more.tournament_id == t.id and len(more.games_created) == 2
    assert await service.tournaments.set_game_cap(GUILD, 5) == []
    await service.tournaments.set_message(t.id, 8888)
    assert (await service.tournaments.get(t.id)).row.message_id == 8888


async def test_a_handicap_table_gives_the_stronger_player_gote_and_the_handicap(
    db: Database, service: GameService, clock: FakeClock
) -> None:
    strong, weak, middle = PLAYERS[:3]
    async with db.transaction() as tx:
        for player, rating in ((strong, 1900.0), (weak, 1500.0), (middle, 1640.0)):
            await tx.players.upsert(player.to_row(), clock())
            await tx.ratings.put(RatingRow(GUILD, player.user_id, rating, 60.0, 0.06, 10, clock()))
    t = await entered(
        service,
        clock,
        [weak, strong, middle],
        format="round_robin",
        handicap_table=HandicapTable.default().text(),
    )
    assert not t.row.setup.terms.rated  # handicap games are never rated
    change = await service.tournaments.start(t.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD)
    seen = {}
    for game_id in change.games_created:
        game = await service.games.get(game_id)
        seen[frozenset((game.sente.user_id, game.gote.user_id))] = (
            game.sente.user_id,
            game.gote.user_id,
            game.handicap.japanese,
        )
    # 400 points: 飛車落ち, the stronger gote; 140: 平手 with the weaker sente; 260: 香落ち.
    assert seen[frozenset((strong.user_id, weak.user_id))] == (
        weak.user_id, strong.user_id, "飛車落ち",
    )  # fmt: skip
    assert seen[frozenset((middle.user_id, weak.user_id))] == (
        weak.user_id, middle.user_id, "平手",
    )  # fmt: skip
    assert seen[frozenset((strong.user_id, middle.user_id))] == (
        middle.user_id, strong.user_id, "香落ち",
    )  # fmt: skip


# --------------------------------------------------------------------- refusals


async def test_each_refusal_is_one_sentence_and_changes_nothing(
    service: GameService, clock: FakeClock
) -> None:
    with pytest.raises(ServiceError, match="organizer role"):
        await service.tournaments.create(
            guild_id=GUILD, channel_id=CHANNEL, organizer=ORGANIZER, may_manage=False,
            role_ids=[9], name="x", format="knockout", start_at=clock() + timedelta(days=1),
        )  # fmt: skip
    await service.tournaments.set_organizer_role(GUILD, 9)
    t = await service.tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, organizer=ORGANIZER, may_manage=False,
        role_ids=[9], name="  Club   cup ", format="knockout", max_players=2,
        start_at=clock() + timedelta(days=2), registration_closes_at=clock() + timedelta(days=1),
        rating_band=(1400, 1600),
    )  # fmt: skip
    assert t.name == "Club cup"
    for wrong, sentence in (
        ({"format": "swiss"}, "round robin, a double round robin or a knockout"),
        ({"name": " "}, "1 to 100 characters"),
        ({"start_at": clock()}, "in the future"),
        ({"format": "knockout", "match_games": 3}, "one game or two"),
        ({"format": "knockout", "handicap_table": "0 平手\n"}, "without handicaps"),
        ({"handicap_table": "100 平手\n"}, "starts at 0"),
        ({"max_players": 1}, "2 to 256 players"),
        ({"max_players": 41}, "more than 40 players is played in groups"),
        ({"max_players": 200, "group_size": 41}, "A group has 2 to 40"),
        ({"rating_band": (1600, 1500)}, "lowest rating"),
        ({"scoring": (Fraction(1), Fraction(2), Fraction(0))}, "Points must be"),
    ):
        setup = {"format": "round_robin", "name": "x", "start_at": clock() + timedelta(days=1)}
        setup.update(wrong)
        with pytest.raises(ServiceError, match=sentence):
            await service.tournaments.create(
                guild_id=GUILD, channel_id=CHANNEL, organizer=ORGANIZER, may_manage=True,
                **setup,  # type: ignore[arg-type]
            )  # fmt: skip
    a, b, c = PLAYERS[:3]
    others = []
    for _ in range(9):  # ten open in the server: the eleventh is refused
        others.append(await entered(service, clock, [], format="round_robin"))
    with pytest.raises(ServiceError, match="already has 10 tournaments"):
        await entered(service, clock, [], format="round_robin")
    for other in others:
        await service.tournaments.cancel(other.id, Runner(ORGANIZER.user_id), guild_id=GUILD)
    await service.tournaments.join(t.id, a, guild_id=GUILD)
    with pytest.raises(ServiceError, match="already entered"):
        await service.tournaments.join(t.id, a, guild_id=GUILD)
    async with service.store.db.transaction() as tx:
        await tx.players.upsert(c.to_row(), clock())
        await tx.ratings.put(RatingRow(GUILD, c.user_id, 1700.0, 60.0, 0.06, 10, clock()))
    with pytest.raises(ServiceError, match="from 1400 to 1600; yours is 1700"):
        await service.tournaments.join(t.id, c, guild_id=GUILD)
    await service.tournaments.join(t.id, b, guild_id=GUILD)
    with pytest.raises(ServiceError, match="full"):
        await service.tournaments.join(t.id, PLAYERS[3], guild_id=GUILD)
    with pytest.raises(ServiceError, match="not entered"):
        await service.tournaments.leave(t.id, c.user_id, guild_id=GUILD)
    with pytest.raises(ServiceError, match="no such tournament"):
        await service.tournaments.join(t.id, c, guild_id=GUILD + 1)
    with pytest.raises(ServiceError, match="not started: leave"):
        await service.tournaments.withdraw(t.id, a.user_id, guild_id=GUILD)
    await service.tournaments.leave(t.id, b.user_id, guild_id=GUILD)
    clock.advance(days=1)
    with pytest.raises(ServiceError, match="closed"):
        await service.tournaments.join(t.id, b, guild_id=GUILD)
    # Alone at the start: cancelled.
    clock.advance(days=1)
    (cancelled,) = await service.tournaments.run_due()
    assert cancelled.cancelled and (await service.tournaments.get(t.id)).state == "cancelled"

    started = await entered(service, clock, [a, b], format="round_robin")
    with pytest.raises(ServiceError, match="organizer role"):
        await service.tournaments.start(started.id, Runner(a.user_id, False), guild_id=GUILD)
    change = await service.tournaments.start(
        started.id, Runner(ORGANIZER.user_id, False), guild_id=GUILD
    )
    with pytest.raises(ServiceError, match="already started"):
        await service.tournaments.start(started.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD)
    with pytest.raises(ServiceError, match="withdraw instead"):
        await service.tournaments.leave(started.id, a.user_id, guild_id=GUILD)
    (game_id,) = change.games_created
    with pytest.raises(ServiceError, match=r"^A tournament game cannot be aborted"):
        await service.endings.abort(game_id, a.user_id)
    game = await service.games.get(game_id)
    resigned = await service.endings.resign(game_id, game.sente.user_id)  # before any move
    assert resigned.outcome is not None
    assert resigned.outcome.termination is Termination.RESIGNATION


async def test_a_knockout_winner_who_withdraws_keeps_the_win_and_loses_the_next_match(
    service: GameService, clock: FakeClock
) -> None:
    four = PLAYERS[:4]  # seeds 1 v 4 and 2 v 3
    t = await entered(service, clock, four, format="knockout")
    change = await service.tournaments.start(t.id, Runner(ORGANIZER.user_id), guild_id=GUILD)
    first, second = change.games_created
    one, two = four[0].user_id, four[1].user_id
    sente, _ = await players_of(service, first)
    await resign_for(service, first, Color.SENTE if sente == one else Color.GOTE)
    await service.tournaments.game_ended(first)
    # Seed 1 won, then withdraws before the final is paired: the final is decided for
    # the other semi-final's winner without a game.
    (withdrawn,) = await service.tournaments.withdraw(t.id, one, guild_id=GUILD)
    assert withdrawn.games_created == () and not withdrawn.finished
    sente, _ = await players_of(service, second)
    await resign_for(service, second, Color.SENTE if sente == two else Color.GOTE)
    (done,) = await service.tournaments.game_ended(second)
    assert done.finished and done.winners == (two,) and done.games_created == ()
    shown = await service.tournaments.bracket(t.id)
    assert shown is not None
    assert [view.winner for view in shown.rounds[0]] == [one, two]  # the win stands
    assert [view.winner for view in shown.rounds[1]] == [two]
    async with service.store.db.read() as tx:
        assert await tx.games.count() == 2  # the final was never created
    # As drawn: the final decided without a game, its upper player marked as withdrawn.
    drawing = await service.tournaments.bracket_drawing(t.id)
    assert drawing is not None
    [final] = drawing.rounds[1]
    assert final.games == () and final.winner is Side.LOWER
    assert final.upper.withdrawn and final.lower is not None and not final.lower.withdrawn
    said = describe_bracket(drawing)
    assert "P1 (seed 1, withdrawn) against P2 (seed 2). P2 goes through." in said, said


async def test_a_bracket_past_one_images_players_is_not_drawn(
    service: GameService, clock: FakeClock
) -> None:
    """A knockout of 65 players (a first round of 64 pairings) is shown as text: the
    service gives no drawing for it, and one for 64."""
    for count, drawable in ((64, True), (65, False)):
        field = [PlayerRef(1000 + n, f"Q{n}") for n in range(count)]
        t = await entered(service, clock, field, format="knockout", max_players=count)
        await service.tournaments.start(t.id, Runner(ORGANIZER.user_id), guild_id=GUILD)
        drawn = await service.tournaments.bracket_drawing(t.id)
        assert (drawn is not None) == drawable, count
        assert drawn is None or drawn.players == 64


async def test_games_without_a_thread_are_found_until_they_get_one(
    shared_location: str | Path, clock: FakeClock
) -> None:
    """What the Discord layer's opener opens (and opens again after a restart): the
    running tournaments' and the team matches' games still being played that have no
    thread, as (game, server), the servers in turn and each oldest first, of the process's
    shards, leaving out the servers at their cap on threads; no others."""
    other = 1 << 22  # a server on shard 1 of 2 (`GUILD` is on shard 0)
    async with club(shared_location, clock) as c:
        assert c.service is not None
        t = await entered(c.service, clock, PLAYERS[:4], format="round_robin")
        assert await c.service.tournaments.awaiting_first_post(10) == []
        change = await c.service.tournaments.start(
            t.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD
        )
        created = sorted(change.games_created)
        assert len(created) == 6
        match = await c.service.team_matches.create(
            guild_id=other, channel_id=CHANNEL, organizer=ORGANIZER, may_manage=True,
            first_team="East", second_team="West", first=PLAYERS[4:6], second=PLAYERS[6:8],
        )  # fmt: skip
        paired = sorted(match.game_ids())
        assert len(paired) == 4
        ours = [(game, GUILD) for game in created]
        theirs = [(game, other) for game in paired]
        # The servers take turns, each oldest first: the later server's games are not
        # held up behind all of the first's.
        in_turn = [ours[0], theirs[0], ours[1], theirs[1], ours[2], theirs[2]]
        in_turn += [ours[3], theirs[3], ours[4], ours[5]]
        assert await c.service.tournaments.awaiting_first_post(20) == in_turn
        assert await c.service.tournaments.awaiting_first_post(3) == in_turn[:3]
        assert await c.service.tournaments.awaiting_first_post(20, skip_guilds=[GUILD]) == theirs
        shard_1 = ShardScope(frozenset({1}), 2)
        assert await c.service.tournaments.awaiting_first_post(20, shard_1) == theirs
        skipping = await c.service.tournaments.awaiting_first_post(20, shard_1, skip_guilds=[other])
        assert skipping == []
        await c.service.games.set_thread(created[0], 4242)
        await c.service.games.set_thread(paired[0], 4243)
        await resign_for(c.service, created[1], Color.SENTE)
        await resign_for(c.service, paired[1], Color.SENTE)
        in_turn = [ours[2], theirs[2], ours[3], theirs[3], ours[4], ours[5]]
        assert await c.service.tournaments.awaiting_first_post(20) == in_turn


async def test_team_match_games_count_under_the_servers_cap(
    service: GameService, clock: FakeClock
) -> None:
    """A team match's games have threads the bot opens, as a tournament's: they count
    under the server's cap of event games under way, so a tournament's waves leave room
    for them, and one ending makes room for a tournament's waiting game."""
    await service.tournaments.set_game_cap(GUILD, 5)
    match = await service.team_matches.create(
        guild_id=GUILD, channel_id=CHANNEL, organizer=ORGANIZER, may_manage=True,
        first_team="East", second_team="West", first=PLAYERS[5:6], second=PLAYERS[6:7],
    )  # fmt: skip
    assert len(match.game_ids()) == 2
    t = await entered(service, clock, PLAYERS[:5], format="round_robin")
    change = await service.tournaments.start(t.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD)
    assert len(change.games_created) == 3  # 5 under way: 2 of the match, 3 of the tournament
    first, second = match.game_ids()
    await resign_for(service, first, Color.SENTE)
    ended = await service.team_matches.game_ended(first)
    assert ended is not None and len(ended.games_created) == 1
    [waiting] = ended.games_created
    assert (await service.tournaments.placement(waiting)) is not None
    assert waiting not in change.games_created
    await resign_for(service, second, Color.SENTE)
    again = await service.team_matches.game_ended(second)
    assert again is not None and again.finished_now and len(again.games_created) == 1

"""A team match whose teams are roles, through the real bot against the fake Discord, in an
English server: Discord gives the command a role and nothing of its members (the bot has
no members intent), so the bot lists the server's members as Discord lets it, which it
refuses while the application's Server Members intent is off. Each way a role can be
wrong (that refusal, an empty role, a role of bots, the same role twice, a member in both
roles, a role larger than a team) is one sentence in the reader's language, English or
Japanese, and creates nothing; then a match by roles, a bot of the role left out, is
played to its final post."""

from __future__ import annotations

import functools
import itertools
import re

from tests.fakediscord import ErrorCode, FakeMember, FakeRole
from tests.support.club import Club, Table

from .test_bot_tournaments import table_of


async def by_roles(
    club: Club, member: FakeMember, first: FakeRole, second: FakeRole
) -> tuple[bool, str]:
    """`member` runs /team_match with two roles: whether the answer is private, and it."""
    result = await club.fake.slash(
        "team_match",
        {"first_team": "Dragons", "second_team": "Tigers", "first_role": first,
         "second_role": second},
        user=member,
        channel=club.channel,
    )  # fmt: skip
    return result.ephemeral, result.content


async def refused_in_both_languages(
    club: Club,
    readers: tuple[FakeMember, FakeMember],
    roles: tuple[FakeRole, FakeRole],
    english: str,
    japanese: str,
) -> None:
    """The English reader is told `english`, the Japanese one `japanese`; no match."""
    for reader, expected in zip(readers, (english, japanese), strict=True):
        private, content = await by_roles(club, reader, *roles)
        assert private and expected in content, content
        assert content.count("\n") == 0, content  # one sentence
    assert not club.bot_posts(club.channel, "Team match #")
    assert not club.bot_posts(club.channel, "団体戦#")


async def test_a_match_by_roles_refuses_each_wrong_role_then_plays_to_its_final_post(
    club: Club,
) -> None:
    fake, guild = club.fake, club.guild
    club.make_manager(club.alice)
    club.space_role_lookups(functools.partial(next, itertools.count(0.0, 60.0)))
    kenji = fake.add_member(guild, "kenji")
    kenji.user.locale = "ja"
    club.make_manager(kenji)
    readers = (club.alice, kenji)
    dragons, tigers = fake.add_role(guild, "Dragons"), fake.add_role(guild, "Tigers")
    names = {"Dragons": ("Ryu", "Tatsu"), "Tigers": ("Tora", "Kotora")}
    teams: dict[str, list[FakeMember]] = {}
    for role in (dragons, tigers):
        teams[role.name] = [fake.add_member(guild, name) for name in names[role.name]]
        for member in teams[role.name]:
            await fake.give_role(member, role)
    helper = fake.add_member(guild, "Helper", bot=True)
    await fake.give_role(helper, dragons)  # a bot of the role: left out of the team

    # A member who may not run team matches is refused before anything is asked of Discord.
    fake.members_intent = True
    fake.request_counts.reset()
    private, content = await by_roles(club, club.bob, dragons, tigers)
    assert private and "can set up a team match" in content, content
    assert fake.request_counts.by_route["GET /guilds/{guild_id}/members"] == 0
    fake.members_intent = False

    # While the Server Members intent is off, Discord refuses the list of members.
    fake.expect_rejections(ErrorCode.MISSING_ACCESS)
    await refused_in_both_languages(
        club, readers, (dragons, tigers),
        "Server Members intent", "Server Members インテント",
    )  # fmt: skip
    fake.members_intent = True

    empty, bots = fake.add_role(guild, "Nobody"), fake.add_role(guild, "Bots")
    await fake.give_role(helper, bots)
    for role in (empty, bots):
        await refused_in_both_languages(
            club, readers, (dragons, role),
            f"Nobody who can play has the role {role.name}", f"ロール「{role.name}」",
        )  # fmt: skip
    await refused_in_both_languages(
        club, readers, (dragons, dragons), "two different roles", "別々のロール"
    )
    both = fake.add_role(guild, "Mixed")
    await fake.give_role(teams["Dragons"][1], both)
    await fake.give_role(teams["Tigers"][0], both)
    await refused_in_both_languages(
        club, readers, (dragons, both), "Tatsu is in both teams", "Tatsuは両方のチーム"
    )
    crowd = fake.add_role(guild, "Crowd")
    for number in range(65):
        await fake.give_role(fake.add_member(guild, f"fan{number}"), crowd)
    await refused_in_both_languages(
        club, readers, (crowd, tigers), "more than 64 members", "64人を超えて"
    )

    fake.request_counts.reset()
    private, created = await by_roles(club, club.alice, dragons, tigers)
    # Both roles are found in one reading of the member list (one page here).
    assert fake.request_counts.by_route["GET /guilds/{guild_id}/members"] == 1
    assert private and "Team match #" in created, created
    [announcement] = await club.posts(club.channel, "**Team match #")
    assert "Board 1: Ryu (Dragons) v Tora (Tigers)" in announcement.content
    assert "Board 2: Tatsu (Dragons) v Kotora (Tigers)" in announcement.content
    assert "Helper" not in announcement.content and "Sitting out" not in announcement.content
    match_id = int(re.search(r"Team match #(\d+)", created)[1])  # type: ignore[index]
    match = await club.service.team_matches.get(match_id)
    assert len(match.games) == 4
    await fake.wait_for(lambda: len(fake.threads(club.channel)) == 4, what="the four threads")
    tables: dict[int, Table] = {}
    for place in match.games:
        assert place.game_id is not None
        tables[place.game_id] = await table_of(club, place.game_id)
    tigers_ids = {member.id for member in teams["Tigers"]}
    for place in sorted(match.games, key=lambda g: (g.game_number, g.board)):
        assert place.game_id is not None
        loser = place.sente_id if place.sente_id in tigers_ids else place.gote_id
        await club.resign(tables[place.game_id], club.member(loser))
        await club.posts(tables[place.game_id].thread, "resign")

    [final] = await club.posts(club.channel, "Congratulations")
    assert "The team match Dragons v Tigers is over: Dragons wins." in final.content
    assert "Game points 4 to 0, board points 2 to 0." in final.content, final.content
    [picture, archive] = final.attachments  # the scoreboard, then the games' records
    assert picture.filename.endswith(".png") and picture.description
    assert archive.filename == "team-match.zip", archive.filename
    assert club.bot is not None
    await club.bot.sends_settled()

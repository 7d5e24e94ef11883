"""A team match as the bot posts it, in the reader's language: the words of its
scoreboard (its image's headings and its text for screen readers: `render.team_match`
draws and writes whatever words it is given), its announcement with the lineup, a game's
heading in its thread, the post when the match is decided early and the final post."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services.tournaments.team_matches import Played, TeamMatch
from bot.services.tournaments.teams import Side, scoreboard
from render.crosstable import number
from render.team_match import Scoreboard, Words, status
from rules import Sentence

from ..base import safe, translator

TEAM_GIVEN_TWICE = Sentence("Give each team either as a role or as a list of members, not both.")
TEAM_MISSING = Sentence(
    "Give both teams: each as a role, or as a list of members mentioned with @."
)


def not_a_member(user_id: int) -> Sentence:
    return Sentence("{mention} is not a member of this server.", mention=f"<@{user_id}>")


SAME_ROLE_TWICE = Sentence("Give the two teams two different roles.")
LOOKUP_TOO_SOON = Sentence(
    "The bot has just read this server's member list for a team: try again in a minute."
)
ROLE_UNLISTED = Sentence(
    "The bot may not read who has a role here (its Server Members intent is off): "
    "list the team's members with @ instead."
)


def role_empty(role: str) -> Sentence:
    return Sentence("Nobody who can play has the role {role} (bots are left out).", role=role)


def role_too_large(role: str, count: int) -> Sentence:
    return Sentence(
        "The role {role} has more than {count} members, the most a team has: "
        "give a smaller role, or list the team's members with @.",
        role=role,
        count=count,
    )


def server_too_large(count: int) -> Sentence:
    return Sentence(
        "This server has {count} members or more, too many to look through for a role: "
        "list the team's members with @ instead.",
        count=count,
    )


def scoreboard_words(lang: str) -> Words:
    """Every heading and sentence of a team match's scoreboard in `lang`."""
    _ = translator(lang)
    return Words(
        board=_("Board"),
        game=_("Game {game}"),
        points=_("Points"),
        game_points=_("Game points"),
        board_points=_("Board points"),
        heading=_("Team match: {first} v {second}."),
        totals=_(
            "Game points: {first} {first_points}, {second} {second_points}. "
            "Board points: {first} {first_boards}, {second} {second_boards}."
        ),
        leads=_("{team} leads (games left: {remaining})."),
        level=_("The teams are level (games left: {remaining})."),
        won=_("{team} has won the match."),
        won_early=_("{team} has won the match (games left: {remaining})."),
        drawn=_("The match is drawn."),
        drawn_early=_("The match is drawn whatever happens (games left: {remaining})."),
        board_line=_("Board {board}: {first} against {second}, {first_points} to {second_points}."),
        game_line=_("Game {game}, {sente} with Sente: {result}."),
        won_by=_("{name} won"),
        won_by_forfeit=_("{name} won by forfeit"),
        drew=_("drawn"),
        lost_by_both=_("lost by both"),
        pending=_("not played yet"),
        sitting_out=_("Sitting out: {names}."),
        separator=_(", "),
    )


def _named(match: TeamMatch, user_id: int) -> str:
    return safe(match.names.get(user_id, str(user_id)))


def _title(lang: str, match: TeamMatch) -> str:
    _ = translator(lang)
    first, second = match.teams
    return _("**Team match #{id}: {first} v {second}**").format(
        id=match.id, first=safe(first), second=safe(second)
    )


def team_announcement_text(lang: str, match: TeamMatch) -> str:
    """The announcement: the match, its terms, the lineup board by board, who sits out,
    and where the match stands (the scoreboard's image and full text come with it)."""
    _ = translator(lang)
    first, second = (safe(team) for team in match.teams)
    lines = [_title(lang, match)]
    for board in match.lineup.boards:
        lines.append(
            _("Board {board}: {first_player} ({first}) v {second_player} ({second})").format(
                board=board.number,
                first_player=_named(match, board.first),
                first=first,
                second_player=_named(match, board.second),
                second=second,
            )
        )
    if match.lineup.sitting_out:
        names = _(", ").join(_named(match, p) for p in match.lineup.sitting_out)
        lines.append(_("Sitting out: {names}.").format(names=names))
    lines.append(status(scoreboard_of(match), scoreboard_words(lang)))
    return "\n".join(lines)


def scoreboard_of(match: TeamMatch) -> Scoreboard:
    """The match's scoreboard, to draw or read out."""
    return scoreboard(match.score, match.names, match.teams)


def team_game_heading(lang: str, match: TeamMatch, board: int, game: int) -> str:
    """The line above a team match game's first post: the match, the board, the game."""
    _ = translator(lang)
    first, second = (safe(team) for team in match.teams)
    return _("**Team match {first} v {second}**, board {board}, {game} of its 2 games.").format(
        first=first, second=second, board=board, game=game
    )


def team_event_name(lang: str, match: TeamMatch) -> str:
    """The match as its games' records name their event (plain text, not Markdown)."""
    _ = translator(lang)
    first, second = match.teams
    return _("Team match {first} v {second}").format(first=first, second=second)


def team_created_text(lang: str, match: TeamMatch) -> str:
    _ = translator(lang)
    return _(
        "Team match #{id} created: its {count} games open one by one, each in its thread,"
        " and each game's clock begins with its first post."
    ).format(id=match.id, count=len(match.games))


def team_decided_text(lang: str, match: TeamMatch) -> str:
    """Said once, when a result decides the match with games still to play."""
    _ = translator(lang)
    winner = match.score.winner
    left = match.score.remaining
    if winner is None:
        said = _("The team match {first} v {second} is drawn whatever happens.")
    else:
        said = _("{team} has won the team match {first} v {second}.")
    said += " " + _("Its {remaining} games left are still played and count on their boards.")
    return _fill(said, match, winner, remaining=left)


def team_final_text(lang: str, match: TeamMatch) -> str:
    """The final post: the winner (or a draw) and the totals."""
    _ = translator(lang)
    winner = match.score.winner
    if winner is None:
        said = _("The team match {first} v {second} is over: drawn.")
    else:
        said = _("The team match {first} v {second} is over: {team} wins. Congratulations!")
    said += " " + _(
        "Game points {first_points} to {second_points}, board points {first_boards} to "
        "{second_boards}."
    )
    return _fill(said, match, winner)


def profile_team_matches(lang: str, played: Sequence[Played]) -> str:
    """The lines `/profile` ends with after the tournaments: the member's team matches,
    newest first, each with their team, their board and its score, and where the match
    stands for their team (nothing for a member who played in none)."""
    if not played:
        return ""
    _ = translator(lang)
    lines = [_("Team matches:")]
    lines += [f"• {_profile_line(lang, entry)}" for entry in played]
    return "\n" + "\n".join(lines)


def _profile_line(lang: str, entry: Played) -> str:
    _ = translator(lang)
    match, ours = entry.match, entry.side
    first, second = (safe(team) for team in match.teams)
    score = match.score
    points = (score.first_points, score.second_points)
    mine, theirs = points if ours is Side.FIRST else points[::-1]
    if not score.decided and score.remaining:
        outcome = _("under way, {ours} to {theirs}")
    elif score.winner is None:
        outcome = _("drawn {ours} to {theirs}")
    elif score.winner is ours:
        outcome = _("won {ours} to {theirs}")
    else:
        outcome = _("lost {ours} to {theirs}")
    outcome = outcome.format(ours=number(mine), theirs=number(theirs))
    team = first if ours is Side.FIRST else second
    if entry.board is None:
        place = _("{team}, sitting out").format(team=team)
    else:
        board = entry.board
        own = (board.first_points, board.second_points)
        mine_on_board, theirs_on_board = own if ours is Side.FIRST else own[::-1]
        place = _("{team}, board {board}: {mine} to {theirs}").format(
            team=team,
            board=board.board.number,
            mine=number(mine_on_board),
            theirs=number(theirs_on_board),
        )
    return _("{first} v {second} ({place}): {outcome}").format(
        first=first, second=second, place=place, outcome=outcome
    )


def _fill(said: str, match: TeamMatch, winner: Side | None, **more: object) -> str:
    first, second = (safe(team) for team in match.teams)
    score = match.score
    return said.format(
        first=first,
        second=second,
        team=first if winner is Side.FIRST else second,
        first_points=number(score.first_points),
        second_points=number(score.second_points),
        first_boards=number(score.first_boards),
        second_boards=number(score.second_boards),
        **more,
    )

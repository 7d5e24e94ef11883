"""The words of a team match's scoreboard, its image's headings and its text for screen
readers, in the reader's language (`render.team_match` draws and writes whatever words it
is given)."""

from __future__ import annotations

from render.team_match import Words

from ..base import translator


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

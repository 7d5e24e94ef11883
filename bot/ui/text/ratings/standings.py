"""Ratings: whether a challenge is rated, what an ending did to the players' ratings,
`/rating`, `/leaderboard` and `/profile`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.services import (
    GameSnapshot,
    LeaderboardLine,
    Opening,
    OpeningResult,
    PlayerRating,
    Profile,
    Rating,
    both_have_moved,
)
from rules import Color

from ..base import move_echo, named, plural_translator, safe, translator
from ..records.openings import opening_results

#: What marks a provisional rating, as lishogi and lichess write it.
PROVISIONAL_MARK = "?"


def rating_value(rating: Rating) -> str:
    """A rating as shown: whole points, `?` while provisional (`1662?`)."""
    return f"{rating.points}{PROVISIONAL_MARK if rating.provisional else ''}"


def games_count(lang: str, count: int, *, rated: bool = False) -> str:
    """`1 game`, `3 rated games` (`3局` in Japanese)."""
    _n = plural_translator(lang)
    if rated:
        return _n("{count} rated game", "{count} rated games", count).format(count=count)
    return _n("{count} game", "{count} games", count).format(count=count)


def rated_setting(lang: str, rated: bool) -> str:
    """A challenge's or game's settings say whether it counts for ratings."""
    _ = translator(lang)
    return _("rated") if rated else _("unrated")


def rating_changes_text(lang: str, game: GameSnapshot) -> str:
    """What a rated game's ending did to both ratings (empty for an unrated game):
    `Ratings: ☗Alice 1500? → 1662? (+162), ☖Bob 1500? → 1338? (-162)`."""
    _ = translator(lang)
    parts = []
    for change in game.rating_changes:
        color = game.color_of(change.user_id)
        if color is None:
            continue
        parts.append(
            _("{player} {before} → {after} ({delta})").format(
                player=named(lang, game, color),
                before=rating_value(change.before),
                after=rating_value(change.after),
                delta=f"{change.delta:+d}",
            )
        )
    if not parts:
        return ""
    return _("Ratings: {changes}").format(changes=_(", ").join(parts))


def rating_line(lang: str, game: GameSnapshot) -> str:
    """What an ending did to the ratings, for the ending's post: the changes of a rated
    game, or why a rated game that ended before both players had moved changed nothing
    (empty for an unrated game)."""
    _ = translator(lang)
    changes = rating_changes_text(lang, game)
    if changes or not game.rated or game.outcome is None or both_have_moved(game.ply):
        return changes
    return _("Not rated: the game ended before both players had moved.")


def rating_text(lang: str, name: str, rating: PlayerRating) -> str:
    """`/rating`: a member's rating in this server, how many rated games, their place."""
    _ = translator(lang)
    if rating.rank is None:
        return _(
            "{name} has played no rated game in this server yet; everyone starts at {rating}."
        ).format(name=safe(name), rating=rating_value(rating.rating))
    lines = [
        _("{name}: {rating}, ranked #{rank} in this server ({games}).").format(
            name=safe(name),
            rating=rating_value(rating.rating),
            rank=rating.rank,
            games=games_count(lang, rating.games, rated=True),
        )
    ]
    if rating.rating.provisional:
        lines.append(provisional_note(lang))
    return "\n".join(lines)


def provisional_note(lang: str) -> str:
    """What the `?` after a rating means."""
    _ = translator(lang)
    return _("A rating marked ? is provisional: too few recent rated games to be sure of it.")


def leaderboard_text(lang: str, lines: list[LeaderboardLine]) -> str:
    """`/leaderboard`: the server's best ratings, provisional ones marked."""
    _ = translator(lang)
    if not lines:
        return _("Nobody in this server has played a rated game yet.")
    rows = [_("**Ratings in this server**")]
    for line in lines:
        rows.append(
            _("{rank}. {name} {rating} ({games})").format(
                rank=line.rank,
                name=safe(line.name),
                rating=rating_value(line.rating),
                games=games_count(lang, line.games),
            )
        )
    if any(line.rating.provisional for line in lines):
        rows.append(provisional_note(lang))
    return "\n".join(rows)


def opening_text(lang: str, opening: Opening) -> str:
    """One favourite opening: its first moves, and in how many games."""
    _ = translator(lang)
    sides = [Color.SENTE if ply % 2 == 0 else Color.GOTE for ply in range(len(opening.moves))]
    moves = " ".join(move_echo(lang, c, m) for c, m in zip(sides, opening.moves, strict=True))
    return _("{moves} ({games})").format(moves=moves, games=games_count(lang, opening.count))


def profile_text(
    lang: str, name: str, profile: Profile, *, openings: Sequence[OpeningResult] = ()
) -> str:
    """`/profile`: a member's games, rating, favourite openings (first moves) and the named
    openings they played with their results (the chart is attached when they have played
    a rated game)."""
    _ = translator(lang)
    games = profile.games
    lines = [
        _("**{name}** in this server").format(name=safe(name)),
        _("Games: {played} ({won} won, {lost} lost, {drawn} drawn).").format(
            played=games.played, won=games.won, lost=games.lost, drawn=games.drawn
        ),
        _("Games under way: {current}.").format(current=games.current),
    ]
    rating = profile.rating
    if rating.rank is None:
        lines.append(_("Rating: no rated game yet."))
    else:
        lines.append(
            _("Rating: {rating}, ranked #{rank} in this server ({games}).").format(
                rating=rating_value(rating.rating),
                rank=rating.rank,
                games=games_count(lang, rating.games, rated=True),
            )
        )
    if profile.openings:
        lines.append(_("Favourite openings:"))
        lines.extend(f"• {opening_text(lang, opening)}" for opening in profile.openings)
    lines += opening_results(lang, openings)
    return "\n".join(lines)


def chart_title(lang: str, name: str) -> str:
    """The title drawn on a profile's rating chart (the name as typed: it is drawn)."""
    _ = translator(lang)
    return _("{name}: rating").format(name=name)


def chart_description(lang: str, name: str, profile: Profile) -> str:
    """The chart's alt text."""
    _ = translator(lang)
    return _("{name}'s rating from the start, after each rated game; now {rating}.").format(
        name=name, rating=rating_value(profile.rating.rating)
    )

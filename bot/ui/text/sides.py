"""The sides of a game as its players call them, in one place.

An even game (or a set-up position) has sente (先手, ☗) and gote (後手, ☖). A handicap
game has the giver, uwate (上手), who plays ☖ and moves first, and the receiver, shitate
(下手), who plays ☗: Japanese players never call them 先手 and 後手, and a KIF of the game
writes 上手/下手 (lishogi's English says Uwate and Shitate). Every text that names a side,
or marks a player with theirs, asks here with the game's handicap, which each function
requires: no post, caption, alt text or thread name of a handicap game can forget it.
"""

from __future__ import annotations

from rules import Color, Handicap

from ..i18n import N_, gettext

#: Each side's name, by whether the game is a handicap game, then by colour.
_SIDES = {
    False: {Color.SENTE: N_("Sente"), Color.GOTE: N_("Gote")},
    True: {Color.SENTE: N_("Shitate"), Color.GOTE: N_("Uwate")},
}
_LABEL = N_("{mark}{name} ({side})")
_IN_TURN = N_("{player} ({side})")
_EVEN_PLAYERS = N_("☗{sente} vs ☖{gote}")
_HANDICAP_PLAYERS = N_("{shitate} vs {uwate}")


def side_name(lang: str, color: Color, handicap: Handicap) -> str:
    """`sente` / `gote` (先手 / 後手), or in a handicap game `shitate` / `uwate` (下手 / 上手).

    >>> side_name("ja", Color.GOTE, Handicap.LANCE)
    '上手'
    """
    return gettext(lang, _SIDES[handicap is not Handicap.EVEN][color])


def side_mark(lang: str, color: Color, handicap: Handicap) -> str:
    """A side in a few characters, where a list has room for little more than a mark:
    `☗` in an even game, `☖uwate` (`☖上手`) in a handicap game."""
    if handicap is Handicap.EVEN:
        return color.symbol
    return color.symbol + side_name(lang, color, handicap)


def player_label(lang: str, color: Color, name: str, handicap: Handicap) -> str:
    """A player marked with their side: `☗alice`; in a handicap game with the side named
    too, `☖alice (uwate)` (`☖上手 alice`: no brackets for a sentence's own to nest).
    `name` as the caller shows it: escaped in a post, as written in alt text and thread
    names."""
    if handicap is Handicap.EVEN:
        return f"{color.symbol}{name}"
    return gettext(lang, _LABEL).format(
        mark=color.symbol, name=name, side=side_name(lang, color, handicap)
    )


def player_in_turn(lang: str, color: Color, player: str, handicap: Handicap) -> str:
    """A player (a mention or a name) where a sentence says it is their turn or their move
    is due: as given in an even game; in a handicap game with their side, `@alice (uwate)`
    (`上手の@alice`, so that 「…さんの手番です」 reads 「上手の…さんの手番です」)."""
    if handicap is Handicap.EVEN:
        return player
    return gettext(lang, _IN_TURN).format(player=player, side=side_name(lang, color, handicap))


def players_line(lang: str, sente: str, gote: str, handicap: Handicap) -> str:
    """Who plays whom: `☗alice vs ☖bob`; in a handicap game the receiver first, as the
    board's bottom: `☗bob (shitate) vs ☖alice (uwate)` (`☗下手 bob 対 ☖上手 alice`).
    Names as the caller shows them (see `player_label`)."""
    if handicap is Handicap.EVEN:
        return gettext(lang, _EVEN_PLAYERS).format(sente=sente, gote=gote)
    return gettext(lang, _HANDICAP_PLAYERS).format(
        shitate=player_label(lang, Color.SENTE, sente, handicap),
        uwate=player_label(lang, Color.GOTE, gote, handicap),
    )


def image_name(lang: str, color: Color, name: str, handicap: Handicap) -> str:
    """A player's name as the board image draws it beside ☗/☖: the name in an even game,
    and in a handicap game with the side first (`uwate alice`, `上手 alice`), so that a
    long name cut at the picture's edge never loses it."""
    if handicap is Handicap.EVEN:
        return name
    return f"{side_name(lang, color, handicap)} {name}"

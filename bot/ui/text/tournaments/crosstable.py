"""The words of a crosstable, its image's headings and its text for screen readers, in the
reader's language (`render.crosstable` draws and writes whatever words it is given)."""

from __future__ import annotations

from render.crosstable import Words

from ..base import translator


def crosstable_words(lang: str) -> Words:
    """Every heading and sentence of a crosstable in `lang`."""
    _ = translator(lang)
    return Words(
        rank=_("Rank"),
        player=_("Player"),
        points=_("Points"),
        sonneborn_berger=_("SB"),
        heading=_("Crosstable of {count} players."),
        titled_heading=_("{title}: crosstable of {count} players."),
        line=_("{rank}. {name}: score {points}, Sonneborn-Berger {sb}."),
        withdrawn=_("{name} (withdrawn)"),
        annulled=_("{name}: withdrawn, games annulled."),
        against=_("Against {name}: {results}."),
        win=_("won"),
        loss=_("lost"),
        draw=_("drew"),
        forfeit_win=_("won by forfeit"),
        forfeit_loss=_("lost by forfeit"),
        pending=_("not played yet"),
        separator=_(", "),
    )

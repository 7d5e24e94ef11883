"""The words of a knockout's bracket, its image's labels and its text for screen readers,
in the reader's language (`render.bracket` draws and writes whatever words it is given)."""

from __future__ import annotations

from render.bracket import Words

from ..base import translator


def bracket_words(lang: str) -> Words:
    """Every label and sentence of a bracket in `lang`."""
    _ = translator(lang)
    return Words(
        round=_("Round {number}"),
        quarterfinals=_("Quarterfinals"),
        semifinals=_("Semifinals"),
        final=_("Final"),
        champion=_("Champion"),
        bye=_("bye"),
        heading=_("Knockout bracket of {count} players."),
        titled_heading=_("{title}: knockout bracket of {count} players."),
        round_line=_("{round}:"),
        player=_("{name} (seed {seed})"),
        withdrawn_player=_("{name} (seed {seed}, withdrawn)"),
        pairing=_("{upper} against {lower}"),
        with_games=_("{pairing}: {games}."),
        without_games=_("{pairing}."),
        had_bye=_("{name} has a bye."),
        won_sente=_("{name} won Game {number} with Sente"),
        won_gote=_("{name} won Game {number} with Gote"),
        replayed=_("Game {number} drawn and replayed"),
        playing=_("Game {number} under way"),
        more_games=_("{count} games before"),
        advances=_("{name} goes through."),
        crowned=_("{name} is the champion."),
        separator=_(", "),
    )

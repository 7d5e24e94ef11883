"""A shogi engine over USI, run as a separate process and talked to over pipes.

Engines are GPL programs: the bot never links one, it starts the program the owner named
(`ENGINE_PATH`) and speaks USI to it through its standard input and output. `EnginePool`
keeps the processes and a global limit on the searches running at once, so a busy server
cannot starve the bot, and hands its jobs out fairly (`SearchKind`: a computer's move
before an analysis, members in turn); `UsiEngine` is one process. No Discord and no rules here: the
service checks every move an engine answers like any player's input.
"""

from .pool import EnginePool
from .turns import SearchKind
from .usi import EngineError, Score, Search, UsiEngine

__all__ = ["EngineError", "EnginePool", "Score", "Search", "SearchKind", "UsiEngine"]

"""Every sentence the bot shows, as pure functions of a language and the service's values.

Each function takes the reader's language first (`"en"` or `"ja"`, see `i18n`) and
looks its sentences up in the message catalogs: the English text written here is
the message id, `_(...)` marks it for the catalogs and translates it. Values are
formatted after translation, so a translation may put them in any order. The
service's refusals and the rules' explanations arrive as `rules.Sentence`s, which
`say` translates the same way, formatting pieces, squares and sides in the
reader's language.
Names typed by users are escaped here: a player called `**@everyone**` is shown
as written, never formatted and never pinging.

The wording lives in one module per part of the bot (`base` holds what they all
share); this package gathers them, so a feature writes `text.say(...)` whatever
module its sentence lives in. A new feature's wording goes in a module of its own,
added to the list below. Each module imports the shared ones it uses, and mypy takes a
name from the last star import that has it: so a module comes after every module that
imports from it: `base` near the end, and `sides` (which `base` imports) last.
"""

# isort: off
from .play.your_move import *  # noqa: F403
from .computer.computer import *  # noqa: F403
from .answers import *  # noqa: F403
from .records.positions import *  # noqa: F403
from .records.boards import *  # noqa: F403
from .play.correspondence import *  # noqa: F403
from .club.help import *  # noqa: F403
from .records.finished import *  # noqa: F403
from .play.games import *  # noqa: F403
from .club.challenges import *  # noqa: F403
from .ratings.standings import *  # noqa: F403
from .controls import *  # noqa: F403
from .base import *  # noqa: F403
from .sides import *  # noqa: F403

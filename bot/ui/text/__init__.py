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

The wording lives in one module per feature, in the families the services and cogs have
(play, clock, club, ratings, records, computer) and under the name of the feature's cog:
takebacks in `play/takebacks.py` beside `cogs/play/takebacks.py`, vacations in
`clock/vacations.py`. What many features share sits above the families: `base` (the
reader's `_`, escaping, values in a language), `sides`, `controls` (the command tree's
names) and `answers` (the refusals of every command and the suggestions of autocomplete);
`play/turns` holds whose turn it is, the lines many posts end with. This package gathers
them, so a feature writes `text.say(...)` whatever module its sentence lives in. A new
feature's wording goes in a module of its own, added to the list below. Each module
imports the shared ones it uses, and mypy takes a name from the last star import that has
it: so a module comes after every module that imports from it: the features first, then
what they share (`play/turns` after the features that end their posts with it), `base`
near the end, and `sides` (which `base` imports) last.
"""

# isort: off
from .problems.tsume import *  # noqa: F403
from .tournaments.tournaments import *  # noqa: F403
from .play.your_move import *  # noqa: F403
from .computer.opponent import *  # noqa: F403
from .computer.analysis import *  # noqa: F403
from .answers import *  # noqa: F403
from .records.positions import *  # noqa: F403
from .records.exports import *  # noqa: F403
from .club.help import *  # noqa: F403
from .records.games import *  # noqa: F403
from .explorer.explorer import *  # noqa: F403
from .records.replays import *  # noqa: F403
from .records.board import *  # noqa: F403
from .play.picker import *  # noqa: F403
from .play.moves import *  # noqa: F403
from .play.mentions import *  # noqa: F403
from .play.takebacks import *  # noqa: F403
from .play.forecasts import *  # noqa: F403
from .play.notes import *  # noqa: F403
from .play.finding import *  # noqa: F403
from .play.impasse import *  # noqa: F403
from .clock.announcements import *  # noqa: F403
from .club.preferences import *  # noqa: F403
from .club.settings import *  # noqa: F403
from .club.challenges import *  # noqa: F403
from .clock.vacations import *  # noqa: F403
from .play.turns import *  # noqa: F403
from .play.endings import *  # noqa: F403
from .ratings.standings import *  # noqa: F403
from .controls import *  # noqa: F403
from .base import *  # noqa: F403
from .sides import *  # noqa: F403

"""What a started bot holds: nothing it loads only to use later, or never.

Each module below costs the process memory for its whole life; the bot keeps to its
budget at start (see `bench/bench_memory.py`) by leaving them out. Checked in a fresh
interpreter that imports what a started bot has imported: the client and every feature.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Modules a running bot has no use for: a second shogi library (tests compare with it),
#: Babel's unit formatting (whose locale data was some 5 MB for three words, now in the
#: catalogs), the image formats the bot never writes or reads.
UNWANTED = (
    "cshogi",
    "babel.units",
    "PIL.JpegImagePlugin",
    "PIL.TiffImagePlugin",
    "PIL.WebPImagePlugin",
    "numpy",
)

_PROBE = """
import importlib, json, sys
from datetime import timedelta
import babel.localedata
import bot.client
for name in bot.client.EXTENSIONS:
    importlib.import_module(name)
from bot.ui.text.base import duration_text
said = [duration_text(lang, timedelta(days=1, minutes=5)) for lang in ("en", "ja")]
print(json.dumps({
    "modules": sorted(sys.modules),
    "locale_data": sorted(babel.localedata._cache),
    "said": said,
}))
"""


def _started() -> dict[str, list[str]]:
    run = subprocess.run(
        [sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, list[str]] = json.loads(run.stdout)
    return found


def test_a_started_bot_imports_nothing_it_does_not_use() -> None:
    started = _started()
    assert "bot.cogs.play.moves" in started["modules"]  # the probe saw a started bot
    assert [name for name in UNWANTED if name in started["modules"]] == []


def test_durations_are_written_without_babel_locale_data() -> None:
    started = _started()
    assert started["said"] == ["1 day 5 minutes", "1日5分"]
    assert started["locale_data"] == []

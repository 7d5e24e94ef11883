"""Work for the reader pool's tests, importable by name in its worker processes."""

from __future__ import annotations

import os
import time

from bot.services.errors import ServiceError
from rules import Sentence


def sleep_then(seconds: float, value: str) -> str:
    """`value`, after `seconds`: a read that overruns, or a quick one."""
    time.sleep(seconds)
    return value


def refuse(text: str) -> None:
    raise ServiceError(Sentence("Give a position (an SFEN) or a record to show."))


def fail(text: str) -> None:
    raise KeyError(text)


def worker_pid() -> int:
    return os.getpid()

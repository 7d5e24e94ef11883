"""Where a process's memory is, for the soak benchmark: cheap probes taken between commands.

* `rss_mb()`: the resident set size now (Linux ``/proc``; NaN elsewhere).
* `pymalloc()`: Python's small-object allocator (objects up to 512 bytes, which is nearly
  every object the service makes): bytes in live blocks and bytes of arenas held, parsed
  from ``sys._debugmallocstats()`` (CPython; not while tracemalloc runs, whose hooks hide
  it). Live bytes that keep growing mean Python objects that are kept; arenas growing
  while live bytes do not mean fragmentation.
* `glibc_malloc()`: the C heap (larger Python buffers, SQLite, Pillow): bytes in use and
  bytes free but still held by the process, from glibc's ``mallinfo2()``.
* `trimmed()`: RSS before and after ``malloc_trim(0)``, which gives free heap pages
  back; what RSS drops by is allocator high-water, not live data.
* `sqlite_memory()`: bytes SQLite has allocated in this process (page caches, schemas,
  prepared statements); the page cache of a connection is capped by ``PRAGMA cache_size``.
* `deep_size()`: the bytes a structure holds (a cache with everything in it).
* `LineSizes` and `top_growth()`: tracemalloc sizes by source line, and the lines whose
  live memory grew most between two of them.

Each probe returns None where it is not available (another platform, another C library).
"""

from __future__ import annotations

import ctypes
import enum
import gc
import os
import re
import sys
import tempfile
import tracemalloc
import types
from dataclasses import dataclass
from pathlib import Path

MB = 1024 * 1024
_ROOT = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    """The resident set size of this process now (not the peak), in MB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


@dataclass(frozen=True)
class Pymalloc:
    live: int  # bytes in allocated blocks
    arenas: int  # bytes of arenas held from the system


def pymalloc() -> Pymalloc | None:
    """Python's small-object allocator now (its statistics go to fd 2, captured here)."""
    stats = getattr(sys, "_debugmallocstats", None)
    if stats is None:
        return None
    sys.stderr.flush()
    with tempfile.TemporaryFile() as capture:
        saved = os.dup(2)
        try:
            os.dup2(capture.fileno(), 2)
            stats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        capture.seek(0)
        text = capture.read().decode("ascii", "replace")
    live = re.search(r"# bytes in allocated blocks\s*=\s*([\d,]+)", text)
    arenas = re.search(r"arenas \* \d+ bytes/arena\s*=\s*([\d,]+)", text)
    if live is None or arenas is None:
        return None
    return Pymalloc(int(live[1].replace(",", "")), int(arenas[1].replace(",", "")))


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _Mallinfo2  # glibc 2.33 and later
        libc.malloc_trim.restype = ctypes.c_int
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


@dataclass(frozen=True)
class GlibcMalloc:
    used: int  # bytes handed out (heap and mmapped chunks)
    free: int  # bytes free in the heap but still held by the process


def glibc_malloc() -> GlibcMalloc | None:
    if _LIBC is None:
        return None
    info = _LIBC.mallinfo2()
    return GlibcMalloc(info.uordblks + info.hblkhd, info.fordblks)


def trimmed() -> tuple[float, float] | None:
    """RSS in MB before and after ``malloc_trim(0)``, which gives free C-heap pages back to
    the system (None where there is no glibc): the drop is allocator high-water."""
    if _LIBC is None:
        return None
    before = rss_mb()
    _LIBC.malloc_trim(0)
    return before, rss_mb()


def _sqlite() -> ctypes.CDLL | None:
    try:
        import _sqlite3

        # dlopen of the loaded module, so dlsym finds the SQLite it is linked with.
        library = ctypes.CDLL(_sqlite3.__file__)
        library.sqlite3_memory_used.restype = ctypes.c_int64
    except (ImportError, OSError, AttributeError):
        return None
    return library


_SQLITE = _sqlite()


def sqlite_memory() -> int | None:
    """Bytes SQLite has allocated now (0 if built without memory statistics)."""
    return None if _SQLITE is None else int(_SQLITE.sqlite3_memory_used())


class LineSizes(dict[str, tuple[int, int]]):
    """tracemalloc's live (bytes, blocks) by source line, without keeping the snapshot
    (a snapshot holds every trace: megabytes that would show up as growth)."""

    @classmethod
    def now(cls) -> LineSizes:
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__)]
        )
        sizes = cls()
        for stat in snapshot.statistics("lineno"):
            frame = stat.traceback[0]
            path = Path(frame.filename)
            if path.is_relative_to(_ROOT):
                path = path.relative_to(_ROOT)
            where = f"{path}:{frame.lineno}"
            sizes[where] = (stat.size, stat.count)
        return sizes


def top_growth(before: LineSizes, after: LineSizes, count: int) -> list[tuple[str, int, int]]:
    """The `count` lines whose live memory grew most: (line, bytes, blocks) differences."""
    growth = [
        (where, size - before.get(where, (0, 0))[0], blocks - before.get(where, (0, 0))[1])
        for where, (size, blocks) in after.items()
    ]
    growth.sort(key=lambda item: -item[1])
    return growth[:count]


# Shared by the whole program, so part of no one structure's size.
_SHARED = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    enum.Enum,
    bool,
    type(None),
)


def _shared(obj: object) -> bool:
    if isinstance(obj, _SHARED):
        return True
    kind = type(obj)
    if kind is int:
        return -5 <= obj <= 256  # type: ignore[operator]  # CPython's cached small ints
    if kind is str or kind is tuple:
        return len(obj) <= 1  # type: ignore[arg-type]  # cached: "" "a" ()
    return False


def deep_size(root: object) -> int:
    """Bytes of `root` and of everything it reaches, each object counted once; classes,
    modules, functions, enum members and CPython's cached small objects are left out.

    Walk one entry of a cache at a time: the set of objects seen stays small, where one
    walk over a whole cache would leave the allocators a high-water mark to show up as
    growth in the next RSS reading.
    """
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or _shared(obj):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total

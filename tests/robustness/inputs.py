"""Generated bad input: what players type by mistake, what a hostile member types on purpose.

Every generator takes a seeded ``random.Random`` so that a failing input can be found again
(the tests print the seed and the index).  The kinds, for move text, SFEN and record files:

* random bytes (decoded loosely) and random code points from many scripts;
* near misses: a real move, SFEN or record with one to three small edits (a character
  dropped, doubled, swapped, replaced by a look-alike, a width or case change);
* huge strings (100 KB: a real move or record line repeated, or noise);
* control characters (NUL, ESC sequences, line breaks, bidi overrides, zero-width marks);
* mention and markdown injection (``@everyone``, ``<@id>``, ``<@&id>``, ``**x**``, backticks,
  spoilers, quotes, headings, links), alone and glued to a real move.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules import Game, Handicap, Move
from rules.notation import format_move, write_record

RECORDS = Path(__file__).resolve().parent.parent / "data" / "records"
HUGE = 100_000

STYLES = ("usi", "western", "hodges", "japanese", "csa", "kif")
SCRIPTS = (
    (0x0041, 0x007A),  # Latin
    (0x00C0, 0x024F),  # Latin with accents
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x0590, 0x05FF),  # Hebrew
    (0x0600, 0x06FF),  # Arabic
    (0x0900, 0x097F),  # Devanagari
    (0x0E00, 0x0E7F),  # Thai
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3040, 0x30FF),  # Hiragana and Katakana
    (0x4E00, 0x9FFF),  # CJK
    (0xFF00, 0xFFEF),  # full width forms
    (0x1F300, 0x1FAFF),  # emoji
    (0x0300, 0x036F),  # combining marks
    (0x2000, 0x206F),  # punctuation, zero-width, bidi controls
)
CONTROLS = (
    "\x00", "\x01", "\x07", "\x08", "\t", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1b", "\x1b[31m",
    "\x1b[2J", "\x7f", "\x85", "\u2028", "\u2029", "\u200b", "\u200d", "\u202e", "\u2066",
    "\ufeff", "\ufffd", "\ud7ff",
)  # fmt: skip
LOOKALIKES = {
    "7": "７", "6": "六", "f": "ｆ", "P": "Ｐ", "-": "－", "x": "×", "+": "＋", "*": "＊",
    "歩": "步", "同": "仝", "金": "全", "銀": "鋃", "1": "l", "0": "O", "a": "а", "e": "е",
}  # fmt: skip
#: Markdown and mention injections; ``{user}``/``{role}`` become real-looking snowflakes.
INJECTIONS = (
    "@everyone", "@here", "<@{user}>", "<@!{user}>", "<@&{role}>", "<#{user}>", "**x**",
    "*x*", "__x__", "_x_", "~~x~~", "||x||", "`x`", "```x```", "> x", "# x", "-# x",
    "[x](https://example.com)", "<https://example.com>", "\\*x\\*", "@\u200beveryone",
    "<:e:{user}>", "<t:0:R>", "</move:{user}>",
)  # fmt: skip
MARKDOWN_CHARS = "*_`~|"


def _snowflake(rng: random.Random) -> int:
    return rng.randrange(10**17, 10**19)


def injection(rng: random.Random) -> str:
    template = rng.choice(INJECTIONS)
    return template.format(user=_snowflake(rng), role=_snowflake(rng))


def random_code_points(rng: random.Random, length: int) -> str:
    out = []
    for _ in range(length):
        low, high = rng.choice(SCRIPTS)
        cp = rng.randint(low, high)
        if 0xD800 <= cp <= 0xDFFF:
            cp = 0xFFFD
        out.append(chr(cp))
    return "".join(out)


def random_bytes(rng: random.Random, length: int) -> bytes:
    return rng.randbytes(length)


def bytes_as_text(rng: random.Random, length: int) -> str:
    data = random_bytes(rng, length)
    return data.decode(rng.choice(("latin-1", "utf-8", "shift_jis")), errors="replace")


def mutate(rng: random.Random, text: str, edits: int | None = None) -> str:
    """One to three small edits, as a typo or a half-remembered notation makes them."""
    chars = list(text)
    for _ in range(edits or rng.randint(1, 3)):
        kind = rng.randrange(9)
        where = rng.randrange(len(chars) + 1)
        if kind == 0 and chars:  # drop
            del chars[min(where, len(chars) - 1)]
        elif kind == 1 and chars:  # double
            i = min(where, len(chars) - 1)
            chars.insert(i, chars[i])
        elif kind == 2 and len(chars) > 1:  # swap neighbours
            i = min(where, len(chars) - 2)
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif kind == 3 and chars:  # look-alike
            i = min(where, len(chars) - 1)
            chars[i] = LOOKALIKES.get(chars[i], chars[i].swapcase())
        elif kind == 4:  # width change of the whole text
            chars = list(unicodedata.normalize("NFKC", "".join(chars)) if rng.random() < 0.5
                         else "".join(chars).translate(_FULL_WIDTH))  # fmt: skip
        elif kind == 5:  # a stray character from the notations
            chars.insert(where, rng.choice("0123456789abcdefghi+-=*x'()同成不打右左直上引寄 　▲△"))
        elif kind == 6:  # a control or invisible character
            chars.insert(where, rng.choice(CONTROLS))
        elif kind == 7:  # an injection glued in
            chars.insert(where, injection(rng))
        else:  # a random code point
            chars.insert(where, random_code_points(rng, 1))
    return "".join(chars)


_FULL_WIDTH = str.maketrans({chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)} | {" ": "\u3000"})


# ------------------------------------------------------------------ real material to damage


@cache
def sample_games() -> tuple[Game, ...]:
    """A few games in different phases: openings, a handicap, a long random middle game."""
    rng = random.Random(20250301)
    games = [Game(), Game(Handicap.parse("two_piece").sfen)]
    for length in (6, 30, 80, 140):
        game = Game()
        while game.ply < length and game.outcome is None:
            game.push(rng.choice(game.position.legal_moves()))
        if game.outcome is None:
            games.append(game)
    return tuple(games)


@cache
def valid_move_texts() -> tuple[str, ...]:
    """Every legal move of the sample positions, written in every style (many thousands)."""
    out: list[str] = []
    for game in sample_games():
        position = game.position
        last: Move | None = game.moves[-1] if game.moves else None
        for move in position.legal_moves():
            for style in STYLES:
                out.append(format_move(position, move, style, last_move=last))
    return tuple(sorted(set(out)))


@cache
def valid_sfens() -> tuple[str, ...]:
    out = [h.sfen for h in Handicap]
    for game in sample_games():
        out.extend(game.position_at(ply).sfen() for ply in range(0, game.ply + 1, 7))
    out.append("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
    return tuple(out)


@cache
def valid_records() -> tuple[str, ...]:
    """Real records, cut to their first 400 characters (whole lines): damage near the top is
    what matters, and a reader replaying 300 moves per input would make the fuzzing slow."""
    out = [p.read_text(encoding="utf-8") for p in sorted(RECORDS.iterdir()) if p.suffix != ".txt"]
    for game in sample_games():
        for fmt in ("kif", "ki2", "csa", "usi"):
            out.append(write_record(game, fmt, sente="Alice", gote="Bob"))
    return tuple(text[: text.rfind("\n", 0, 400) + 1 or 400] for text in out)


# ------------------------------------------------------------------ the generators


@dataclass(frozen=True)
class Kind:
    name: str
    weight: int
    make: Callable[[random.Random], str | bytes]


def _huge_from(rng: random.Random, pieces: Sequence[str]) -> str:
    piece = rng.choice(pieces) + rng.choice(("", " ", "\n", "、"))
    text = piece * (HUGE // max(1, len(piece)) + 1)
    return text[:HUGE] if rng.random() < 0.5 else mutate(rng, text[:HUGE])


def _glued(rng: random.Random, real: str) -> str:
    inj = injection(rng)
    return rng.choice((f"{inj}{real}", f"{real}{inj}", f"{real} {inj}", f"{inj} {real} {inj}"))


def move_kinds(*, max_len: int = HUGE) -> list[Kind]:
    moves = valid_move_texts()
    kinds = [
        Kind("bytes", 10, lambda r: bytes_as_text(r, r.randint(0, 40))),
        Kind("scripts", 10, lambda r: random_code_points(r, r.randint(1, 30))),
        Kind("near-miss", 40, lambda r: mutate(r, r.choice(moves))),
        Kind("control", 10, lambda r: _with_control(r, r.choice(moves))),
        Kind("injection", 15, lambda r: r.choice((injection(r), _glued(r, r.choice(moves))))),
        Kind("valid", 4, lambda r: r.choice(moves)),
        Kind("huge", 1, lambda r: _huge_from(r, moves)[:max_len]),
    ]
    return kinds


def sfen_kinds() -> list[Kind]:
    sfens = valid_sfens()
    return [
        Kind("bytes", 10, lambda r: bytes_as_text(r, r.randint(0, 120))),
        Kind("scripts", 5, lambda r: random_code_points(r, r.randint(1, 90))),
        Kind("near-miss", 50, lambda r: mutate(r, r.choice(sfens))),
        Kind("fields", 10, lambda r: _shuffle_fields(r, r.choice(sfens))),
        Kind("control", 8, lambda r: mutate(r, r.choice(sfens), 0) + r.choice(CONTROLS)),
        Kind("injection", 8, lambda r: _glued(r, r.choice(sfens))),
        Kind("numbers", 6, lambda r: _odd_numbers(r, r.choice(sfens))),
        Kind("valid", 2, lambda r: r.choice(sfens)),
        Kind("huge", 1, lambda r: _huge_from(r, sfens)),
    ]


def record_kinds() -> list[Kind]:
    records = valid_records()
    lines = [line for text in records for line in text.splitlines() if line.strip()]
    return [
        Kind("bytes", 10, lambda r: random_bytes(r, r.randint(0, 400))),
        Kind("scripts", 5, lambda r: random_code_points(r, r.randint(1, 200))),
        Kind("near-miss", 30, lambda r: _damaged_record(r, r.choice(records))),
        Kind("lines", 20, lambda r: "\n".join(r.choices(lines, k=r.randint(1, 25)))),
        Kind("encoded", 8, lambda r: _encoded(r, _damaged_record(r, r.choice(records)))),
        Kind("control", 8, lambda r: mutate(r, r.choice(lines), 0) + r.choice(CONTROLS)),
        Kind("injection", 10, lambda r: _injected_record(r, r.choice(records))),
        Kind("huge", 1, lambda r: _huge_from(r, lines)),
    ]


def _with_control(rng: random.Random, real: str) -> str:
    where = rng.randrange(len(real) + 1)
    return real[:where] + rng.choice(CONTROLS) + real[where:] + rng.choice(("", real))


def _shuffle_fields(rng: random.Random, sfen: str) -> str:
    fields = sfen.split(" ")
    rng.shuffle(fields)
    if rng.random() < 0.5:
        fields.insert(rng.randrange(len(fields) + 1), rng.choice(("b", "w", "-", "1", "0", "")))
    return rng.choice((" ", "  ", "_", "\t")).join(fields)


def _odd_numbers(rng: random.Random, sfen: str) -> str:
    fields = sfen.split(" ")
    number = rng.choice(("0", "-1", "1e9", "9" * rng.randint(1, 40), "١", "１", "0x10", "+3"))
    if rng.random() < 0.5 and len(fields) > 3:
        fields[3] = number
    else:
        fields[2] = number + rng.choice("PLNSGBRplnsgbr")
    return " ".join(fields)


def _damaged_record(rng: random.Random, text: str) -> str:
    where = rng.randrange(len(text) + 1)
    cut = rng.randint(0, 60)
    insert = rng.choice(("", mutate(rng, text[where : where + 8] or "x")))
    return text[:where] + insert + text[where + cut :]


def _injected_record(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines) + 1)
        prefix = rng.choice(("先手：", "後手：", "棋戦：", "N+", "N-", "'", "#", ""))
        lines.insert(i, prefix + injection(rng))
    return "\n".join(lines)


def _encoded(rng: random.Random, text: str) -> bytes:
    encoding = rng.choice(("utf-8", "utf-8-sig", "shift_jis", "cp932", "euc_jp", "utf-16"))
    data = text.encode(encoding, errors="replace")
    if rng.random() < 0.3 and data:
        i = rng.randrange(len(data))
        data = data[:i] + rng.randbytes(rng.randint(1, 4)) + data[i + 1 :]
    return data


def generate(
    kinds: Sequence[Kind], rng: random.Random, count: int
) -> list[tuple[str, str | bytes]]:
    """``count`` inputs as (kind, value); each kind appears at least once."""
    weights = [k.weight for k in kinds]
    chosen = list(kinds) + rng.choices(kinds, weights=weights, k=max(0, count - len(kinds)))
    return [(kind.name, kind.make(rng)) for kind in chosen[:count]]


# ------------------------------------------------------------------ what a reply may look like


def sentence_problems(message: str, *, limit: int = 300) -> list[str]:
    """Why ``message`` is not one short sentence a player can read (empty list: it is)."""
    problems = []
    if not message.strip():
        problems.append("empty")
    if len(message) > limit:
        problems.append(f"{len(message)} characters (more than {limit})")
    if len(message.splitlines()) > 1:
        problems.append("more than one line")
    bad = sorted(
        {
            f"U+{ord(c):04X}"
            for c in message
            if unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") and c != "\t"
        }
    )
    if bad:
        problems.append(f"control characters {', '.join(bad[:5])}")
    return problems


def unescaped_markdown(content: str, typed: str) -> list[str]:
    """Markdown characters from ``typed`` that stand unescaped in ``content``.

    A character escaped with a backslash (``\\*``) is inert; every other ``*``, ``_``, a
    backtick, ``~`` or ``|`` in the reply that the player also typed can format the reply.
    """
    inert = _ESCAPED.sub("", content)
    return [c for c in MARKDOWN_CHARS if c in typed and c in inert]


def live_mentions(content: str) -> list[str]:
    """Mention syntax that Discord would render (or ping with): ``@everyone``, ``<@id>``..."""
    found = _EVERYONE.findall(content) + _MENTION.findall(content)
    return found


_ESCAPED = re.compile(r"\\.", re.DOTALL)
_EVERYONE = re.compile(r"@(?:everyone|here)\b")
_MENTION = re.compile(r"<(?:@[!&]?|#)\d{15,20}>")

"""The shape of the code: imports point one way, and every module imports on its own.

No circles: no module imports one that imports it back, however far round.

Layers, lowest first: `rules` (pure shogi), `render` (images), `bot.config`, `bot.db` and
`bot.engine` (settings, storage, the engine process), `bot.services` (the game, no
Discord), `bot.ui` (Discord plumbing), `bot.cogs` (the features), then the start-up
wiring. A module may import its own layer and those below, never one above; features do
not import each other, and the client loads them by name without importing them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "render", "bot")
LAYERS = (
    ("rules",),
    ("render",),
    ("bot.config", "bot.db", "bot.engine"),
    ("bot.services",),
    ("bot.ui",),
    ("bot.cogs",),
    ("bot.publishing", "bot.monitoring"),
    ("bot.client",),
    ("bot", "bot.__main__"),
)
#: The families of features, the same packages under `bot/services`, `bot/cogs` and
#: `bot/ui/text`.
FAMILIES = (
    "play",
    "clock",
    "club",
    "ratings",
    "records",
    "computer",
    "tournaments",
    "explorer",
    "problems",
)
#: Third-party packages a pure layer must not reach for.
FORBIDDEN = {
    "rules": {"discord", "aiosqlite", "asyncio", "PIL", "aiohttp"},
    "render": {"discord", "aiosqlite", "asyncio", "aiohttp"},
    "bot.db": {"discord"},
    "bot.engine": {"discord", "aiosqlite", "rules"},
    "bot.services": {"discord"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> list[str]:
    found = []
    for package in PACKAGES:
        found += [module_name(path) for path in sorted((ROOT / package).rglob("*.py"))]
    return found


@cache
def known_modules() -> frozenset[str]:
    return frozenset(all_modules())


def imports_of(module: str) -> set[str]:
    """Every module `module` imports, relative imports resolved, wherever the import is
    (inside a function or under `TYPE_CHECKING` too): `from p import m` names the module
    `p.m` where there is one, else `p`."""
    path = ROOT / (module.replace(".", "/") + ".py")
    is_package = not path.exists()
    if is_package:
        path = ROOT / module.replace(".", "/") / "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                names.add(submodule if submodule in known_modules() else base)
    return names


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a circle
    (Tarjan's strongly connected components of more than one module, or one importing
    itself), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return sorted(found)


def layer_of(module: str) -> int | None:
    """The layer of one of our modules (the longest matching prefix), None for others."""
    best: tuple[int, int] | None = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    return None if best is None else best[0]


def test_layers_cover_every_module() -> None:
    modules = all_modules()
    assert len(modules) > 40
    assert [m for m in modules if layer_of(m) is None] == []


def test_imports_point_down() -> None:
    upward = []
    for module in all_modules():
        own = layer_of(module)
        assert own is not None
        for imported in imports_of(module):
            rank = layer_of(imported)
            if rank is not None and rank > own:
                upward.append(f"{module} imports {imported}")
    assert upward == []


def test_pure_layers_stay_pure() -> None:
    found = []
    for module in all_modules():
        for layer, banned in FORBIDDEN.items():
            if module == layer or module.startswith(layer + "."):
                for imported in imports_of(module):
                    if imported.split(".")[0] in banned:
                        found.append(f"{module} imports {imported}")
    assert found == []


def test_features_are_independent_and_loaded_by_name() -> None:
    features = [m for m in all_modules() if m.startswith("bot.cogs.")]
    assert len(features) >= 6
    crossing = [
        f"{module} imports {imported}"
        for module in [*features, "bot.client", "bot.__main__", "bot"]
        for imported in imports_of(module)
        if imported.startswith("bot.cogs") and not imported.startswith(module)
    ]
    assert crossing == []


def test_no_module_imports_itself_round_a_circle() -> None:
    """A circle of imports works only in the order Python happens to meet it, and makes
    both ends one piece: none, counting imports in functions and type-only ones."""
    graph = {module: imports_of(module) & known_modules() for module in all_modules()}
    assert import_cycles(graph) == []


def test_the_cycle_check_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "d"}, "e": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"], ["d"]]


def test_the_checker_resolves_and_ranks_imports() -> None:
    """The check above can fail: a relative import two levels up is resolved and ranked."""
    assert "bot.ui.text" in imports_of("bot.cogs.club.help")
    assert layer_of("bot.ui.text") == 4 and layer_of("bot.cogs.club.help") == 5
    assert layer_of("bot.services.play.store") == 3 and layer_of("bot.db.rows") == 2


def _import_alone(module: str) -> str | None:
    run = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return None if run.returncode == 0 else f"{module}: {run.stderr.strip().splitlines()[-1]}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_imports_alone_in_a_fresh_interpreter(package: str) -> None:
    """No import order may matter: each module imports first thing in a new process."""
    modules = [m for m in all_modules() if m.split(".")[0] == package]
    with ThreadPoolExecutor(4) as pool:
        failures = [f for f in pool.map(_import_alone, modules) if f is not None]
    assert failures == []


def test_each_feature_is_found_under_one_name_in_each_layer() -> None:
    """A feature's commands (`bot/cogs/<family>/<name>.py`) have their wording at the same
    place under `bot/ui/text/`, and a service module of the same name, where there is one,
    is in the same family."""
    cogs = {m.removeprefix("bot.cogs.") for m in all_modules() if m.count(".") == 3}
    cogs = {m for m in cogs if m.startswith(tuple(f"{f}." for f in FAMILIES))}
    texts = {m.removeprefix("bot.ui.text.") for m in all_modules() if m.startswith("bot.ui.text.")}
    services = {
        m.removeprefix("bot.services.") for m in all_modules() if m.startswith("bot.services.")
    }
    assert len(cogs) >= 15
    assert sorted(cogs - texts) == []
    misplaced = [
        f"{cog} vs {service}"
        for cog in cogs
        for service in services
        if service.count(".") == 1
        and service.rpartition(".")[2] == cog.rpartition(".")[2]
        and service != cog
    ]
    assert misplaced == []


def test_the_families_are_the_same_in_each_layer() -> None:
    for layer in ("bot/services", "bot/cogs", "bot/ui/text"):
        packages = {p.parent.name for p in (ROOT / layer).glob("*/__init__.py")}
        assert packages <= set(FAMILIES), layer
        assert len(packages) >= 5, layer


#: The longest a module of the bot may grow: past it, a module holds more than one thing.
LONGEST_MODULE = 400


def test_no_module_of_the_bot_outgrows_one_subject() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert long == {}

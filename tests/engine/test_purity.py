"""engine/ is pure: no clock, no I/O, no operating system, no Django, no global random.

Every module under engine/ is parsed (ast) and imported. Only the three command-line
entry points, which print, time and read input by design, may use a clock or os.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"

ENTRY_POINTS = {"engine.arena", "engine.bench", "engine.play"}
"""Command-line tools (python -m ...): they may time, print and read input."""

FORBIDDEN_MODULES = {
    "time",
    "datetime",
    "os",
    "socket",
    "django",
    "subprocess",
    "threading",
    "asyncio",
    "pathlib",
    "shutil",
    "urllib",
    "http",
    "secrets",
    "uuid",
}
ALLOWED_RANDOM_NAMES = {"Random"}  # random.Random instances only, never the global one


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = sorted(_module_name(p) for p in ENGINE.rglob("*.py"))
PURE = [m for m in MODULES if m not in ENTRY_POINTS]


def _module_path(name: str) -> Path:
    path = ENGINE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def impurities(source: str) -> list[str]:
    """What in this source breaks the engine's purity rules, one line per finding."""
    found = []
    random_aliases = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    found.append(f"line {node.lineno}: import {alias.name}")
                if alias.name == "random":
                    random_aliases.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in FORBIDDEN_MODULES:
                found.append(f"line {node.lineno}: from {node.module} import ...")
            if node.module == "random":
                for alias in node.names:
                    if alias.name not in ALLOWED_RANDOM_NAMES:
                        found.append(f"line {node.lineno}: from random import {alias.name}")
    for node in ast.walk(ast.parse(source)):
        # random.<anything but Random>: the module-level generator (random.random(),
        # random.shuffle, random.seed, ...).
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in random_aliases
            and node.attr not in ALLOWED_RANDOM_NAMES
        ):
            found.append(f"line {node.lineno}: random.{node.attr}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"open", "input", "print", "__import__", "exec", "eval"}
        ):
            found.append(f"line {node.lineno}: {node.func.id}()")
    return found


def test_the_module_list_is_complete() -> None:
    assert len(MODULES) >= 20
    assert "engine.indulgence.rules" in PURE
    assert "engine.indulgence.fast" in PURE
    assert "engine.bots.ismcts" in PURE
    assert set(MODULES) >= ENTRY_POINTS  # the exceptions name real modules


@pytest.mark.parametrize("name", PURE)
def test_pure_module_imports_no_clock_os_or_django(name: str) -> None:
    importlib.import_module(name)
    assert impurities(_module_path(name).read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "import time",
        "import os.path",
        "from datetime import datetime",
        "from django.db import models",
        "import socket",
        "import random\nx = random.random()",
        "import random\nrandom.shuffle([1, 2])",
        "import random as r\nr.seed(1)",
        "from random import shuffle",
        "print('hi')",
    ],
)
def test_the_checker_catches_impurities(source: str) -> None:
    assert impurities(source)


def test_the_checker_allows_random_instances() -> None:
    source = (
        "import random\n\n"
        "def f(rng: random.Random) -> float:\n"
        "    return random.Random(1).random()\n"
    )
    assert impurities(source) == []


def test_the_entry_points_are_the_ones_using_a_clock() -> None:
    # If an entry point stopped needing its exception, the list should shrink.
    for name in ENTRY_POINTS:
        assert impurities(_module_path(name).read_text()), name

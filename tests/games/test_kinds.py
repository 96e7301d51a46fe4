"""Every game of engine.registry has its server side (games.kinds), its API shapes and its
pages; nothing outside a game's own modules asks which game it is."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings
from django.template.loader import get_template

from engine import registry
from games import kinds
from games.api import serializers
from games.web import pages

GAMES_DIR = Path(settings.BASE_DIR) / "games"
# A game's own modules, where its key may be written (and the tables that list them).
OWN = {"kinds", "pages_indulgence.py", "pages_eleusis.py", "shapes_eleusis.py"}
TABLES = {"serializers.py", "examples.py", "examples_eleusis.py"}


def test_every_hosted_game_has_its_kind_shapes_and_pages() -> None:
    assert set(kinds.KINDS) <= set(registry.GAMES)
    for kind in kinds.hosted():
        assert kind.meta is registry.get(kind.key).META
        assert kind.key in serializers.VIEW_SHAPES
        assert kind.key in serializers.EXPORT_SHAPES
        game_pages = pages.of_kind(kind)
        for template in (game_pages.TABLE_TEMPLATE, game_pages.REPLAY_TEMPLATE):
            get_template(template)
        assert "table" in game_pages.TABLE_PARTS
        assert kind.autopilot_bot() in kind.meta.bots
        assert kind.bot_kinds() <= set(kind.meta.bots)


def test_no_module_of_the_core_compares_a_game_key() -> None:
    """No ``game_type == "eleusis"`` (or ``in ("indulgence", ...)``) outside a game's own
    modules: a comparison with a game's key is a branch on the game."""
    keys = set(registry.GAMES)
    found = []
    for path in sorted(GAMES_DIR.rglob("*.py")):
        parts = set(path.relative_to(GAMES_DIR).parts)
        if parts & OWN or parts & TABLES or "migrations" in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                constants = [
                    c.value
                    for c in ast.walk(node)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                ]
                if keys & set(constants):
                    found.append(f"{path.relative_to(GAMES_DIR)}:{node.lineno}")
    assert not found, found

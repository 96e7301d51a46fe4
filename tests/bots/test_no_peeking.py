"""No bot can see other seats' hidden cards: structural tests."""

from __future__ import annotations

import ast
import inspect
import pathlib
import random
from typing import Any

import pytest

from engine import bots
from engine import indulgence as game
from engine.bots import heuristic, ismcts
from engine.bots.ismcts import IsmctsBot
from engine.cards import ids_of
from tests.bots.util import JsonDict, positions

BOT_PACKAGE = pathlib.Path(bots.__file__).parent
# What bot code may import from the engine: card helpers, the edict table and the pure
# scoring functions. Nothing that builds or holds a game State.
ALLOWED_ENGINE_IMPORTS = {
    "engine.cards",
    "engine.indulgence.edicts",
    "engine.indulgence.settlement",
    "engine.bots",
    "engine.bots._eval",
    "engine.bots._observe",
    "engine.bots._sim",
    "engine.bots.heuristic",
    "engine.bots.ismcts",
}


def _bot_functions() -> dict[str, Any]:
    return {
        "random": bots._REGISTRY["random"][1],
        "heuristic": heuristic.heuristic_bot,
        "ismcts": IsmctsBot(4),
    }


def test_bot_modules_cannot_reach_a_game_state() -> None:
    for path in BOT_PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("engine")
            ):
                assert node.module in ALLOWED_ENGINE_IMPORTS, f"{path.name} imports {node.module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert (
                        not alias.name.startswith("engine") or alias.name in ALLOWED_ENGINE_IMPORTS
                    ), f"{path.name} imports {alias.name}"


def test_bots_take_a_view_and_a_random_source() -> None:
    for kind, fn in _bot_functions().items():
        target = fn.__call__ if isinstance(fn, IsmctsBot) else fn
        params = list(inspect.signature(target).parameters)
        assert params == ["view", "rng"], (kind, params)
    assert list(inspect.signature(ismcts.ismcts_bot).parameters) == ["view", "rng"]


class RecordingView(dict[str, Any]):
    """A view that remembers which keys were read (and fails on keys views lack)."""

    def __init__(self, data: JsonDict) -> None:
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


@pytest.mark.parametrize("variant", ["basic", "expert"])
def test_views_hold_no_other_hand_and_bots_read_only_view_keys(variant: str) -> None:
    rng = random.Random(11)
    fns = _bot_functions()
    seen_phases = set()
    for i, (state, seat) in enumerate(positions(4, variant, f"peek-{variant}", rng)):
        if i % 3:
            continue
        view = game.view(state, seat)
        # The view carries this seat's cards and no other seat's hand.
        assert view["my_hand"] == ids_of(state.hands[seat])
        text = repr(view)
        for other in range(4):
            if other != seat and state.hands[other]:
                held_elsewhere = set(ids_of(state.hands[other]))
                assert not held_elsewhere & _cards_mentioned(view), "a view shows a hidden card"
        assert "hands" not in view
        assert "deal" not in view
        assert "seed" not in text.replace("seed_commitment", "")
        seen_phases.add(view["phase"])
        for kind, fn in fns.items():
            wrapped = RecordingView(view)
            action = fn(wrapped, random.Random(i))
            assert action in view["legal_actions"]
            assert wrapped.read <= set(view), (kind, wrapped.read - set(view))
    assert {"choosing_edict", "sin_decision", "playing"} <= seen_phases


def _cards_mentioned(view: JsonDict) -> set[str]:
    """Every card id anywhere in a view."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif (
            isinstance(value, str) and len(value) == 2 and value[0] in "BMOS" and value[1].isdigit()
        ):
            found.add(value)

    walk(view)
    return found


def _swap_hidden(state: Any, me: int, rng: random.Random) -> Any:
    """The same state with cards exchanged between two other seats' hands."""
    others = [s for s in range(state.player_count) if s != me and state.hands[s]]
    if len(others) < 2:
        return None
    a, b = rng.sample(others, 2)
    ca = [c for c in range(36) if state.hands[a] >> c & 1]
    cb = [c for c in range(36) if state.hands[b] >> c & 1]
    x, y = rng.choice(ca), rng.choice(cb)
    hands = list(state.hands)
    hands[a] = hands[a] ^ (1 << x) | (1 << y)
    hands[b] = hands[b] ^ (1 << y) | (1 << x)
    return state._replace(hands=tuple(hands))


@pytest.mark.parametrize(("players", "variant"), [(3, "basic"), (4, "expert")])
def test_same_view_same_action_whatever_the_hidden_cards(players: int, variant: str) -> None:
    rng = random.Random(3)
    fns = _bot_functions()
    compared = 0
    for i, (state, seat) in enumerate(positions(players, variant, f"hidden-{variant}", rng)):
        if i % 4:
            continue
        other = _swap_hidden(state, seat, rng)
        if other is None:
            continue
        assert other.hands != state.hands
        view_a, view_b = game.view(state, seat), game.view(other, seat)
        assert view_a == view_b
        for fn in fns.values():
            assert fn(view_a, random.Random(i)) == fn(view_b, random.Random(i))
        compared += 1
    assert compared >= 20

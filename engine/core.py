"""What every game of the engine provides.

A game is a module of pure functions over an immutable state (see
``docs/engine.md``). Actions are small JSON-able dicts that the game validates itself;
a refused action raises :class:`IllegalAction` and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

JsonDict = dict[str, Any]
StateT = TypeVar("StateT")


class IllegalAction(Exception):
    """An action the rules refuse.

    ``code`` is a stable snake_case identifier (the API's error code); ``message`` is a
    specific human sentence, e.g. "You must follow medici: you hold M3, M8."
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


class Game(Protocol[StateT]):
    """The functions a game module exposes (a module satisfies this protocol)."""

    def to_act(self, state: StateT) -> int | None: ...

    def legal_actions(self, state: StateT, seat: int) -> list[JsonDict]: ...

    def apply(self, state: StateT, seat: int, action: JsonDict) -> StateT: ...

    def advance(self, state: StateT) -> StateT: ...

    def view(self, state: StateT, seat: int | None) -> JsonDict: ...

    def full_record(self, state: StateT) -> JsonDict: ...

    def is_over(self, state: StateT) -> bool: ...

    def result(self, state: StateT) -> JsonDict | None: ...


# --- Many games (architecture.md): what engine/registry.py holds for each game key. Here,
# not in the registry, so that a game package can describe itself without importing the
# registry that imports it.

Bot = Callable[[JsonDict, random.Random], JsonDict]
"""A bot: ``fn(view, rng) -> action``, seeing only its seat's view."""


@dataclass(frozen=True)
class GameMeta:
    """A game's self-description (as OpenSpiel's GameType/GameInfo)."""

    key: str
    title: str
    player_counts: tuple[int, ...]
    variants: tuple[str, ...]  # the first is the default
    rated_player_counts: tuple[int, ...]
    bots: Mapping[str, Bot] = field(default_factory=dict)

    @property
    def default_variant(self) -> str:
        return self.variants[0]


class GameModule(Protocol):
    """What :data:`GAMES` holds for every game key."""

    @property
    def META(self) -> GameMeta: ...

    def new_game(
        self, player_count: int, variant: str, seed: str, options: Mapping[str, Any] | None = None
    ) -> Any: ...

    def to_act(self, state: Any) -> int | None: ...

    def legal_actions(self, state: Any, seat: int) -> list[JsonDict]: ...

    def apply(self, state: Any, seat: int, action: JsonDict, by: str | None = None) -> Any:
        """The state after ``seat``'s action (``IllegalAction`` if refused). ``by`` says
        who made it, for games whose record keeps that (New Eleusis, NE-29.3.5):
        None (the seat itself), "autopilot" or "timeout"; a game without it ignores it."""
        ...

    def advance(self, state: Any) -> Any: ...

    def timeout_action(self, state: Any) -> JsonDict | None:
        """What a missed deadline does by itself (applied with ``by="timeout"``), or None
        when the seat's autopilot bot plays the turn instead (every Indulgence turn;
        New Eleusis' NE-27, E29, E32)."""
        ...

    def view(self, state: Any, seat: int | None) -> JsonDict: ...

    def full_record(self, state: Any) -> JsonDict: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> JsonDict | None: ...

    def state_to_json(self, state: Any) -> JsonDict: ...

    def state_from_json(self, data: JsonDict) -> Any: ...

    def seed_commitment(self, seed: str) -> str: ...

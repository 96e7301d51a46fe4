"""What every game of the engine provides.

A game is a module of pure functions over an immutable state (see
``docs/engine.md``). Actions are small JSON-able dicts that the game validates itself;
a refused action raises :class:`IllegalAction` and changes nothing.
"""

from __future__ import annotations

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

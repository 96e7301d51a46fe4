"""How a multi-step action asks its questions (6.2, 16.2, H.5.5, R79).

Rules are written as generators (``Proc``) that ask with ``yield from ctx.ask(...)``.
A generator is never resumed across calls: a state keeps the *program* it is in, the
state where that program started (``origin``) and every answer given since; ``apply``
replays the program from its origin with the answers plus the new one. So the code reads
straight through and the state stays a plain value.

An ask with one legal option is answered by the engine (R79); its answer is recorded so
that a replay takes the same path without computing options again.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import NamedTuple, TypeVar

from engine.core import JsonDict
from engine.pax.state import Table

T = TypeVar("T")


class Ask(NamedTuple):
    """A decision for one seat: its kind (H.7), options (None: not listed yet, see
    ``Ctx.ask``'s ``quick``) and the cards under it (H.5.5)."""

    seat: int
    kind: str
    options: list[JsonDict] | None
    cards: tuple[str, ...]
    context: JsonDict | None = None


Proc = Generator[Ask, None, T]


class EngineError(AssertionError):
    """A broken rule program (never a player's fault)."""


class Ctx:
    """The answers of one program run: recorded ones are replayed, then one is live."""

    def __init__(
        self,
        t: Table,
        answers: list[tuple[int | None, JsonDict, bool]],
        want_options: bool = True,
        on_forced: Callable[[], None] | None = None,
    ) -> None:
        self.t = t
        self.answers = answers
        self.cursor = 0
        self.want_options = want_options
        self.on_forced = on_forced

    @property
    def replaying(self) -> bool:
        return self.cursor < len(self.answers)

    def ask(
        self,
        seat: int,
        kind: str,
        options: Sequence[JsonDict] | Callable[[], Sequence[JsonDict]],
        cards: Sequence[str] = (),
        quick: Callable[[], JsonDict | None] | None = None,
        context: JsonDict | None = None,
    ) -> Proc[JsonDict]:
        """The answer to a decision: recorded (replay), forced (R79) or asked.

        ``quick``, for long option lists, answers R79's question cheaply: the only option,
        or None when there are at least two; the list is then made only when wanted.
        ``context`` is public help for the view (which unit a payment is for, ...).
        """
        if self.cursor < len(self.answers):
            who, answer, live = self.answers[self.cursor]
            self.cursor += 1
            if live:
                self.t.open_entry(who, answer)
            return answer
        opts: list[JsonDict] | None
        if quick is not None and not self.want_options:
            only = quick()
            opts = None if only is None else [only]
        else:
            opts = list(options() if callable(options) else options)
            if not opts:
                raise EngineError(f"an ask of kind {kind} for seat {seat} has no options")
        if opts is not None and len(opts) == 1:
            if self.on_forced is not None and not self.answers:
                self.on_forced()
            self.answers.append((seat, opts[0], False))
            self.cursor += 1
            return opts[0]
        yield Ask(seat, kind, opts, tuple(cards), context)
        raise EngineError("a program was resumed instead of replayed")


def same_json(a: object, b: object) -> bool:
    """Equal JSON values of the same types all through (``True`` is not ``1``, ``1.0``
    is not ``1``): ``apply``'s exact membership test of an action in the options."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if type(a) is list:
        assert isinstance(b, list)
        return len(a) == len(b) and all(map(same_json, a, b))
    return a == b

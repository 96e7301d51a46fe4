"""The immutable game state.

Everything is a ``NamedTuple`` of ints, strs, bools, ``None`` and tuples, so states
compare by value, hash, pickle, and are cheap to copy-with-changes (``_replace``).
Card sets are 36-bit ints (see :mod:`engine.cards`); edicts are catalog indexes.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Phase(StrEnum):
    CHOOSING_EDICT = "choosing_edict"
    NAMING_TRUMP = "naming_trump"
    SIN_DECISION = "sin_decision"
    PLAYING = "playing"
    RESOLVING_TIES = "resolving_ties"
    SETTLING = "settling"
    FINISHED = "finished"


ActionItems = tuple[tuple[str, str | int | bool], ...]
"""An accepted action in canonical form: ``tuple(canonical_dict.items())``."""

Play = tuple[int, int, bool]
"""(seat, card, indulgence ring used)."""

Move = tuple[int, ActionItems]
"""(seat, action) of one accepted player action."""

TieChoice = tuple[int, int, int]
"""(family, chooser seat, chosen seat)."""


class Trick(NamedTuple):
    leader: int
    plays: tuple[Play, ...]
    winner: int


class Payment(NamedTuple):
    payer: int
    payee: int
    owed: int
    paid: int
    reason: str


class Settlement(NamedTuple):
    """The outcome of settling one hand."""

    payments: tuple[Payment, ...]
    florins_after: tuple[int, ...]
    sin_succeeded: bool | None  # None: nobody sinned
    papal_bull_win: bool  # a papal-bull sin succeeded: the sinner wins the game
    bankruptcy: bool  # someone could not pay in full: the game ends


class Result(NamedTuple):
    winner: int
    florins: tuple[int, ...]
    reason: str  # "rounds_complete" | "bankruptcy" | "papal_bull_sin"


class HandRecord(NamedTuple):
    """A settled hand, as kept for the record and ``last_settlement``."""

    number: int
    ruler: int
    deal: tuple[int, ...]
    row: tuple[int, ...]  # the edict row when the Ruler chose
    in_force: tuple[int, ...]
    papal_bull: bool
    trump: int | None
    sin_decisions: tuple[tuple[int, bool], ...]  # (seat, sinned)
    sinner: int | None
    tricks: tuple[Trick, ...]
    ended_early: bool
    tie_choices: tuple[TieChoice, ...]
    settlement: Settlement
    moves: tuple[Move, ...]


class State(NamedTuple):
    """A whole game: the settled hands, then the hand in progress.

    Build states with ``new_game`` (or ``scenario.state_with_hands`` in tests) and change
    them only through ``apply``/``advance``.
    """

    # The game.
    player_count: int
    variant: str  # "basic" | "expert"
    seed: str
    edict_deck: tuple[int, ...]  # the shuffled deck, as at the start of the game
    deck_drawn: int  # how many edicts have been drawn from the front of edict_deck
    first_ruler: int
    florins: tuple[int, ...]
    papal_bulls: tuple[bool, ...]  # papal bull still available (expert)
    history: tuple[HandRecord, ...]  # settled hands
    result: Result | None
    # The hand in progress (after the game ends: the last hand, emptied).
    hand_number: int  # 1..3n
    ruler: int
    row: tuple[int, ...]  # the edict row shown at the start of the hand
    deal: tuple[int, ...]  # card sets as dealt
    hands: tuple[int, ...]  # card sets still held
    phase: Phase
    to_act: int | None
    in_force: tuple[int, ...]
    papal_bull: bool
    trump: int | None
    sin_decisions: tuple[tuple[int, bool], ...]
    sinner: int | None
    ring_used: bool
    leader: int  # leader of the current trick
    plays: tuple[Play, ...]  # the current trick so far
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    taken: tuple[int, ...]  # card sets taken per seat this hand
    trick_counts: tuple[int, ...]
    first_to_three: int | None
    last_takers: tuple[int | None, ...]  # per family: who took the trick with its final card
    ended_early: bool
    tie_choices: tuple[TieChoice, ...]
    pending_tie: tuple[int, int, tuple[int, ...]] | None  # (family, chooser, tied seats)
    hand_moves: tuple[Move, ...]  # player actions of this hand
    # How many settled hands come before ``history[0]``: 0 for a whole state. A state
    # restored from a play snapshot (``record.play_snapshot``) holds only the last settled
    # hand's record, which is all that play and views read; ``full_record`` needs them all
    # (``state_from_json(snapshot, earlier=...)``).
    history_start: int = 0

    @property
    def total_hands(self) -> int:
        return 3 * self.player_count

    @property
    def round(self) -> int:
        return (self.hand_number - 1) // self.player_count + 1

    @property
    def tricks_per_hand(self) -> int:
        return 36 // self.player_count

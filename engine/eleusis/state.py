"""The immutable state of a game of New Eleusis (NE-31.4).

Everything is a frozen dataclass of ints, strs, bools, ``None`` and tuples, so states
compare by value and are changed only by building new ones (:mod:`engine.eleusis.work`
does it for one transition). Cards are ints (:mod:`engine.eleusis.deck`). Actions and
events are kept as the JSON text of the record (NE-29.3.5, 29.3.6), so the log is exactly
what the record prints. The compiled rule is not stored: ``compile_rule`` caches it by
source.
"""

from __future__ import annotations

from dataclasses import dataclass

# Phases (NE-31.1). "game_over" is not a round phase: it is ``State.end is not None``.
RULE_SETUP = "rule_setup"
TURN = "turn"
PROPHET_CALL = "prophet_call"
DEALER_CHOICE = "dealer_choice"
POST_PLAY = "post_play"
ROUND_OVER = "round_over"
GAME_OVER = "game_over"

DIFFICULTIES = ("easy", "medium", "hard", "expert")
PROPHET_INTENTS = ("no", "declare", "decide_after")
BY = ("human", "bot", "autopilot", "prophecy", "timeout")


@dataclass(frozen=True, slots=True)
class Settings:
    """Table settings (NE-29.3.2 ``settings``; V1-V5 of NE-15, E05 (a))."""

    hand_size: int = 14
    sudden_death: int = 40
    sudden_death_prophet: int = 30
    round_limit: int | None = None
    rated: bool = False
    house_dealt: bool = False
    late_claims: bool = False
    going_out_prophet: bool = False
    deadlines: tuple[tuple[str, int], ...] = ()
    difficulty: str = "medium"
    """The table's difficulty: house-dealt rules (V4) and rule-submission timeouts (E32)."""
    sanity_walks: int = 300
    """Random walks of the sanity check run on a dealer's rule (NE-22.4, a table setting)."""
    max_turns: int = 1000
    """E25's turn cap."""


@dataclass(frozen=True, slots=True)
class RuleSetup:
    """The round's rule once set (NE-5.1-5.3, NE-23)."""

    source: str
    library_id: str | None
    difficulty: str | None  # requested difficulty of a library pick (public, NE-28.1)
    sanity: str  # "ok" | "warn"
    reasons: tuple[str, ...]  # the sanity report's reasons (the dealer's eyes only)
    no_play_choice: str  # "random" | "choose"
    hints: str  # JSON text of the verified hints, as given
    free_hint: str | None
    commitment: str
    evaluator: str


@dataclass(frozen=True, slots=True)
class MainCard:
    card: int
    seat: int | None  # None: a starter card
    seq: int | None  # the action that played it (None for starters)


@dataclass(frozen=True, slots=True)
class SidePlay:
    """A wrong play under main-line card ``under`` (NE-6.2)."""

    under: int
    seat: int
    cards: tuple[int, ...]
    seq: int


@dataclass(frozen=True, slots=True)
class Exhibit:
    """The hand of a correct no play (E11), in card order."""

    under: int
    seat: int
    cards: tuple[int, ...]
    seq: int


@dataclass(frozen=True, slots=True)
class Marker:
    color: str  # "white" | "black"
    card: int
    count: int
    line: int | None  # black: the index of its prophet line
    removed: bool  # black markers of an overthrown prophet (NE-10.6)


@dataclass(frozen=True, slots=True)
class ProphetLine:
    """A prophet's line (NE-6.6): drawn after ``main_at`` main-line cards, at PC ``m``."""

    seat: int
    m: int
    main_at: int
    main0: int  # cards played to the main line before the line
    side0: int  # cards played to side lines before the line
    seq: int
    overthrown_seq: int | None


@dataclass(frozen=True, slots=True)
class Call:
    verdict: str | None  # "right" | "wrong" | "correct"; None: a missed call (E29)
    card: int | None
    seq: int
    by: str


@dataclass(frozen=True, slots=True)
class Pending:
    """A turn awaiting the prophet's call or the dealer's choice (NE-26.1, 26.3)."""

    seat: int
    kind: str  # "play" | "no_play"
    cards: tuple[int, ...]  # the play in order, or the shown hand in card order
    prophet: str  # the sealed intent: "no" | "declare" | "decide_after"
    seq: int
    sudden_death: bool
    under: int
    call: Call | None


@dataclass(frozen=True, slots=True)
class Turn:
    """A judged turn, public (NE-28.1): the evidence a scientist reasons from."""

    seq: int
    seat: int
    kind: str
    cards: tuple[int, ...]
    under: int  # the main-line card it followed
    truth: str  # "right" | "wrong" | "correct"
    sudden_death: bool
    call: Call | None
    approved: bool | None
    overthrown: int | None  # the prophet overthrown by this turn
    chosen: int | None  # the right card placed from a wrong no-play hand
    chosen_by: str | None
    expelled: bool
    pc: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted action and its events (NE-29.3.5)."""

    seq: int
    seat: int | None
    phase: str
    by: str
    action: str  # JSON text
    events: str  # JSON text of the event list
    shown: tuple[int, ...] | None = None  # a no play's shown hand (public, NE-9.1)


@dataclass(frozen=True, slots=True)
class ProphetScore:
    seat: int
    m: int
    main: int
    side: int
    bonus: int


@dataclass(frozen=True, slots=True)
class DealerScore:
    highest: int
    cap: int | None
    score: int


@dataclass(frozen=True, slots=True)
class RoundScore:
    """NE-29.3.7's ``end``."""

    reason: str
    hands: tuple[tuple[int, ...], ...]
    high: int
    held: tuple[int | None, ...]
    out_bonus: tuple[int | None, ...]
    prophet: ProphetScore | None
    dealer: DealerScore | None
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    dealer: int | None  # None in a house-dealt game (V4)
    seed: str  # the round seed (secret until the round is scored)
    decks: int  # decks at the start (E03)
    decks_in_use: int
    phase: str
    rule: RuleSetup | None
    deal: tuple[tuple[int, ...], ...] | None  # per seat, in the order dealt
    starter: tuple[tuple[int, bool], ...]  # every card turned up, kept or put back
    first_player: int | None
    stock: tuple[int, ...]  # top first
    hands: tuple[tuple[int, ...], ...]  # per seat, in card order (a prophet's set aside)
    main: tuple[MainCard, ...]
    side: tuple[SidePlay, ...]
    exhibits: tuple[Exhibit, ...]
    main_played: int  # cards played to the main line (PC = main_played + side_played)
    side_played: int
    markers: tuple[Marker, ...]
    prophet: int | None
    lines: tuple[ProphetLine, ...]
    expelled: tuple[int, ...]
    current: int | None  # the scientist whose turn (or post_play) it is
    pending: Pending | None
    prophecy: str | None  # the standing prophecy in force (NE-26.5)
    turns: tuple[Turn, ...]
    turn_count: int
    log: tuple[LogEntry, ...]
    end_reason: str | None
    score: RoundScore | None

    @property
    def pc(self) -> int:
        """The played-card count (E12)."""
        return self.main_played + self.side_played


@dataclass(frozen=True, slots=True)
class GameEnd:
    reason: str  # "all_dealt" | "round_limit" | "vote"
    early_end_points: tuple[int, ...]
    totals: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class State:
    player_count: int
    variant: str
    seed: str
    settings: Settings
    bots: tuple[bool, ...]
    first_dealer: int | None
    rounds: tuple[Round, ...]
    seq: int  # the last log sequence number used (counts over the whole game)
    votes: tuple[int, ...]  # seats that voted to end the game (E05 (b), E35)
    vote_passed: bool
    end: GameEnd | None

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def planned_rounds(self) -> int:
        return self.settings.round_limit or self.player_count

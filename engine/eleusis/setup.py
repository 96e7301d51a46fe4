"""A new game and a new round: settings, seats, dealers, the stock, and the dealer's rule
with the deal and the starter cards that follow it (NE-2 to NE-5, E01-E04, E07-E10,
E34, E36, E43, NE-29.3.3).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.core import IllegalAction, JsonDict
from engine.eleusis.commitment import rule_commitment, rule_salt
from engine.eleusis.deck import (
    card_ids,
    decks_needed,
    face_of,
    first_dealer,
    initial_stock,
    rank_of,
    round_seed,
    uniform,
)
from engine.eleusis.erl import ErlError, compile_rule
from engine.eleusis.hints import HintError, verify_hint
from engine.eleusis.library import LibraryRule, library, library_rule
from engine.eleusis.sanity import SanityReport, SanitySettings, sanity_check
from engine.eleusis.state import (
    DIFFICULTIES,
    ROUND_OVER,
    RULE_SETUP,
    TURN,
    MainCard,
    Round,
    RuleSetup,
    Settings,
    State,
)
from engine.eleusis.table import scientists
from engine.eleusis.work import Work, dumps

VARIANTS = ("standard", "express", "short", "practice")
"""standard; express = V5 (hand 12); short = V3 (sudden death at 30 and 20, as
kercos/Eleusisbot); practice = V4 (house-dealt, needs ``round_limit``)."""
PLAYER_COUNTS = (3, 4, 5, 6, 7, 8, 9, 10)
PRACTICE_PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8, 9)
RATED_PLAYER_COUNTS = (4, 5, 6, 7, 8)
DEFAULT_DEADLINES: dict[str, int] = {
    "turn": 86_400,
    "prophet_call": 43_200,
    "prophet_window": 7_200,
    "rule_submission": 86_400,
    "dealer_choice": 7_200,
}
"""Correspondence defaults of NE-26.2, 26.6, 27.3, 27.4 (seconds); the server applies them."""
TIERS: dict[str, tuple[int, ...]] = {
    "easy": (1,),
    "medium": (2,),
    "hard": (3,),
    "expert": (4, 5),
}
"""Our ruling OR20: until difficulty is measured (NE-30.4), a tier is NE-25's grades."""
OPTION_KEYS = frozenset(
    {
        "hand_size",
        "sudden_death",
        "sudden_death_prophet",
        "round_limit",
        "rated",
        "house_dealt",
        "late_claims",
        "going_out_prophet",
        "deadlines",
        "difficulty",
        "sanity_walks",
        "max_turns",
        "bots",
    }
)


@functools.cache
def evaluator_version() -> str:
    """The evaluator version of NE-23.1: a SHA-256 over the ERL package's source files
    (Our ruling OR21; the engine has no git)."""
    digest = hashlib.sha256()
    files = sorted(
        (f for f in resources.files("engine.eleusis.erl").iterdir() if f.name.endswith(".py")),
        key=lambda f: f.name,
    )
    for f in files:
        digest.update(f.name.encode() + b"\n" + f.read_bytes() + b"\n")
    return "sha256:" + digest.hexdigest()[:16]


def _int(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = options.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"option {key!r} must be a whole number from {low} to {high}")
    return value


def make_settings(player_count: int, variant: str, options: Mapping[str, Any]) -> Settings:
    """The table settings, or ``ValueError`` naming the bad option."""
    unknown = sorted(set(options) - OPTION_KEYS)
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; known: {sorted(OPTION_KEYS)}")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    house = bool(options.get("house_dealt", variant == "practice"))
    if house != (variant == "practice"):
        raise ValueError("house_dealt is the 'practice' variant (V4) and only it")
    counts = PRACTICE_PLAYER_COUNTS if house else PLAYER_COUNTS
    if player_count not in counts:
        raise ValueError(f"{variant} tables have {counts[0]} to {counts[-1]} seats (E01, V4)")
    for flag in ("late_claims", "going_out_prophet"):
        if options.get(flag, False) is not False:
            raise ValueError(f"{flag} (V1, V2) is not offered in the first version (E43)")
    rated = options.get("rated", False)
    if not isinstance(rated, bool):
        raise ValueError("option 'rated' must be true or false")
    if rated and (house or player_count not in RATED_PLAYER_COUNTS):
        raise ValueError("rated tables have 4 to 8 seats and a dealer (E01)")
    short = variant == "short"
    limit = options.get("round_limit")
    if house:
        if limit is None:
            raise ValueError("a practice (house-dealt) game needs a round_limit (E43)")
        limit = _int(options, "round_limit", 1, 1, 100)
    elif limit is not None:
        limit = _int(options, "round_limit", 1, 1, player_count - 1)
    deadlines = dict(DEFAULT_DEADLINES)
    given = options.get("deadlines", {})
    if not isinstance(given, dict) or not all(
        k in DEFAULT_DEADLINES and isinstance(v, int) and not isinstance(v, bool) and v > 0
        for k, v in given.items()
    ):
        raise ValueError(f"deadlines are seconds for {sorted(DEFAULT_DEADLINES)}")
    deadlines.update(given)
    difficulty = options.get("difficulty", "medium")
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty is one of {DIFFICULTIES}")
    return Settings(
        hand_size=_int(options, "hand_size", 12 if variant == "express" else 14, 1, 14),
        sudden_death=_int(options, "sudden_death", 30 if short else 40, 1, 1000),
        sudden_death_prophet=_int(options, "sudden_death_prophet", 20 if short else 30, 1, 1000),
        round_limit=limit,
        rated=rated,
        house_dealt=house,
        deadlines=tuple(sorted(deadlines.items())),
        difficulty=difficulty,
        sanity_walks=_int(options, "sanity_walks", 300, 1, 300),
        max_turns=_int(options, "max_turns", 1000, 1, 1000),
    )


def start_round(
    player_count: int,
    settings: Settings,
    first: int | None,
    number: int,
    seed_hex: str,
) -> Round:
    """Round ``number`` before its rule: dealer (E04), the shuffled stock (E03, 29.3.3)."""
    dealer = None if first is None else (first + number - 1) % player_count
    order = scientists(player_count, dealer, number)
    decks = decks_needed(settings.hand_size, len(order))
    return Round(
        number=number,
        dealer=dealer,
        seed=seed_hex,
        decks=decks,
        decks_in_use=decks,
        phase=RULE_SETUP,
        rule=None,
        deal=None,
        starter=(),
        first_player=None,
        stock=initial_stock(seed_hex, decks),
        hands=((),) * player_count,
        main=(),
        side=(),
        exhibits=(),
        main_played=0,
        side_played=0,
        markers=(),
        prophet=None,
        lines=(),
        expelled=(),
        current=None,
        pending=None,
        prophecy=None,
        turns=(),
        turn_count=0,
        log=(),
        end_reason=None,
        score=None,
    )


def new_game(
    player_count: int,
    variant: str = "standard",
    seed: str = "eleusis",
    options: Mapping[str, Any] | None = None,
) -> State:
    """A new game; ``options`` are table settings (see :data:`OPTION_KEYS` and the docs)."""
    options = dict(options or {})
    settings = make_settings(player_count, variant, options)
    bots = options.get("bots", [False] * player_count)
    if (
        not isinstance(bots, (list, tuple))
        or len(bots) != player_count
        or not all(isinstance(b, bool) for b in bots)
    ):
        raise ValueError("option 'bots' is one true/false per seat")
    first = None if settings.house_dealt else first_dealer(seed, player_count)
    return State(
        player_count=player_count,
        variant=variant,
        seed=seed,
        settings=settings,
        bots=tuple(bots),
        first_dealer=first,
        rounds=(start_round(player_count, settings, first, 1, round_seed(seed, 1)),),
        seq=0,
        votes=(),
        vote_passed=False,
        end=None,
    )


# --- the dealer's rule (NE-5.1-5.3, NE-22, NE-23, E07, E08, E36) -----------------------


@functools.lru_cache(maxsize=128)
def sanity_of(source: str, walks: int) -> SanityReport:
    """The sanity report of a compiled source with the table's number of walks (cached:
    the check is deterministic, OR09)."""
    return sanity_check(compile_rule(source), SanitySettings(walks=walks, library_probes=0))


def tier(difficulty: str) -> list[LibraryRule]:
    """The library rules of a difficulty tier that NE-25.2 lists "ok" (NE-30.4 prefers no
    warning), in library order."""
    return [e for e in library() if e.difficulty in TIERS[difficulty] and e.verdict == "ok"]


def pick_library(seed_hex: str, difficulty: str) -> LibraryRule:
    """A library pick by difficulty: U(round seed, "library/" + difficulty, k) over the
    tier (Our ruling OR20). The round seed is secret, so nobody can predict it."""
    rules = tier(difficulty)
    return rules[uniform(seed_hex, f"library/{difficulty}", len(rules))]


def _rejected(message: str) -> IllegalAction:
    return IllegalAction("rule_rejected", message)


def check_rule(state: State, action: JsonDict) -> RuleSetup:
    """The rule an accepted ``set_rule``/``library_rule`` sets, or ``rule_rejected`` with
    the checker's reasons (only the dealer receives them, NE-31.3)."""
    r = state.round
    difficulty: str | None = None
    library_id: str | None = None
    picked = action["type"] == "library_rule" and "difficulty" in action
    if action["type"] == "set_rule":
        source = action["source"]
    elif picked:
        difficulty = action["difficulty"]
        entry = pick_library(r.seed, action["difficulty"])
        source, library_id = entry.source, entry.id
    else:
        try:
            entry = library_rule(action["id"])
        except KeyError:
            raise IllegalAction(
                "bad_action", f"There is no library rule {action['id']!r} (R01 to R45, NE-25)."
            ) from None
        source, library_id = entry.source, entry.id
    try:
        rule = compile_rule(source)
    except ErlError as exc:
        raise _rejected(
            f"Your rule does not compile ({exc.code} at line {exc.line}, column {exc.column}): "
            f"{exc.message}"
        ) from None
    report = sanity_of(rule.source, state.settings.sanity_walks)
    reasons = tuple(f"{x.verdict} {x.code}: {x.message}" for x in report.reasons)
    if report.verdict == "reject":
        raise _rejected("The sanity check rejects your rule (NE-22.5): " + "; ".join(reasons))
    if report.verdict == "warn" and not action["confirm_warnings"] and not picked:
        raise _rejected(
            "The sanity check warns about your rule (NE-22.5); send it again with "
            "confirm_warnings true to keep it: " + "; ".join(reasons)
        )
    for hint in action["hints"]:
        try:
            true = verify_hint(rule, hint, report)
        except HintError as exc:
            raise IllegalAction("bad_action", f"{exc} (E36)") from None
        if not true:
            raise _rejected(f"The hint {hint['id']} is not true of your rule (NE-24, E08).")
    salt = rule_salt(r.seed)
    return RuleSetup(
        source=rule.source,
        library_id=library_id,
        difficulty=difficulty,
        sanity=report.verdict,
        reasons=reasons,
        no_play_choice=action["no_play_choice"],
        hints=dumps(action["hints"]),
        free_hint=action.get("free_hint"),
        commitment=rule_commitment(rule.source, salt),
        evaluator=evaluator_version(),
    )


def deal_and_start(work: Work, setup: RuleSetup, order: list[int], hand_size: int) -> None:
    """The deal (one card at a time from the top, clockwise from the dealer's left) and the
    starter cards (E09, NE-29.3.3); ``deck`` events go to the rule-setting entry."""
    dealt: list[list[int]] = [[] for _ in work.hands]
    for _ in range(hand_size):
        for seat in order:
            card = work.take_top()
            if card is None:  # impossible with E03's deck count; kept total
                break
            dealt[seat].append(card)
    work.deal = tuple(tuple(h) for h in dealt)
    work.hands = [sorted(h) for h in dealt]
    work.flush_decks()
    rule = compile_rule(setup.source)
    line = rule.empty()
    streak = 0
    kept = 0
    while kept < rule.starters_needed:
        if streak >= len(work.stock) and not work.add_deck():
            work.flush_decks()
            work.end_reason = "stock_exhausted"  # six decks turned over without a starter
            work.events.append({"type": "round_end", "reason": "stock_exhausted"})
            return
        work.flush_decks()
        card = work.stock[0]
        if rule.may_start(line, face_of(card)):
            work.take_top()
            work.flush_decks()
            work.starter.append((card, True))
            work.main.append(MainCard(card, None, None))
            line = rule.extend(line, face_of(card))
            kept += 1
            streak = 0
        else:
            work.stock.append(work.stock.pop(0))
            work.starter.append((card, False))
            streak += 1
    first_rank = rank_of(work.main[0].card)
    work.first_player = order[(first_rank - 1) % len(order)]


def set_rule(state: State, seat: int | None, action: JsonDict, by: str) -> State:
    """Accept the dealer's rule, deal and turn up the starters (one log entry)."""
    setup = check_rule(state, action)
    work = Work(state)
    work.rule = setup
    order = scientists(state.player_count, state.round.dealer, state.round.number)
    deal_and_start(work, setup, order, state.settings.hand_size)
    if work.end_reason is None:
        work.phase = TURN
        work.current = work.first_player
    else:
        work.phase = ROUND_OVER
    work.log_entry(seat, by, action, phase=RULE_SETUP)
    return work.commit(votes=())


def deal_ids(deal: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [card_ids(h) for h in deal]

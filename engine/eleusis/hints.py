"""Verified hints (NE-24, E36), checked against the rule's syntax tree.

Hints are numbered in the order NE-24.1 lists them, the bullet "does not use suit, only
colour / does not use colour" counting as two hints (Our ruling OR08):

====  ==========================================================  ==============
H1    The rule does not use suit or colour.
H2    The rule does not use suit, only colour.
H3    The rule does not use colour.
H4    The rule does not use rank.
H5    The rule looks back at most k cards (no aggregate or state).  ``"k"``: 0..6
H6    The rule ignores the previous cards.
H7    The rule uses the position in the main line.
H8    The rule counts over the whole main line.
H9    The rule has a hidden mode.
H10   About P% of cards are right on average.                      from the report
====  ==========================================================  ==============

A hint is ``{"id": "H5", "k": 2}``; only hints that are true of the rule verify.
"""

from __future__ import annotations

from typing import Any

from engine.eleusis.erl import Rule
from engine.eleusis.sanity import SanityReport

SUIT = frozenset({"suit", "suitnum"})
COLOUR = frozenset({"color", "red", "black"})
RANK = frozenset({"rank", "even", "odd", "face", "number", "prime"})
HINT_IDS = tuple(f"H{i}" for i in range(1, 11))

TEXTS: dict[str, tuple[str, str]] = {
    "H1": ("The rule does not use suit or colour.", "ルールはスートも色も使わない。"),
    "H2": ("The rule does not use suit, only colour.", "ルールはスートを使わず、色だけを使う。"),
    "H3": ("The rule does not use colour.", "ルールは色を使わない。"),
    "H4": ("The rule does not use rank.", "ルールはランクを使わない。"),
    "H5": ("The rule looks back at most {k} cards.", "ルールが見るのは直前の{k}枚まで。"),
    "H6": ("The rule ignores the previous cards.", "ルールは前のカードを見ない。"),
    "H7": ("The rule uses the position in the main line.", "ルールは場札の中の位置を使う。"),
    "H8": ("The rule counts over the whole main line.", "ルールは場札全体を数える。"),
    "H9": ("The rule has a hidden mode.", "ルールには隠れた状態がある。"),
    "H10": ("About {p}% of cards are right on average.", "平均して約{p}%のカードが正しい。"),
}


class HintError(ValueError):
    """A hint that is malformed (unknown id, missing or bad ``k``)."""


def _percent(report: SanityReport) -> int:
    return int(report.mean_share * 10 + 0.5) * 10


def verify_hint(rule: Rule, hint: dict[str, Any], report: SanityReport | None = None) -> bool:
    """Whether the hint is true of the rule; raises :class:`HintError` if malformed."""
    hid = hint.get("id") if isinstance(hint, dict) else None
    if hid not in TEXTS:
        raise HintError(f"Unknown hint {hid!r} (known: {', '.join(HINT_IDS)}).")
    features = rule.program.features
    program = rule.program
    stateful = bool(program.accept_facts.states or program.start_facts.states)
    counts = "aggregate" in features
    if hid == "H1":
        return not (features & (SUIT | COLOUR))
    if hid == "H2":
        return not (features & SUIT) and bool(features & COLOUR)
    if hid == "H3":
        return not (features & COLOUR)
    if hid == "H4":
        return not (features & RANK)
    if hid == "H5":
        k = hint.get("k")
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 6:
            raise HintError("Hint H5 needs 'k', a whole number from 0 to 6.")
        return rule.lookback <= k and not counts and not stateful
    if hid == "H6":
        return rule.lookback == 0 and not counts and not stateful and "len" not in features
    if hid == "H7":
        return "len" in features
    if hid == "H8":
        return counts
    if hid == "H9":
        return stateful
    if report is None:
        raise HintError("Hint H10 needs the sanity report.")
    return bool(hint.get("p", _percent(report)) == _percent(report))


def true_hints(rule: Rule, report: SanityReport | None = None) -> list[dict[str, Any]]:
    """Every hint the dealer could tick for this rule (H5 with the smallest k)."""
    out: list[dict[str, Any]] = []
    for hid in HINT_IDS:
        if hid == "H5":
            hint: dict[str, Any] = {"id": hid, "k": rule.lookback}
        elif hid == "H10":
            if report is None:
                continue
            hint = {"id": hid, "p": _percent(report)}
        else:
            hint = {"id": hid}
        if verify_hint(rule, hint, report):
            out.append(hint)
    return out


def hint_text(hint: dict[str, Any], language: str = "en") -> str:
    """The hint as shown to the table ("en" or "ja")."""
    en, ja = TEXTS[hint["id"]]
    text = ja if language == "ja" else en
    return text.format(k=hint.get("k", ""), p=hint.get("p", ""))

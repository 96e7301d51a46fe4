"""Verify an exported record (NE-29.2): anyone with the record can run this.

For every round whose seed is revealed, :func:`verify` checks the commitments (game seed,
round seeds, rule), parses the revealed source and compares its canonical form, then
replays the round from its seed: a fresh round is built from the record's settings,
seats and revealed round seed, every logged action is applied again (the entries made
by a standing prophecy are produced by the replay itself), and everything the replay
derives is compared with the record: the deal, the starter draws, every event (verdicts,
approvals, overthrows, placements, penalty cards, decks, markers, expulsions, the end of
the round, declarations) and the scores. Finally the game's totals, early-end points and
ranking are recomputed. The first difference in each place is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import IllegalAction, JsonDict
from engine.eleusis.commitment import commitment_matches, rule_salt
from engine.eleusis.deck import first_dealer, round_seed, round_seed_commitment, seed_commitment
from engine.eleusis.erl import LANGUAGE, ErlError, compile_rule
from engine.eleusis.game import advance, apply
from engine.eleusis.record import RECORD_FORMAT, round_json
from engine.eleusis.scoring import EARLY_END_POINTS, ranking
from engine.eleusis.setup import OPTION_KEYS, evaluator_version, make_settings, start_round
from engine.eleusis.state import ROUND_OVER, State


@dataclass
class Verification:
    """``ok`` iff no problem was found; ``checked`` says what was verified."""

    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> JsonDict:
        return {
            "ok": self.ok,
            "problems": self.problems,
            "checked": self.checked,
            "notes": self.notes,
        }


def first_difference(expected: Any, found: Any, path: str) -> str | None:
    """Where two JSON values first differ, as "path: record has X, replay gives Y"."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in expected:
            if key not in found:
                return f"{path}.{key}: missing in the record"
            diff = first_difference(expected[key], found[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for i, (a, b) in enumerate(zip(expected, found, strict=False)):
            diff = first_difference(a, b, f"{path}[{i}]")
            if diff:
                return diff
        if len(expected) != len(found):
            return f"{path}: the record has {len(found)} items, the replay {len(expected)}"
        return None
    if expected != found or type(expected) is not type(found):
        return f"{path}: the record has {found!r}, the replay gives {expected!r}"
    return None


def _seeds(record: JsonDict, out: Verification) -> None:
    seed = record["seed"]
    planned = record["round_seed_commitments"]
    if seed is not None:
        if seed_commitment(seed) != record["seed_commitment"]:
            out.problems.append("seed_commitment: SHA-256 of the game seed does not match")
        derived = [round_seed_commitment(round_seed(seed, n)) for n in range(1, len(planned) + 1)]
        if derived != planned:
            out.problems.append("round_seed_commitments: not those of the game seed (E34)")
        house = record["settings"]["house_dealt"]
        if not house and record["first_dealer"] != first_dealer(seed, record["player_count"]):
            out.problems.append("first_dealer: not U(game seed, eleusis/first-dealer, n)")
        out.checked.append("game seed and its commitments")
    n = record["player_count"]
    for r in record["rounds"]:
        where = f"rounds[{r['number'] - 1}]"
        first = record["first_dealer"]
        if first is not None and r["dealer"] != (first + r["number"] - 1) % n:
            out.problems.append(f"{where}.dealer: not the rotation of E04")
        if r["seed"] is None:
            continue
        if (
            r["number"] > len(planned)
            or round_seed_commitment(r["seed"]) != planned[r["number"] - 1]
        ):
            out.problems.append(f"{where}.seed: does not match its published commitment (E34)")
        if seed is not None and r["seed"] != round_seed(seed, r["number"]):
            out.problems.append(f"{where}.seed: not HMAC(game seed, eleusis/round/{r['number']})")


def _rule(r: JsonDict, where: str, out: Verification) -> bool:
    rule = r["rule"]
    if rule["source"] is None:
        return True
    ok = True
    if rule["language"] != LANGUAGE:
        out.problems.append(f"{where}.rule.language: {rule['language']!r} is not {LANGUAGE}")
        return False
    if rule["salt"] != rule_salt(r["seed"]).hex():
        out.problems.append(f"{where}.rule.salt: not HMAC(round seed, eleusis/rule-salt)")
        ok = False
    if not commitment_matches(rule["commitment"], rule["source"], rule["salt"]):
        out.problems.append(f"{where}.rule.commitment: does not match the source and salt (NE-23)")
        ok = False
    try:
        canonical = compile_rule(rule["source"]).canonical
    except ErlError as exc:
        out.problems.append(f"{where}.rule.source: does not compile ({exc.code}: {exc.message})")
        return False
    if canonical != rule["canonical"]:
        out.problems.append(f"{where}.rule.canonical: not the canonical form of the source")
        ok = False
    return ok


def _start_state(record: JsonDict, r: JsonDict) -> State:
    settings_in = record["settings"]
    options = {k: v for k, v in settings_in.items() if k in OPTION_KEYS}
    settings = make_settings(record["player_count"], record["variant"], options)
    first = record["first_dealer"]
    seq0 = r["log"][0]["seq"] - 1 if r["log"] else 0
    return State(
        player_count=record["player_count"],
        variant=record["variant"],
        seed=record["seed"] or "",
        settings=settings,
        bots=tuple(s["bot"] for s in record["seats"]),
        first_dealer=first,
        rounds=(start_round(record["player_count"], settings, first, r["number"], r["seed"]),),
        seq=seq0,
        votes=(),
        vote_passed=False,
        end=None,
    )


def _replay(record: JsonDict, r: JsonDict, where: str, out: Verification) -> None:
    try:
        state = _start_state(record, r)
    except (ValueError, KeyError, TypeError) as exc:
        out.problems.append(f"{where}: cannot start the round from the record ({exc})")
        return
    for entry in r["log"]:
        if entry["by"] == "prophecy":
            continue  # the replay makes the prophecy's calls itself
        try:
            if entry["seat"] is None:
                state = advance(state)
            else:
                state = apply(state, entry["seat"], entry["action"], by=entry["by"])
        except IllegalAction as exc:
            out.problems.append(
                f"{where} seq {entry['seq']}: the rules refuse this action ({exc.code}: "
                f"{exc.message})"
            )
            return
        except (ValueError, KeyError, TypeError) as exc:
            out.problems.append(f"{where} seq {entry['seq']}: cannot replay this entry ({exc})")
            return
    last = next(x for x in state.rounds if x.number == r["number"])
    if r["end"] is not None and last.phase == ROUND_OVER and last.score is None:
        state = advance(state)
    replayed = round_json(next(x for x in state.rounds if x.number == r["number"]))
    replayed["rule"].pop("evaluator")
    found = dict(r)
    found["rule"] = {k: v for k, v in r["rule"].items() if k != "evaluator"}
    diff = first_difference(replayed, found, where)
    if diff:
        out.problems.append(diff)
    else:
        out.checked.append(f"round {r['number']}: replayed from its seed, every event and score")
    if r["rule"]["evaluator"] != evaluator_version():
        out.notes.append(
            f"{where}: judged by evaluator {r['rule']['evaluator']}, replayed by "
            f"{evaluator_version()}"
        )


def _game_end(record: JsonDict, out: Verification) -> None:
    end = record["end"]
    n = record["player_count"]
    if end is None:
        if record["status"] != "in_progress":
            out.problems.append("status: a game without an end is in progress")
        return
    scored = [r for r in record["rounds"] if r["end"] is not None]
    totals = [sum(r["end"]["score"]["scores"][s] for r in scored) for s in range(n)]
    dealt = {r["dealer"] for r in scored}
    early = [0] * n
    if end["reason"] in ("round_limit", "vote") and not record["settings"]["house_dealt"]:
        early = [0 if s in dealt else EARLY_END_POINTS for s in range(n)]
    final = [t + e for t, e in zip(totals, early, strict=True)]
    expected = {
        "reason": end["reason"],
        "early_end_points": early,
        "totals": final,
        "ranking": [list(g) for g in ranking(final)],
    }
    diff = first_difference(expected, end, "end")
    if diff:
        out.problems.append(diff)
    else:
        out.checked.append("game totals, early-end points and ranking")
    if record["status"] != "over" or record["seed"] is None:
        out.problems.append("status/seed: a finished game is 'over' with its seed revealed")


def verify(record: JsonDict) -> Verification:
    """Check an ``eleusis-record-1`` document as NE-29.2 says; see the module's text."""
    out = Verification()
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        out.problems.append(f"format: not an {RECORD_FORMAT} document")
        return out
    try:
        _seeds(record, out)
        last_seq = 0
        for r in record["rounds"]:
            where = f"rounds[{r['number'] - 1}]"
            if r["log"] and r["log"][0]["seq"] != last_seq + 1:
                out.problems.append(f"{where}.log[0].seq: sequence numbers skip or repeat")
            if r["log"]:
                last_seq = r["log"][-1]["seq"]
            if r["seed"] is None:
                out.notes.append(f"round {r['number']}: not yet revealed, not verified")
                continue
            if _rule(r, where, out):
                _replay(record, r, where, out)
        _game_end(record, out)
    except (KeyError, TypeError, IndexError) as exc:
        out.problems.append(f"the record is missing a part or has the wrong shape ({exc!r})")
    return out

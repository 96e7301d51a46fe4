"""Refused actions change nothing and name the rule they break (issue 23, H.7): a
property test over random games of 2, 3 and 4 seats, every kind of decision, with wrong
seats, malformed JSON, mutated legal actions and actions of other decisions."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, JsonDict
from engine.pax import engine as E
from engine.pax import record as R
from engine.pax.state import State

CITES = re.compile(r"\([^()]*\b(?:\d+(?:\.\d+)*|[A-H](?:\.\d+)*|R\d\d|S\d\d|G\d\d|P-\d+)\b[^()]*\)")
"""A rule cited in parentheses: a section (7.2.1), an appendix (H.7, C), a ruling (R80,
P-21), an event or ability id (S09, G10)."""

VALUES: tuple[Any, ...] = (None, "placard", [9, 9], [0, 0], -1, 7, 1.0, "XYZ", "PIL001", True)


def _bad_actions(legal: list[JsonDict], elsewhere: list[JsonDict], rng: random.Random) -> list[Any]:
    """Candidates that are not legal now: garbage, mutations of legal actions (a value
    replaced, a key dropped or added, 1 as True), and legal actions of other states."""
    out: list[Any] = [None, [], "end", 3, {}, {"type": 5}, {"type": "fly"}]
    for a in rng.sample(legal, min(3, len(legal))):
        keys = [k for k in a if k != "type"]
        for k in keys:
            out.append({**a, k: rng.choice(VALUES)})
            out.append({x: v for x, v in a.items() if x != k})
        out.append({**a, "extra": 1})
        out += [{**a, k: True} for k in keys if a[k] == 1 and type(a[k]) is int]
    out += elsewhere
    return [b for b in out if not (isinstance(b, dict) and b in legal and _exact_in(b, legal))]


def _exact_in(action: JsonDict, legal: list[JsonDict]) -> bool:
    return json.dumps(action, sort_keys=True) in {json.dumps(a, sort_keys=True) for a in legal}


def _run(players: int, seed: str, cap: int) -> list[State]:
    states = [E.new_game(players, "standard", seed, {"round_cap": cap})]
    rng = random.Random(seed)
    while not E.is_over(states[-1]):
        s = states[-1]
        seat = E.to_act(s)
        if seat is None:
            states.append(E.advance(s))
        else:
            states.append(E.apply(s, seat, rng.choice(E.legal_actions(s, seat))))
    return states


def _refused(s: State, seat: int, action: Any) -> IllegalAction:
    """The refusal, checked: the state equal to a copy taken before (its JSON is compared
    once per state by the caller), a code, and a rule cited."""
    copy = replace(s)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, seat, action)
    assert s == copy
    assert err.value.code
    assert CITES.search(err.value.message), (action, err.value.message)
    return err.value


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from((2, 3, 4)), st.text(min_size=1, max_size=6), st.randoms())
def test_refused_actions_change_nothing_and_cite_the_rule(
    players: int, seed: str, rng: random.Random
) -> None:
    states = _run(players, seed, cap=3)
    pending = [s for s in states if s.pending]
    seen: dict[str, list[JsonDict]] = {}
    for s in pending:
        seen.setdefault(s.pending[-1][1], []).extend(E.legal_actions(s, s.pending[-1][0]))
    refused = 0
    for s in rng.sample(pending, min(12, len(pending))):
        before = json.dumps(R.state_to_json(s), sort_keys=True)
        seat = s.pending[-1][0]
        kind = s.pending[-1][1]
        legal = E.legal_actions(s, seat)
        assert _refused(s, (seat + 1) % players, legal[0]).code == "not_your_turn"
        elsewhere = [a for k, acts in seen.items() if k != kind for a in acts[:2]]
        for bad in _bad_actions(legal, elsewhere, rng):
            _refused(s, seat, bad)
            refused += 1
        assert json.dumps(R.state_to_json(s), sort_keys=True) == before
        after = E.apply(s, seat, rng.choice(legal))  # the state still plays
        assert after != s
    for s in states:
        if not s.pending and s.result is None:
            assert _refused(s, 0, {"type": "end"}).code == "no_decision"
            waiting = _next_decision(s)
            before = json.dumps(R.state_to_json(waiting), sort_keys=True)
            with pytest.raises(IllegalAction) as err:
                E.advance(waiting)
            assert err.value.code == "decision_pending"
            assert CITES.search(err.value.message)
            assert json.dumps(R.state_to_json(waiting), sort_keys=True) == before
            break
    assert _refused(states[-1], 0, {"type": "end"}).code == "game_over"
    assert refused > 20


def _next_decision(s: State) -> State:
    while not s.pending:
        s = E.advance(s)
    return s

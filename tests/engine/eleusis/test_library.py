"""NE-25: the library of ready rules, its data file and its validation."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from engine.eleusis.faces import FACE_INDEX
from engine.eleusis.library import (
    LibraryError,
    example_problem,
    library,
    library_rule,
    load_library,
)
from engine.eleusis.sanity import SanitySettings, library_twin, sanity_check

QUICK = SanitySettings(walks=20, library_probes=0)


def _doc() -> dict[str, Any]:
    text = resources.files("engine.eleusis").joinpath("data/library.json").read_text("utf-8")
    return json.loads(text)


def test_ne_25_1_forty_five_rules_graded_one_to_five() -> None:
    rules = library()
    assert [r.id for r in rules] == [f"R{i:02d}" for i in range(1, 46)]
    assert len({r.key for r in rules}) == 45
    assert {r.difficulty for r in rules} == {1, 2, 3, 4, 5}
    for r in rules:
        assert r.title["en"]
        assert r.title["ja"]
        assert r.description["en"]
        assert r.description["ja"]
    assert library_rule("R17") is library_rule("suit-cycle")


@pytest.mark.parametrize("rule_id", [f"R{i:02d}" for i in range(1, 46)])
def test_ne_25_every_library_rule_compiles_and_passes_the_sanity_check(rule_id: str) -> None:
    """NE-25.1/25.2: compiles, lookback as listed, never rejected by NE-22, and the share
    of right faces is the one the table lists (within 3 points on 20 walks)."""
    entry = library_rule(rule_id)
    rule = entry.rule()
    assert rule.lookback == entry.lookback
    assert example_problem(entry, rule) is None
    report = sanity_check(rule, QUICK)
    assert report.verdict in ("ok", "warn"), report.reasons
    assert abs(report.mean_share * 100 - entry.right_percent) <= 3
    if entry.verdict == "ok":
        # An "ok" rule may warn only on a stochastic supply exhaustion (OR09, docs).
        assert {r.code for r in report.reasons} <= {"supply"}


def test_ne_25_examples_are_right_and_wrong_cards_wrong() -> None:
    for entry in library():
        rule = entry.rule()
        line = rule.line_of(FACE_INDEX[f] for f in entry.example[: entry.wrong_after])
        assert not rule.judge(line, FACE_INDEX[entry.wrong_card]), entry.id


def _refused(doc: Any) -> LibraryError:
    with pytest.raises(LibraryError) as caught:
        load_library(json.dumps(doc))
    return caught.value


def test_validation_names_the_place_of_each_problem() -> None:
    doc = _doc()
    bad = copy.deepcopy(doc)
    del bad["rules"][2]["title"]["ja"]
    assert _refused(bad).where == "rules[2].title.ja"
    bad = copy.deepcopy(doc)
    bad["rules"][4]["example"]["main_line"][1] = "1Z"
    assert _refused(bad).where == "rules[4].example.main_line[1]"
    bad = copy.deepcopy(doc)
    bad["rules"][0]["source"] = "accept card.colour != prev.color"
    err = _refused(bad)
    assert err.where == "rules[0].source"
    assert "1:13" in str(err)
    bad = copy.deepcopy(doc)
    bad["rules"][0]["check"]["lookback"] = 2
    assert _refused(bad).where == "rules[0].check.lookback"
    bad = copy.deepcopy(doc)
    bad["rules"][1]["id"] = "R01"
    assert _refused(bad).where == "rules[1].id"
    bad = copy.deepcopy(doc)
    bad["rules"][0]["difficulty"] = 6
    assert _refused(bad).where == "rules[0].difficulty"
    bad = copy.deepcopy(doc)
    bad["rules"][0]["difficulty"] = True
    assert _refused(bad).where == "rules[0].difficulty"
    bad = copy.deepcopy(doc)
    bad["rules"][0]["example"]["main_line"][2] = "9D"  # R01: 9D after 10S... 10S then 9D ok
    bad["rules"][0]["example"]["main_line"][1] = "9H"  # red after red: wrong
    err = _refused(bad)
    assert err.where == "rules[0].example"
    assert "card 1 (9H)" in str(err)
    bad = copy.deepcopy(doc)
    bad["format"] = "other"
    assert _refused(bad).where == "library.format"
    with pytest.raises(LibraryError):
        load_library("{not json")


def test_ne_25_library_rules_are_distinct_except_r26_which_is_r08() -> None:
    """NE-22.6/OR14 on the library itself: each rule is its own twin, except R26
    closed-loops: the ranks without a closed loop (2 3 5 7 J K) are exactly the prime
    ranks, so R26 judges every card as R08 primes-alternate does (docs/eleusis.md)."""
    twins = {e.id: library_twin(e.rule()) for e in library()}
    assert {k: v for k, v in twins.items() if k != v} == {"R26": "R08"}

"""``hand_summaries``: each settled hand as the table saw it (the history page and the
end-of-hand pause read it). Public only: the Ruler, the edicts, the decisions, the tricks
taken and the payments; never a card nobody played (a hand that ended early keeps the
rest of its deal secret)."""

from __future__ import annotations

import random

from engine import indulgence as game
from tests.engine.support import random_game


def test_each_summary_is_the_records_public_part_and_names_only_played_cards() -> None:
    for index, (players, variant) in enumerate([(3, "basic"), (4, "expert"), (4, "basic")]):
        state, _moves = random_game(f"summaries-{index}", players, variant, random.Random(index))
        summaries = game.hand_summaries(state)
        hands = game.full_record(state)["hands"]
        assert [s["hand"] for s in summaries] == [h["number"] for h in hands]
        for summary, hand in zip(summaries, hands, strict=True):
            assert summary["ruler"] == hand["ruler"]
            assert summary["edicts_in_force"] == hand["edicts_in_force"]
            assert summary["sinner"] == hand["sinner"]
            assert summary["sin_decisions"] == hand["sin_decisions"]
            assert summary["tricks"] == hand["tricks"]
            assert summary["payments"] == hand["payments"]
            assert summary["florins_after"] == hand["florins_after"]
            assert "deal" not in summary
            played = {p["card"] for t in hand["tricks"] for p in t["plays"]}
            named = set(_cards(summary))
            assert named == played
            if hand["ended_early"]:
                dealt = {c for cards in hand["deal"].values() for c in cards}
                assert dealt - named, "an early end leaves cards no one saw"


def test_the_last_summary_is_the_views_last_settlement_plus_decisions_and_tricks() -> None:
    state, _moves = random_game("summaries-last", 4, "basic", random.Random(7))
    last = game.hand_summaries(state)[-1]
    shown = game.view(state, None)["last_settlement"]
    assert {k: v for k, v in last.items() if k not in ("sin_decisions", "tricks")} == shown


def _cards(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if len(value) == 2 and value[0] in "BMOS" and value[1].isdigit() else []
    if isinstance(value, dict):
        return [c for key, item in value.items() for c in (*_cards(key), *_cards(item))]
    if isinstance(value, list):
        return [c for item in value for c in _cards(item)]
    return []

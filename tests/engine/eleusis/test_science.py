"""The scientist bot's science (NE-30.2): hypothesis families whose truth tables are what
their ERL sources judge, evidence read from a view, the posterior, and the bot's actions."""

from __future__ import annotations

import json
import random

import pytest

from engine import eleusis as game
from engine.eleusis.erl import compile_rule
from engine.eleusis.faces import FACE_INDEX, FACES
from engine.eleusis.library import library_rule
from engine.eleusis.science.atoms import FULL
from engine.eleusis.science.evidence import Evidence, evidence
from engine.eleusis.science.families import Family, families
from engine.eleusis.science.posterior import Science
from engine.eleusis.science.programs import compiled, programs
from engine.eleusis.science.scientist import Scientist, scientist_bot, view_evidence

from .tables import FAST, hand, play, play_out, rigged


def _segment(family: Family, index: int, n: int, prev: int) -> int:
    return (family.rows[index] >> family.segment_of(n, prev)) & FULL


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_every_sampled_hypothesis_judges_as_its_erl_source_compiles(family: Family) -> None:
    """NE-30.2's hypotheses are rules: the table of each (a seeded sample of 25 per
    family) is what ``compile_rule`` of its source judges, for every candidate face after
    main lines of 1 to 13 cards."""
    rng = random.Random(f"science/{family.name}")
    for index in rng.sample(range(len(family)), 25):
        rule = compile_rule(family.source(index))
        for n in range(1, 14):
            line = rule.empty()
            for _ in range(n):
                line = rule.extend(line, rng.randrange(52))
            prev = line.faces[-1]
            truth = sum(1 << c for c in FACES if rule.judge(line, c))
            assert _segment(family, index, n, prev) == truth, family.source(index)


def _row_of(source: str, family: Family) -> int:
    """The truth table of ``source`` in ``family``'s cells: every context the family tells
    apart (the position up to 12 cards, every previous face) and every candidate."""
    rule = compile_rule(source)
    row = 0
    for n in range(1, 13):
        for prev in FACES:
            line = rule.empty()
            for _ in range(n - 1):
                line = rule.extend(line, 0)
            line = rule.extend(line, prev)
            for card in FACES:
                if rule.judge(line, card):
                    row |= 1 << family.cell_of(n, prev, card)
    return row


@pytest.mark.parametrize(
    ("rule_id", "family_name"),
    [("R01", "L1"), ("R09", "L1"), ("R12", "L1"), ("R14", "L1"), ("R34", "P2R"), ("R35", "P12")],
)
def test_library_rules_of_each_family_are_in_its_hypothesis_space(
    rule_id: str, family_name: str
) -> None:
    family = next(f for f in families() if f.name == family_name)
    rule = library_rule(rule_id)
    assert rule is not None
    assert _row_of(rule.source, family) in set(family.rows)


def test_or40_evidence_reads_right_cards_wrong_cards_and_strings_in_their_contexts() -> None:
    main = [FACE_INDEX[f] for f in ("7C", "9S", "2C")]
    ev = evidence(
        main,
        starters=1,
        side_plays=[(1, [FACE_INDEX["4H"], FACE_INDEX["6D"]]), (2, [FACE_INDEX["KH"]])],
        exhibits=[(2, [FACE_INDEX["3S"]])],
    )
    assert ev.right == {(1, main[0], main[1]), (2, main[1], main[2])}
    assert ev.wrong == {(3, main[2], FACE_INDEX["KH"]), (3, main[2], FACE_INDEX["3S"])}
    assert ev.wrong_strings == {
        ((2, main[1], FACE_INDEX["4H"]), (3, FACE_INDEX["4H"], FACE_INDEX["6D"]))
    }


def test_the_posterior_learns_red_only_from_a_few_judgements() -> None:
    red = [FACE_INDEX[f] for f in ("AD", "3H", "7D", "QH", "5H", "9D")]
    blacks = [FACE_INDEX[f] for f in ("4S", "8C", "KS", "2C")]
    science = Science()
    post = science.posterior(
        evidence(red, starters=1, side_plays=[(i, [b]) for i, b in enumerate(blacks)])
    )
    p = post.p_right(len(red), red[-1])
    assert min(p[f] for f in FACES if f % 4 in (1, 2)) > 0.9  # diamonds, hearts
    assert max(p[f] for f in FACES if f % 4 in (0, 3)) < 0.1
    assert post.p_none_right(len(red), red[-1], [FACE_INDEX["5S"], FACE_INDEX["6C"]]) > 0.9
    assert post.p_string(len(red), red[-1], [FACE_INDEX["2H"], FACE_INDEX["JD"]]) > 0.8


def test_a_cached_posterior_is_the_posterior_computed_afresh() -> None:
    """The survivor cache is a speed-up only: evidence that grows gives the same
    posterior through the cache as without it."""
    main = [FACE_INDEX[f] for f in ("AD", "3H", "7D", "QH", "5H", "9D", "4H")]
    warm = Science()
    for k in range(2, len(main) + 1):
        warm.posterior(evidence(main[:k], starters=1))
    late = evidence(main, starters=1, side_plays=[(3, [FACE_INDEX["8C"]])])
    cached, fresh = warm.posterior(late), Science().posterior(late)
    assert cached.members == fresh.members
    assert cached.p_right(7, main[-1]) == fresh.p_right(7, main[-1])


def test_with_no_surviving_hypothesis_the_posterior_turns_soft_instead_of_failing() -> None:
    """NE-30.2: contradictory evidence (the same judgement right and wrong) empties every
    family; the soft likelihood still ranks hypotheses."""
    a, b = FACE_INDEX["AD"], FACE_INDEX["3H"]
    post = Science().posterior(Evidence(right=frozenset({(1, a, b)}), wrong=frozenset({(1, a, b)})))
    assert post.soft
    assert len(post) > 0
    assert 0.0 <= post.p_right(1, a)[b] <= 1.0


def test_the_scientist_plays_a_card_the_evidence_calls_right() -> None:
    """A red-only round (tests/engine/eleusis/test_bots.py's evidence): the scientist's
    single-card play, if it plays one card, is red."""
    hands = {
        1: ["3S.1", "4S.1", "5S.1", "6S.1", "7S.1", "8S.1", "9S.1", "10S.1"],
        2: ["2H.1", "3H.1", "4H.1", "5H.1", "6H.1", "7H.1", "8H.1", "9H.1"],
        3: ["JS.1", "QS.1", "KS.1", "2C.1", "7C.1", "8C.1", "9C.1", "10C.1"],
        4: ["2D.1", "5D.1", "9D.1", "QD.1", "3C.1", "4C.1", "5C.1", "6C.1"],
    }
    penalties = [f"{r}{s}.2" for s in "SC" for r in ("2", "3", "4", "5", "6", "7", "8", "9")]
    state = rigged(5, hands, ["AD.1"], penalties, options={"hand_size": 8})
    for cycle in range(3):
        for seat in (1, 2, 3, 4):
            state = play(state, seat, hands[seat][cycle])
    for seat in (1, 2, 3):
        state = play(state, seat, hands[seat][3])
    view = game.view(state, 4)
    assert "QD.1" in hand(state, 4)
    action = scientist_bot(view, random.Random(0))
    assert action["type"] == "play"
    assert all(card[-3] in "DH" for card in action["cards"]), action


def test_the_scientist_decides_from_the_view_alone_and_the_same_way_every_time() -> None:
    """Same view (even through JSON), same generator: same action, whether the bot's
    survivor cache is warm or cold."""
    state = game.new_game(5, "standard", "scientist-alone", {**FAST, "difficulty": "easy"})
    warm = Scientist()
    rng = random.Random(3)
    compared = 0
    for step in range(80):
        if game.is_over(state):
            break
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        view = game.view(state, seat)
        action = warm(view, random.Random(seat))
        if step % 16 == 5:  # a cold bot (no cache) on the view through JSON
            assert Scientist()(json.loads(json.dumps(view)), random.Random(seat)) == action
            compared += 1
        state = game.apply(state, seat, warm(view, rng))
    assert compared >= 4


def test_every_action_of_a_table_of_scientists_is_accepted_and_the_round_verifies() -> None:
    state = game.new_game(
        5, "standard", "scientists", {**FAST, "difficulty": "medium", "round_limit": 1}
    )
    state, moves = play_out(state, ["scientist"] * 5, random.Random(7))
    assert game.is_over(state)
    assert game.verify(game.full_record(state)).ok
    kinds = {a["type"] for _, a, _ in moves if a}
    assert {"library_rule", "play"} <= kinds


def test_or40_view_evidence_agrees_with_the_rule_of_a_played_round() -> None:
    """Everything the evidence calls right is right under the round's real rule, and
    everything it calls wrong is wrong (the rule is revealed in the record)."""
    state = game.new_game(
        5, "standard", "evidence-truth", {**FAST, "difficulty": "hard", "round_limit": 1}
    )
    rng = random.Random(11)
    last_view = None
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        last_view = game.view(state, seat)
        state = game.apply(state, seat, game.META.bots["random"](last_view, rng))
    assert last_view is not None
    ev = view_evidence(last_view)
    assert len(ev) > 5
    record = game.full_record(state)["rounds"][0]
    rule = compile_rule(record["rule"]["source"])
    main = [FACE_INDEX[m["card"].split(".")[0]] for m in last_view["round"]["main"]]

    def judged(n: int, card: int) -> bool:
        line = rule.empty()
        for f in main[:n]:
            line = rule.extend(line, f)
        return rule.judge(line, card)

    assert all(judged(n, card) for n, _, card in ev.right)
    assert not any(judged(n, card) for n, _, card in ev.wrong)


RED_HANDS = {
    1: ["3S.1", "4S.1", "5S.1", "6S.1", "7S.1", "8S.1", "9S.1", "10S.1"],
    2: ["2H.1", "3H.1", "4H.1", "5H.1", "6H.1", "7H.1", "8H.1", "9H.1"],
    3: ["JS.1", "QS.1", "KS.1", "2C.1", "7C.1", "8C.1", "9C.1", "10C.1"],
    4: ["2D.1", "5D.1", "9D.1", "QD.1", "3C.1", "4C.1", "5C.1", "6C.1"],
}


def _red_round(cycles: int) -> game.State:
    """A red-only round: each time round seats 1 and 3 play a black card (wrong), seats 2
    and 4 a red one (right); then seats 1-3 once more, and it is seat 4's turn."""
    penalties = [f"{r}{s}.2" for s in "SC" for r in ("2", "3", "4", "5", "6", "7", "8", "9")]
    state = rigged(5, RED_HANDS, ["AD.1"], penalties, options={"hand_size": 8})
    for cycle in range(cycles + 1):
        for seat in (1, 2, 3, 4) if cycle < cycles else (1, 2, 3):
            state = play(state, seat, RED_HANDS[seat][cycle])
    return state


def test_or42_the_scientist_declares_when_the_expected_bonus_beats_going_out() -> None:
    early = scientist_bot(game.view(_red_round(0), 4), random.Random(0))
    assert early["prophet"] == "no"
    late = scientist_bot(game.view(_red_round(3), 4), random.Random(0))
    assert late["prophet"] == "declare"
    assert late["type"] == "play"
    assert late["cards"] == ["QD.1"]  # its only red card


def test_or41_weights_are_powers_of_two_by_size_and_share() -> None:
    """Every posterior weight is an integer power of two; of two survivors the smaller
    hypothesis outweighs the larger by 2^(lambda x their difference in half units)."""
    post = Science(lam=5).posterior(Evidence())
    assert all(w > 0 and w & (w - 1) == 0 for _, _, w in post.members)
    l1 = families()[0]
    weights = {(f.name, i): w for f, i, w in post.members}
    red = next(i for i in range(len(l1)) if l1.source(i) == "accept card.red")
    pair = next(
        i for i in range(len(l1)) if l1.source(i) == "accept (card.red) and (card.rank <= 7)"
    )
    assert l1.half_sizes[pair] - l1.half_sizes[red] == 3
    assert weights[("L1", red)] == weights[("L1", pair)] << 15


def test_or43_every_generated_program_compiles_within_the_lookbacks_a_round_can_show() -> None:
    assert len(programs()) > 3000
    assert len({p.source for p in programs()}) == len(programs())
    for program in programs():
        rule = compiled(program.source)
        assert 1 <= rule.starters_needed <= 4
        assert program.half_size > 0


def test_or43_two_starter_cards_rule_out_every_table_family() -> None:
    """E09 turns up max(1, L) starters: with two the rule looks back exactly two cards,
    so only generated programs of lookback 2 are weighed, and R27's shape survives a
    main line that follows it."""
    source = library_rule("R27").source  # type: ignore[union-attr]
    rule = compile_rule(source)
    main = [FACE_INDEX["3H"], FACE_INDEX["5D"]]
    line = rule.line_of(main)
    rng = random.Random(5)
    for _ in range(14):
        right = rule.right_faces(line)
        face = right[rng.randrange(len(right))]
        main.append(face)
        line = rule.extend(line, face)
    post = Science().posterior(evidence(main, starters=2), main, starters=2)
    assert not post.members
    assert post.programs
    assert all(compiled(j.rule.source).starters_needed == 2 for j, _ in post.programs)
    p = post.p_right(len(main), main[-1])
    truth = set(rule.right_faces(line))
    assert sum(p[f] for f in truth) / len(truth) > sum(p[f] for f in FACES if f not in truth) / (
        52 - len(truth)
    )


def test_a_soft_posterior_counted_from_a_cached_one_is_the_one_counted_afresh() -> None:
    a, b, c = FACE_INDEX["AD"], FACE_INDEX["3H"], FACE_INDEX["9S"]
    clash = Evidence(right=frozenset({(1, a, b)}), wrong=frozenset({(1, a, b)}))
    more = Evidence(
        right=frozenset({(1, a, b), (2, b, c)}),
        wrong=frozenset({(1, a, b), (2, b, a)}),
        wrong_strings=frozenset({((2, b, a), (3, a, c))}),
    )
    warm = Science()
    assert warm.posterior(clash).soft
    cached, fresh = warm.posterior(more), Science().posterior(more)
    assert cached.soft
    assert cached.members == fresh.members

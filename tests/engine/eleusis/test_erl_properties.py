"""Property tests (hypothesis): the compiled evaluator agrees with a straightforward
reference interpretation (NE-21.5, NE-21.9), the canonical form is idempotent (NE-21.8),
and judging is deterministic."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.eleusis.erl import ErlError, Rule, canonical, compile_rule, to_source
from engine.eleusis.library import library
from tests.engine.eleusis.reference import Reference
from tests.engine.eleusis.strategies import main_lines, programs

EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _compile(source: str) -> Rule | None:
    try:
        return compile_rule(source)
    except ErlError as err:
        # Generated programs are well typed; only a size limit may refuse one.
        if err.code not in ("too_big", "too_deep", "too_slow", "too_long"):
            raise
        return None


def _agree(rule: Rule, faces: list[int], candidates: list[int]) -> None:
    ref = Reference(rule.canonical)
    assert ref.lookback == rule.lookback
    line = rule.empty()
    for n, face in enumerate([*faces, None]):
        prefix = faces[:n]
        if n >= rule.starters_needed:
            rights = rule.right_faces(line)
            for x in candidates:
                expected = ref.judge(prefix, x)
                assert rule.judge(line, x) == expected, (rule.source, prefix, x)
                assert (x in rights) == expected
        else:
            for x in candidates:
                assert rule.may_start(line, x) == ref.may_start(prefix, x), (rule.source, prefix, x)
        if face is not None:
            line = rule.extend(line, face)


@EXAMPLES
@given(programs(), main_lines, st.lists(st.integers(0, 51), min_size=1, max_size=6))
def test_ne_21_9_evaluator_agrees_with_the_reference(
    source: str, faces: list[int], candidates: list[int]
) -> None:
    rule = _compile(source)
    if rule is not None:
        _agree(rule, faces, candidates)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(range(45)), main_lines, st.lists(st.integers(0, 51), min_size=1, max_size=4))
def test_ne_25_library_rules_agree_with_the_reference(
    index: int, faces: list[int], candidates: list[int]
) -> None:
    _agree(library()[index].rule(), faces, candidates)


@EXAMPLES
@given(programs())
def test_ne_21_8_canonical_form_is_idempotent(source: str) -> None:
    """canonical(to_source(canonical(s))) == canonical(s), and printing is a fixpoint."""
    rule = _compile(source)
    if rule is None:
        return
    first = rule.canonical
    printed = to_source(first)
    again = canonical(printed)
    assert again == first
    assert to_source(again) == printed


@settings(max_examples=30, deadline=None)
@given(programs(), st.sampled_from([" ", "  ", "\n", "\t", " # note\n"]))
def test_ne_21_8_layout_and_comments_do_not_change_the_canonical_form(
    source: str, gap: str
) -> None:
    rule = _compile(source)
    if rule is None:
        return
    spaced = source.replace(" ", gap).replace("(", "( ")
    assert canonical(spaced) == rule.canonical


@settings(max_examples=20, deadline=None)
@given(programs(), main_lines)
def test_judging_is_deterministic(source: str, faces: list[int]) -> None:
    """Same rule, same main line: same judgements, from fresh compilations too."""
    rule = _compile(source)
    if rule is None:
        return
    other = Rule(rule.source, compile_rule.__wrapped__(source).program, rule.canonical)
    line_a, line_b = rule.empty(), other.empty()
    for face in faces:
        line_a, line_b = rule.extend(line_a, face), other.extend(line_b, face)
    assert line_a == line_b
    if len(faces) >= rule.starters_needed:
        assert rule.right_faces(line_a) == other.right_faces(line_b)


KINDS = [
    # (expected aggregate kinds, source): every way NE-21.9 keeps an aggregate.
    (["inc"], "accept count(c.red) mod 2 == card.rank mod 2"),
    (["inc_card"], "accept not any(c.suit == card.suit and c.rank == card.rank)"),
    (["line"], "accept if run(c.suit == prev.suit) >= 2 then card.suit != prev.suit else true"),
    (["general"], "accept count(c.rank > card.rank and c.suit != prev.suit) <= len mod 5"),
    (
        ["general", "inc"],
        "let k = card.rank + prev.rank\naccept any(c.rank == k mod 13 + 1) or all(c.red)"
        " == card.black",
    ),
    (
        ["line", "inc"],
        "state up = true then if c.face then false else up\n"
        "accept sum(c.rank) mod 3 == 0 or count(c.red == up) > len - 3",
    ),
    (
        ["inc_card", "general"],
        "let s = card.suit\nlet n = count(c.suit == s)\n"
        "accept n <= 2 and all(c.rank != card.rank or c.suit == first.suit)",
    ),
    (
        ["inc", "inc", "inc"],
        "let r = count(c.red)\nlet b = len - r\n"
        "accept if r > b then card.black else if b > r then card.red else run(c.face) == 0 "
        "and any(c.rank == 7) != card.odd",
    ),
]


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(range(len(KINDS))),
    main_lines,
    st.lists(st.integers(0, 51), min_size=1, max_size=8),
)
def test_ne_21_9_every_aggregate_kind_agrees_with_the_reference(
    index: int, faces: list[int], candidates: list[int]
) -> None:
    kinds, source = KINDS[index]
    rule = compile_rule(source)
    assert sorted(a.kind for a in rule.program.aggregates) == sorted(kinds)
    _agree(rule, faces, candidates)

"""ERL meaning (NE-21.4, NE-21.5), canonical form (NE-21.8, NE-29.3.8) and our rulings."""

from __future__ import annotations

import pytest

from engine.eleusis.erl import ErlError, canonical, compile_rule, to_source
from engine.eleusis.erl.primes import is_prime
from engine.eleusis.faces import parse_face


def faces(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def test_ne_21_8_canonical_form_of_the_spec_example() -> None:
    assert canonical("accept card.color != prev.color") == [
        [
            "accept",
            ["cmp", "!=", ["attr", ["name", "card"], "color"], ["attr", ["name", "prev"], "color"]],
        ]
    ]


def test_ne_21_8_spellings_comments_and_layout_are_normalised() -> None:
    a = canonical("accept card.suit == ♥ # a comment\n")
    b = canonical("# heading\n\n   accept   (card.suit)==hearts;")
    assert (
        a
        == b
        == [["accept", ["cmp", "==", ["attr", ["name", "card"], "suit"], ["suit", "hearts"]]]]
    )
    assert canonical("accept prev1.red") == canonical("accept prev.red")


def test_ne_29_3_8_node_shapes() -> None:
    source = (
        "let x = -3\n"
        "state s mod 4 = 5 then s + 1\n"
        "start card.rank not in {1, -2}\n"
        "accept case card.suit of hearts, spades -> x < s | else -> card.rank in 1..len end"
    )
    assert canonical(source) == [
        ["let", "x", ["neg", ["int", 3]]],
        ["state", "s", 4, 5, ["arith", "+", ["name", "s"], ["int", 1]]],
        ["start", ["notin", ["attr", ["name", "card"], "rank"], ["set", [1, -2]]]],
        [
            "accept",
            [
                "case",
                ["attr", ["name", "card"], "suit"],
                [
                    [["hearts", "spades"], ["cmp", "<", ["name", "x"], ["name", "s"]]],
                    [
                        None,
                        [
                            "in",
                            ["attr", ["name", "card"], "rank"],
                            ["range", ["int", 1], ["name", "len"]],
                        ],
                    ],
                ],
            ],
        ],
    ]


def test_ne_29_3_8_left_and_right_nesting() -> None:
    [[_, minus]] = canonical("accept 1 - 2 - 3 == 0")[0:1]
    assert minus[2] == ["arith", "-", ["arith", "-", ["int", 1], ["int", 2]], ["int", 3]]
    implies = canonical("accept true implies false implies true")[0][1]
    assert implies == [
        "logic",
        "implies",
        ["bool", True],
        ["logic", "implies", ["bool", False], ["bool", True]],
    ]


def test_precedence_and_binds_tighter_than_or_and_not_than_and() -> None:
    node = canonical("accept not true and false or true")[0][1]
    assert node == [
        "logic",
        "or",
        ["logic", "and", ["not", ["bool", True]], ["bool", False]],
        ["bool", True],
    ]


def test_e40_colour_words_are_attributes_after_a_dot() -> None:
    rule = compile_rule("accept card.red and prev.black == (card.color == red)")
    assert rule.lookback == 1


def test_ne_21_5_4_worked_meaning() -> None:
    rule = compile_rule("accept if prev.odd then card.black else card.red")
    line = rule.line_of(faces("7C 9S"))
    assert rule.judge(line, parse_face("2C"))
    assert not rule.judge(line, parse_face("2H"))


def test_ne_8_2_and_ne_14_5_strings_and_no_play_under_r09() -> None:
    """Example E (NE-14.5): judging, strings, a wrong no play."""
    rule = compile_rule("accept if prev.odd then card.black else card.red")
    line = rule.line_of(faces("7C"))
    assert rule.judge(line, parse_face("9S"))
    line = rule.extend(line, parse_face("9S"))
    assert not rule.judge_string(line, faces("4H 6D"))  # 4H after 9 is wrong
    assert rule.judge(rule.extend(line, parse_face("4H")), parse_face("6D"))  # 6D alone: right
    line = rule.extend(line, parse_face("2C"))
    assert rule.judge_string(line, faces("3D 8S"))
    line = rule.line_of(faces("7C 9S 2C 3D 8S"))
    assert not rule.no_play_correct(line, faces("KH QD 10H"))  # E14: all three are right
    assert rule.no_play_correct(line, faces("KS QC"))


def test_ne_21_4_aggregates_on_an_empty_line() -> None:
    """On an empty line count, any, all, sum, run give 0, false, true, 0, 0."""
    rule = compile_rule(
        "accept count(c.red) == 0 and not any(c.red) and all(c.red) and sum(c.rank) == 0 "
        "and run(c.red) == 0 and len == 0"
    )
    assert rule.lookback == 0
    assert rule.may_start(rule.empty(), parse_face("AC"))  # L = 0: accept judges the starter


def test_ne_21_4_run_counts_back_from_the_last_card() -> None:
    rule = compile_rule("accept run(c.red) == card.rank")
    line = rule.line_of(faces("2H 3C 4D 5H"))  # the last two are red
    assert rule.right_faces(line) == faces("2C 2D 2H 2S")


def test_ne_21_4_len_counts_the_starter_as_position_0() -> None:
    rule = compile_rule("accept card.rank == len")
    line = rule.line_of(faces("KC"))
    assert rule.judge(line, parse_face("AH"))
    assert not rule.judge(line, parse_face("2H"))


def test_ne_21_4_mod_is_non_negative() -> None:
    rule = compile_rule("accept (card.rank - 20) mod 7 == 1")  # A: -19 mod 7 = 2; 7: -13 -> 1
    line = rule.empty()
    assert rule.judge(line, parse_face("7C"))
    assert not rule.judge(line, parse_face("AC"))


def test_ne_21_4_suit_cycle_and_colorof() -> None:
    rule = compile_rule(
        "accept succ(spades) == clubs and pred(clubs) == spades and colorof(hearts) == red "
        "and card.suitnum == 4"
    )
    assert rule.right_faces(rule.empty()) == [f for f in range(52) if f % 4 == 3]


def test_e41_int_state_start_is_reduced_mod_m() -> None:
    rule = compile_rule("state n mod 3 = 7 then n + 1\naccept (n == 1) == card.red")
    # 7 mod 3 = 1 on the empty line; after one card n = 2.
    assert rule.judge(rule.empty(), parse_face("AH"))
    assert not rule.judge(rule.line_of([0]), parse_face("AH"))


def test_ne_21_5_2_lookback_through_lets_and_first() -> None:
    assert compile_rule("let a = prev3.rank\naccept a > 2").lookback == 3
    assert compile_rule("accept card.suit == first.suit").lookback == 1
    assert compile_rule("accept any(c.rank == prev2.rank)").lookback == 2


def test_or06_an_unused_let_is_checked_but_never_evaluated() -> None:
    """Our ruling OR06: a let no statement reaches does not count towards the lookback
    (E41 counts what accept and start reach) and is never evaluated."""
    rule = compile_rule("let far = prev6.rank\naccept card.red")
    assert rule.lookback == 0
    assert rule.right_faces(rule.empty())
    with pytest.raises(ErlError):
        compile_rule("let far = prev6.suit + 1\naccept card.red")  # still type-checked


def test_ne_21_5_3_start_condition_with_lookback() -> None:
    """R20: with L >= 1 the starter must satisfy start only (not accept)."""
    rule = compile_rule("start card.rank mod 3 != 0\naccept (card.rank + prev.rank) mod 3 == 0")
    assert rule.may_start(rule.empty(), parse_face("AC"))
    assert not rule.may_start(rule.empty(), parse_face("3C"))


def test_ne_21_5_3_start_condition_without_lookback_uses_accept_too() -> None:
    rule = compile_rule("start card.rank > 5\naccept card.red")
    assert rule.may_start(rule.empty(), parse_face("7H"))
    assert not rule.may_start(rule.empty(), parse_face("7S"))  # accept refuses it
    assert not rule.may_start(rule.empty(), parse_face("2H"))  # start refuses it


def test_ne_21_7_copies_are_invisible() -> None:
    """The rule sees faces only: the two copies of a face are judged alike (NE-3.3)."""
    rule = compile_rule("accept not any(c.rank == card.rank and c.suit == card.suit)")
    line = rule.line_of(faces("KH"))
    assert not rule.judge(line, parse_face("KH"))


def test_or04_is_prime() -> None:
    small = [n for n in range(-5, 200) if is_prime(n)]
    assert small == [n for n in range(2, 200) if all(n % d for d in range(2, n))]
    assert is_prime(2**61 - 1)
    assert not is_prime(3_215_031_751)  # a strong pseudoprime to bases 2, 3, 5, 7


def test_or04_the_table_below_65536_and_miller_rabin_above_it_agree_with_trial_division() -> None:
    def trial(n: int) -> bool:
        return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))

    assert all(is_prime(n) == trial(n) for n in range(65_000, 66_100))
    assert all(is_prime(n) == trial(n) for n in range(0, 3_000))


def test_to_source_round_trip_of_a_tricky_program() -> None:
    source = (
        "let a = -(-3) - -card.rank\n"
        "accept ((if card.red then a else 2) in 1 .. (len mod 5 + 1)) == (not (true xor false))"
    )
    first = canonical(source)
    assert canonical(to_source(first)) == first


def test_judging_is_deterministic_across_compilations() -> None:
    source = "let n = count(c.suit == card.suit)\naccept n <= count(c.red) + 1"
    a, b = compile_rule(source), compile_rule(source + " ")
    line_a = a.line_of(faces("2H 3C 4D 5H 6S"))
    line_b = b.line_of(faces("2H 3C 4D 5H 6S"))
    assert a.right_faces(line_a) == b.right_faces(line_b)
    assert line_a == a.line_of(faces("2H 3C 4D 5H 6S"))  # lines are values


def test_or07_names_may_be_any_letters_and_columns_count_characters() -> None:
    """OR07: a name starts with any Unicode letter; columns count characters of the NFC
    text (a tab or a Japanese character is one column)."""
    rule = compile_rule("let 赤 = card.red\naccept 赤")
    assert rule.canonical[0] == ["let", "赤", ["attr", ["name", "card"], "red"]]
    with pytest.raises(ErlError) as caught:
        compile_rule("let 赤い = card.red\n\taccept 赤い and ~")
    assert (caught.value.line, caught.value.column) == (2, 16)
    with pytest.raises(ErlError) as caught:
        compile_rule("Accept card.red")  # keywords are lower case
    assert caught.value.code == "syntax"


def test_or13_duplicate_set_items_are_allowed_case_labels_are_not() -> None:
    """OR13: a set may repeat an item (harmless); a case label may not (NE-21.4)."""
    compile_rule("accept card.rank in {1, 1, 2}")
    compile_rule("accept case card.red of true -> true | false -> false | else -> true end")
    with pytest.raises(ErlError) as caught:
        compile_rule("accept case card.red of true -> true | true -> false | else -> true end")
    assert caught.value.code == "duplicate_name"

"""The shortcuts taken for speed (docs/pax.md, figures) give what the plain code gives:
the state built without its ``__init__``, the log's chunks, the exact membership test,
and the cheap checks of R79's forced ``end`` (``menu_quick``) against the full menu."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pax import board as b
from engine.pax import cow
from engine.pax import engine as E
from engine.pax.flow import same_json
from engine.pax.log import CHUNK, Log
from engine.pax.menu import menu_options, menu_quick
from engine.pax.plots import connected_subsets, witnesses
from engine.pax.schemes import any_scheme, scheme_options
from engine.pax.state import FrozenTurn, State, Table, freeze, thaw


def _states(players: int, seed: str, cap: int = 12) -> list[State]:
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


STATES = [s for n in (2, 3, 4) for s in _states(n, f"speed-{n}")]


def test_freeze_builds_the_same_value_as_the_dataclass_init() -> None:
    names = [f.name for f in dataclasses.fields(State)]
    for s in STATES[::7]:
        made = freeze(thaw(s))
        assert list(vars(made)) == names
        plain = State(**{n: getattr(made, n) for n in names})
        assert made == plain
        assert plain == s
        assert dataclasses.replace(made) == made
        turn = [f.name for f in dataclasses.fields(FrozenTurn)]
        assert list(vars(made.turn)) == turn
        assert made.turn == FrozenTurn(**{n: getattr(made.turn, n) for n in turn})
        assert hash(made.turn) == hash(FrozenTurn(**vars(made.turn)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=3 * CHUNK), max_size=12))
def test_the_log_extends_in_full_chunks_and_reads_like_a_list(sizes: list[int]) -> None:
    """P-27: the log is an immutable sequence in chunks; it reads like the plain list."""
    entries: list[dict[str, int]] = []
    log = Log()
    for k in sizes:
        new = [{"seq": len(entries) + j + 1} for j in range(k)]
        entries += new
        log = log.extend(new)
        assert len(log) == len(entries)
        assert list(log) == entries
        assert all(len(c) == CHUNK for c in log._chunks[:-1])
        if entries:
            assert log[-1] == entries[-1]
            assert log[len(entries) // 2] == entries[len(entries) // 2]
            assert log[1 : CHUNK + 3] == entries[1 : CHUNK + 3]
    assert log == Log.of(entries)


def test_same_json_is_equality_with_the_same_types_all_through() -> None:
    a = {"type": "x", "target": [2, 4], "n": 1, "flag": True, "card": None}
    assert same_json(a, {"card": None, "flag": True, "n": 1, "target": [2, 4], "type": "x"})
    for key, other in (("n", True), ("n", 1.0), ("flag", 1), ("target", (2, 4)), ("card", 0)):
        bad = {**a, key: other}
        assert bad == a or key == "target" or key == "card"
        assert not same_json(a, bad)
        assert not same_json(bad, a)
    assert not same_json(a, {**a, "extra": 1})
    assert not same_json([1, [True]], [1, [1]])
    assert same_json([1, [True]], [1, [True]])


def test_menu_quick_answers_end_exactly_when_the_menu_is_end_alone() -> None:
    """R79: the cheap checks of ``menu_quick`` agree with the full ``menu_options`` on
    Action phase tables, including the ones where the engine took ``end`` itself."""
    forced = listed = 0
    for s in STATES:
        if s.phase != "action" and s.program != "plot_check":
            continue
        t = thaw(s)
        if t.program == "plot_check":  # the menu just ended: look at it as it stood
            t.phase = "action"
        full = menu_options(t)
        quick = menu_quick(t)
        assert (quick == {"type": "end"}) == (full == [{"type": "end"}]), full[:3]
        assert quick is None or quick == {"type": "end"}
        assert any_scheme(t) == bool(scheme_options(t))
        forced += quick is not None
        listed += quick is None
    assert forced > 20
    assert listed > 100


def test_the_lodge_shortcut_is_a_necessary_condition() -> None:
    """9.1, 2.8.3: whoever controls a lodge of a faction passes the cheap test (3 of its
    disks on face-up cards of that faction). Boards: every card face up, random disks."""
    rng = random.Random(11)
    seen = 0
    for s in STATES[::20]:
        t = thaw(s)
        for i in range(len(t.cards)):
            t.up[i] = True
            t.slots[i] = tuple(rng.choice([None, *range(t.g.players)]) for _ in b.card(t, i).slots)
        for f in range(6):
            for seat in range(t.g.players):
                if any(b.set_controller(t, lodge) == seat for lodge in b.lodges(t, f)):
                    seen += 1
                    assert b.may_control_a_lodge(t, seat, f)
    assert seen > 20


def _boards(count: int, seed: int) -> list[tuple[Table, int]]:
    """Random boards: a game's map with every card face up and random disks, more of
    them the returned seat's."""
    rng = random.Random(seed)
    out = []
    for s in STATES[:: max(1, len(STATES) // count)][:count]:
        t = thaw(s)
        seat = rng.randrange(t.g.players)
        pick = [None, seat, seat, *range(t.g.players)]  # the seat looked at holds more
        for i in range(len(t.cards)):
            t.up[i] = True
            t.slots[i] = tuple(rng.choice(pick) for _ in b.card(t, i).slots)
        out.append((t, seat))
    return out


def test_plot_prechecks_keep_every_witness_of_p08_p10_p11() -> None:
    """Appendix B: P08 (top and bottom rows reached), P11 (3 disks in the row) and P10
    (one pass of control) list the same witnesses as the plain search."""
    seen = 0
    for t, seat in _boards(60, 3):
        up = [i for i in range(len(t.cards)) if t.up[i]]
        mine = [i for i in up if seat in t.slots[i]]
        p08 = set()
        for f in range(6):
            pool = [i for i in mine if f in b.card(t, i).factions]
            for m in connected_subsets(t, pool, 3):
                rows = {t.g.row[i] for i in range(len(t.cards)) if (m >> i) & 1}
                if t.g.top_row in rows and t.g.bottom_row in rows:
                    p08.add(m)
        assert {m for m, _ in witnesses(t, seat, "P08")} == p08
        prm = t.g.cat.data.plots["P11"].params
        row = [i for i in up if t.g.row[i] == prm["row"]]
        p11 = set()
        for f in range(6):
            cells = sorted(i for i in row if f in b.card(t, i).factions)
            for a in range(len(cells)):
                for z in range(a + prm["min_cards"] - 1, len(cells)):
                    seg = cells[a : z + 1]
                    cols = [t.g.positions[i][1] for i in seg]
                    if any(q - p != 2 for p, q in itertools.pairwise(cols)):
                        break
                    if b.set_controller(t, seg) == seat:
                        p11.add(sum(1 << i for i in seg))
        assert {m for m, _ in witnesses(t, seat, "P11")} == p11
        seen += len(p08) + len(p11)
        p10 = list(witnesses(t, seat, "P10"))
        ctrl = [i for i in up if b.controller(t, i) == seat]
        for m, _ in p10:
            assert all(i in ctrl for i in range(len(t.cards)) if (m >> i) & 1)
        seen += len(p10)
    assert seen > 10


def test_controller_is_the_strict_majority_of_disks() -> None:
    """2.7: the seat with strictly the most disks on a face-up card controls it."""
    for t, _ in _boards(30, 4):
        for i in range(len(t.cards)):
            counts = Counter(s for s in t.slots[i] if s is not None)
            top = counts.most_common()
            want = top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else None
            assert b.controller(t, i) == want


def test_a_table_copies_a_field_on_first_read_and_never_changes_its_state() -> None:
    """Copy-on-read (engine/pax/cow.py): fields a table never read are the state's own
    (shared, immutable) values; a field read and changed is the table's copy, and the
    state stays as it was. The whole-copy ``freeze`` reads such a table the same."""
    for s in STATES[::11]:
        before = dataclasses.replace(s)
        t = cow.thaw(s)
        assert "hands" not in vars(t)
        seat = t.active
        t.hands[seat].append("PIL001")
        t.favor[seat][0] += 5
        t.turn.buffs.append("X")
        t.phase = "somewhere"
        after = cow.freeze(t, close=False)
        assert s == before
        assert after.hands[seat] == (*s.hands[seat], "PIL001")
        assert after.favor[seat][0] == s.favor[seat][0] + 5
        assert after.turn.buffs == (*s.turn.buffs, "X")
        assert after.phase == "somewhere"
        assert after.deck is s.deck
        assert after.slots is s.slots
        assert after.claims_on is s.claims_on
        assert freeze(t, close=False) == after
        assert list(vars(freeze(t, close=False))) == list(vars(after))
        assert cow.freeze(cow.thaw(after)) == after == freeze(thaw(after))


def test_a_new_table_sets_every_field() -> None:
    names = [f.name for f in dataclasses.fields(State)]
    for players in (2, 3, 4):
        s = E.new_game(players, "standard", "fields")
        assert list(vars(s)) == names
        assert all(not isinstance(v, list) for v in vars(s).values())

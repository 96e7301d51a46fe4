"""The house data set (spec 0.3, section 1, Appendices A-G) loads, is complete and checked.

Each broken copy is written to a tmp dir and loaded through the same loader, which must
refuse it with a message naming the file, the item and the problem.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pax.errors import PaxDataError
from engine.pax.loader import FILES, data, load_data

PACKAGED = resources.files("engine.pax").joinpath("data")


def test_it_loads_the_packaged_house_set() -> None:
    d = data()
    assert (d.edition, d.data_id, d.version) == ("house", "house", "1")  # H.3 "data"
    assert "House data set" in d.note


def test_every_data_file_is_json_with_a_trailing_newline() -> None:
    names = sorted(p.name for p in PACKAGED.iterdir() if p.name.endswith(".json"))
    assert names == sorted(FILES)
    for name in FILES:
        text = PACKAGED.joinpath(name).read_text("utf-8")
        assert text.endswith("}\n"), name
        raw = json.loads(text)
        assert raw["edition"] == "house", name
        assert raw["data"] == {"id": "house", "version": "1"}, name


def test_section_1_component_counts() -> None:
    d = data()
    assert len(d.luminaries) == 57
    assert next(iter(d.luminaries)) == "PIL001"
    assert list(d.luminaries)[-1] == "PIL057"
    assert list(d.plots) == [f"P{n:02d}" for n in range(1, 14)]
    assert list(d.faction_cards) == [f"FC-{f}" for f in d.faction_codes]
    assert list(d.edicts) == [f"E-{f}" for f in d.faction_codes]
    assert list(d.specials) == [f"S{n:02d}" for n in range(1, 10)]
    assert list(d.contacts) == [f"C{n:02d}" for n in range(4, 24)]
    assert list(d.bots) == ["SG", "J2", "AC", "AW"]
    assert d.components["bonus_cubes"] == 4
    assert d.components["disks_per_player"] == 20


def test_2_1_faction_order() -> None:
    assert data().faction_codes == ("NOB", "PRO", "MAG", "ART", "SCH", "CLE")


def test_3_1_values_by_player_count() -> None:
    d = data()
    table = {n: (v.layout, v.pool_favor, v.faction_display) for n, v in d.by_players.items()}
    assert table == {2: ("M14", 6, 3), 3: ("M19", 8, 4), 4: ("M19", 10, 5)}
    thresholds = {p: dict(d.plots[p].thresholds or {}) for p in ("P06", "P07", "P09")}
    assert thresholds == {
        "P06": {2: 8, 3: 6, 4: 6},
        "P07": {2: 3, 3: 2, 4: 2},
        "P09": {2: 3, 3: 4, 4: 5},
    }
    assert d.plots["P09"].threshold(4) == 5


def test_a3_spot_checks_against_the_spec_table() -> None:
    d = data()
    goethe = d.luminaries["PIL042"]
    assert goethe.name == "Johann Wolfgang von Goethe"
    assert (goethe.rank, goethe.factions, goethe.strength) == ("III", ("PRO", "MAG"), 2)
    assert (goethe.affiliation, goethe.knight, goethe.ability) == ("RC", False, "G13")
    assert goethe.slots == (("PRO",), ("MAG", "MAG"), ("PRO", "PRO", "MAG"), ("PRO", "MAG", "MAG"))
    mozart = d.luminaries["PIL055"]
    assert (mozart.rank, mozart.factions, mozart.strength) == ("K", ("ART",), "HAMMER")
    assert mozart.affiliation == "FM"
    assert mozart.ability == "CROWN"
    wollner = d.luminaries["PIL050"]
    assert (wollner.rank, wollner.strength, wollner.affiliation) == ("A", "DAGGER", "RC")
    assert d.luminaries["PIL001"].name == "Count Karl Pálffy de Erdőd"


def test_2_6_4_slot_counts_by_rank_and_the_influence_example() -> None:
    d = data()
    counts = {r: len(t.slots) for r, t in d.ranks.items()}
    assert counts == {"I": 2, "II": 3, "III": 4, "A": 2, "K": 3}
    # "2 open slots cost 6 favor in total" is rank III slots 3 and 4 (2.6.4).
    assert sum(len(s) for s in d.ranks["III"].slots[2:]) == 6
    assert {r: sum(len(s) for s in t.slots) for r, t in d.ranks.items()} == {
        "I": 3,
        "II": 6,
        "III": 9,
        "A": 3,
        "K": 6,
    }
    assert d.ranks["K"].extort_favor_per_disk == 2  # R08


def test_a1_every_ability_and_its_cards() -> None:
    d = data()
    assert len(d.abilities) == 17
    assert d.abilities["G06"].cards == ("PIL009", "PIL014", "PIL029")
    assert d.abilities["ACE"].cards == tuple(f"PIL{n:03d}" for n in range(46, 52))
    assert (d.abilities["G08"].type, d.abilities["G08"].action) == ("Buff", "Influence")
    assert d.abilities["G02"].action is None
    assert sum(len(a.cards) for a in d.abilities.values()) == 57


def test_e_contacts_are_the_20_faction_triples_and_c15_is_the_scout_example() -> None:
    d = data()
    assert len({c.factions for c in d.contacts.values()}) == 20  # 1.1
    assert d.contacts["C15"].factions == ("PRO", "MAG", "SCH")  # Scout example A
    assert (d.contacts["C23"].number, d.contacts["C23"].numeral) == (23, "XXIII")


def test_b_r72_p10_is_a_data_flag() -> None:
    assert data().plots["P10"].p10_kind == "RC"
    assert [p for p, plot in data().plots.items() if plot.lodge_based] == [
        "P01",
        "P08",
        "P11",
        "P12",
        "P13",
    ]


def test_g_bot_diagrams_and_aw_l_is_4() -> None:
    d = data()
    assert d.bots["AW"].diagram["L"] == 4  # fixed by the seed's worked example (14.10.4)
    assert dict(d.bots["SG"].diagram) == {"FL": 6, "FR": 5, "R": 3, "BR": 1, "BL": 2, "L": 4}
    assert [b.targeting for b in d.bots.values()] == ["priority", "priority", "plan", "plan"]
    assert d.bots["J2"].plots[2].kind == "deck_exhaustions"
    assert d.bots["AW"].plots[1].params["ranks"] == ("A", "K")


# --- broken copies ---------------------------------------------------------------------

Mutate = Callable[[dict[str, Any]], object]


def _copy(tmp_path: Path) -> Path:
    for name in FILES:
        text = PACKAGED.joinpath(name).read_text("utf-8")
        (tmp_path / name).write_text(text, "utf-8")
    return tmp_path


def _broken(tmp_path: Path, name: str, mutate: Mutate) -> str:
    root = _copy(tmp_path)
    raw = json.loads((root / name).read_text("utf-8"))
    mutate(raw)
    (root / name).write_text(json.dumps(raw, ensure_ascii=False), "utf-8")
    with pytest.raises(PaxDataError) as caught:
        load_data(root)
    return str(caught.value)


def _card(raw: dict[str, Any], key: str, ident: str) -> dict[str, Any]:
    return next(x for x in raw[key] if x.get("id") == ident)


def test_the_copy_itself_loads(tmp_path: Path) -> None:
    assert load_data(_copy(tmp_path)) == data()


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "plots.json").unlink()
    with pytest.raises(PaxDataError, match=r"^plots\.json: the file is missing$"):
        load_data(root)


def test_invalid_json_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "bots.json").write_text("{", "utf-8")
    with pytest.raises(PaxDataError, match=r"^bots\.json: not valid JSON"):
        load_data(root)


def _set(obj: dict[str, Any], key: str, value: object) -> None:
    obj[key] = value


BROKEN: list[tuple[str, Mutate, str]] = [
    (
        "game.json",
        lambda r: r["factions"].append(dict(r["factions"][0])),
        "game.json: NOB: duplicate code 'NOB'",
    ),
    (
        "game.json",
        lambda r: _set(r["by_players"][1], "layout", "M21"),
        "game.json: 3: unknown layout 'M21'",
    ),
    (
        "game.json",
        lambda r: _set(r["by_players"][2], "pool_favor", 11),
        "game.json: 4: pool favor 11 is more than the 10 tokens of a faction",
    ),
    (
        "game.json",
        lambda r: r["setup"].pop("hand_size"),
        "game.json: setup: missing count 'hand_size'",
    ),
    (
        "abilities.json",
        lambda r: _set(r["abilities"][0], "cards", ["PIL001", "PIL003", "PIL099"]),
        "abilities.json: G01: unknown luminary 'PIL099'",
    ),
    (
        "abilities.json",
        lambda r: _set(r["abilities"][0], "cards", ["PIL001", "PIL003", "PIL004"]),
        "abilities.json: G01: lists cards ['PIL001', 'PIL003', 'PIL004'] but "
        "['PIL001', 'PIL003', 'PIL016'] carry it",
    ),
    (
        "abilities.json",
        lambda r: _set(r["abilities"][3], "type", "Passive"),
        "abilities.json: G04: unknown ability type 'Passive'",
    ),
    (
        "ranks.json",
        lambda r: _set(r["ranks"][0], "slots", [["T"], ["T", "F"]]),
        "ranks.json: I: bad slot template ['T', 'F']",
    ),
    (
        "ranks.json",
        lambda r: _set(r["ranks"][4], "count", 7),
        "luminaries.json: K: 6 cards of rank K, A.2 gives 7",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL007"), "ability", "G16"),
        "luminaries.json: PIL007: unknown ability 'G16'",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL003"), "slots", [["ART"], ["SCH", "ART"]]),
        "luminaries.json: PIL003: slots [['ART'], ['SCH', 'ART']] differ from rank I's "
        "template [['ART'], ['ART', 'SCH']]",
    ),
    (
        "luminaries.json",
        lambda r: r["luminaries"][0].pop("id"),
        "luminaries.json: luminaries[0]: missing key 'id'",
    ),
    (
        "luminaries.json",
        lambda r: _set(r["luminaries"][1], "id", "PIL001"),
        "luminaries.json: PIL001: duplicate id 'PIL001'",
    ),
    (
        "luminaries.json",
        lambda r: r["luminaries"].pop(),
        "luminaries.json: 56 luminaries, the components list 57",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL046"), "strength", 4),
        "luminaries.json: PIL046: rank A has strength DAGGER",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL003"), "bottom", "ART"),
        "luminaries.json: PIL003: top and bottom faction are the same",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL004"), "knight", "yes"),
        "luminaries.json: PIL004: 'knight' must be bool",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL004"), "rnak", "I"),
        "luminaries.json: PIL004: unknown key 'rnak'",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL003"), "strength", 4),
        "luminaries.json: strength 4: 10 cards, not 9 (A.4)",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL004"), "affiliation", "FM"),
        "luminaries.json: all cards: 25 cards of affiliation FM, not 24 (A.4)",
    ),
    (
        "luminaries.json",
        lambda r: _set(_card(r, "luminaries", "PIL004"), "knight", True),
        "luminaries.json: knights: 16 knights, not 15 (A.4)",
    ),
    (
        "luminaries.json",
        lambda r: _set(r["balance"], "knights_total", 16),
        "luminaries.json: knights: 15 knights, not 16 (A.4)",
    ),
    (
        "luminaries.json",
        lambda r: _set(r["balance"], "dragons", 1),
        "luminaries.json: balance: unknown balance figure 'dragons'",
    ),
    (
        "plots.json",
        lambda r: _set(r["plots"][5], "thresholds", {"2": 8, "3": 6}),
        "plots.json: P06: thresholds must give one value per player count [2, 3, 4]",
    ),
    (
        "plots.json",
        lambda r: r["plots"].pop(),
        "plots.json: 12 plots, the components list 13",
    ),
    (
        "faction_cards.json",
        lambda r: _set(r["faction_cards"][1], "faction", "NOB"),
        "faction_cards.json: FC-PRO: a second card of faction NOB",
    ),
    (
        "faction_cards.json",
        lambda r: _set(r["faction_cards"][0], "faction", "KNI"),
        "faction_cards.json: FC-NOB: unknown faction 'KNI'",
    ),
    (
        "events.json",
        lambda r: _set(r["specials"][0], "id", "E-NOB"),
        "events.json: E-NOB: duplicate id 'E-NOB'",
    ),
    (
        "events.json",
        lambda r: r["edicts"].pop(),
        "events.json: 5 edicts, the components list 6",
    ),
    (
        "contacts.json",
        lambda r: _set(r["contacts"][1], "factions", ["NOB", "PRO", "MAG"]),
        "contacts.json: C05: a second contact shows ['NOB', 'PRO', 'MAG'] (1.1)",
    ),
    (
        "contacts.json",
        lambda r: _set(r["contacts"][0], "numeral", "VI"),
        "contacts.json: C04: numeral VI is not 4",
    ),
    (
        "maps.json",
        lambda r: r["layouts"][0]["interior"].pop(),
        "maps.json: M14: interior [(1, 4), (2, 3), (2, 5)] differs from the computed "
        "[(1, 4), (2, 3), (2, 5), (3, 4)] (2.3.4)",
    ),
    (
        "maps.json",
        lambda r: _set(r["layouts"][1]["seat_sets"][1]["seats"][1], "facing", 2),
        "maps.json: M19 4p seat 2: frame ['NE', 'E', 'SE', 'SW', 'W', 'NW'] is not facing 2's "
        "['E', 'SE', 'SW', 'W', 'NW', 'NE'] (14.5.1)",
    ),
    (
        "maps.json",
        lambda r: _set(r["layouts"][0]["seat_sets"][0]["seats"][0], "placard", [6, 4]),
        "maps.json: M14 2p seat 1: placard [6, 4] touches 0 map positions, not 2 (2.4.1)",
    ),
    (
        "maps.json",
        lambda r: r["layouts"][0]["positions"].append([5, 4]),
        "maps.json: M14: the positions span 6 rows, not 5",
    ),
    (
        "maps.json",
        lambda r: r["layouts"][0]["positions"].append([2, 4]),
        "maps.json: M14: (2, 4) is not on the lattice of (0, 3)",
    ),
    (
        "bots.json",
        lambda r: _set(r["bots"][0]["diagram"], "L", 6),
        "bots.json: SG: the diagram must number the directions 1 to 6",
    ),
    (
        "bots.json",
        lambda r: _set(r["bots"][3]["plots"][1], "ranks", ["A", "Q"]),
        "bots.json: AW plot 2: unknown rank 'Q'",
    ),
    (
        "bots.json",
        lambda r: _set(r, "edition", "printed"),
        "bots.json: edition ('printed', 'house', '1') differs from game.json's "
        "('house', 'house', '1')",
    ),
]


@pytest.mark.parametrize(
    ("name", "mutate", "message"),
    BROKEN,
    ids=[m.split(":")[0] + str(i) for i, (_, _, m) in enumerate(BROKEN)],
)
def test_a_broken_copy_is_refused_with_its_file_item_and_problem(
    tmp_path: Path, name: str, mutate: Mutate, message: str
) -> None:
    assert _broken(tmp_path, name, mutate) == message


def test_every_data_file_has_a_broken_copy_test() -> None:
    assert {name for name, _, _ in BROKEN} == set(FILES)


def test_the_error_carries_its_parts(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    raw = json.loads((root / "bots.json").read_text("utf-8"))
    raw["bots"][0]["targeting"] = "random"
    (root / "bots.json").write_text(json.dumps(raw), "utf-8")
    with pytest.raises(PaxDataError) as caught:
        load_data(root)
    err = caught.value
    assert (err.file, err.item, err.problem) == ("bots.json", "SG", "unknown targeting 'random'")


def _perturb(value: Any) -> Any:
    """The same figure, off by one somewhere."""
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list):
        return [value[-1], value[-1]] if isinstance(value[0], int) else value[:-1]
    first = next(iter(value))
    return {**value, first: _perturb(value[first])}


BALANCE_KEYS = list(json.loads(PACKAGED.joinpath("luminaries.json").read_text("utf-8"))["balance"])


def test_a4_the_data_states_every_figure_of_a4() -> None:
    assert BALANCE_KEYS == [
        "cards_per_faction",
        "top_faction_cards",
        "pair_per_rank",
        "ability_ranks",
        "ability_min_factions",
        "strength_total",
        "strength_per_rank",
        "strength_per_faction",
        "strength_sum_per_faction",
        "affiliation_total",
        "affiliation_per_faction",
        "knights_total",
        "knights_per_rank",
        "knights_per_faction",
    ]


@pytest.mark.parametrize("key", BALANCE_KEYS)
def test_a4_each_balance_figure_is_checked(tmp_path: Path, key: str) -> None:
    message = _broken(
        tmp_path, "luminaries.json", lambda r: _set(r["balance"], key, _perturb(r["balance"][key]))
    )
    assert message.startswith("luminaries.json: ")
    assert message.endswith("(A.4)")


def test_a4_p5_figures_recomputed_independently() -> None:
    """P-5: "each faction" counts a card under every faction it shows, Aces and Crowns
    included; strengths count numbered cards only."""
    cards = list(data().luminaries.values())
    for faction in data().faction_codes:
        mine = [c for c in cards if faction in c.factions]
        assert len(mine) == 17
        assert sum(c.strength for c in mine if isinstance(c.strength, int)) == 60
        assert 9 <= sum(c.top == faction for c in cards) <= 10
        assert sum(c.knight for c in mine) == 5
    pairs = {frozenset(c.factions) for c in cards if c.rank == "II"}
    assert len(pairs) == 15
    assert sum(c.affiliation == "FM" for c in cards) == 24
    assert sum(c.affiliation == "RC" for c in cards) == 15
    assert sum(c.affiliation is None for c in cards) == 18


# --- any corruption gives a PaxDataError, never a crash ---------------------------------

DELETE = object()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key or index path inside a JSON value."""
    found: list[tuple[Any, ...]] = []
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for key, child in children:
        found.append((*prefix, key))
        found.extend(_paths(child, (*prefix, key)))
    return found


def _corrupt(raw: Any, path: tuple[Any, ...], replacement: object) -> None:
    parent = raw
    for key in path[:-1]:
        parent = parent[key]
    if replacement is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement


FILE_TEXT = {name: PACKAGED.joinpath(name).read_text("utf-8") for name in FILES}
FILE_PATHS = {name: _paths(json.loads(text)) for name, text in FILE_TEXT.items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(FILES),
    st.integers(min_value=0),
    st.sampled_from([DELETE, None, "x", 999, -1, 2.5, True, [], {}, [[0, 0]]]),
)
def test_property_a_corrupted_file_loads_or_raises_pax_data_error(
    tmp_path_factory: pytest.TempPathFactory, name: str, pick: int, replacement: object
) -> None:
    root = tmp_path_factory.mktemp("corrupt")
    for other, text in FILE_TEXT.items():
        (root / other).write_text(text, "utf-8")
    raw = json.loads(FILE_TEXT[name])
    paths = FILE_PATHS[name]
    _corrupt(raw, paths[pick % len(paths)], replacement)
    (root / name).write_text(json.dumps(raw), "utf-8")
    error: PaxDataError | None = None
    try:
        load_data(root)
    except PaxDataError as err:  # anything else (KeyError, TypeError...) fails the test
        error = err
    if error is not None:
        assert str(error).startswith(f"{error.file}: ")


def test_a4_the_cards_a4_names_follow_history() -> None:
    """A.4: Wöllner is Rosicrucian; Mozart, Ferdinand of Brunswick, F. L. Schröder and Karl
    August of Saxe-Weimar are Freemasons; Lanz and Häffelin show Clergy, Sieveking
    Professions (flavour the loader does not check)."""
    cards = data().luminaries
    assert "Wöllner" in cards["PIL050"].name
    assert cards["PIL050"].affiliation == "RC"
    for ident, name in [
        ("PIL055", "Mozart"),
        ("PIL054", "Ferdinand of Brunswick"),
        ("PIL049", "Schröder"),
        ("PIL046", "Karl August"),
    ]:
        assert name in cards[ident].name
        assert cards[ident].affiliation == "FM"
    assert "Lanz" in cards["PIL013"].name
    assert "CLE" in cards["PIL013"].factions
    assert "Häffelin" in cards["PIL041"].name
    assert "CLE" in cards["PIL041"].factions
    assert "Sieveking" in cards["PIL014"].name
    assert "PRO" in cards["PIL014"].factions

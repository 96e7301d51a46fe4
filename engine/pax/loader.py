"""Load and validate the Pax Illuminaten data set (spec 0.3, Appendices A-G).

``load_data()`` reads the packaged JSON files of ``engine/pax/data/``; ``load_data(root)``
reads the same file names from another directory (any ``Traversable``, e.g. a
``pathlib.Path`` in tests). Every file is checked when loaded: shapes and types, ids
unique, every reference resolving, the counts of section 1 and A.2, the map geometry of
Appendix F against 2.3, and the balance of A.4 (:mod:`engine.pax.balance`). A problem
raises :class:`PaxDataError` naming the file, the item and the problem.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable

from engine.pax import catalog as c
from engine.pax.balance import check_balance
from engine.pax.geometry import BOT_FRAME
from engine.pax.jsonfile import DataFile, Json, frozen, ref, roman
from engine.pax.readers import (
    read_bot,
    read_header,
    read_layout,
    read_luminary,
    read_plots,
    read_ranks,
)

TOP_KEYS: Mapping[str, set[str]] = {
    "game.json": {"components", "setup", "factions", "by_players"},
    "abilities.json": {"abilities"},
    "ranks.json": {"symbols", "numbered_strengths", "ranks"},
    "luminaries.json": {"affiliations", "strength_icons", "balance", "luminaries"},
    "plots.json": {"plots"},
    "faction_cards.json": {"faction_cards"},
    "events.json": {"edicts", "specials"},
    "contacts.json": {"contacts"},
    "maps.json": {"layouts"},
    "bots.json": {"frame", "bots"},
}
"""The data files (spec Appendices A-G) and the keys each holds besides the header."""
FILES = tuple(TOP_KEYS)
HEADER = {"edition", "data", "note", "source"}
REQUIRED: Mapping[str, set[str]] = {
    "components": {
        "luminaries",
        "plots",
        "faction_cards",
        "edicts",
        "specials",
        "contacts",
        "areopagus_placards",
        "bonus_cubes",
        "favor_per_faction",
        "disks_per_player",
    },
    "setup": {
        "court_slots",
        "hand_size",
        "hand_limit",
        "public_plots",
        "private_plots_per_human",
        "event_packets",
        "edicts_per_packet",
        "specials_per_packet",
        "starting_favor_per_contact_faction",
        "max_bots",
    },
}
"""The counts game.json must give (section 1; 2.10.2, 2.12 and 3.2)."""
MAIN_ACTIONS = ("Scout", "Influence", "Extort", "Organize", "Expel", "Oust")
ABILITY_TYPES = ("Bonus", "Buff", "Special")


def _read_game(f: DataFile) -> Json:
    """game.json: the counts (section 1, 3.2), the factions (2.1), the 3.1 table."""
    raw = f.raw
    components = f.get(raw, "components", dict, None)
    setup = f.get(raw, "setup", dict, None)
    for group, values in (("components", components), ("setup", setup)):
        missing = sorted(REQUIRED[group] - set(values))
        f.check(not missing, group, f"missing count '{missing[0] if missing else ''}'")
        for key, value in values.items():
            f.check(
                isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                group,
                f"'{key}' must be a count",
            )
    factions = []
    for code, obj in f.items("factions", {"code", "name", "japanese"}, "code"):
        name = f.get(obj, "name", str, code)
        factions.append(c.Faction(code, name, f.get(obj, "japanese", str, code)))
    f.check(len(factions) >= 3, "factions", "there must be at least 3 factions")
    by_players: dict[int, c.PlayerCountValues] = {}
    for label, obj in f.items(
        "by_players", {"players", "layout", "pool_favor", "faction_display"}, "players"
    ):
        players = f.get(obj, "players", int, label)
        row = c.PlayerCountValues(
            players,
            f.get(obj, "layout", str, label),
            f.get(obj, "pool_favor", int, label),
            f.get(obj, "faction_display", int, label),
        )
        f.check(
            row.pool_favor <= components["favor_per_faction"],
            label,
            f"pool favor {row.pool_favor} is more than the "
            f"{components['favor_per_faction']} tokens of a faction",
        )
        f.check(
            row.faction_display <= components["faction_cards"],
            label,
            f"faction display {row.faction_display} is more than the faction cards",
        )
        f.check(
            row.pool_favor >= players * setup["starting_favor_per_contact_faction"],
            label,
            f"pool favor {row.pool_favor} cannot pay the starting favor of {players} seats",
        )
        by_players[players] = row
    return {
        "components": components,
        "setup": setup,
        "factions": factions,
        "by_players": by_players,
    }


def _count(f: DataFile, what: str, found: int, expected: int) -> None:
    """Fail unless a file holds as many items as game.json's components list."""
    f.check(
        found == expected,
        None,
        f"{found} {what}, the components list {expected}",
    )


def _read_luminaries(
    files: Mapping[str, DataFile],
    ranks: Mapping[str, c.RankTemplate],
    factions: tuple[str, ...],
    components: Mapping[str, int],
) -> dict[str, c.Luminary]:
    """luminaries.json (A.3): each card against its rank template; counts by rank (A.2)."""
    f = files["luminaries.json"]
    numbers = tuple(
        files["ranks.json"].get(files["ranks.json"].raw, "numbered_strengths", list, None)
    )
    icons = f.strs(f.raw, "strength_icons", None)
    for rank, template in ranks.items():
        files["ranks.json"].check(
            template.strength == "number" or template.strength in icons,
            rank,
            f"strength '{template.strength}' is neither 'number' nor one of {list(icons)}",
        )
    keys = {
        "id",
        "name",
        "rank",
        "top",
        "bottom",
        "strength",
        "affiliation",
        "knight",
        "slots",
        "ability",
    }
    luminaries = {
        i: read_luminary(f, i, o, ranks, factions, numbers) for i, o in f.items("luminaries", keys)
    }
    _count(f, "luminaries", len(luminaries), components["luminaries"])
    for rank, template in ranks.items():
        n = sum(1 for card in luminaries.values() if card.rank == rank)
        f.check(n == template.count, rank, f"{n} cards of rank {rank}, A.2 gives {template.count}")
    return luminaries


def _read_abilities(
    files: Mapping[str, DataFile], luminaries: Mapping[str, c.Luminary]
) -> dict[str, c.Ability]:
    """abilities.json (A.1): every card's ability exists and each lists exactly its cards."""
    f = files["abilities.json"]
    items = f.items("abilities", {"id", "type", "action", "cards", "effect", "notes"})
    for ident, luminary in luminaries.items():
        ref(files["luminaries.json"], ident, luminary.ability, dict(items), "ability")
    abilities = {}
    for ident, obj in items:
        kind = f.get(obj, "type", str, ident)
        f.check(kind in ABILITY_TYPES, ident, f"unknown ability type '{kind}'")
        action = f.opt(obj, "action", str, ident)
        f.check(action is None or action in MAIN_ACTIONS, ident, f"unknown action '{action}'")
        cards = f.strs(obj, "cards", ident)
        for card in cards:
            ref(f, ident, card, luminaries, "luminary")
        carrying = tuple(i for i, card in luminaries.items() if card.ability == ident)
        f.check(
            sorted(cards) == sorted(carrying),
            ident,
            f"lists cards {list(cards)} but {list(carrying)} carry it",
        )
        abilities[ident] = c.Ability(
            ident,
            kind,
            action,
            cards,
            f.get(obj, "effect", str, ident),
            f.opt(obj, "notes", str, ident),
        )
    return abilities


def _read_faction_cards(f: DataFile, factions: tuple[str, ...]) -> dict[str, c.FactionCard]:
    """faction_cards.json (Appendix C): one card per faction at most."""
    faction_cards: dict[str, c.FactionCard] = {}
    for ident, obj in f.items(
        "faction_cards", {"id", "faction", "action", "ability", "passive_kind", "passive"}
    ):
        faction = f.get(obj, "faction", str, ident)
        f.check(faction in factions, ident, f"unknown faction '{faction}'")
        f.check(
            all(fc.faction != faction for fc in faction_cards.values()),
            ident,
            f"a second card of faction {faction}",
        )
        action = f.get(obj, "action", str, ident)
        f.check(action in MAIN_ACTIONS, ident, f"unknown action '{action}'")
        fields = [f.get(obj, k, str, ident) for k in ("ability", "passive_kind", "passive")]
        faction_cards[ident] = c.FactionCard(ident, faction, action, *fields)
    return faction_cards


def _read_events(
    f: DataFile, factions: tuple[str, ...], game: Json
) -> tuple[dict[str, c.Edict], dict[str, c.Special]]:
    """events.json (Appendix D): one edict per faction; enough cards for the packets."""
    edicts: dict[str, c.Edict] = {}
    for ident, obj in f.items("edicts", {"id", "faction"}):
        faction = f.get(obj, "faction", str, ident)
        f.check(faction in factions, ident, f"unknown faction '{faction}'")
        f.check(
            all(e.faction != faction for e in edicts.values()),
            ident,
            f"a second edict of faction {faction}",
        )
        edicts[ident] = c.Edict(ident, faction)
    specials = {}
    for ident, obj in f.items("specials", {"id", "name", "once_per_turn", "effect", "notes"}):
        f.check(ident not in edicts, ident, f"duplicate id '{ident}'")
        specials[ident] = c.Special(
            ident,
            f.get(obj, "name", str, ident),
            f.get(obj, "once_per_turn", bool, ident),
            f.get(obj, "effect", str, ident),
            f.opt(obj, "notes", str, ident),
        )
    _count(f, "edicts", len(edicts), game["components"]["edicts"])
    _count(f, "specials", len(specials), game["components"]["specials"])
    setup = game["setup"]
    packets = setup["event_packets"]
    f.check(
        packets * setup["edicts_per_packet"] == len(edicts),
        None,
        "the packets must use every edict (3.2 step 15)",
    )
    f.check(
        packets * setup["specials_per_packet"] <= len(specials),
        None,
        "the packets need more specials than there are",
    )
    return edicts, specials


def _read_contacts(f: DataFile, factions: tuple[str, ...]) -> dict[str, c.Contact]:
    """contacts.json (Appendix E): distinct numbers and distinct faction triples (1.1)."""
    contacts: dict[str, c.Contact] = {}
    for ident, obj in f.items("contacts", {"id", "number", "numeral", "factions"}):
        number = f.get(obj, "number", int, ident)
        numeral = f.get(obj, "numeral", str, ident)
        f.check(numeral == roman(number), ident, f"numeral {numeral} is not {number}")
        f.check(
            all(x.number != number for x in contacts.values()),
            ident,
            f"a second contact numbered {number}",
        )
        trio = f.strs(obj, "factions", ident)
        f.check(
            len(trio) == 3 and all(x in factions for x in trio),
            ident,
            "a contact shows 3 known factions",
        )
        f.check(
            list(trio) == sorted(trio, key=factions.index) and len(set(trio)) == 3,
            ident,
            "its factions must be distinct, in faction order",
        )
        f.check(
            all(x.factions != trio for x in contacts.values()),
            ident,
            f"a second contact shows {list(trio)} (1.1)",
        )
        contacts[ident] = c.Contact(ident, number, numeral, (trio[0], trio[1], trio[2]))
    return contacts


def _check_player_counts(
    g: DataFile,
    game: Json,
    layouts: Mapping[str, c.Layout],
    sizes: Mapping[str, int],
) -> None:
    """Each player count of 3.1 has its layout, its seats and enough cards to set up."""
    components: dict[str, int] = game["components"]
    setup: dict[str, int] = game["setup"]
    for count, values in game["by_players"].items():
        label = str(count)
        ref(g, label, values.layout, layouts, "layout")
        layout = layouts[values.layout]
        g.check(
            count in layout.seat_sets,
            label,
            f"layout {values.layout} has no seats for {count} players",
        )
        g.check(count <= components["areopagus_placards"], label, "more seats than placards")
        needed = len(layout.positions) + setup["court_slots"] + count * setup["hand_size"]
        g.check(needed <= sizes["luminaries"], label, f"set-up needs {needed} luminaries")
        plots = count * setup["private_plots_per_human"] + setup["public_plots"]
        g.check(plots <= sizes["plots"], label, f"set-up needs {plots} plots")
        g.check(count <= sizes["contacts"], label, "too few contacts")


def load_data(root: Traversable | None = None) -> c.PaxData:
    """Read and validate the ten data files from ``root`` (default: the packaged data)."""
    base = root if root is not None else resources.files("engine.pax").joinpath("data")
    files = {name: DataFile(name, base) for name in FILES}
    for name, keys in TOP_KEYS.items():
        files[name].obj(files[name].raw, None, HEADER | keys)
    g = files["game.json"]
    edition, data_id, version, note = read_header(g, None)
    for name in FILES[1:]:
        read_header(files[name], (edition, data_id, version))
    game = _read_game(g)
    components: dict[str, int] = game["components"]
    factions = tuple(fc.code for fc in game["factions"])

    ranks = read_ranks(files["ranks.json"])
    luminaries = _read_luminaries(files, ranks, factions, components)
    abilities = _read_abilities(files, luminaries)
    lf = files["luminaries.json"]
    affiliations = lf.strs(lf.raw, "affiliations", None)
    check_balance(lf.name, lf.get(lf.raw, "balance", dict, None), luminaries, abilities, factions)

    f = files["plots.json"]
    plots = read_plots(f, tuple(game["by_players"]), set(affiliations) | set(factions))
    _count(f, "plots", len(plots), components["plots"])
    f = files["faction_cards.json"]
    faction_cards = _read_faction_cards(f, factions)
    _count(f, "faction cards", len(faction_cards), components["faction_cards"])
    f = files["events.json"]
    edicts, specials = _read_events(f, factions, game)
    f = files["contacts.json"]
    contacts = _read_contacts(f, factions)
    _count(f, "contacts", len(contacts), components["contacts"])

    f = files["maps.json"]
    layouts = {
        i: read_layout(f, i, o)
        for i, o in f.items("layouts", {"id", "rows", "positions", "interior", "seat_sets"})
    }
    sizes = {"luminaries": len(luminaries), "plots": len(plots), "contacts": len(contacts)}
    _check_player_counts(g, game, layouts, sizes)

    f = files["bots.json"]
    f.check(f.strs(f.raw, "frame", None) == BOT_FRAME, None, f"the frame must be {list(BOT_FRAME)}")
    keys = {"id", "name", "complexity", "difficulty", "targeting", "diagram", "plots"}
    bots = {i: read_bot(f, i, o, ranks, affiliations) for i, o in f.items("bots", keys)}

    return c.PaxData(
        edition=edition,
        data_id=data_id,
        version=version,
        note=note,
        components=frozen(components),
        setup=frozen(game["setup"]),
        factions=tuple(game["factions"]),
        by_players=frozen(game["by_players"]),
        abilities=frozen(abilities),
        ranks=frozen(ranks),
        luminaries=frozen(luminaries),
        plots=frozen(plots),
        faction_cards=frozen(faction_cards),
        edicts=frozen(edicts),
        specials=frozen(specials),
        contacts=frozen(contacts),
        layouts=frozen(layouts),
        bots=frozen(bots),
    )


@functools.cache
def data() -> c.PaxData:
    """The packaged data set, loaded and validated once."""
    return load_data()

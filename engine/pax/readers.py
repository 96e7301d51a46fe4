"""Readers of the items of the Pax Illuminaten data files (used by :mod:`engine.pax.loader`).

Each reader checks one item's shape, its references and what the spec fixes about it
(A.2 templates, Appendix F geometry, 14.5 frames, 14.10 plots) and builds its dataclass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.pax import catalog as c
from engine.pax.geometry import BOT_FRAME, GeometryError, MapGeometry, frame, frame_step
from engine.pax.jsonfile import DataFile, Json, frozen, ref

BOT_PLOT_KINDS: Mapping[str, set[str]] = {
    "edicts_discarded": {"min"},
    "lodge_size": {"min"},
    "disks_on_map": {"min"},
    "human_without_disks": {"from_round"},
    "deck_exhaustions": {"min"},
    "controls_affiliated": {"affiliations", "min"},
    "controls_rank": {"ranks", "min"},
}
"""The kinds of bot plot (14.10) and the numbers each takes."""


def _is_int(value: Any) -> bool:
    """An integer that is not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


def slot_lists(f: DataFile, obj: Json, item: str) -> tuple[c.Slot, ...]:
    """The ``slots`` of an item: a list of lists of strings, top slot first."""
    slots = f.get(obj, "slots", list, item)
    for slot in slots:
        ok = isinstance(slot, list) and all(isinstance(x, str) for x in slot)
        f.check(ok, item, "'slots' must be a list of lists of strings")
    return tuple(tuple(slot) for slot in slots)


def read_header(f: DataFile, expected: tuple[str, str, str] | None) -> tuple[str, str, str, str]:
    """Edition, data id, version and note; all files must name game.json's edition."""
    edition = f.get(f.raw, "edition", str, None)
    data = f.obj(f.get(f.raw, "data", dict, None), "data", {"id", "version"})
    ident = (edition, f.get(data, "id", str, "data"), f.get(data, "version", str, "data"))
    if expected is not None and ident != expected:
        f.fail(None, f"edition {ident} differs from game.json's {expected}")
    return (*ident, f.get(f.raw, "note", str, None))


def read_ranks(f: DataFile) -> dict[str, c.RankTemplate]:
    """The rank templates (A.2), with favor and slot symbols valid for their factions."""
    keys = {"rank", "count", "factions", "favor", "extort_favor_per_disk", "strength", "slots"}
    ranks = {}
    for rank, obj in f.items("ranks", keys, "rank"):
        n = f.get(obj, "factions", int, rank)
        f.check(n in (1, 2), rank, "a rank shows 1 or 2 factions")
        symbols = {"F"} if n == 1 else {"T", "B"}
        favor = f.strs(obj, "favor", rank)
        for unit in favor:
            f.check(
                unit in symbols | {"T|B"} and (n == 2 or unit == "F"), rank, f"bad favor '{unit}'"
            )
        slots = slot_lists(f, obj, rank)
        for slot in slots:
            f.check(bool(slot) and set(slot) <= symbols, rank, f"bad slot template {list(slot)}")
        ranks[rank] = c.RankTemplate(
            rank,
            f.get(obj, "count", int, rank),
            n,
            favor,
            f.opt(obj, "extort_favor_per_disk", int, rank),
            f.get(obj, "strength", str, rank),
            slots,
        )
    return ranks


def read_luminary(
    f: DataFile,
    ident: str,
    obj: Json,
    ranks: Mapping[str, c.RankTemplate],
    factions: tuple[str, ...],
    numbers: tuple[int, ...],
) -> c.Luminary:
    """A luminary (A.3): known rank, factions and ability; strength and slots as its rank's
    template says (A.2, 2.6.4, 2.6.7)."""
    rank = f.get(obj, "rank", str, ident)
    ref(f, ident, rank, ranks, "rank")
    template = ranks[rank]
    top = f.get(obj, "top", str, ident)
    bottom = f.opt(obj, "bottom", str, ident)
    for faction in (top, bottom):
        f.check(faction is None or faction in factions, ident, f"unknown faction '{faction}'")
    shown = 1 if bottom is None else 2
    f.check(shown == template.factions, ident, f"rank {rank} shows {template.factions} factions")
    f.check(top != bottom, ident, "top and bottom faction are the same")
    strength = obj.get("strength")
    if template.strength == "number":
        f.check(
            isinstance(strength, int) and strength in numbers,
            ident,
            f"strength {strength!r} must be one of {list(numbers)} for rank {rank}",
        )
    else:
        f.check(
            strength == template.strength, ident, f"rank {rank} has strength {template.strength}"
        )
    affiliation = f.opt(obj, "affiliation", str, ident)
    allowed = f.strs(f.raw, "affiliations", None)
    f.check(
        affiliation is None or affiliation in allowed, ident, f"unknown affiliation '{affiliation}'"
    )
    slots = slot_lists(f, obj, ident)
    sub = {"T": top, "B": bottom, "F": top}
    expected = tuple(tuple(sub[x] for x in slot) for slot in template.slots)
    f.check(
        slots == expected,
        ident,
        f"slots {[list(s) for s in slots]} differ from rank {rank}'s template "
        f"{[list(s) for s in expected]}",
    )
    return c.Luminary(
        ident,
        f.get(obj, "name", str, ident),
        rank,
        top,
        bottom,
        strength,  # type: ignore[arg-type]  # checked above: int or an icon
        affiliation,
        f.get(obj, "knight", bool, ident),
        slots,
        f.get(obj, "ability", str, ident),
    )


def read_plots(f: DataFile, players: tuple[int, ...], kinds: set[str]) -> dict[str, c.Plot]:
    """The plots (Appendix B): numeric params, x/y/z thresholds for every player count (3.1)
    and P10's kind (R72)."""
    keys = {"id", "name", "condition", "predicate", "witness", "lodge_based", "params"}
    plots = {}
    for ident, obj in f.items("plots", keys | {"thresholds", "p10_kind"}):
        params = f.get(obj, "params", dict, ident)
        for key, value in params.items():
            f.check(
                isinstance(value, int) and not isinstance(value, bool),
                ident,
                f"param '{key}' must be int",
            )
        raw_thresholds = f.opt(obj, "thresholds", dict, ident)
        thresholds = None
        if raw_thresholds is not None:
            f.check(
                sorted(raw_thresholds) == sorted(str(p) for p in players),
                ident,
                f"thresholds must give one value per player count {list(players)}",
            )
            f.check(
                all(_is_int(v) and v >= 0 for v in raw_thresholds.values()),
                ident,
                "thresholds must be counts",
            )
            thresholds = frozen({int(k): v for k, v in raw_thresholds.items()})
        kind = obj.get("p10_kind")
        f.check(
            kind is None or (isinstance(kind, str) and kind in kinds),
            ident,
            f"unknown p10_kind {kind!r}",
        )
        plots[ident] = c.Plot(
            ident,
            f.get(obj, "name", str, ident),
            f.get(obj, "condition", str, ident),
            f.get(obj, "predicate", str, ident),
            f.get(obj, "witness", str, ident),
            f.get(obj, "lodge_based", bool, ident),
            frozen(params),
            thresholds,
            kind,
        )
    return plots


def read_layout(f: DataFile, ident: str, obj: Json) -> c.Layout:
    """A layout (Appendix F): one lattice, the stated rows from row 0, the stated interior
    equal to the computed one (2.3.4), and its seat sets."""
    positions = [f.pos(p, ident, "a map position") for p in f.get(obj, "positions", list, ident)]
    try:
        geometry = MapGeometry(tuple(positions))
    except GeometryError as exc:
        f.fail(ident, str(exc))
    f.check(
        len(geometry.rows) == f.get(obj, "rows", int, ident),
        ident,
        f"the positions span {len(geometry.rows)} rows, not {obj['rows']}",
    )
    f.check(geometry.top_row == 0, ident, "the top row must be row 0 (2.3.5)")
    interior = {
        f.pos(p, ident, "an interior position") for p in f.get(obj, "interior", list, ident)
    }
    f.check(
        interior == set(geometry.interior),
        ident,
        f"interior {sorted(interior)} differs from the computed {list(geometry.interior)} (2.3.4)",
    )
    seat_sets: dict[int, tuple[c.Seat, ...]] = {}
    for index, raw_set in enumerate(f.get(obj, "seat_sets", list, ident)):
        where = f"{ident} seat set {index}"
        raw_set = f.obj(raw_set, where, {"players", "seats"})
        players = f.get(raw_set, "players", int, where)
        f.check(players not in seat_sets, where, f"a second seat set for {players} players")
        seats = []
        for number, raw in enumerate(f.get(raw_set, "seats", list, where), start=1):
            label = f"{ident} {players}p seat {number}"
            seats.append(
                read_seat(
                    f,
                    label,
                    f.obj(raw, label, {"seat", "placard", "touches", "facing", "frame"}),
                    number,
                    geometry,
                )
            )
        f.check(len(seats) == players, where, f"{len(seats)} seats for {players} players")
        placards = [s.placard for s in seats]
        f.check(len(set(placards)) == len(placards), where, "two seats share a placard position")
        seat_sets[players] = tuple(seats)
    return c.Layout(ident, geometry, frozen(seat_sets))


def read_seat(f: DataFile, label: str, raw: Json, number: int, geometry: MapGeometry) -> c.Seat:
    """A seat: its placard off the map touching exactly the two listed positions (2.4.1),
    its frame the rotation of its facing, FL and FR on those two positions (14.5.1)."""
    f.check(
        f.get(raw, "seat", int, label) == number, label, "seats must be numbered 1, 2, ... in order"
    )
    placard = f.pos(raw.get("placard"), label, "placard")
    f.check(not geometry.on_map(placard), label, f"placard {list(placard)} is on the map")
    f.check(
        geometry.is_placard_position(placard),
        label,
        f"placard {list(placard)} touches {len(geometry.touching(placard))} map positions,"
        " not 2 (2.4.1)",
    )
    touches = tuple(
        f.pos(p, label, "a touched position") for p in f.get(raw, "touches", list, label)
    )
    f.check(
        set(touches) == set(geometry.touching(placard)) and len(touches) == 2,
        label,
        f"touches {[list(p) for p in touches]} but the placard touches "
        f"{[list(p) for p in geometry.touching(placard)]}",
    )
    facing = f.get(raw, "facing", int, label)
    f.check(0 <= facing < 6, label, f"facing {facing} is not 0 to 5")
    directions = f.strs(raw, "frame", label)
    f.check(
        directions == frame(facing),
        label,
        f"frame {list(directions)} is not facing {facing}'s {list(frame(facing))} (14.5.1)",
    )
    forward = (frame_step(placard, facing, 0), frame_step(placard, facing, 1))
    f.check(
        forward == touches,
        label,
        "FL and FR must point at the two touched map positions, in order (14.5.1)",
    )
    return c.Seat(number, placard, (touches[0], touches[1]), facing, directions)


def read_bot(
    f: DataFile, ident: str, obj: Json, ranks: Mapping[str, Any], affiliations: tuple[str, ...]
) -> c.Bot:
    """A bot (14.10, Appendix G): a diagram numbering FL..L 1 to 6, three plots of known
    kinds whose ranks and affiliations resolve."""
    diagram = f.obj(f.get(obj, "diagram", dict, ident), ident)
    f.check(
        list(diagram) == list(BOT_FRAME),
        ident,
        f"the diagram must number {list(BOT_FRAME)} in order",
    )
    f.check(
        all(_is_int(v) for v in diagram.values())
        and sorted(diagram.values()) == [1, 2, 3, 4, 5, 6],
        ident,
        "the diagram must number the directions 1 to 6",
    )
    targeting = f.get(obj, "targeting", str, ident)
    f.check(targeting in ("priority", "plan"), ident, f"unknown targeting '{targeting}'")
    plots = []
    for number, raw in enumerate(f.get(obj, "plots", list, ident), start=1):
        label = f"{ident} plot {number}"
        raw = f.obj(raw, label)
        kind = f.get(raw, "kind", str, label)
        f.check(kind in BOT_PLOT_KINDS, label, f"unknown plot kind '{kind}'")
        f.obj(raw, label, {"number", "kind", "text"} | BOT_PLOT_KINDS[kind])
        f.check(f.get(raw, "number", int, label) == number, label, "plots must be numbered 1, 2, 3")
        params: dict[str, int | tuple[str, ...]] = {}
        for key in sorted(BOT_PLOT_KINDS[kind]):
            if key in ("ranks", "affiliations"):
                values = f.strs(raw, key, label)
                known = ranks if key == "ranks" else affiliations
                for value in values:
                    f.check(value in known, label, f"unknown {key[:-1]} '{value}'")
                params[key] = values
            else:
                params[key] = f.get(raw, key, int, label)
        plots.append(c.BotPlot(number, kind, f.get(raw, "text", str, label), frozen(params)))
    f.check(len(plots) == 3, ident, "a bot has 3 plots (14.10)")
    return c.Bot(
        ident,
        f.get(obj, "name", str, ident),
        f.get(obj, "complexity", str, ident),
        f.get(obj, "difficulty", str, ident),
        targeting,
        frozen(diagram),
        tuple(plots),
    )

"""New Eleusis (shared/rules/new-eleusis.md): the first slice of the engine package.

So far: the rule language ERL (:mod:`engine.eleusis.erl`, NE-21), the sanity check
(:mod:`engine.eleusis.sanity`, NE-22), the rule commitment and verified hints
(:mod:`engine.eleusis.commitment`, :mod:`engine.eleusis.hints`, NE-23, NE-24) and the rule
library (:mod:`engine.eleusis.library`, NE-25). The game itself (NE-1 to NE-15: rounds,
prophets, scoring, view, record, bots) is not written yet, so this package has no
``META`` and is not in :data:`engine.registry.GAMES`.
"""

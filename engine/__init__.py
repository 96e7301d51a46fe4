"""Pure-Python game rules for Indulgence Online.

Nothing in this package imports Django, performs I/O, reads a clock or touches the
global random generator: every random choice derives from a game seed. The Indulgence
rules live in :mod:`engine.indulgence`; card ids and bit sets in :mod:`engine.cards`.
"""

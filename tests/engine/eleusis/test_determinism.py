"""Determinism (architecture.md, NE-20.3): the same rule gives the same judgements and
the same sanity report in any process, whatever Python's hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.eleusis.erl import compile_rule
from engine.eleusis.library import library_rule
from engine.eleusis.sanity import SanitySettings, sanity_check

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import json
from engine.eleusis.library import library_rule
from engine.eleusis.sanity import SanitySettings, sanity_check
out = {}
for rid in ("R07", "R39", "R45"):
    rule = library_rule(rid).rule()
    report = sanity_check(rule, SanitySettings(walks=8, library_probes=80))
    line = rule.line_of(range(0, 52, 3))
    out[rid] = [rule.canonical, report.to_json(), rule.right_faces(line)]
print(json.dumps(out, sort_keys=True))
"""


def _here() -> str:
    out = {}
    for rid in ("R07", "R39", "R45"):
        rule = library_rule(rid).rule()
        report = sanity_check(rule, SanitySettings(walks=8, library_probes=80))
        line = rule.line_of(range(0, 52, 3))
        out[rid] = [rule.canonical, report.to_json(), rule.right_faces(line)]
    return json.dumps(out, sort_keys=True)


def test_same_results_in_other_processes_with_other_hash_seeds() -> None:
    expected = _here()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        assert done.stdout.strip() == expected


def test_a_rule_compiles_to_the_same_behaviour_twice() -> None:
    source = library_rule("R44").source
    a = compile_rule(source)
    b = compile_rule.__wrapped__(source)
    assert a is not b
    line_a, line_b = a.empty(), b.empty()
    for face in range(0, 52, 5):
        line_a, line_b = a.extend(line_a, face), b.extend(line_b, face)
        assert line_a == line_b
        assert a.right_faces(line_a) == b.right_faces(line_b)

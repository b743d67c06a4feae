"""The mutation harness (bench/mutation.py) measures the tester's power honestly: a mutant of a
formula that a two-sided claim pins down is killed, the mutation really changes the code that
importers call, and the original is untouched in the parent."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from dpverify.theorems.formulas import gaussian
from dpverify.verifiers.runner import plan

BENCH = Path(__file__).resolve().parents[2] / "bench" / "mutation.py"


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("dpverify_bench_mutation", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_sites_cover_every_kind_of_mutation(mutation):
    kinds = {s.kind for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                               "gauss_delta")}
    assert {"operator", "constant", "call", "drop_term", "drop_minus"} <= kinds


def test_a_mutant_of_the_gaussian_profile_is_killed(mutation):
    sites = mutation.sites_of("dpverify.theorems.formulas.gaussian", "gauss_delta")
    site = next(s for s in sites if s.kind == "operator")
    tasks = plan(["BW-ANALYTIC-GAUSS"])
    row = mutation.judge(site, tasks, list(range(len(tasks))), seconds=300)
    assert row["result"] == "killed", row


def test_apply_changes_the_code_importers_see_only_in_the_child(mutation):
    import mpmath

    from dpverify.theorems.ctx import MpCtx
    from dpverify.theorems.formulas.gaussian import gauss_delta as imported

    ctx = MpCtx(80)
    before = imported(ctx, mpmath.mpf(1), mpmath.mpf(1))
    site = next(s for s in mutation.sites_of("dpverify.theorems.formulas.gaussian",
                                             "gauss_delta") if s.kind == "operator")

    def mutated_value():
        mutation.apply(site)
        return str(imported(ctx, mpmath.mpf(1), mpmath.mpf(1)))

    tag, value = mutation._in_child(mutated_value, 60)
    assert tag == "ok" and mpmath.mpf(value) != before
    assert gaussian.gauss_delta(ctx, mpmath.mpf(1), mpmath.mpf(1)) == before

"""Benchmark: the interval route before/after smear splitting and whole-box monotonicity
(run by hand, never in tests).

    python bench/bench_branch_bound.py [--boxes 3000] [--seconds 60] [--only ID ...]
                                       [--baseline-code /work/main]

For each branch-and-bound check of the catalogue listed below, runs
:func:`verifiers.interval.verify_box` twice on the check's own box: ``before`` (split along
the widest side, no whole-box monotonicity: the route as it was) and ``after`` (smear
splitting, declared or derived monotonicity over the whole box). The centred form's
intersection with the natural enclosure is on in both. Prints the verdict, the boxes processed
to close the box (or the undecided count), CPU seconds and boxes per CPU second (CPU time, not
wall time: the machine is shared; each run in a fresh process, so that neither inherits the
other's sympy cache), then the check-bound proof on the advanced-composition
region (its own branch and bound, :mod:`verifiers.bounds.prove`, unchanged).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from typing import Any

import dpverify
from dpverify.theorems import get
from dpverify.verifiers.interval import verify_box
from dpverify.verifiers.verdict import Budget

# (theorem, claim, check index): the interval checks named by the issue, and the composition
# orderings (BASIC, DRV-ADV, STK-ADV-*, KOV-OPT, KOV-34 on the u = sqrt(2 ln 1/delta) box)
CHECKS = [
    ("SMITH-GROUP", 3, 1), ("SMITH-GROUP", 3, 2), ("SMITH-GROUP", 3, 3), ("SMITH-GROUP", 3, 4),
    ("SMITH-GROUP", 3, 5), ("DRS-CLT", 6, 0),
    ("STK-ASYMP-OPT", 6, 1), ("BW-ANALYTIC-GAUSS", 3, 2), ("BW-ANALYTIC-GAUSS", 3, 3),
    ("DRS-GDP", 4, 2), ("DRS-GDP", 4, 3),
    ("BASIC", 1, 1), ("BASIC", 3, 1), ("DRV-ADV", 1, 2), ("DRV-ADV", 1, 3), ("DRV-ADV", 3, 2),
    ("STK-ADV-PURE", 5, 0), ("STK-ADV-APPROX", 3, 1), ("KOV-OPT", 4, 1), ("KOV-34", 1, 1),
]
MODES = {"before": {"split": "widest", "reduce": False},
         "after": {"split": "smear", "reduce": True}}


def _interval_check(theorem: str, claim: int, index: int) -> Any:
    c = next(c for c in get(theorem).claims if c.number == claim)
    if index < len(c.checks) and c.checks[index].route == "interval":
        return c.checks[index]
    # an older checkout (--baseline-code) may have fewer boxes: the claim's first interval
    # check has the same terms; the region comes from this checkout
    return next((x for x in c.checks if getattr(x, "route", "") == "interval"), None)


def bench_check(theorem: str, claim: int, index: int, mode: str, boxes: int,
                seconds: float, reals: str | None) -> None:
    check = _interval_check(theorem, claim, index)
    if check is None:
        print(f"{theorem} {claim}/{index}: no interval check")
        return
    region = check.region if reals is None else replace(check.region, reals=json.loads(reals))
    options = MODES.get(mode, {})  # "main": the baseline checkout's route as it is
    cpu0 = time.process_time()
    status, _, ev = verify_box(check, region, Budget(seconds=seconds, boxes=boxes), **options)
    cpu = time.process_time() - cpu0
    n = ev.get("boxes_processed", 0)
    left = ev.get("undecided_count", 0)
    closed = f"closed in {n}" if status.value == "proved" else f"{left} of {n} undecided"
    faces = sum(len(f["fixed"]) for f in ev.get("monotone_faces", []))
    print(f"{theorem} {claim}/{index} [{region.describe()}] {mode}: {status.value}, "
          f"{closed} boxes, {cpu:.2f} CPU s, {n / cpu if cpu else 0:.0f} boxes/CPU s"
          + (f", {faces} parameters fixed by monotonicity" if faces else ""), flush=True)


def bench_check_bound() -> None:
    region = {"eps0": (0.01, 1), "k": (1, 200), "delta": (1e-10, 1e-2)}
    formula = "k*eps0*(exp(eps0)-1) + eps0*sqrt(2*k*log(1/delta))"
    cpu0 = time.process_time()
    r = dpverify.check_bound(formula, against="optimal-composition", region=region,
                             profile="quick", seed=1)
    cpu = time.process_time() - cpu0
    proof = r.document["proof"] or {}
    n = proof.get("boxes", 0)
    print(f"check-bound advanced composition {region}: {r.verdict}, proof "
          f"{proof.get('status')} in {n} boxes, {proof.get('seconds', 0):.1f} s wall "
          f"({n / proof['seconds'] if proof.get('seconds') else 0:.0f} boxes/s); "
          f"{cpu:.1f} CPU s in all", flush=True)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--boxes", type=int, default=3000)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--only", nargs="*", default=None, help="theorem ids")
    p.add_argument("--no-check-bound", action="store_true")
    p.add_argument("--baseline-code", default=None, metavar="CHECKOUT",
                   help="also run another checkout's route as it is (e.g. /work/main)")
    p.add_argument("--one", nargs=5, metavar=("ID", "CLAIM", "CHECK", "MODE", "REALS"),
                   help=argparse.SUPPRESS)  # one run, in the child process
    args = p.parse_args()
    if args.one:
        theorem, claim, index, mode, reals = args.one
        bench_check(theorem, int(claim), int(index), mode, args.boxes, args.seconds, reals)
        return
    modes = ["main", *MODES] if args.baseline_code else list(MODES)
    for theorem, claim, index in CHECKS:
        if args.only is not None and theorem not in args.only:
            continue
        check = _interval_check(theorem, claim, index)
        if check is None:
            continue
        reals = json.dumps(dict(check.region.reals))
        for mode in modes:
            env = dict(os.environ)
            if mode == "main":
                env["PYTHONPATH"] = args.baseline_code
            subprocess.run([sys.executable, __file__, "--boxes", str(args.boxes),
                            "--seconds", str(args.seconds), "--one", theorem, str(claim),
                            str(index), mode, reals], check=True, env=env)
    if not args.no_check_bound and args.only is None:
        bench_check_bound()


if __name__ == "__main__":
    main()

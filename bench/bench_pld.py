"""Benchmark: certified PLD accounting (SGM-PLD-COMP) at the standard DP-SGD scenarios.

Run by hand (never in CI):  /work/venv/bin/python bench/bench_pld.py [--rel-width 1e-3]

For each scenario of the catalogue (subsampling.md, "Standard DP-SGD scenarios") it prints the
certified enclosure of eps, its relative width and the wall time, then, when the packages are
installed, the values of dp_accounting (PLD at two discretisations, and RDP) and of
prv_accountant (its [lower, estimate, upper] bracket), with their times, and whether each lies
inside the certified enclosure. dp_accounting's and prv_accountant's numbers are floating-point
estimates, not enclosures: a value below the certified lower end would be a privacy bug, a value
above the upper end is loose.
"""

from __future__ import annotations

import argparse
import time
import warnings
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import parse_number
from dpverify.theorems.numerics import pld
from dpverify.theorems.subsampling.scenarios import SCENARIOS


def certified(q: Fraction, sigma: Fraction, k: int, delta: Fraction,
              rel_width: float) -> tuple[pld.Enclosure, float]:
    pld._CACHE.clear()
    t0 = time.perf_counter()
    enc = pld.enclose_eps(pld.sgm_pairs(q, sigma), k, delta, rel_width=rel_width,
                          max_seconds=600)
    return enc, time.perf_counter() - t0


def dp_accounting_rows(q: float, sigma: float, k: int, delta: float) -> list[dict[str, Any]]:
    try:
        from dp_accounting import dp_event
        from dp_accounting.pld import pld_privacy_accountant
        from dp_accounting.rdp import rdp_privacy_accountant
    except ImportError:
        return [{"method": "dp_accounting", "note": "not installed"}]
    event = dp_event.SelfComposedDpEvent(
        dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), k)
    rows = []
    for disc in (1e-3, 1e-4):
        t0 = time.perf_counter()
        acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=disc)
        acc.compose(event)
        eps = acc.get_epsilon(delta)
        rows.append({"method": f"dp_accounting PLD (interval {disc:g})", "eps": eps,
                     "seconds": time.perf_counter() - t0})
    t0 = time.perf_counter()
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(event)
    rows.append({"method": "dp_accounting RDP (its order grid)", "eps": acc.get_epsilon(delta),
                 "seconds": time.perf_counter() - t0})
    return rows


def prv_rows(q: float, sigma: float, k: int, delta: float) -> list[dict[str, Any]]:
    try:
        from prv_accountant import PoissonSubsampledGaussianMechanism, PRVAccountant
    except ImportError:
        return [{"method": "prv_accountant", "note": "not installed"}]
    t0 = time.perf_counter()
    acc = PRVAccountant(prvs=PoissonSubsampledGaussianMechanism(noise_multiplier=sigma,
                                                                sampling_probability=q),
                        max_self_compositions=k, eps_error=0.01, delta_error=delta / 100)
    lo, est, hi = acc.compute_epsilon(delta=delta, num_self_compositions=[k])
    return [{"method": "prv_accountant (eps_error 0.01)", "eps": est, "bracket": (lo, hi),
             "seconds": time.perf_counter() - t0}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rel-width", type=float, default=1e-3)
    parser.add_argument("--scenario", action="append", help="A, B, C_ceil, C_floor (default all)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    for sc in SCENARIOS:
        if args.scenario and sc["scenario"] not in args.scenario:
            continue
        q, sigma = parse_number(sc["q"]), parse_number(sc["sigma"])
        k, delta = sc["k"], parse_number(sc["delta"])
        print(f"\n== scenario {sc['scenario']}: q={sc['q']} sigma={sc['sigma']} k={k} "
              f"delta={sc['delta']}")
        enc, secs = certified(q, sigma, k, delta, args.rel_width)
        lo, hi = float(enc.lo), float(enc.hi)
        print(f"  dpverify SGM-PLD-COMP   [{lo:.6f}, {hi:.6f}]  rel width {enc.rel_width():.2e}"
              f"  {secs:6.2f} s  (h = {enc.h}, passes: "
              + ", ".join(f"h={p['h']} w={p['rel_width']:.1e} {p['seconds']:.1f}s"
                          for p in enc.passes) + ")")
        others = dp_accounting_rows(float(q), float(sigma), k, float(delta)) + prv_rows(
            float(q), float(sigma), k, float(delta))
        for row in others:
            if "note" in row:
                print(f"  {row['method']:<38} {row['note']}")
                continue
            eps = row["eps"]
            where = "inside" if lo <= eps <= hi else ("BELOW (bug)" if eps < lo else "above")
            extra = ""
            if "bracket" in row:
                blo, bhi = row["bracket"]
                extra = f"  bracket [{blo:.6f}, {bhi:.6f}] width {(bhi - blo) / est_or(eps):.2e}"
            print(f"  {row['method']:<38} {eps:.6f}  {where:<11} {row['seconds']:6.2f} s{extra}")


def est_or(x: float) -> float:
    return x if x else 1.0


if __name__ == "__main__":
    main()

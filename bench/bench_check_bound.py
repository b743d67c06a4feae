"""Benchmark: check-bound on the issue's region, quick profile (run by hand, never in tests).

    python bench/bench_check_bound.py [--profile quick|thorough]

Region eps0 in [0.01, 1], k in 1..200, delta in [1e-10, 1e-2] against optimal-composition, for
advanced composition (sound: the proof by branch and bound runs) and the same without its
k*eps0*(e^eps0 - 1) term (unsound). Prints the verdict, the seconds of each phase and the
tightness ratios. Target: verdict and tightness within 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import time

import dpverify

REGION = {"eps0": (0.01, 1), "k": (1, 200), "delta": (1e-10, 1e-2)}
BOUNDS = {
    "DRV advanced composition": "k*eps0*(exp(eps0)-1) + eps0*sqrt(2*k*log(1/delta))",
    "DRV without k*eps0*(e^eps0-1)": "eps0*sqrt(2*k*log(1/delta))",
}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    for label, formula in BOUNDS.items():
        t0 = time.monotonic()
        r = dpverify.check_bound(formula, against="optimal-composition", region=REGION,
                                 profile=args.profile, seed=args.seed)
        secs = time.monotonic() - t0
        d = r.document
        proof = d["proof"] or {}
        t = d["tightness"]
        print(f"{label}: {r.verdict} in {secs:.1f} s (search {d['search']['seconds']:.1f} s, "
              f"proof {proof.get('seconds', 0):.1f} s / {proof.get('boxes', 0)} boxes); ratio "
              f"min {t['min']:.4g} median {t['median']:.4g} max {t['max']:.4g} over "
              f"{t['points']} points")


if __name__ == "__main__":
    main()

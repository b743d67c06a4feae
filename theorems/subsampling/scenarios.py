"""The standard DP-SGD scenarios of the catalogue (subsampling.md): the inputs of SGM-PLD-COMP
claim 4 and MTZ-SGM-RDP claims 1 and 6, and of bench/bench_pld.py.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import Points

SCENARIOS: tuple[dict[str, Any], ...] = (
    {"scenario": "A", "q": "0.01", "sigma": "1", "k": 1000, "delta": "1e-5"},
    {"scenario": "B", "q": "0.001", "sigma": "0.8", "k": 10000, "delta": "1e-6"},
    {"scenario": "C_ceil", "q": "256/60000", "sigma": "1.1", "k": 14063, "delta": "1e-5"},
    {"scenario": "C_floor", "q": "256/60000", "sigma": "1.1", "k": 14062, "delta": "1e-5"},
)


def scenario_points(*keys: str) -> Points:
    return Points(tuple({k: s[k] for k in ("q", "sigma", "k", "delta", *keys)} for s in SCENARIOS))

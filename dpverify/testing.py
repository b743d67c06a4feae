"""Helpers for a paper's companion code to keep its bound checked in CI (pytest or plain).

>>> from dpverify.testing import assert_sound_bound
>>> r = assert_sound_bound("k*eps0", against="optimal-composition", budget=20, seed=0,
...                        region={"eps0": (0.1, 1), "k": (1, 10), "delta": (1e-3, 1e-2)})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dpverify


class UnsoundBound(AssertionError):
    """The bound was not shown sound; ``result`` holds the whole check."""

    def __init__(self, message: str, result: dpverify.BoundCheck) -> None:
        super().__init__(message)
        self.result = result


def assert_sound_bound(target: Any, *, against: str, region: Mapping[str, Any],
                       kind: str = "eps", allow_passed: bool = True,
                       max_ratio: float | None = None, **options: Any) -> dpverify.BoundCheck:
    """Check ``target`` with :func:`dpverify.check_bound` and raise :class:`UnsoundBound`
    (an ``AssertionError``) unless it is ``proved`` (or ``passed``, if ``allow_passed``). A
    failure names the certified counterexample and the command that reproduces it;
    ``inconclusive`` (time ran out, a margin below the certification resolution, points where the
    target could not be evaluated) also fails: it is not evidence of soundness. ``max_ratio``
    additionally requires the bound to be within that factor of the optimum everywhere checked.
    Returns the result."""
    result = dpverify.check_bound(target, against=against, region=region, kind=kind, **options)
    ok = result.verdict == "proved" or (allow_passed and result.verdict == "passed")
    if not ok:
        msg = f"bound {result.document['target']['text']!r} is {result.verdict}: {result.message}"
        cx = result.counterexample
        if cx:
            msg += f"\n  counterexample: {dict(cx)}\n  reproduce: {cx['reproduce']}"
        raise UnsoundBound(msg, result)
    worst = result.tightness.get("max")
    if max_ratio is not None and isinstance(worst, float) and worst > max_ratio:
        raise UnsoundBound(f"bound is sound but loose: ratio up to {worst:.4g} > {max_ratio} "
                           f"at {result.tightness.get('worst')}", result)
    return result


__all__ = ["UnsoundBound", "assert_sound_bound"]

"""Golden values by independent routes: one harness for the family test files.

A case is ``(theorem_id, evaluator_name, params, reference)``: ``reference()`` computes the
value by a route independent of the encoded formula (quadrature, a direct sum, bisection) in the
test file's own mpmath context, at a precision well above the 50 digits asked of the evaluator.
:meth:`GoldenCases.check` evaluates the registered evaluator through the ``numeric`` route and
asserts that its rigorous enclosure contains the reference and that its printed value agrees
with it to ``digits`` significant digits (0.6 units in the last place: the printed value is
correctly rounded, up to the reference's own error).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.verifiers.evaluation import evaluate

GoldenCase = tuple[str, str, dict[str, Any], Callable[[], Any]]


def check_golden(mp: Any, value: str, enclosure: Sequence[str] | None, ref: Any,
                 digits: int) -> None:
    """``value`` (``digits`` digits, enclosed by ``enclosure``) agrees with ``ref``."""
    assert enclosure is not None, "every evaluator gives a rigorous enclosure"
    v = mp.mpf(value)
    lo, hi = (mp.mpf(x) for x in enclosure)
    assert lo <= ref <= hi, f"enclosure [{lo}, {hi}] misses {ref}"
    if ref == 0:
        assert v == 0, f"{value} vs an exact 0"
        return
    ulp = mp.mpf(10) ** (mp.floor(mp.log10(abs(ref))) - digits + 1)
    assert abs(v - ref) <= mp.mpf("0.6") * ulp, f"{value} vs {mp.nstr(ref, digits + 5)}"


class GoldenCases:
    """The golden cases of one test file; references are computed once, when first needed."""

    def __init__(self, mp: Any, cases: Sequence[GoldenCase]) -> None:
        self.mp = mp
        self.cases = list(cases)
        self._refs: dict[int, Any] = {}

    @property
    def ids(self) -> list[str]:
        """pytest ids: ``ID.evaluator(param=value,...)``."""
        return [f"{c[0]}.{c[1]}({','.join(f'{k}={v}' for k, v in c[2].items())})"
                for c in self.cases]

    @property
    def covered(self) -> set[tuple[str, str]]:
        """The ``(theorem_id, evaluator_name)`` pairs that have a golden case."""
        return {(c[0], c[1]) for c in self.cases}

    def reference(self, i: int) -> Any:
        if i not in self._refs:
            self._refs[i] = self.cases[i][3]()
        return self._refs[i]

    def check(self, i: int, digits: int) -> None:
        """Evaluate case ``i`` at ``digits`` digits and compare it with its reference."""
        th, name, params, _ = self.cases[i]
        ev = get(th).evaluator(name)
        result = evaluate(ev, bind(ev.params, params, f"{th}.{name}"), digits)
        check_golden(self.mp, result.value, result.enclosure, self.reference(i), digits)

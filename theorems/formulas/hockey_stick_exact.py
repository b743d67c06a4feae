"""The hockey-stick divergence and the largest likelihood ratio of finite distributions, in
exact rational arithmetic (ties are decided, not left undecided by ball arithmetic).

Main results
------------
- :func:`hockey_stick_exact`: ``H_z(P||Q) = sum_y max(P(y) - z Q(y), 0)`` with ``z = e^eps``.
- :func:`max_ratio_exact`: ``max_y max(P(y)/Q(y), Q(y)/P(y))`` for full supports.
- :func:`normalise`: a distribution from integer weights.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded), Def. 1;
  [S22] T. Steinke, arXiv 2210.00597v4, Secs. 2–3 (the hockey-stick form of (eps, delta)-DP).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def hockey_stick_exact(p: Sequence[Fraction], q: Sequence[Fraction], z: Fraction) -> Fraction:
    """``H_z(P||Q) = sum_y max(P(y) - z Q(y), 0)`` in exact rational arithmetic ([GCE] arXiv
    2209.13697 Def. 1; [S22] arXiv 2210.00597v4 Sec. 2)."""
    return sum((max(pi - z * qi, Fraction(0)) for pi, qi in zip(p, q, strict=True)), Fraction(0))


def max_ratio_exact(p: Sequence[Fraction], q: Sequence[Fraction]) -> Fraction:
    """``max_y max(P(y)/Q(y), Q(y)/P(y))`` (= ``e^{max |log ratio|}``, the pure-DP level of the
    pair) for full supports."""
    return max(max(pi / qi, qi / pi) for pi, qi in zip(p, q, strict=True))


def normalise(w: Sequence[int]) -> tuple[Fraction, ...]:
    """The distribution proportional to the integer weights ``w`` (their sum is positive)."""
    total = sum(w)
    return tuple(Fraction(x, total) for x in w)

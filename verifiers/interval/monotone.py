"""Certified monotonicity over a whole box: declared by the claim or derived, then used.

Before branch and bound on one integer assignment, each real parameter ``x`` whose margin
derivative ``dg/dx`` has a certified sign over the whole box is fixed to the end where ``g`` is
least (``g`` nondecreasing in ``x``: its minimum over the box lies on the face ``x = lo``), so
the search runs on a box of lower dimension. Parameters are taken one at a time, each on the
face left by the previous ones (``min_B g = min_x2 min_x1 g`` and the inner minimum is on the
face), so a later sign is certified on the face only.

- A sign **declared** in :attr:`~theorems.claims.Box.monotone` is a hint, never trusted: the
  derivative is enclosed over sub-boxes of the face (split until each has a certified sign,
  at most :data:`MAX_SIGN_BOXES`); a declaration that is refuted on a sub-box or not certified
  within the limit is not used, and the evidence says so.
- Otherwise the sign is **derived**: the derivative (sympy's, or forward-mode AD) enclosed on
  the whole face, with the factor signs and higher derivatives of
  :func:`~.pruning._bound_sign`, one level deep.

A face is used only where ``g`` is continuous on the whole box (every ``Piecewise`` branch
decided, no step function, a finite enclosure): a function that is monotone on each piece can
jump between pieces.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.verifiers.interval.boxes import START_BITS
from dpverify.verifiers.interval.pruning import _bound_sign, _Memo

MAX_SIGN_BOXES = 512  # sub-boxes spent certifying one declared sign
DERIVED_DEPTH = 1  # higher-derivative levels tried for an undeclared sign on the whole face

Reals = dict[str, tuple[Fraction, Fraction]]


@dataclass
class Reduction:
    """The face on which the claim is decided, and how each parameter was fixed."""

    face: Reals
    steps: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def certify_sign(m: _Memo, d: Any, box: Reals, sign: int, max_boxes: int,
                 deadline: float) -> tuple[bool | None, int]:
    """Is ``sign * d >= 0`` on the whole ``box``? Sub-boxes are split (widest side) until each
    has a certified sign: True (with the number of sub-boxes), False if ``sign * d < 0`` is
    certified on one, None when the limit or the deadline is reached first."""
    stack = [dict(box)]
    count = 0
    while stack:
        if count >= max_boxes or time.monotonic() > deadline:
            return None, count
        b = stack.pop()
        count += 1
        if _bound_sign(m, d, b, DERIVED_DEPTH) == sign:
            continue
        v = m.enclose(d, b)
        if v is not None and v.is_finite() and (v.hi < 0 if sign > 0 else v.lo > 0):
            return False, count
        free = [n for n, (lo, hi) in b.items() if lo < hi]
        if not free:
            return None, count
        name = max(free, key=lambda n: b[n][1] - b[n][0])
        lo, hi = b[name]
        mid = (lo + hi) / 2
        for part in ((lo, mid), (mid, hi)):
            child = dict(b)
            child[name] = part
            stack.append(child)
    return True, count


def _continuous(m: _Memo, face: Reals) -> bool:
    root = m.engine.root
    if not m.smooth(root, face):
        return False
    v = m.enclose(root, face)
    return v is not None and v.is_finite()


def reduce_box(engine: Any, reals: Reals, declared: dict[str, int],
               deadline: float) -> Reduction:
    """Fix every parameter with a certified monotone margin to its worst end (module doc)."""
    face = dict(reals)
    out = Reduction(face)
    m = _Memo(engine, START_BITS, deadline)
    if not _continuous(m, face):
        if declared:
            out.notes.append("the margin is not certified continuous on the whole box: "
                             "declared monotonicity not used")
        return out
    order = [n for n in declared if n in face] + [n for n in engine.names if n not in declared]
    for n in order:
        lo, hi = face[n]
        if lo == hi or time.monotonic() > deadline:
            continue
        d = m.deriv(engine.root, n)
        if d is None:
            if n in declared:
                out.notes.append(f"no derivative of the margin in {n}: its declared sign is "
                                 "not checked, not used")
            continue
        if n in declared:
            sign = declared[n]
            ok, count = certify_sign(m, d, face, sign, MAX_SIGN_BOXES, deadline)
            if ok is not True:
                why = ("refuted on a sub-box" if ok is False
                       else f"not certified within {count} sub-boxes")
                out.notes.append(f"declared sign {sign:+d} of d(margin)/d{n} {why}: not used")
                continue
            how = f"declared, certified on {count} sub-boxes"
        else:
            sign = _bound_sign(m, d, face, DERIVED_DEPTH)
            if sign == 0:
                continue
            how = "derived on the whole box"
        end = lo if sign > 0 else hi
        face[n] = (end, end)
        out.steps.append({"parameter": n, "sign": f"{sign:+d}", "fixed_at": f"{float(end):.6g}",
                          "how": how})
    return out

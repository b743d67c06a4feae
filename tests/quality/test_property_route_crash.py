"""The property route reports a term that raises as a crash, never as a pass: its search used
``AssertionError`` to stop at a counterexample, so an ``AssertionError`` raised by a claim's own
term (an internal invariant) ended the search silently and the claim passed on the examples
drawn until then."""

from __future__ import annotations

import pytest

from dpverify.theorems.claims import Box, Compare
from dpverify.verifiers.property import verify_box
from dpverify.verifiers.verdict import Budget, Status

BOX = Box(reals={"x": ("0", "1")})


def _broken(ctx, x, **_):
    if x > 0:
        raise AssertionError("an internal invariant of the term does not hold")
    return x


def test_an_assertion_raised_by_a_term_is_not_a_pass() -> None:
    check = Compare(_broken, "le", lambda ctx, **_: ctx.one, BOX, "property")
    with pytest.raises(AssertionError, match="internal invariant"):
        verify_box(check, BOX, Budget(seconds=30, examples=20), 1)


def test_a_real_counterexample_is_still_reported_as_failed() -> None:
    check = Compare(lambda ctx, x, **_: x, "le", lambda ctx, **_: ctx.num("0.5"), BOX,
                    "property")
    status, _, evidence = verify_box(check, BOX, Budget(seconds=30, examples=40), 1)
    assert status is Status.FAILED and "counterexample" in evidence

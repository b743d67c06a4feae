"""A planted theorem: one claim with one check, run as the catalogue runs it (quick profile).

The quality tests plant a wrong formula in a check and require the verifiers to refute it, and
plant the right one and require it to hold.
"""

from __future__ import annotations

from dpverify.theorems.claims import Check, Claim
from dpverify.theorems.core import Source, Theorem
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.verdict import Verdict


def planted_theorem(check: Check, family: str, types: tuple[str, ...] = ("EXACT",)) -> Theorem:
    return Theorem(id="PLANTED", title="planted", family=family,
                   source=Source("planted by tests/quality", "-"), types=types,
                   confidence=("DERIVED",), statement="planted", domain="",
                   claims=(Claim(1, "planted", (check,)),))


def planted_verdict(check: Check, family: str, budget_seconds: float | None = None) -> Verdict:
    return run_claim_check(planted_theorem(check, family), 1, 0, PROFILES["quick"],
                           budget_seconds=budget_seconds)

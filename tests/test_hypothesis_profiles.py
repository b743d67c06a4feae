"""The hypothesis profile in force is the one named by HYPOTHESIS_PROFILE (default ``ci``)."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import PROFILE_ENV


def test_the_named_profile_is_loaded() -> None:
    expected = settings.get_profile(os.environ.get(PROFILE_ENV, "ci"))
    assert settings.default.max_examples == expected.max_examples
    assert settings.get_profile("ci").max_examples < settings.get_profile("thorough").max_examples


def test_a_given_test_runs_the_profile_s_examples() -> None:
    seen: list[int] = []

    @given(st.integers())
    def search(x: int) -> None:
        seen.append(x)

    search()
    assert 0 < len(seen) <= settings.default.max_examples

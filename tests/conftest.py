"""Test-suite configuration: the ``packaging`` marker, the hypothesis profiles, and a private
reference cache for every test.

The profile is chosen by the environment variable ``HYPOTHESIS_PROFILE``: ``ci`` (the default:
few examples, reproducible) or ``thorough`` (many examples, for a deep run before a release).
An unknown name fails at collection.

The product's ``property`` route sets its own examples, deadline, database, phases and seed
(``verifiers/property.py``), so these profiles change only the tests' own ``@given`` searches.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

PROFILE_ENV = "HYPOTHESIS_PROFILE"

settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get(PROFILE_ENV, "ci"))


@pytest.fixture(autouse=True)
def _private_reference_cache(tmp_path_factory: pytest.TempPathFactory,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit caches certified references on disk: never in the user's cache from a test."""
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "refcache"))


@pytest.fixture(autouse=True)
def _mpmath_precision_restored() -> object:
    """mpmath's global precision is process state: a test that changes it must not change how
    a later test prints or rounds."""
    import mpmath

    prec = mpmath.mp.prec
    yield
    mpmath.mp.prec = prec


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "packaging: builds the wheel from the checkout (runs in CI; a few seconds)")

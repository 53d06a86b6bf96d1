"""The fuzz suite's size: modest in CI, large with ``python -m pytest --fuzz-long``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]


@pytest.fixture(scope="session")
def fuzz_size(request: pytest.FixtureRequest) -> int:
    """A scale factor: 1 in CI, 50 with --fuzz-long."""
    return 50 if request.config.getoption("--fuzz-long") else 1


@pytest.fixture(scope="session")
def fuzz(fuzz_size: int) -> object:
    """Settings for ``n`` examples (times the scale): generation only, reproducible in CI."""

    def make(n: int) -> settings:
        return settings(
            max_examples=n * fuzz_size,
            deadline=None,
            database=None,
            derandomize=fuzz_size == 1,
            phases=[Phase.explicit, Phase.generate, Phase.shrink],
            suppress_health_check=_QUIET,
        )

    return make

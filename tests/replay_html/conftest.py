"""A headless Chromium for the replay pages: Debian's ``chromium`` driven by Playwright.

Tests that need it skip, with the reason, only where no browser can be started (Playwright
not installed, no chromium binary, or it fails to launch here).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from replay_html_fixture import CHROMIUM_ARGS


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test (it still runs in CI)")


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A browser context with a fresh profile folder (one per test session)."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        pytest.skip("Python playwright is not installed: pip install -e '.[test]'")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        pytest.skip("no chromium browser: apt-get install chromium (as .ci/run does)")
    driver = sync_playwright().start()
    try:
        context = driver.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
        )
    except Error as exc:
        driver.stop()
        pytest.skip(f"chromium cannot start here: {str(exc).splitlines()[0]}")
    yield context
    context.close()
    driver.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh tab. A script error on it, a console message, or a request for anything but
    the page files the test opened (a page is self-contained) fails the test."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(f"script error: {exc}"))
    tab.on("console", lambda message: errors.append(f"console {message.type}: {message.text}"))
    tab.on(
        "request",
        lambda request: (
            None
            if request.url.startswith("file://") and request.url.split("#")[0].endswith(".html")
            else errors.append(f"request: {request.url}")
        ),
    )
    yield tab
    tab.close()
    if errors:
        raise AssertionError(f"on the page: {errors}")

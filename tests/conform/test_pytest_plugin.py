"""The pytest plugin, run in a pytester sandbox: passing engine, failing engine, baseline."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

# Loaded before pytester snapshots sys.modules: the plugin imports them lazily, and a module
# imported inside an in-process run is dropped after it (PyYAML's loaders must not be split).
from oracle import baseline, conform, conform_report  # noqa: F401
from tests.conform.conftest import ROOT, SERVE, adapter

pytest_plugins = ["pytester"]
GAME = "palmyra"
SCENARIO = ROOT / "scenarios" / GAME / "PAL-CHAIN-01-p06-fifth-tile-illegal.yaml"


def options(engine: str, pytester: pytest.Pytester, *more: str) -> list[str]:
    folder = pytester.path / "sc"
    folder.mkdir(exist_ok=True)
    shutil.copy(SCENARIO, folder)
    return [
        "-p",
        "no:cacheprovider",
        "--rules-oracle-engine",
        engine,
        "--rules-oracle-game",
        GAME,
        "--rules-oracle-players",
        "2",
        "--rules-oracle-games",
        "1",
        "--rules-oracle-scenarios",
        str(folder),
        *more,
    ]


def test_the_plugin_is_off_unless_asked(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_conforming_engine_passes_one_item_per_game_and_scenario(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest(*options(f"{SERVE} --game {GAME}", pytester), "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*rules-oracle::playout-0-2p-seed0 PASSED*",
            f"*rules-oracle::scenario::{SCENARIO.name} PASSED*",
            "*rules-oracle::engine-0-2p PASSED*",
        ]
    )


def test_a_lying_engine_fails_with_a_readable_finding(pytester: pytest.Pytester) -> None:
    engine = adapter(GAME, "--lie", "bank", "--from-event", "5")
    result = pytester.runpytest(*options(engine, pytester))
    result.assert_outcomes(passed=1, failed=2)  # the scenario does not look at the bank
    result.stdout.fnmatch_lines(
        [
            "*FAIL playout state*after 5 events*bank: ours 118, the engine's 119*",
            "minimal case as a v1 log:",
            '*"state": {"bank": 119}*',
        ]
    )


def test_a_baseline_turns_known_findings_into_xfail_and_stale_entries_into_a_failure(
    pytester: pytest.Pytester,
) -> None:
    engine = adapter(GAME, "--lie", "bank", "--from-event", "5")
    known = pytester.path / "known.yaml"
    known.write_text("known:\n  - kind: state\n    path: bank\n")
    result = pytester.runpytest(*options(engine, pytester, "--rules-oracle-baseline", str(known)))
    result.assert_outcomes(passed=2, xfailed=2)
    stale = pytester.path / "stale.yaml"
    stale.write_text(known.read_text() + "  - kind: accepted_illegal\n")
    result = pytester.runpytest(*options(engine, pytester, "--rules-oracle-baseline", str(stale)))
    result.assert_outcomes(passed=1, xfailed=2, failed=1)
    result.stdout.fnmatch_lines(["*stale baseline entry*accepted_illegal*"])


def test_a_bad_baseline_is_a_usage_error(pytester: pytest.Pytester, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("known: 3\n")
    result = pytester.runpytest(
        *options(f"{SERVE} --game {GAME}", pytester, "--rules-oracle-baseline", str(bad))
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_a_scenario_folder_that_does_not_exist_is_a_usage_error(pytester: pytest.Pytester) -> None:
    args = options(f"{SERVE} --game {GAME}", pytester)
    args[args.index("--rules-oracle-scenarios") + 1] = str(pytester.path / "nowhere")
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rules-oracle-scenarios */nowhere: no such folder*"])


def test_no_games_and_no_scenarios_is_a_usage_error(pytester: pytest.Pytester) -> None:
    empty = pytester.path / "empty"
    empty.mkdir()
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--rules-oracle-engine", f"{SERVE} --game {GAME}",
        "--rules-oracle-game", GAME, "--rules-oracle-games", "0",
        "--rules-oracle-scenarios", str(empty),
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*nothing to run: --rules-oracle-games 0 and no palmyra*"])


def test_without_a_folder_the_bundled_scenarios_are_collected(pytester: pytest.Pytester) -> None:
    from oracle.formats.scenario import BUNDLED_SCENARIOS

    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--collect-only", "-q",
        "--rules-oracle-engine", f"{SERVE} --game {GAME}", "--rules-oracle-game", GAME,
        "--rules-oracle-games", "0",
    )  # fmt: skip
    bundled = sorted(p.name for p in (BUNDLED_SCENARIOS / GAME).glob("*.yaml"))
    collected = sorted(
        line.split("scenario::", 1)[1] for line in result.outlines if "scenario::" in line
    )
    assert bundled and collected == bundled


def test_a_run_that_checked_nothing_is_not_a_pass(pytester: pytest.Pytester) -> None:
    # the one scenario needs set_state; an engine without capabilities skips it
    engine = adapter(GAME, "--no-capabilities")
    args = options(engine, pytester)
    args[args.index("--rules-oracle-games") + 1] = "0"
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stdout.fnmatch_lines(["*rules-oracle: error: the run checked nothing*never a pass*"])

"""The pytest plugin, run in a pytester sandbox: passing engine, failing engine, baseline;
the settings it shares with ``conform`` (game options, a profile, the option matrix, parts,
the minimum coverage, reach, the shrink budget, saving cases, chance draws) and their
usage errors."""

from __future__ import annotations

import fnmatch
import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

# Loaded before pytester snapshots sys.modules: the plugin imports them lazily, and a module
# imported inside an in-process run is dropped after it (PyYAML's loaders must not be split).
from oracle import baseline, conform, conform_report  # noqa: F401
from rules_oracle import stats_available
from tests.conform.conftest import EMPEROR_BUG, ROOT, SERVE, adapter

if stats_available():  # the chance part's statistics: numpy loads once per process
    import numpy  # noqa: F401
    import scipy.stats  # noqa: F401

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
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(
        [
            "*rules-oracle::playout-0-2p-seed0 PASSED*",
            f"*rules-oracle::scenario::{SCENARIO.name} PASSED*",
            "*rules-oracle::reach PASSED*",  # the play-outs that reach on purpose, as a whole
            "*rules-oracle::engine-0-2p PASSED*",
        ]
    )


def test_a_lying_engine_fails_with_a_readable_finding(pytester: pytest.Pytester) -> None:
    engine = adapter(GAME, "--lie", "bank", "--from-event", "5")
    result = pytester.runpytest(*options(engine, pytester))
    # the scenario does not look at the bank; the play-outs that reach on purpose find the
    # same bug again, and keep only what the others did not find
    result.assert_outcomes(passed=2, failed=2)
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
    result.assert_outcomes(passed=3, xfailed=2)
    stale = pytester.path / "stale.yaml"
    stale.write_text(known.read_text() + "  - kind: accepted_illegal\n")
    result = pytester.runpytest(*options(engine, pytester, "--rules-oracle-baseline", str(stale)))
    result.assert_outcomes(passed=2, xfailed=2, failed=1)
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


# --- the settings shared with conform ---------------------------------------------------

ADVANCED = json.dumps({"mode": "advanced"})
PLAYOUT = ("--rules-oracle-part", "playout")


def test_a_bug_only_in_the_advanced_game_needs_its_options_or_the_matrix(
    pytester: pytest.Pytester,
) -> None:
    plain = pytester.runpytest(*options(EMPEROR_BUG, pytester, *PLAYOUT))
    assert plain.ret == pytest.ExitCode.OK, "the standard game never takes the emperor"
    plain.assert_outcomes(passed=2)  # the play-out and the play-outs that reach on purpose
    advanced = pytester.runpytest(
        *options(EMPEROR_BUG, pytester, *PLAYOUT, "--rules-oracle-options", ADVANCED)
    )
    assert advanced.ret == pytest.ExitCode.TESTS_FAILED
    advanced.stdout.fnmatch_lines(
        ["*FAIL playout state [[]playout-0-2p-seed0, *coins: ours *, the engine's *"]
    )
    matrix = pytester.runpytest(
        *options(EMPEROR_BUG, pytester, *PLAYOUT, "--rules-oracle-option-matrix"),
        "--rules-oracle-games", "2", "-v",
    )  # fmt: skip
    assert matrix.ret == pytest.ExitCode.TESTS_FAILED
    matrix.stdout.fnmatch_lines(
        [
            "*rules-oracle::playout-0-2p-seed0 PASSED*",
            "*rules-oracle::playout-1-2p-seed1-mode=advanced FAILED*",
        ]
    )


def test_a_profile_gives_ours_the_engines_data_value(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    profile = tmp_path / "profile.yaml"
    profile.write_text("emperor.tax_bonus: 2\n")
    more = (*PLAYOUT, "--rules-oracle-options", ADVANCED, "--rules-oracle-profile", str(profile))
    result = pytester.runpytest(*options(EMPEROR_BUG, pytester, *more))
    assert result.ret == pytest.ExitCode.OK  # without it: the advanced game differs (above)
    result.assert_outcomes(passed=2)


def test_the_minimum_coverage_is_an_item_of_its_own(pytester: pytest.Pytester) -> None:
    engine = f"{SERVE} --game {GAME}"
    low = pytester.runpytest(
        *options(engine, pytester, *PLAYOUT, "--rules-oracle-min-coverage", "10")
    )
    assert low.ret == pytest.ExitCode.OK
    low.assert_outcomes(passed=3)
    high = pytester.runpytest(
        *options(engine, pytester, *PLAYOUT, "--rules-oracle-min-coverage", "99"), "-v"
    )
    assert high.ret == pytest.ExitCode.TESTS_FAILED
    high.assert_outcomes(passed=2, failed=1)
    high.stdout.fnmatch_lines(
        [
            "*rules-oracle::rule-coverage FAILED*",
            "FAIL coverage: *% of the rules exercised, below --rules-oracle-min-coverage 99%",
            "rules exercised: * of 55; not exercised: PAL-*",
        ]
    )


def test_without_reach_the_play_outs_exercise_fewer_rules(pytester: pytest.Pytester) -> None:
    # one play-out of two players exercises about 55% of Palmyra's rules, with the
    # play-outs from rare ends and scenario positions about 67%
    args = options(
        f"{SERVE} --game {GAME}", pytester, *PLAYOUT, "--rules-oracle-min-coverage", "60"
    )
    reach = pytester.runpytest(*args, "-v")
    assert reach.ret == pytest.ExitCode.OK
    reach.stdout.fnmatch_lines(["*rules-oracle::reach PASSED*"])
    flat = pytester.runpytest(*args, "--rules-oracle-no-reach", "-v")
    assert flat.ret == pytest.ExitCode.TESTS_FAILED
    flat.assert_outcomes(passed=1, failed=1)
    flat.stdout.no_fnmatch_line("*rules-oracle::reach*")
    flat.stdout.fnmatch_lines(["FAIL coverage: 5*% of the rules exercised, below *60%"])


def test_parts_choose_the_items(pytester: pytest.Pytester) -> None:
    only = pytester.runpytest(
        *options(f"{SERVE} --game {GAME}", pytester, "--rules-oracle-part", "scenarios"), "-v"
    )
    assert only.ret == pytest.ExitCode.OK
    only.assert_outcomes(passed=1)
    only.stdout.fnmatch_lines([f"*rules-oracle::scenario::{SCENARIO.name} PASSED*"])
    two = pytester.runpytest(
        *options(f"{SERVE} --game {GAME}", pytester, *PLAYOUT, "--rules-oracle-part", "engine"),
        "--rules-oracle-no-reach", "--collect-only", "-q",
    )  # fmt: skip
    assert [line for line in two.outlines if "rules-oracle::" in line] == [
        "::rules-oracle::playout-0-2p-seed0",
        "::rules-oracle::engine-0-2p",
    ]
    perft = pytester.runpytest(
        *options(f"{SERVE} --game {GAME}", pytester, "--rules-oracle-part", "perft"), "-v"
    )
    assert perft.ret == pytest.ExitCode.OK
    perft.assert_outcomes(passed=1)
    perft.stdout.fnmatch_lines(["*rules-oracle::perft PASSED*"])


def test_saved_cases_and_the_shrink_budget(pytester: pytest.Pytester) -> None:
    engine = adapter(GAME, "--lie", "bank", "--from-event", "5")
    out = pytester.path / "cases"
    more = (*PLAYOUT, "--rules-oracle-no-reach", "--rules-oracle-save", str(out))
    saved = pytester.runpytest(*options(engine, pytester, *more))
    assert saved.ret == pytest.ExitCode.TESTS_FAILED
    files = sorted(p.name for p in out.iterdir())
    assert [Path(f).suffix for f in files] == [".jsonl", ".yaml"]
    assert Path(files[0]).stem == Path(files[1]).stem
    saved.assert_outcomes(failed=1)
    saved.stdout.fnmatch_lines(
        ["*[[]shrunk 5 -> 5 events]", f"  saved: {out}/*.yaml and {out}/*.jsonl"]
    )
    assert '"bank": 119' in (out / files[0]).read_text()
    spent = pytester.runpytest(
        *options(engine, pytester, *PLAYOUT, "--rules-oracle-no-reach"),
        "--rules-oracle-shrink-seconds", "0",
    )  # fmt: skip
    assert spent.ret == pytest.ExitCode.TESTS_FAILED
    spent.stdout.fnmatch_lines(
        [
            "*[[]not shrunk: the shrink budget is spent]",
            "  case: save it with --rules-oracle-save DIR (a scenario and a v1 log)",
        ]
    )


@pytest.mark.skipif(not stats_available(), reason="the chance part needs scipy")
def test_chance_draws_set_how_many_draws_the_chance_part_tests(
    pytester: pytest.Pytester,
) -> None:
    biased = ROOT / "tests" / "fairness" / "biased_engine.py"
    engine = shlex.join([sys.executable, str(biased), "--favour", "tile=L:D", "--weight", "3"])
    args = options(engine, pytester, "--rules-oracle-part", "chance", "-v")

    found = pytester.runpytest(*args, "--rules-oracle-chance-draws", "700")
    assert found.ret == pytest.ExitCode.TESTS_FAILED
    found.stdout.fnmatch_lines(["*rules-oracle::chance FAILED*", "FAIL chance biased*L:D*"])
    few = pytester.runpytest(*args, "--rules-oracle-chance-draws", "30")
    assert few.ret == pytest.ExitCode.OK  # too few draws to tell
    few.assert_outcomes(passed=1)


@pytest.mark.parametrize(
    ("more", "message"),
    [
        (("--rules-oracle-options", "[1]"), "--rules-oracle-options must be a JSON object"),
        (("--rules-oracle-options", "{bad"), "--rules-oracle-options: not JSON: *"),
        (
            ("--rules-oracle-options", '{"mode": "chess"}'),
            "--rules-oracle-options: bad options: 'mode' must be in *(got 'chess')*",
        ),
        (
            ("--rules-oracle-options", '{"nope": 1}'),
            "--rules-oracle-options: bad options: extra fields found (nope)*",
        ),
        (
            ("--rules-oracle-profile", "nowhere.yaml"),
            "--rules-oracle-profile: nowhere.yaml: cannot read profile: *",
        ),
        (
            ("--rules-oracle-profile", "{tmp}/bad.yaml"),
            "--rules-oracle-profile */bad.yaml: *no.such.key*",
        ),
        (
            ("--rules-oracle-part", "nope"),
            "--rules-oracle-part: unknown part 'nope' (known: playout, probes, scenarios, "
            "engine, perft, chance)",
        ),
        (
            ("--rules-oracle-min-coverage", "101"),
            "--rules-oracle-min-coverage must be a share in percent, 0 to 100 (got 101)",
        ),
        (
            ("--rules-oracle-min-coverage", "-1"),
            "--rules-oracle-min-coverage must be a share in percent, 0 to 100 (got -1)",
        ),
        (
            ("--rules-oracle-shrink-seconds", "-1"),
            "--rules-oracle-shrink-seconds must be 0 to 86400 seconds (got -1)",
        ),
        (
            ("--rules-oracle-shrink-seconds", "nan"),
            "--rules-oracle-shrink-seconds must be 0 to 86400 seconds (got nan)",
        ),
        (("--rules-oracle-games", "-1"), "--rules-oracle-games must be 0 or more (got -1)"),
        (
            ("--rules-oracle-timeout", "0"),
            "--rules-oracle-timeout must be above 0 seconds, at most 86400 (got 0)",
        ),
        (
            ("--rules-oracle-timeout", "inf"),
            "--rules-oracle-timeout must be above 0 seconds, at most 86400 (got inf)",
        ),
        # a value that is no number: our line, not argparse's usage and error lines
        (("--rules-oracle-min-coverage", "abc"), "--rules-oracle-min-coverage abc: not a number"),
        (("--rules-oracle-timeout", "ten"), "--rules-oracle-timeout ten: not a number"),
        (("--rules-oracle-games", "2.5"), "--rules-oracle-games 2.5: not a whole number"),
        (("--rules-oracle-seed", "x"), "--rules-oracle-seed x: not a whole number"),
        (("--rules-oracle-players", "two"), "--rules-oracle-players two: not a whole number"),
        (
            ("--rules-oracle-chance-draws", "1e3"),
            "--rules-oracle-chance-draws 1e3: not a whole number",
        ),
        (("--rules-oracle-shrink-seconds", ""), "--rules-oracle-shrink-seconds : not a number"),
        (("--rules-oracle-chance-draws", "0"), "--rules-oracle-chance-draws must be 1 or more"),
        (("--rules-oracle-players", "9"), "--rules-oracle-players: palmyra takes 2 to 5 players"),
        (("--rules-oracle-game", "chess"), "--rules-oracle-game: *chess*"),
        (("--rules-oracle-engine", "'unclosed"), "--rules-oracle-engine: No closing quotation"),
        (("--rules-oracle-save", "{tmp}/bad.yaml"), "--rules-oracle-save */bad.yaml: not a folder"),
    ],
)
def test_a_bad_setting_is_a_usage_error_of_one_line_naming_its_option(
    pytester: pytest.Pytester, more: tuple[str, str], message: str
) -> None:
    bad = pytester.path / "bad.yaml"
    bad.write_text("no.such.key: 1\n")
    flag, value = more[0], more[1].replace("{tmp}", str(pytester.path))
    result = pytester.runpytest(*options(f"{SERVE} --game {GAME}", pytester, flag, value))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.startswith("ERROR: ")]
    assert len(errors) == 1, result.errlines
    assert fnmatch.fnmatchcase(errors[0], f"ERROR: {message}"), errors[0]
    assert "Traceback" not in result.stderr.str() + result.stdout.str()


# --- under pytest-xdist ---------------------------------------------------------------------

REVERSED = """
import pytest

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    items.reverse()
"""


def test_session_checks_in_a_process_that_did_not_run_every_item_fail_saying_why(
    pytester: pytest.Pytester,
) -> None:
    # The coverage and the stale baseline entries are judged on every item of the session;
    # run first (here a conftest reverses the order, as xdist's load scheduling may share
    # the items out), they cannot be, and fail saying so rather than judge a share.
    pytester.makeconftest(REVERSED)
    known = pytester.path / "known.yaml"
    known.write_text("known:\n  - kind: state\n    path: bank\n")
    args = options(f"{SERVE} --game {GAME}", pytester, *PLAYOUT)
    result = pytester.runpytest(
        *args, "--rules-oracle-min-coverage", "10", "--rules-oracle-baseline", str(known), "-v"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*the baseline's stale entries cannot be judged here: 2 of the 2 rules-oracle items "
            "did not run before it in this process (first: ::rules-oracle::reach); "
            "with pytest-xdist give --dist loadscope or loadfile*",
            "*the rule coverage cannot be judged here: 2 of the 2 rules-oracle items*",
        ]
    )


@pytest.mark.parametrize("dist", ["loadscope", "loadfile"])
def test_under_xdist_by_scope_or_file_one_worker_runs_every_item(
    pytester: pytest.Pytester, dist: str
) -> None:
    # The items share one scope (and no file): one worker runs them all, in order, and the
    # coverage sees them all.
    args = options(f"{SERVE} --game {GAME}", pytester, *PLAYOUT, "--rules-oracle-min-coverage")
    args[args.index("--rules-oracle-games") + 1] = "3"
    result = pytester.runpytest_subprocess(*args, "10", "-n", "2", "--dist", dist, "-p", "xdist")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
    result.assert_outcomes(passed=5)


def test_under_xdist_a_run_that_checked_nothing_is_not_a_pass(pytester: pytest.Pytester) -> None:
    # as test_a_run_that_checked_nothing_is_not_a_pass, the workers' shares summed by the
    # controller (a worker's own exit status is not the run's)
    engine = adapter(GAME, "--no-capabilities")
    args = options(engine, pytester)
    args[args.index("--rules-oracle-games") + 1] = "0"
    result = pytester.runpytest_subprocess(*args, "-n", "2", "-p", "xdist")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()
    result.stdout.fnmatch_lines(["*rules-oracle: error: the run checked nothing*never a pass*"])

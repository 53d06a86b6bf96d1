"""Fuzzing every input the oracle reads: no input of any kind is our crash.

Logs, scenario files and profile files from the strategies in ``fuzz_inputs`` go through
the same code the CLI runs; each must end as the user's problem (a verdict, an ERROR, a
usage error), with every report rendering as text, JSON and JUnit that parse, in bounded
time. Through the CLI itself, exit codes are 0, 1 or 2 only. ``--fuzz-long`` runs 50 times
as many examples; ``benchmarks/fuzz_run.py`` runs hundreds of thousands.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from fuzz_inputs import (
    check_log,
    check_profile_file,
    check_scenario,
    log_files,
    profile_files,
    scenario_files,
)
from hypothesis import given, settings
from typer.testing import CliRunner

from oracle.games import GameCache
from rules_oracle_cli.cli import app

runner = CliRunner()
Fuzz = Callable[[int], settings]


def test_fuzzed_logs_are_the_users_problem(fuzz: Fuzz, tmp_path: Path) -> None:
    games = GameCache()

    @fuzz(120)
    @given(log_files())
    def one(data: bytes) -> None:
        path = tmp_path / "fuzz.jsonl"
        path.write_bytes(data)
        assert check_log(path, games) == []

    one()


def test_fuzzed_scenarios_are_the_users_problem(fuzz: Fuzz, tmp_path: Path) -> None:
    games = GameCache()

    @fuzz(80)
    @given(scenario_files())
    def one(data: bytes) -> None:
        path = tmp_path / "fuzz.yaml"
        path.write_bytes(data)
        assert check_scenario(path, games) == []

    one()


def test_fuzzed_profile_files_are_read_or_refused_cleanly(fuzz: Fuzz, tmp_path: Path) -> None:
    @fuzz(60)
    @given(profile_files())
    def one(data: bytes) -> None:
        path = tmp_path / "profile.yaml"
        path.write_bytes(data)
        boundary, _ = check_profile_file(path, events=0)
        assert boundary == []

    one()


def test_fuzzed_profiles_are_refused_or_played(fuzz: Fuzz, tmp_path: Path) -> None:
    @fuzz(40)
    @given(profile_files())
    def one(data: bytes) -> None:
        path = tmp_path / "profile.yaml"
        path.write_bytes(data)
        assert check_profile_file(path, events=40) == ([], [])

    one()


def test_fuzzed_inputs_through_the_cli_exit_0_1_or_2(fuzz: Fuzz, tmp_path: Path) -> None:
    @fuzz(15)
    @given(log_files(), scenario_files(), profile_files())
    def one(log: bytes, scenario: bytes, profile: bytes) -> None:
        (tmp_path / "g.jsonl").write_bytes(log)
        (tmp_path / "s.yaml").write_bytes(scenario)
        (tmp_path / "p.yaml").write_bytes(profile)
        for fmt in ("text", "json", "junit"):
            for command, target in (("validate", "g.jsonl"), ("scenarios", "s.yaml")):
                args = [command, str(tmp_path / target), "--format", fmt]
                for extra in ([], ["--profile", str(tmp_path / "p.yaml")]):
                    result = runner.invoke(app, args + extra)
                    assert result.exit_code in (0, 1, 2), result.output
                    if result.exit_code != 2 and fmt == "json":
                        json.loads(result.stdout)
                    elif result.exit_code != 2 and fmt == "junit":
                        ET.fromstring(result.stdout)
        result = runner.invoke(
            app,
            [
                "play",
                "--game",
                "palmyra",
                "--players",
                "2",
                "--profile",
                str(tmp_path / "p.yaml"),
                "-o",
                str(tmp_path / "out.jsonl"),
            ],
        )
        assert result.exit_code in (0, 2), result.output

    one()

"""``rules-oracle fairness``: reports, exit codes and usage errors, on small corpora."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_schemas import problems
from simulate import Favouring, write_corpus
from typer.testing import CliRunner

import rules_oracle
from rules_oracle_cli.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve fair Municipium logs (too few draws for a verdict of fair)."""
    return write_corpus(tmp_path_factory.mktemp("small"), "municipium", 12, Favouring("", 0, 1.0))


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty Municipium logs whose citizen draws favour priests threefold."""
    folder = tmp_path_factory.mktemp("loaded")
    return write_corpus(folder, "municipium", 40, Favouring("kind", "priest", 3.0))


def test_a_small_fair_corpus_is_insufficient_and_passes(small: Path) -> None:
    result = runner.invoke(app, ["fairness", str(small)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert ": valid (municipium, " in lines[0] and "12 logs: 12 valid" in result.output
    groups = [line for line in lines if line.startswith("municipium ")]
    assert len(groups) == 2  # citizen draws and cards revealed
    assert all(line.endswith("INSUFFICIENT") and "needed" in line for line in groups)
    assert lines[-1].startswith("fairness: 2 groups (0 fair, 0 biased, 2 insufficient)")


def test_loaded_citizen_draws_are_biased_naming_the_kind(loaded: Path, tmp_path: Path) -> None:
    page = tmp_path / "fairness.html"
    result = runner.invoke(app, ["fairness", str(loaded), "-q", "--html", str(page)])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    biased = next(i for i, line in enumerate(lines) if line.startswith("municipium citizen"))
    assert lines[biased].endswith("BIASED")
    assert lines[biased + 1].startswith("  priest: observed ")
    observed, expected = (float(x) for x in _numbers(lines[biased + 1]))
    assert observed > expected
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "municipium: citizen draws" in html
    assert "http://" not in html and "https://" not in html and "<script" not in html
    assert html.count('class="observed outside"') >= 1  # priest's bar lies outside its band


def _numbers(line: str) -> list[str]:
    # "  priest: observed 123, expected 98.5 (z +2.9)"
    observed = line.split("observed ")[1].split(",")[0]
    expected = line.split("expected ")[1].split(" ")[0]
    return [observed, expected]


def test_the_json_report_fits_its_schema(loaded: Path) -> None:
    result = runner.invoke(app, ["fairness", str(loaded), "--format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert problems("report-fairness", report) == []
    assert report["summary"]["by_status"]["valid"] == 40
    assert len(report["results"]) == 40
    groups = {g["kind"]: g for g in report["fairness"]["groups"]}
    assert groups["draw_citizen"]["verdict"] == "biased"
    assert groups["draw_citizen"]["furthest"][0] == "priest"
    assert report["fairness"]["biased"] is True
    assert report["fairness"]["tests_run"] == sum(len(g["tests"]) for g in groups.values())


def test_every_core_gives_the_same_report(loaded: Path) -> None:
    one = runner.invoke(app, ["fairness", str(loaded), "--format", "json"])
    two = runner.invoke(app, ["fairness", str(loaded), "--format", "json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output


def test_a_failing_log_is_reported_and_its_later_draws_left_out(
    small: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    lines = (small / "municipium-00000.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines[1:-1]]
    draws = [i for i, e in enumerate(events) if "player" not in e]
    cut = draws[3]
    events[cut]["kind"] = "senator"  # no such citizen: the fourth draw is refused
    (folder / "bad.jsonl").write_text("\n".join([lines[0], *map(json.dumps, events)]) + "\n")
    result = runner.invoke(app, ["fairness", str(folder), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["results"][0]["status"] in ("illegal", "malformed")
    assert report["results"][0]["line"] == cut + 2
    tested = sum(g["draws"] + g["forced"] for g in report["fairness"]["groups"])
    assert tested == 3  # the draws before the problem


def test_usage_errors_exit_2_in_one_line(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (
        ["fairness"],
        ["fairness", "no/such/folder"],
        ["fairness", str(small), "--alpha", "1.5"],
        ["fairness", str(small), "--power", "0.005", "--alpha", "0.01"],
        ["fairness", str(small), "--effect", "0"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
    monkeypatch.setattr("rules_oracle.stats_available", lambda: False)
    result = runner.invoke(app, ["fairness", str(small)])
    assert result.exit_code == 2
    assert result.output.strip() == f"rules-oracle: error: {rules_oracle.STATS_MISSING}"
    assert "pip install 'rules-oracle[stats]'" in result.output


def test_logs_with_no_draw_to_test_are_never_a_pass(tmp_path: Path) -> None:
    # A folder of files that are not logs (each malformed), or logs failing before their
    # first draw: nothing could be tested. The verdicts are reported, then one line, exit 2.
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.jsonl").write_text("not a log\n")
    (folder / "b.jsonl").write_text("")
    result = runner.invoke(app, ["fairness", str(folder)])
    assert isinstance(result.exception, SystemExit)
    assert result.exit_code == 2, result.output
    assert "2 logs: 0 valid, 0 incomplete, 2 malformed" in result.stdout
    assert result.stderr.strip() == (
        "rules-oracle: error: no test could run: no chance draw with two or more outcomes in "
        "2 logs (0 valid): never a pass"
    )

"""Every reproducer of issue 11 (hardening), each failing on the code as it landed (5a40ae7).

Each bad input must end as the user's problem: a verdict naming the file and line, an
ERROR result, or a usage error (exit 2); never exit 3, never a lost report. Expected exit
codes and verdict kinds come from docs/cli.md.
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fuzz_inputs import ALIAS_BOMB, ROOT, nested
from typer.testing import CliRunner

from oracle.formats.log import header_line
from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, play_lines
from oracle.replay import Divergence, Verdict, validate_log
from oracle.report import verdict_json, verdict_text, verdicts_junit
from oracle.scenarios import run_all, run_scenario
from reference.core import paths, yamlfile
from reference.registry import make_game
from rules_oracle_cli.cli import app

runner = CliRunner()
SETUP = ROOT / "scenarios/municipium/MUN-SETUP-initial-position-three-players.yaml"


@cache
def played(game: str) -> tuple[str, ...]:
    """A seeded two-player log of ``game`` (header, events with claims, result)."""
    return tuple(play_lines(make_game(game, {}), PLAYER_NAMES[:2], 0, {}))


def write_log(tmp_path: Path, lines: list[str], name: str = "g.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def with_claim(line: str, path: str, value: Any) -> str:
    record = json.loads(line)
    record["state"] = {**record.get("state", {}), path: value}
    return json.dumps(record)


def validate_json(*args: str) -> tuple[int, list[dict[str, Any]]]:
    result = runner.invoke(app, ["validate", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)["results"]


# --- state paths: one grammar, never a ValueError ----------------------------------------


@pytest.mark.parametrize("path", ["players.²", "players.--1", "seats.²", "seats.--1", "seats.+1"])
def test_digit_like_segments_name_nothing(path: str) -> None:
    state = {"players": {"red": 1, 2: "two"}, "seats": ("red", "blue")}
    with pytest.raises(paths.UnknownPath):
        paths.read(state, path)


def test_the_grammar_reads_plain_digits_as_numbers() -> None:
    state = {"players": {"red": 1, 2: "two", -1: "minus"}, "seats": ("red", "blue")}
    assert [paths.read(state, p) for p in ("seats.1", "players.2", "players.-1")] == [
        "blue",
        "two",
        "minus",
    ]
    assert paths.segments("a.b.0") == ("a", "b", "0")
    for bad in ("", "a..b", ".a", "x" * 1001, ".".join("a" * 65)):
        with pytest.raises(paths.UnknownPath):
            paths.segments(bad)


@pytest.mark.parametrize(
    ("game", "path"),
    [("milestones", "players.²"), ("milestones", "players.--1"), ("pillars", "seats.²")],
)
def test_a_digit_like_claim_is_malformed_not_internal(tmp_path: Path, game: str, path: str) -> None:
    lines = list(played(game)[:3])
    lines[1] = with_claim(lines[1], path, 1)
    code, (verdict,) = validate_json(str(write_log(tmp_path, lines)))
    assert (code, verdict["status"], verdict["line"]) == (1, "malformed", 2)
    assert path in verdict["message"]


def test_a_digit_like_path_in_a_scenario_is_an_error(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        SETUP.read_text().replace("steps: []", "given:\n  state: {players.²: 1}\nsteps: []")
    )
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    cli = runner.invoke(app, ["scenarios", str(scenario)])
    assert cli.exit_code == 1
    assert cli.stdout.startswith("ERROR ")


# --- reports: total, and one log never loses the others -------------------------------------


def test_a_deeply_nested_claim_keeps_the_whole_json_report(tmp_path: Path) -> None:
    lines = list(played("milestones")[:3])
    deep = lines.copy()
    deep[1] = with_claim(deep[1], "phase", nested(300))
    code, verdicts = validate_json(
        str(write_log(tmp_path, deep, "a.jsonl")), str(write_log(tmp_path, lines, "b.jsonl"))
    )
    assert code == 1
    assert [v["status"] for v in verdicts] == ["malformed", "incomplete"]
    assert "nested deeper than 64 levels" in verdicts[0]["message"]


def test_renderers_are_total_on_deep_and_huge_values() -> None:
    claimed = nested(3000, "\ud800" * 3 + "\x00" + "x" * 100_000)
    verdict = Verdict(
        "g\ud800.jsonl",
        "divergent",
        "1 claimed value differs \x1b[31m",
        divergences=(Divergence("players.\x00", claimed, {"\udfff": [1]}),),
    )
    text = verdict_text(verdict)
    text.encode("utf-8")
    assert "\x1b" not in text and "\\x1b" in text
    assert len(text) < 10_000
    json.loads(json.dumps(verdict_json(verdict)))
    ET.fromstring(verdicts_junit([verdict], strict=False))


@pytest.mark.parametrize("name", ["\ud800", "a\x1b[2Jb", "nul\x00", "\x0b\x0c", "\ufffe"])
@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_any_player_name_renders_in_every_format(tmp_path: Path, name: str, fmt: str) -> None:
    move = next(json.loads(line) for line in played("milestones") if '"player"' in line)
    move["player"] = name  # no player of the game: a malformed verdict names the player
    lines = [header_line("milestones", ("red", "blue"), {}), json.dumps(move)]
    result = runner.invoke(app, ["validate", "--format", fmt, str(write_log(tmp_path, lines))])
    assert result.exit_code == 1
    out = result.stdout
    out.encode("utf-8")
    if fmt == "json":
        (verdict,) = json.loads(out)["results"]
        assert (verdict["status"], verdict["line"]) == ("malformed", 2)
        assert verdict["player"] == name.replace("\ud800", "\ufffd")
    elif fmt == "junit":
        assert len(ET.fromstring(out).findall("testcase")) == 1
    else:
        assert "\x1b" not in out and "\x00" not in out


# --- files that cannot be read --------------------------------------------------------------


class _FailingHandle:
    def __enter__(self) -> _FailingHandle:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def readline(self, _: int) -> bytes:
        raise OSError(5, "Input/output error")


class FailingPath(type(Path())):  # type: ignore[misc]
    """A file that opens but fails to read (a bad disk, a network file system)."""

    def open(self, *_: Any, **__: Any) -> Any:  # type: ignore[override]
        return _FailingHandle()


def test_an_io_error_reading_a_log_is_the_users_problem(tmp_path: Path) -> None:
    path = FailingPath(write_log(tmp_path, list(played("milestones")[:2])))
    verdict = validate_log(path, GameCache())
    assert (verdict.kind, verdict.line) == ("malformed", 1)
    assert "cannot read: Input/output error" in verdict.message
    assert verdict.log == str(path)


# --- YAML: aliases bounded, tags refused ----------------------------------------------------


def test_an_alias_bomb_profile_is_a_quick_usage_error(tmp_path: Path) -> None:
    profile = tmp_path / "bomb.yaml"
    profile.write_text(ALIAS_BOMB)
    log = write_log(tmp_path, list(played("milestones")[:2]))
    for args in (["validate", str(log)], ["scenarios", str(SETUP)]):
        started = time.monotonic()
        result = runner.invoke(app, [*args, "--profile", str(profile)])
        assert result.exit_code == 2
        assert "bomb.yaml" in result.stderr and "values" in result.stderr
        assert time.monotonic() - started < 5


def test_an_alias_bomb_or_cycle_in_a_scenario_is_an_error(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(SETUP.read_text() + "\n" + ALIAS_BOMB.replace("a:", "aa:", 1))
    cycle = tmp_path / "cycle.yaml"
    cycle.write_text(
        SETUP.read_text().replace(
            "steps: []", "given:\n  state: {bag: &b {soldier: *b}}\nsteps: []"
        )
    )
    started = time.monotonic()
    results = run_all([bomb, cycle], GameCache(), None)
    assert [r.status for r in results] == ["error", "error"]
    assert "expanded" in results[0].reason and "cycle" in results[1].reason
    assert time.monotonic() - started < 5


def test_a_yaml_tag_is_an_error_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(SETUP.read_text() + "\n!!timestamp 2020-01-01: 1\n")
    (tmp_path / "b.yaml").write_text(SETUP.read_text())
    results = run_all([tmp_path], GameCache(), None)
    assert [(r.path[-6:], r.status) for r in results] == [("a.yaml", "error"), ("b.yaml", "pass")]
    assert "timestamp" in results[0].reason
    assert results[0].line == len(SETUP.read_text().splitlines()) + 2  # after a blank line


@pytest.mark.parametrize(
    "text",
    ["a: !!timestamp 2020-01-01", "a: !!binary aGk=", "a: !!set {x}", "a: .nan", "<<: {a: 1}"],
)
def test_the_loader_reads_only_plain_json_values(text: str) -> None:
    with pytest.raises(yamlfile.yaml.YAMLError):
        yamlfile.load(text)


def test_a_bare_date_stays_text() -> None:
    assert yamlfile.load("a: 2020-01-01") == {"a": "2020-01-01"}


# --- bad scenario input is ERROR ------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("{bag: 5, bag.soldier: 2}", "overlaps 'bag'"),
        ("{bag.soldier: {a: 1}}", "expected int"),
        ("{bag: [soldier]}", "expected a mapping"),
        ("{players.a: 5, players.a.wreaths: 1}", "overlaps 'players.a'"),
    ],
)
def test_bad_given_state_is_an_error(tmp_path: Path, given: str, reason: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        SETUP.read_text().replace("steps: []", f"given:\n  state: {given}\nsteps: []")
    )
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert reason in result.reason


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("1: 2", "extra fields found (1)"),
        ("true: 2", "extra fields found (True)"),
        ("options: {profile: {1: a, b: 2}}", "key 1 is not a data key"),
    ],
)
def test_keys_that_are_not_text_are_errors(tmp_path: Path, extra: str, reason: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SETUP.read_text() + extra + "\n")
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert reason in result.reason


def test_a_given_state_the_invariant_check_cannot_read_is_an_error(tmp_path: Path) -> None:
    source = ROOT / "scenarios/pillars/PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    scenario = tmp_path / "s.yaml"
    scenario.write_text(source.read_text().replace("  state:\n", "  state:\n    market: {}\n", 1))
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert "given state unsound: the invariant check cannot read it" in result.reason


def test_an_unknown_card_in_a_given_state_is_an_error(tmp_path: Path) -> None:
    source = ROOT / "scenarios/pillars/PIL-ADV-08-tax-exemption-is-a-held-card.yaml"
    scenario = tmp_path / "s.yaml"
    scenario.write_text(source.read_text().replace("    - tax_exemption\n", "    - zz\n"))
    result = run_scenario(scenario, GameCache())
    assert result.status == "error"
    assert "'zz' is no card of this game" in result.reason


def test_a_scenario_may_not_list_legal_events_without_end(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    many = "\n".join(
        ["    excludes:", "    - &e {type: draw_citizen, kind: soldier}"] + ["    - *e"] * 1000
    )
    scenario.write_text(SETUP.read_text() + "  legal:\n" + many + "\n")
    started = time.monotonic()
    result = run_scenario(scenario, GameCache())
    assert (result.status, "more than 1000 events" in result.reason) == ("error", True)
    assert time.monotonic() - started < 5


def test_one_crashing_scenario_file_loses_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oracle import scenarios

    (tmp_path / "a.yaml").write_text(SETUP.read_text())
    (tmp_path / "b.yaml").write_text(SETUP.read_text().replace("id: MUN-", "id: B-MUN-"))
    real = scenarios.load_scenario

    def crash_on_a(path: Path) -> Any:
        if path.name == "a.yaml":
            raise RuntimeError("injected")
        return real(path)

    monkeypatch.setattr(scenarios, "load_scenario", crash_on_a)
    results = run_all([tmp_path], GameCache(), None)
    assert [r.status for r in results] == ["internal_error", "pass"]
    assert "internal error in rules-oracle" in results[0].reason


# --- profiles: a usage error before any work, the same for every command ----------------------


@pytest.mark.parametrize("command", ["validate", "scenarios", "play"])
def test_an_unknown_profile_key_is_exit_2_for_every_command(tmp_path: Path, command: str) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text("no_such.key: 3\n")
    log = write_log(tmp_path, list(played("milestones")[:2]))
    args = {
        "validate": ["validate", str(log)],
        "scenarios": ["scenarios", str(SETUP)],
        "play": ["play", "--game", "milestones", "--players", "2"],
    }[command]
    result = runner.invoke(app, [*args, "--profile", str(profile)])
    assert result.exit_code == 2
    assert "no_such.key" in result.stderr and "p.yaml" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("options", ["[" * 5000 + "]" * 5000, '{"a": NaN}', '{"a": 1, "a": 2}'])
def test_bad_options_json_is_exit_2(options: str) -> None:
    result = runner.invoke(
        app, ["play", "--game", "palmyra", "--players", "2", "--options", options]
    )
    assert result.exit_code == 2
    assert result.stderr.startswith("rules-oracle: error: --options: ")


def _shipped(game: str, key: str) -> Any:
    return json.loads(json.dumps(make_game(game, {}).data.value(key)))


@pytest.mark.parametrize("profile", [{"bank.total": 0}, {"tiles.mix": {}}])
@pytest.mark.parametrize("command", ["validate", "scenarios", "play"])
def test_a_profile_refused_at_set_up_is_exit_2_for_every_command(
    tmp_path: Path, profile: dict[str, Any], command: str
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(profile))
    log = write_log(tmp_path, list(played("palmyra")[:2]))
    args = {
        "validate": ["validate", str(log)],
        "scenarios": ["scenarios", str(ROOT / "scenarios" / "palmyra"), "--game", "palmyra"],
        "play": ["play", "--game", "palmyra", "--players", "2"],
    }[command]
    result = runner.invoke(app, [*args, "--profile", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rules-oracle: error: --profile {path}: palmyra: data ")


def _pillars_profile(key: str, card: str, field: str, value: Any) -> dict[str, Any]:
    table = _shipped("pillars", key)
    table[card][field] = value
    return {key: table}


@pytest.mark.parametrize(
    ("key", "card", "field", "value"),
    [
        ("advantages.cards", "madonna", "effect", {"a": 1}),  # a mapping in an effect
        ("craftsmen.round_cards", "mason_1", "round", 0),  # a card moved to round 0
    ],
)
def test_nested_profile_values_are_refused_or_played(
    tmp_path: Path, key: str, card: str, field: str, value: Any
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_pillars_profile(key, card, field, value)))
    out = tmp_path / "out.jsonl"
    args = ["play", "--game", "pillars", "--players", "2", "-o", str(out), "--profile", str(path)]
    assert runner.invoke(app, args).exit_code in (0, 2)


def test_a_huge_yield_plays_in_bounded_time(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    profile = _pillars_profile("cards.resource_cards", "gravel_small", "yield", 10_000_000)
    path.write_text(json.dumps(profile))
    started = time.monotonic()
    args = ["play", "--game", "pillars", "--players", "2", "-o", str(tmp_path / "o.jsonl")]
    assert runner.invoke(app, [*args, "--profile", str(path)]).exit_code in (0, 2)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    "text",
    [b"\xff\xfe", b"- a\n- b\n", b"1: 2\n", b"a: !!timestamp 2020-01-01\n", b"[" * 300],
)
def test_an_unreadable_profile_is_exit_2(tmp_path: Path, text: bytes) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_bytes(text)
    log = write_log(tmp_path, list(played("milestones")[:2]))
    result = runner.invoke(app, ["validate", str(log), "--profile", str(profile)])
    assert result.exit_code == 2
    assert "p.yaml" in result.stderr

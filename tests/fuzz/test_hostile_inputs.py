"""Reproducers of a hostile fuzz run, written without looking at the project's own fuzzer:
each failed on the code before its fix (exit 3, a report that was not JSON, a lost report).

Every bad input ends as the user's problem: a verdict naming the file and line, an ERROR
result, or a usage error (exit 2); never exit 3, never a lost report, never a report that
breaks its own format (RFC 8259 JSON has no NaN or Infinity).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.formats.log import NotJSON, decode_line, strict_json
from oracle.play import PLAYER_NAMES, play_lines
from reference.registry import make_game
from rules_oracle_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def rfc_json(text: str) -> Any:
    """``text`` read as RFC 8259 JSON: NaN, Infinity and -Infinity are not values."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


def two_player_log(game: str) -> list[str]:
    return list(play_lines(make_game(game, {}), PLAYER_NAMES[:2], 0, {}))


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- numbers JSON does not have ------------------------------------------------------------


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1E400", "123456789e999"])
def test_a_number_too_large_for_a_float_is_not_json(number: str) -> None:
    with pytest.raises(NotJSON, match="too large a number"):
        strict_json(f'{{"a": {number}}}')
    with pytest.raises(Exception, match=r"line 7: not strict JSON: .*too large"):
        decode_line(7, f'{{"a": [{number}]}}\n'.encode())


def test_large_finite_numbers_are_still_read() -> None:
    assert strict_json("[1.5e308, -2.5e-300, 10]") == [1.5e308, -2.5e-300, 10]


def test_a_log_with_an_infinite_claim_is_malformed_and_the_report_is_json(
    tmp_path: Path,
) -> None:
    lines = two_player_log("palmyra")
    record = json.loads(lines[3])
    record["state"] = {"bank": 12345}
    text = json.dumps(record).replace("12345", "1e999")
    bad = write(tmp_path, "bad.jsonl", [*lines[:3], text, *lines[4:]])
    good = write(tmp_path, "good.jsonl", lines)
    result = runner.invoke(app, ["validate", "--format", "json", str(bad), str(good)])
    assert result.exit_code == 1
    report = rfc_json(result.stdout)
    kinds = {Path(r["file"]).name: (r["status"], r["line"]) for r in report["results"]}
    assert kinds == {"bad.jsonl": ("malformed", 4), "good.jsonl": ("valid", None)}


def test_an_engine_answering_infinity_is_flagged(tmp_path: Path) -> None:
    # a fake engine: our serve, with every state value it sends written as 1e999
    script = tmp_path / "engine.py"
    script.write_text(
        "import sys, json, subprocess\n"
        "proc = subprocess.Popen([sys.executable, '-m', 'rules_oracle_cli', 'serve',"
        " '--game', 'palmyra'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
        "for line in sys.stdin:\n"
        "    proc.stdin.write(line); proc.stdin.flush()\n"
        "    answer = proc.stdout.readline()\n"
        "    if json.loads(line).get('op') == 'state':\n"
        "        data = json.loads(answer)\n"
        "        data['values'] = {k: 0 for k in data['values']}\n"
        "        answer = json.dumps(data).replace(': 0', ': 1e999') + '\\n'\n"
        "    sys.stdout.write(answer); sys.stdout.flush()\n",
        encoding="utf-8",
    )
    import sys

    engine = f"{sys.executable} {script}"
    result = runner.invoke(
        app,
        ["conform", "--engine", engine, "--game", "palmyra", "--players", "2", "--games", "1"]
        + ["--part", "playout", "--format", "json", "--shrink-seconds", "0"],
    )
    assert result.exit_code == 1, result.stdout
    report = rfc_json(result.stdout)
    kinds = [f["kind"] for f in report["findings"]]
    assert kinds and kinds[0] in ("garbage", "shape"), kinds


# --- text no encoding can write ----------------------------------------------------------


def with_lone_surrogate(lines: list[str]) -> list[str]:
    """The log with a player field of its first event holding a lone surrogate (JSON
    allows the escape ``\\ud800``; Python reads it as a str it cannot encode)."""
    record = json.loads(lines[1])
    record["player"] = "\ud800x"
    return [lines[0], json.dumps(record), *lines[2:]]


def test_a_lone_surrogate_costs_no_verdict_and_no_page(tmp_path: Path) -> None:
    lines = two_player_log("palmyra")
    bad = write(tmp_path, "bad.jsonl", with_lone_surrogate(lines))
    good = write(tmp_path, "good.jsonl", lines)
    pages = tmp_path / "pages"
    result = runner.invoke(
        app, ["validate", "--format", "json", "--html", str(pages), str(bad), str(good)]
    )
    assert result.exit_code == 1
    statuses = [r["status"] for r in rfc_json(result.stdout)["results"]]
    assert statuses == ["malformed", "valid"]
    page = (pages / "bad.html").read_text(encoding="utf-8")
    assert "\\ud800x" in page  # the escape, which the page's script reads back as written


def test_replay_writes_a_page_of_a_log_with_a_lone_surrogate(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", with_lone_surrogate(two_player_log("milestones")))
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["replay", str(bad), "-o", str(out)])
    assert result.exit_code == 1
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_page_that_cannot_be_written_loses_no_verdict(tmp_path: Path) -> None:
    lines = two_player_log("palmyra")
    bad = write(tmp_path, "bad.jsonl", lines[:3] + ['{"type": "nothing"}'])
    good = write(tmp_path, "good.jsonl", lines)
    pages = tmp_path / "pages"
    (pages / "bad.html").mkdir(parents=True)  # a folder where the page would go
    result = runner.invoke(
        app, ["validate", "--format", "json", "--html", str(pages), str(bad), str(good)]
    )
    assert result.exit_code == 2
    assert [r["status"] for r in rfc_json(result.stdout)["results"]] == ["malformed", "valid"]
    assert f"cannot write {pages / 'bad.html'}" in result.stderr


# --- positions checked whole before any rule runs ----------------------------------------

MUNICIPIUM_OVER = ROOT / "scenarios/municipium/CORE-END-01-municipium-no-event-after-the-end.yaml"
PALMYRA_LEGAL = ROOT / "scenarios/palmyra/PAL-CHAIN-03-legal-after-icon-tile.yaml"


def scenario_result(tmp_path: Path, text: str) -> dict[str, Any]:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["scenarios", str(path), "--format", "json"])
    assert result.exit_code == 1, result.stdout
    (item,) = rfc_json(result.stdout)["results"]
    return dict(item)


def test_a_members_map_without_every_institution_is_an_error(tmp_path: Path) -> None:
    text = MUNICIPIUM_OVER.read_text(encoding="utf-8").replace(
        "players.a.members: {temple: 7, tavern: 0, baths: 0, emporium: 0, basilica: 0, "
        "forum: 0, praetorium: 0}",
        "players.a.members: {temple: 7, tavern: 0, baths: 0, emporium: 0, basilica: 0, forum: 0}",
    )
    item = scenario_result(tmp_path, text.replace("phase: over", "phase: draw"))
    assert item["status"] == "error"
    assert "players.a.members lacks praetorium" in item["message"]


def test_a_map_naming_a_stranger_institution_is_an_error(tmp_path: Path) -> None:
    text = MUNICIPIUM_OVER.read_text(encoding="utf-8").replace("praetorium: 0}", "latrine: 0}", 1)
    item = scenario_result(tmp_path, text)
    assert item["status"] == "error"
    assert "has latrine" in item["message"] and "lacks praetorium" in item["message"]


def test_a_pillars_queue_naming_no_player_is_an_error() -> None:
    import rules_oracle

    position = rules_oracle.load("pillars").setup(["red", "blue"])
    with pytest.raises(rules_oracle.Malformed, match="queue names 'zz', who is not playing"):
        position.with_values({"queue": ["zz"]})


@pytest.mark.parametrize("which", ["includes", "excludes"])
def test_a_listed_event_naming_what_the_game_lacks_is_an_error(tmp_path: Path, which: str) -> None:
    stranger = "    - {type: place_tile, player: a, tile: 'zz', cell: '1,0'}\n"
    text = PALMYRA_LEGAL.read_text(encoding="utf-8").replace(
        f"  {which}:\n", f"  {which}:\n{stranger}"
    )
    item = scenario_result(tmp_path, text)
    assert item["status"] == "error"
    assert item["message"].startswith(f"expect.legal.{which}[0]: 'zz' is no tile code")


# --- serve survives any stream -------------------------------------------------------------


def serve_answers(requests: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """Our serve's exit code and its answers to ``requests`` (one line each)."""
    import io

    from oracle.serve import serve

    data = "".join(json.dumps(r) + "\n" for r in requests).encode()
    out = io.StringIO()
    code = serve(("pillars", "milestones", "palmyra", "municipium"), 0, io.BytesIO(data), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_set_state_with_an_incomplete_map_is_refused_and_the_session_goes_on() -> None:
    members = {"temple": 1, "tavern": 0}  # five institutions missing
    code, answers = serve_answers(
        [
            {"op": "new_game", "game": "municipium", "players": ["red", "blue"]},
            {"op": "set_state", "values": {"players.red.members": members}},
            {"op": "next"},
            {"op": "to_act"},
        ]
    )
    assert code == 0 and len(answers) == 4
    assert answers[1]["ok"] is False and "players.red.members lacks" in answers[1]["error"]
    assert answers[2]["ok"] is True and answers[3]["ok"] is True


@pytest.mark.parametrize("name", ["é", "²", "a b", "chance"])
def test_a_player_name_the_schemas_refuse_is_refused_everywhere(tmp_path: Path, name: str) -> None:
    code, answers = serve_answers(
        [{"op": "new_game", "game": "palmyra", "players": ["red", name]}, {"op": "to_act"}]
    )
    assert code == 0 and answers[0]["ok"] is False and "bad player name" in answers[0]["error"]
    lines = two_player_log("palmyra")
    header = json.loads(lines[0])
    header["players"] = ["red", name]
    log = write(tmp_path, "g.jsonl", [json.dumps(header), *lines[1:]])
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (item,) = rfc_json(result.stdout)["results"]
    assert (item["status"], item["line"]) == ("malformed", 1)


@pytest.mark.parametrize("version", ["true", "1.0", '"1"', "null"])
def test_a_version_that_is_not_the_number_1_is_malformed(tmp_path: Path, version: str) -> None:
    lines = two_player_log("milestones")
    header = lines[0].replace('"version": 1', f'"version": {version}')
    assert header != lines[0]
    log = write(tmp_path, "g.jsonl", [header, *lines[1:]])
    result = runner.invoke(app, ["validate", "--format", "json", str(log)])
    assert result.exit_code == 1
    (item,) = rfc_json(result.stdout)["results"]
    assert item["status"] == "malformed"
    assert f"unsupported log version {version}" in item["message"]


@pytest.mark.parametrize("protocol", [True, 1.0, "1"])
def test_hello_with_a_protocol_that_is_not_the_number_1_is_refused(protocol: Any) -> None:
    code, answers = serve_answers([{"op": "hello", "protocol": protocol}])
    assert code == 0 and answers[0]["ok"] is False and "unknown (known: 1)" in answers[0]["error"]


# --- profiles that make the game impossible --------------------------------------------------

DUPLICATE_CRAFTSMEN = {"setup.starting_craftsmen": ["woodworker", "woodworker", "mortar_mixer"]}
NO_GOODS = {"supply.cubes_per_good": 0}


def play_with(tmp_path: Path, game: str, profile: dict[str, Any], how: str) -> Any:
    """``play`` given ``profile`` as a --profile file or inside --options."""
    args = ["play", "--game", game, "--players", "2"]
    if how == "file":
        path = tmp_path / "profile.json"
        path.write_text(json.dumps(profile), encoding="utf-8")
        return runner.invoke(app, [*args, "--profile", str(path)])
    return runner.invoke(app, [*args, "--options", json.dumps({"profile": profile})])


@pytest.mark.parametrize("how", ["file", "options"])
@pytest.mark.parametrize(
    ("game", "profile", "said"),
    [
        # PIL-SETUP-02: one card of each starting craftsman; twice the same is no setup.
        (
            "pillars",
            DUPLICATE_CRAFTSMEN,
            "data key setup.starting_craftsmen: expected each name once (woodworker more",
        ),
        # MIL-COMP-02: goods come from the cubes; with none, nothing can ever be built
        # (a marketplace asks 2 stone: fewer than 2 stone cubes and it is never paid).
        (
            "milestones",
            NO_GOODS,
            "data key supply.cubes_per_good: expected at least 2 (the most of one good a "
            "cost asks: marketplace), got 0",
        ),
    ],
)
def test_a_profile_that_makes_the_game_impossible_is_a_usage_error(
    tmp_path: Path, game: str, profile: dict[str, Any], said: str, how: str
) -> None:
    result = play_with(tmp_path, game, profile, how)
    assert result.exit_code == 2, (result.stdout[:200], result.exception)
    assert result.stdout == ""
    assert said in result.stderr and "internal error" not in result.stderr


def test_such_a_profile_is_refused_when_the_rules_are_made() -> None:
    import rules_oracle

    cases: list[tuple[str, dict[str, Any], str]] = [
        ("pillars", DUPLICATE_CRAFTSMEN, "setup.starting_craftsmen"),
        ("milestones", NO_GOODS, "supply.cubes_per_good"),
    ]
    for game, profile, key in cases:
        with pytest.raises(rules_oracle.BadOptions, match=key):
            rules_oracle.load(game, profile=profile)


def test_a_setup_the_invariants_call_unsound_refuses_the_profile() -> None:
    """The general check behind the tables' own: every player count is set up once and its
    invariants asked; a count the data cannot set up at all is left to whoever asks."""
    from reference.core.errors import BadOptions
    from reference.core.game import unsound_setup

    real = make_game("municipium", {})

    class Unsound:
        min_players, max_players = 2, 4

        def new_game(self, players: list[str]) -> Any:
            if len(players) == 2:
                raise BadOptions("not for two")
            return real.new_game(players)

        def invariant_failures(self, state: Any) -> list[str]:
            return ["a citizen twice"] if len(state.players) == 4 else []

    problem = unsound_setup(Unsound())  # type: ignore[arg-type]
    assert problem == "the setup for 4 players is unsound: a citizen twice"
    assert unsound_setup(real) is None


@pytest.mark.parametrize(
    ("game", "key", "value"),
    [
        # Milestones: every worker covered at the Castle (MIL-CASTLE-03 with "more than 0"),
        # and nothing kept from one turn to the next (MIL-CASTLE-02 with "at most 0").
        ("milestones", "castle.cover_if_workers_over", 0),
        ("milestones", "castle.keep_max", 0),
        # Municipium: a common deck of the one card that sends the prefect to the tavern.
        ("municipium", "cards.common_cards", "first card only"),
    ],
)
def test_a_profile_under_which_no_seeded_game_ends_is_found(
    game: str, key: str, value: Any
) -> None:
    from oracle.play import unending

    if value == "first card only":
        value = make_game(game, {}).data.value(key)[:1]
    rules = make_game(game, {"profile": {key: value}})
    # A shipped game ends within 3,000 events (seeded play, every count); 20,000 is ample.
    problem = unending(rules, budget=20_000)
    assert problem is not None and problem.endswith("has not ended after 20000 events")
    assert unending(make_game(game, {}), budget=20_000) is None


@pytest.mark.slow
def test_play_refuses_a_profile_under_which_no_game_ends(tmp_path: Path) -> None:
    result = play_with(tmp_path, "milestones", {"castle.cover_if_workers_over": 0}, "file")
    assert result.exit_code == 2, (result.stdout[:200], result.exception)
    assert (
        "milestones: profile (castle.cover_if_workers_over): a game of 2 players (seed 0) "
        "has not ended after 200000 events: a profile must let the game end"
    ) in result.stderr


def test_play_without_end_under_a_profile_is_the_profile_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the check (another seed may still run on), ``play`` ends the endless game as
    the profile's, naming its keys; with no profile it stays our bug."""
    import oracle.play
    from reference.core.errors import BadOptions, EngineInvariantError

    monkeypatch.setattr(oracle.play, "MAX_EVENTS", 30)
    profile = {"setup.start_vp": 2}
    game = make_game("pillars", {"profile": profile})
    with pytest.raises(BadOptions, match=r"^profile \(setup.start_vp\): no end after 30 events"):
        list(play_lines(game, PLAYER_NAMES[:2], 0, {"profile": profile}))
    with pytest.raises(EngineInvariantError, match="no end after 30 events"):
        list(play_lines(make_game("pillars", {}), PLAYER_NAMES[:2], 0, {}))

"""Hostile and careless inputs (Hypothesis strategies) and the checks every input must pass.

Strategies build bytes from real material (seeded play-out logs of every game, the shipped
scenario files, each game's data keys), then break them: odd values, odd state paths,
text no terminal or XML can carry, deep nesting, huge numbers, YAML tags and aliases.

The checks run in-process and never raise: each returns a list of problems (empty when
the input was handled as the user's: a verdict or a usage error, never our crash), so a
long run counts every problem instead of stopping at the first. What is checked:
no ``internal_error`` verdict or ``INTERNAL`` result, no exception escaping, every report
(text, JSON, JUnit) renders, its JSON and XML parse, and no input takes over ``SLOW_SECONDS``
of CPU time (CPU, not wall clock: on a shared machine the wall clock measures the others).
"""

from __future__ import annotations

import json
import random
import time
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from oracle.games import GameCache
from oracle.play import PLAYER_NAMES, choose, play_lines
from oracle.replay import validate_log
from oracle.report import (
    scenario_json,
    scenario_text,
    scenarios_junit,
    verdict_json,
    verdict_text,
    verdicts_junit,
)
from oracle.scenarios import run_all
from reference.core import yamlfile
from reference.core.datafile import load_profile_file
from reference.core.errors import BadOptions
from reference.core.game import step
from reference.registry import game_names, make_game

ROOT = Path(__file__).resolve().parents[2]
SLOW_SECONDS = 10.0

# --- text and JSON values -------------------------------------------------------------

ODD_TEXT = [
    "",
    "\ud800",
    "a\udfffb",
    "\x00",
    "\x1b[31mred\x1b[0m",
    "\x0b\x0c\x7f\x85",
    "\ufffe\uffff",
    "\u2028\u2029",
    "é" * 3,
    "<&>\"'",
    "]]>",
    "x" * 5000,
    "\n\r\t",
]
odd_text = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=12),
    st.text(max_size=12),
)
"""Text from a file: any code point, lone surrogates and control characters included."""

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([0, -1, 1, 2, 10**7, 10**30, -(10**30), 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    odd_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(odd_text, inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value (no NaN: the log reader refuses it, and that is tested on its own)."""


def nested(depth: int, leaf: Any = 1) -> Any:
    """A value nested ``depth`` levels deep, alternating lists and objects."""
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


deep_values = st.integers(20, 1200).map(nested)

# --- state paths ----------------------------------------------------------------------

SEGMENTS = [
    "players",
    "red",
    "blue",
    "0",
    "1",
    "-1",
    "--1",
    "²",
    "٣",
    "+1",
    " 1",
    "1e3",
    "99999999999999999999999",
    "x",
    "",
    "gold",
    "seats",
    "market",
    "round",
    "deck",
    "\ud800",
]
path_segments = st.one_of(st.sampled_from(SEGMENTS), odd_text)
state_paths = st.one_of(
    st.lists(path_segments, min_size=1, max_size=6).map(".".join),
    st.sampled_from(["players.²", "players.--1", "seats.²", "players.red.²", "x" * 2000]),
    st.sampled_from([".".join(["players"] * 100)]),
)

# --- logs -----------------------------------------------------------------------------


@cache
def base_logs() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(game, lines) of seeded play-outs: two per game, at the fewest and most players."""
    logs = []
    for name in game_names():
        game = make_game(name, {})
        for seed, players in ((0, game.min_players), (1, game.max_players)):
            lines = tuple(play_lines(game, PLAYER_NAMES[:players], seed, {}))
            logs.append((name, lines))
    return tuple(logs)


def _dumps(record: Any) -> str:
    return json.dumps(record, ensure_ascii=True)


@st.composite
def log_files(draw: st.DrawFn) -> bytes:
    """A log file: a prefix of a real play-out with a few things broken."""
    game, lines = draw(st.sampled_from(base_logs()))
    short, middle, whole = st.integers(0, 8), st.integers(0, 40), st.integers(0, len(lines))
    keep = draw(st.one_of([short] * 12 + [middle] * 7 + [whole]))
    out: list[str | bytes] = list(lines[: keep + 1])
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.integers(0, max(len(out) - 1, 0)))
        out = _mutate_log(draw, out, where)
    return b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in out)


def _record(line: str | bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def _mutate_log(draw: st.DrawFn, out: list[str | bytes], where: int) -> list[str | bytes]:
    kind = draw(
        st.sampled_from(
            [
                "field",
                "claim",
                "deep-claim",
                "header",
                "players",
                "options",
                "raw",
                "drop",
                "dup",
                "result",
                "bytes",
                "json",
            ]
        )
    )
    record = _record(out[where]) if out else None
    if kind == "drop" and out:
        return out[:where] + out[where + 1 :]
    if kind == "dup" and out:
        return out[: where + 1] + out[where:]
    if kind == "bytes":
        junk = draw(
            st.one_of(
                st.binary(max_size=40),
                st.sampled_from([b"\xff\xfe", b"", b"   ", b"{" * 5000, b'{"a": NaN}']),
                st.sampled_from([b"[" * 100_000 + b"]" * 100_000, b'"' + b"x" * 1_000_100]),
            )
        )
        return [*out[:where], junk, *out[where + 1 :]]
    if kind == "json":
        value = draw(st.one_of(json_values, deep_values))
        return [*out[:where], _dumps(value), *out[where + 1 :]]
    if record is None:
        return out
    if kind == "field":
        key = draw(st.one_of(st.sampled_from(sorted(record, key=str) or ["type"]), odd_text))
        record[key] = draw(st.one_of(json_values, deep_values))
    elif kind in ("claim", "deep-claim"):
        claims = record.get("state") if isinstance(record.get("state"), dict) else {}
        value = draw(deep_values if kind == "deep-claim" else json_values)
        claims[draw(_claim_paths(claims))] = value
        record["state"] = claims
    elif kind == "header":
        record[draw(st.sampled_from(["format", "version", "game", "players", "options"]))] = draw(
            json_values
        )
    elif kind == "players":
        record["players"] = draw(st.lists(odd_text, max_size=6))
    elif kind == "options":
        record["options"] = draw(st.one_of(json_values, profile_mappings().map(_as_options)))
    elif kind == "result":
        record = {"result": draw(json_values)}
    elif kind == "raw":
        record = draw(st.dictionaries(odd_text, json_values, max_size=4))
    return [*out[:where], _dumps(record), *out[where + 1 :]]


def _claim_paths(claims: dict[str, Any]) -> st.SearchStrategy[str]:
    """A path claimed already (its value changes), one with an odd last segment, or any."""
    real = sorted(claims) or ["players"]
    odd_last = st.tuples(st.sampled_from(real), path_segments).map(
        lambda pair: pair[0].rsplit(".", 1)[0] + "." + pair[1]
    )
    return st.one_of(st.sampled_from(real), odd_last, state_paths)


def _as_options(profile: dict[str, Any]) -> dict[str, Any]:
    return {"profile": profile}


# --- profiles -------------------------------------------------------------------------


@cache
def data_values() -> tuple[tuple[str, Any], ...]:
    """(data key, shipped value) of every game."""
    return tuple(
        (key, entry.value)
        for name in game_names()
        for key, entry in make_game(name, {}).data.entries.items()
    )


def _changed(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """``value`` with one part replaced: same shape mostly, odd values inside."""
    if depth > 3 or draw(st.integers(0, 3)) == 0:
        return draw(
            st.one_of(
                json_values,
                st.sampled_from([0, -1, 10**7, 10**12, "", [], {}, [[]], None, True]),
            )
        )
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value, key=str)))
        return {**value, key: _changed(draw, value[key], depth + 1)}
    if isinstance(value, list) and value:
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], _changed(draw, value[i], depth + 1), *value[i + 1 :]]
    return draw(json_values)


@st.composite
def profile_mappings(draw: st.DrawFn) -> dict[str, Any]:
    """A profile: real data keys with changed values, now and then an unknown key."""
    known = data_values()
    picks = draw(st.lists(st.sampled_from(known), min_size=1, max_size=3))
    profile = {key: _changed(draw, value) for key, value in picks}
    if draw(st.integers(0, 9)) == 0:
        profile[draw(st.one_of(odd_text, st.integers()))] = draw(json_values)
    return profile


ALIAS_BOMB = "\n".join(
    [
        "a: &a [x, x, x, x, x, x, x, x, x]",
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]",
        "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]",
        "",
    ]
)
ODD_YAML = [
    ALIAS_BOMB,
    "a: !!timestamp 2024-01-01\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!python/object/apply:os.getcwd []\n",
    "a: &a [*a]\n",
    "<<: {a: 1}\n",
    "a: .nan\n",
    "a: " + "9" * 5000 + "\n",
    "[" * 300 + "]" * 300 + "\n",
    "a: 1\na: 2\n",
    "? [a]\n: 1\n",
    "- just\n- a list\n",
    "\t bad: indent\n",
    "a: '\\ud800'\n",
    'a: "\\ud800"\n',
    "",
]


@st.composite
def profile_files(draw: st.DrawFn) -> bytes:
    """A profile file: YAML or JSON text of a profile, or odd YAML, or odd bytes."""
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return draw(st.sampled_from(ODD_YAML)).encode("utf-8", "surrogatepass")
    if choice == 1:
        return draw(st.binary(max_size=60))
    profile = draw(profile_mappings())
    if choice < 6:
        return json.dumps(profile).encode()
    return _yaml_text(profile)


# --- scenarios ------------------------------------------------------------------------


@cache
def base_scenarios() -> tuple[tuple[str, Any], ...]:
    """(text, data) of a spread of the shipped scenario files (every 5th, sorted)."""
    files = sorted((ROOT / "scenarios").rglob("*.yaml"))[::5]
    return tuple((f.read_text(encoding="utf-8"), yamlfile.load(f.read_text())) for f in files)


@st.composite
def scenario_files(draw: st.DrawFn) -> bytes:
    """A scenario file: a shipped one with parts changed, or odd YAML spliced in."""
    text, data = draw(st.sampled_from(base_scenarios()))
    choice = draw(st.integers(0, 9))
    if choice == 0:
        extra = draw(st.sampled_from(ODD_YAML))
        return (text + "\n" + extra).encode("utf-8", "surrogatepass")
    if choice == 1:
        key = draw(st.sampled_from(["options", "given", "expect", "steps", "players"]))
        return (text + f"\nodd: &x [*x]\n{key}: !!timestamp 2020-01-01\n").encode()
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate_scenario(draw, data)
    return _yaml_text(data)


def _yaml_text(data: Any) -> bytes:
    """YAML text of ``data``; JSON text (JSON is YAML) where the dumper cannot nest so deep."""
    try:
        return yaml.safe_dump(data, allow_unicode=False, sort_keys=False).encode()
    except RecursionError:
        return json.dumps(data).encode()


def _mutate_scenario(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(["given-state", "overlap", "step", "exclude", "field", "expect-state"])
    )
    given = data.setdefault("given", {}) if isinstance(data.get("given"), dict) else {}
    expect = data.get("expect") if isinstance(data.get("expect"), dict) else {}
    if kind == "given-state":
        state = given.setdefault("state", {}) if isinstance(given.get("state"), dict) else {}
        path = draw(st.one_of(state_paths, st.sampled_from(_real_paths(data))))
        state[path] = draw(st.one_of(json_values, deep_values))
        given["state"] = state
    elif kind == "overlap":
        path = draw(st.sampled_from(_real_paths(data)))
        given["state"] = {path: draw(json_values), path + "." + draw(path_segments): 1}
    elif kind == "step":
        steps = data.get("steps") if isinstance(data.get("steps"), list) else []
        event = draw(st.dictionaries(odd_text, json_values, max_size=3))
        if draw(st.booleans()) and steps and isinstance(steps[0], dict) and steps[0]:
            field = draw(st.sampled_from(sorted(steps[0], key=str)))
            event = {**steps[0], field: draw(json_values)}
        data["steps"] = [*steps, event]
    elif kind == "exclude":
        legal = expect.setdefault("legal", {}) if isinstance(expect.get("legal"), dict) else {}
        legal[draw(st.sampled_from(["excludes", "includes"]))] = [draw(json_values)]
        expect["legal"] = legal
        expect.pop("illegal", None)
    elif kind == "field":
        key = draw(
            st.one_of(
                st.sampled_from(sorted(data, key=str) or ["id"]),
                odd_text,
                st.integers(),
                st.booleans(),
            )
        )
        data[key] = draw(json_values)
    elif kind == "expect-state":
        expect["state"] = {draw(state_paths): draw(json_values)}
        expect.pop("illegal", None)
    return data


def _real_paths(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    first = players[0] if isinstance(players, list) and players else "red"
    return [f"players.{first}", f"players.{first}.0", "players", "round", "bag", "market"]


# --- checks ---------------------------------------------------------------------------


def _reports_problems(render: dict[str, Any]) -> list[str]:
    """Render each report; a crash, or JSON/XML that does not parse, is a problem."""
    problems = []
    for name, make in render.items():
        try:
            out = make()
            if name == "json":
                json.loads(out)
            elif name == "junit":
                ET.fromstring(out)
            else:
                out.encode("utf-8")
        except Exception as exc:  # noqa: BLE001 - what we hunt
            problems.append(f"{name} report: {type(exc).__name__}: {str(exc)[:200]}")
    return problems


def check_log(path: Path, games: GameCache) -> list[str]:
    """Problems validating and reporting one log file (empty: handled as the user's)."""
    started = time.process_time()
    try:
        verdict = validate_log(path, games)
    except Exception as exc:  # noqa: BLE001 - what we hunt
        return [f"validate_log raised {type(exc).__name__}: {str(exc)[:200]}"]
    problems = []
    if verdict.kind == "internal_error":
        problems.append(f"internal_error: {verdict.message[:300]}")
    problems += _reports_problems(
        {
            "text": lambda: verdict_text(verdict),
            "json": lambda: json.dumps([verdict_json(verdict)]),
            "junit": lambda: verdicts_junit([verdict], strict=False),
        }
    )
    if time.process_time() - started > SLOW_SECONDS:
        problems.append(f"slow: {time.process_time() - started:.1f} s")
    return problems


def check_scenario(path: Path, games: GameCache) -> list[str]:
    """Problems running and reporting one scenario file."""
    started = time.process_time()
    try:
        results = run_all([path], games, None)
    except Exception as exc:  # noqa: BLE001 - what we hunt
        return [f"run_all raised {type(exc).__name__}: {str(exc)[:200]}"]
    problems = [f"INTERNAL: {r.reason[:300]}" for r in results if r.status == "internal_error"]
    problems += _reports_problems(
        {
            "text": lambda: "\n".join(scenario_text(r) for r in results),
            "json": lambda: json.dumps([scenario_json(r) for r in results]),
            "junit": lambda: scenarios_junit(results),
        }
    )
    if time.process_time() - started > SLOW_SECONDS:
        problems.append(f"slow: {time.process_time() - started:.1f} s")
    return problems


def check_profile_file(path: Path, events: int = 60) -> tuple[list[str], list[str]]:
    """(problems at the boundary, problems in a game's set-up or play) for a profile file.

    The boundary is reading the file (only BadOptions may come out). Then each game is
    made with the profile and, when it accepts it, plays ``events`` seeded events: a crash
    there (anything but BadOptions) is a game's own profile check missing.
    """
    started = time.process_time()
    try:
        profile = load_profile_file(path)
    except BadOptions:
        return [], []
    except Exception as exc:  # noqa: BLE001 - what we hunt
        return [f"load_profile_file raised {type(exc).__name__}: {str(exc)[:200]}"], []
    inside = []
    for name in game_names():
        try:
            game = make_game(name, {"profile": profile})
            state = game.new_game(PLAYER_NAMES[: game.min_players])
            rng = random.Random(0)
            for _ in range(events):
                if game.is_over(state) or time.process_time() - started > SLOW_SECONDS:
                    break
                state = step(game, state, choose(game, state, rng))
        except BadOptions:
            continue
        except Exception as exc:  # noqa: BLE001 - what we hunt
            inside.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
    if time.process_time() - started > SLOW_SECONDS:
        inside.append(f"slow: {time.process_time() - started:.1f} s")
    return [], inside

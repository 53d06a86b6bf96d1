"""The replay page: frames (one per event, with the reference state after it) in one HTML file.

A *frame* is a point the page can show: the setup, each replayed event, and the event where
the replay stopped. The page embeds the first frame's state whole and each later frame's
changes to it (see ``state_changes``); the browser rebuilds every state once on load.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import jinja2
from markupsafe import Markup

from oracle.formats.converter import CONVERTER, json_equal, to_json
from oracle.formats.log import EventRecord, Malformed, parse_header, read_lines
from oracle.formats.scenario import BadScenario, LoadedScenario, load_scenario
from oracle.games import GameCache
from oracle.html import milestones, municipium, palmyra, pillars
from oracle.replay import Verdict, validate_log
from oracle.report import scenario_text, verdict_text
from oracle.report_text import STATUS_WORDS, basis_text, legal_groups, legal_heading
from oracle.rulebook import find_rule
from oracle.scenarios import ScenarioResult, run_scenario
from reference.core.game import Game

LAYOUTS: dict[str, Callable[[Game], dict[str, Any]]] = {
    "pillars": pillars.layout,
    "milestones": milestones.layout,
    "palmyra": palmyra.layout,
    "municipium": municipium.layout,
}
"""Each game's board layout, read from its data tables (so a profile's map draws)."""


TEMPLATES = Path(__file__).resolve().parent / "templates"


@attrs.frozen
class Frame:
    """One point of the replay: what happened and the reference state after it.

    ``mark`` is "" for an ordinary frame, "failing" where the verdict points, "expected"
    where a scenario's step broke the rule it was meant to break; ``note`` says more;
    ``tried``: the event was not applied (the board shows the position it was tried in).
    """

    title: str
    line: int | None
    event: dict[str, Any] | None
    state: Any
    mark: str = ""
    note: str = ""
    tried: bool = False


NOT_APPLIED = "not applied: the board shows the reference position it was tried in"
BEFORE_STEP = "the board shows the reference position before this step"
RESULT_TITLE = "result"
"""The frame after the last event of a finished game (``#result``): the final position."""
CLAIMED_RESULT = "the log's claimed result: the board shows the final reference position"


def state_changes(old: Any, new: Any, at: tuple[str, ...] = ()) -> list[list[Any]]:
    """What turns JSON value ``old`` into ``new``: ``[path, value]`` sets a value,
    ``[path]`` removes a key; objects are compared key by key, anything else is replaced."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return [] if json_equal(old, new) else [[list(at), new]]
    changes: list[list[Any]] = [[[*at, key]] for key in old if key not in new]
    for key, value in new.items():
        if key not in old:
            changes.append([[*at, key], value])
        else:
            changes += state_changes(old[key], value, (*at, key))
    return changes


def _without_claims(raw: dict[str, Any]) -> dict[str, Any]:
    """An event record as the page lists it (the claimed values show in the verdict)."""
    return {k: v for k, v in raw.items() if k != "state"}


def _readable_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The log's lines as JSON objects, up to the first unreadable one."""
    try:
        yield from read_lines(path)
    except Malformed:
        return


def _failing_title(verdict: Verdict, raw: dict[str, Any] | None) -> str:
    """What the page calls the line the verdict points at."""
    if verdict.event_index is not None:
        return f"event {verdict.event_index}"
    return "result" if raw is not None and "result" in raw else f"line {verdict.line}"


def log_page(path: Path, games: GameCache) -> tuple[str, Verdict]:
    """The replay page of one log, and the log's verdict."""
    seen: list[tuple[EventRecord | None, Any]] = []
    verdict = validate_log(path, games, on_state=lambda record, state: seen.append((record, state)))
    title = f"{path.name}: {verdict.kind}"
    if not seen:  # nothing replayed: no setup to draw
        return render(title, None, {}, [], _verdict_data(verdict)), verdict
    header = parse_header(*next(read_lines(path)))  # it was read once already: it is sound
    game = games.get(header.game, header.options)
    frames = [Frame("setup", 1, None, to_json(seen[0][1]))]
    for index, (record, state) in enumerate(seen[1:]):
        if record is not None:
            frames.append(
                Frame(f"event {index}", record.line, _without_claims(record.raw), to_json(state))
            )
    lines = dict(_readable_lines(path))
    data = _verdict_data(verdict)
    final = seen[-1][1]
    if game.is_over(final):
        frames = _with_result(verdict, frames, lines)
        if frames[-1].title == RESULT_TITLE:
            result = game.result(final)
            data["result"] = {"scores": result.scores, "winners": list(result.winners)}
    frames = _mark_log_failure(verdict, frames, lines)
    if verdict.fails():
        last_line = frames[-1].line or 0
        data["not_replayed"] = sum(1 for n in lines if n > last_line)
    return render(title, game.name, LAYOUTS[game.name](game), frames, data), verdict


def _with_result(
    verdict: Verdict, frames: list[Frame], lines: dict[int, dict[str, Any]]
) -> list[Frame]:
    """The frames and, when the game is over and the verdict is about no earlier line, the
    result frame: the final position, with the log's result line if it has one."""
    claimed = next(((n, raw) for n, raw in lines.items() if "result" in raw), None)
    line = claimed[0] if claimed else None
    if verdict.kind != "valid" and (line is None or verdict.line != line):
        return frames
    raw = claimed[1] if claimed else None
    return [*frames, Frame(RESULT_TITLE, line, raw, frames[-1].state)]


def _mark_log_failure(
    verdict: Verdict, frames: list[Frame], lines: dict[int, dict[str, Any]]
) -> list[Frame]:
    """The frames with the one the verdict points at marked (added if it was not replayed)."""
    if verdict.kind == "valid":
        return frames
    last = frames[-1]
    if verdict.kind == "incomplete":
        note = "the log ends here, but the game is not over"
        return [*frames[:-1], attrs.evolve(last, mark="failing", note=note)]
    if verdict.line is None:  # a crash of ours, after the last event replayed
        return [*frames[:-1], attrs.evolve(last, mark="failing")]
    if last.line == verdict.line:
        note = "applied: the board shows the reference position after it"
        if last.title == RESULT_TITLE:
            note = CLAIMED_RESULT
        return [*frames[:-1], attrs.evolve(last, mark="failing", note=note)]
    raw = lines.get(verdict.line)
    event = _without_claims(raw) if raw is not None else None
    title = _failing_title(verdict, raw)
    return [*frames, Frame(title, verdict.line, event, last.state, "failing", NOT_APPLIED, True)]


def _verdict_data(verdict: Verdict) -> dict[str, Any]:
    """The verdict as the page shows it: its fields, the report's text, what the rule's
    status means, what unconfirmed values it rests on, and each divergence's trail."""
    data: dict[str, Any] = CONVERTER.unstructure(verdict)
    data.pop("state_at", None)
    data["text"] = verdict_text(verdict)
    data["failed"] = verdict.kind != "valid"
    if verdict.rule_status:
        data["status_words"] = STATUS_WORDS.get(verdict.rule_status, "")
    if (verdict.placeholders or verdict.placeholder_rules) and verdict.kind != "malformed":
        if verdict.kind == "illegal":
            data["unconfirmed"] = basis_text(verdict)
        else:
            data["placeholders_in_force"] = ", ".join(verdict.placeholders)
    for divergence in data["divergences"]:
        divergence["trail"] = [_trail_step(cause) for cause in divergence["causes"]]
    data["legal_words"] = [_event_words(event) for event in verdict.legal]
    # Several players' pending decisions are shown each under its player, as the report does.
    data["legal_heading"] = legal_heading(verdict)
    groups = legal_groups(verdict)
    if len(groups) > 1 or data["legal_heading"] == "legal there":
        data["legal_groups"] = [
            {"player": player or "chance", "events": [(e, _event_words(e)) for e in events]}
            for player, events in groups
        ]
    return data


def _event_words(event: dict[str, Any]) -> str:
    """An event in one short line, as the page's event list shows it (start.js):
    ``red take_resource_card card="gravel_small"`` (values as compact JSON)."""
    rest = " ".join(
        f"{k}={json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
        for k, v in event.items()
        if k not in ("type", "player")
    )
    parts = [event.get("player"), event.get("type"), rest]
    return " ".join(str(part) for part in parts if part not in (None, ""))


_AT_EVENT = re.compile(r" at event (\d+)(?=:|$)")


def _trail_step(cause: str) -> dict[str, Any]:
    """One change of a divergent value (``+5 PIL-CARDS-07 (Wool mill) at event 30``, or
    ``-7 PIL-BUILD-02 (...) at event 9: cost 7: the cost marker`` with what the rule gave,
    as ``oracle.explain`` words it) with the event it names, for a link to that event."""
    found = _AT_EVENT.search(cause)
    return {"text": cause, "event": int(found.group(1)) if found else None}


def scenario_page(path: Path, games: GameCache) -> tuple[str, ScenarioResult]:
    """The replay page of one scenario file, and its result."""
    frames: list[Frame] = []

    def record(what: str, line: int | None, raw: dict[str, Any] | None, state: Any) -> None:
        frames.append(Frame(what, line, raw, to_json(state)))

    result = run_scenario(path, games, on_state=record)
    data = CONVERTER.unstructure(result)
    data["kind"] = result.status
    data["message"] = result.reason
    data["text"] = scenario_text(result)
    data["failed"] = result.status != "pass"
    title = f"{path.name}: {result.status}"
    if result.game is None or not frames:
        return render(title, None, {}, [], data), result
    try:
        loaded = load_scenario(path)
    except BadScenario:  # it loaded a moment ago; a file changed under us is the user's
        return render(title, None, {}, [], data), result
    sc = loaded.scenario
    game = games.get(sc.game, sc.options)
    data["scenario"] = {
        "id": sc.id,
        "description": sc.description,
        "source": sc.source,
        "rules": [_rule_standing(game, rule_id) for rule_id in sc.rules],
        "expect": _dropping_none(CONVERTER.unstructure(sc.expect)),
    }
    if result.placeholders or result.placeholder_rules:
        data["unconfirmed"] = basis_text(result)
    if sc.expect.illegal is not None and result.status == "pass":
        data["rule_id"] = " or ".join(sc.expect.illegal.rules())
        rule_id = sc.expect.illegal.rule
        rule = find_rule(game, rule_id) if rule_id is not None else None
        if rule is not None:
            data["rule_title"] = rule.title
            data["rule_status"] = rule.status
            data["status_words"] = STATUS_WORDS.get(rule.status, "")
    frames = _mark_scenario(result, loaded, frames)
    return render(title, game.name, LAYOUTS[game.name](game), frames, data), result


def _rule_standing(game: Game, rule_id: str) -> dict[str, str]:
    """A rule a scenario cites: its id, title and status."""
    rule = find_rule(game, rule_id)
    if rule is None:
        return {"id": rule_id, "title": "", "status": "", "status_words": ""}
    words = STATUS_WORDS.get(rule.status, "")
    return {"id": rule_id, "title": rule.title, "status": rule.status, "status_words": words}


def _dropping_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _dropping_none(v) for k, v in value.items() if v not in (None, (), [], {})}
    return value


def _mark_scenario(
    result: ScenarioResult, loaded: LoadedScenario, frames: list[Frame]
) -> list[Frame]:
    """Mark where a scenario failed (the step that broke a rule, or the end), or the step
    that broke the rule it was meant to."""
    sc = loaded.scenario
    last = frames[-1]
    if result.status == "pass":
        if sc.expect.illegal is None:
            return frames
        note = "refused as expected: the board shows the reference position it was tried in"
        return [*frames[:-1], attrs.evolve(last, mark="expected", note=note, tried=True)]
    if result.line is None or any(f.line == result.line for f in frames):
        at = next((i for i, f in enumerate(frames) if f.line == result.line), len(frames) - 1)
        return [*frames[:at], attrs.evolve(frames[at], mark="failing"), *frames[at + 1 :]]
    for what, lines, events in (
        ("given event", loaded.given_lines, sc.given.events),
        ("step", loaded.step_lines, sc.steps),
    ):
        if result.line in lines:
            i = lines.index(result.line)
            failing = Frame(f"{what} {i}", result.line, events[i], last.state, "failing")
            return [*frames, attrs.evolve(failing, note=BEFORE_STEP, tried=True)]
    return [*frames[:-1], attrs.evolve(last, mark="failing")]


def _frame_data(frame: Frame) -> dict[str, Any]:
    """A frame as the page's script reads it (short keys: there may be thousands)."""
    data = {"t": frame.title, "l": frame.line, "e": frame.event, "m": frame.mark}
    if frame.note:
        data["n"] = frame.note
    if frame.tried:
        data["x"] = 1
    return data


def _shown(value: Any) -> str:
    """A JSON value as text for a person (the template escapes it as any other text)."""
    return json.dumps(value, ensure_ascii=False)


def _script_json(value: Any) -> Markup:
    """JSON safe inside a <script> element (no ``</script>`` can close it early)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render(
    title: str,
    game: str | None,
    layout: dict[str, Any],
    frames: list[Frame],
    verdict: dict[str, Any],
) -> str:
    """The whole page: the shared shell with the game's renderer and the frames as JSON."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["script_json"] = _script_json
    env.filters["shown"] = _shown
    start = frames[0].state if frames else None
    changes = [state_changes(a.state, b.state) for a, b in zip(frames, frames[1:], strict=False)]
    replay = {
        "game": game,
        "layout": layout,
        "frames": [_frame_data(f) for f in frames],
        "start": start,
        "changes": changes,
        "verdict": verdict,
    }
    return env.get_template("page.html.j2").render(
        title=title,
        replay=replay,
        css=_asset("shell.css"),
        shell_js=_asset("shell.js"),
        renderer_js=_asset(f"{game}.js") if game else "",
        start_js=_asset("start.js"),
    )


def _asset(name: str) -> Markup:
    """A stylesheet or script of the page, inlined as it is (not a template)."""
    return Markup((TEMPLATES / name).read_text(encoding="utf-8"))

#!/usr/bin/env python3
"""An example engine adapter for the rules-oracle engine protocol v1, in Python.

It wraps an engine (here: rules-oracle's own, through oracle.refengine) and speaks the
protocol on stdin/stdout: one JSON request per line in, one JSON response per line out.
Flags plant bugs, so you can see what ``rules-oracle conform`` reports for each:

    python examples/adapters/python/adapter.py --game palmyra --lie bank --from-event 10
    rules-oracle conform --engine "python examples/adapters/python/adapter.py \\
        --game palmyra --lie bank --from-event 10" --game palmyra

Planted bugs (each from the ``--from-event``-th event of a game on, default 0):
  --lie PATH          answer ``state`` for PATH with a wrong value
  --accept-illegal    accept any event (an illegal one is acknowledged and ignored)
  --refuse TYPE       refuse legal events of this type
  --drop-legal        list one legal event fewer
  --other-rule        refuse illegal events naming another rule id
  --crash             exit at once when an event arrives (a line on stderr first)
  --hang              stop answering when an event arrives
  --hang-on TYPE      stop answering when an event of this type arrives
  --garbage           answer an event with a line that is not JSON
  --never-end         never say the game is over
  --wrong-actor       name the next seat as the player to act (chance stays chance)
  --extra-legal       list one event more: a legal one made by a player not asked
  --wrong-result      give the first player one point more in ``result``
  --bad-next          answer ``next`` with an event that is no event of the game
  --flags-as-numbers  answer ``state`` with 1 and 0 for true and false (equal in Python,
                      not in JSON)
  --data KEY=VALUE    play every game with this data value (JSON) instead of the rulebook's:
                      a rule bug in a copy of our engine, shown wherever the rules use it
                      (``--data emperor.tax_bonus=2`` shows only in Palmyra's advanced game;
                      not tied to ``--from-event``)

Not a bug: ``--compact`` writes JSON without spaces (rules-oracle's own ``serve`` writes
``json.dumps``'s spaces; any spacing is the same answer).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from oracle.protocol import CAPABILITIES, EngineError
from oracle.refengine import LocalEngine


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", required=True, help="game to serve (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the 'next' op")
    p.add_argument("--from-event", type=int, default=0, help="planted bugs start here")
    p.add_argument("--lie", metavar="PATH")
    p.add_argument("--accept-illegal", action="store_true")
    p.add_argument("--refuse", metavar="TYPE")
    p.add_argument("--drop-legal", action="store_true")
    p.add_argument("--other-rule", action="store_true")
    p.add_argument("--crash", action="store_true")
    p.add_argument("--hang", action="store_true")
    p.add_argument("--hang-on", metavar="TYPE")
    p.add_argument("--garbage", action="store_true")
    p.add_argument("--never-end", action="store_true")
    p.add_argument("--wrong-actor", action="store_true")
    p.add_argument("--extra-legal", action="store_true")
    p.add_argument("--wrong-result", action="store_true")
    p.add_argument("--bad-next", action="store_true")
    p.add_argument("--flags-as-numbers", action="store_true")
    p.add_argument("--data", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--compact", action="store_true", help="JSON without spaces (not a bug)")
    p.add_argument("--no-capabilities", action="store_true", help="announce no capability")
    p.add_argument(
        "--without", action="append", default=[], metavar="CAP", help="announce all but CAP"
    )
    return p.parse_args(argv)


class Adapter:
    """The protocol's operations over one engine, with the planted bugs."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.engine = LocalEngine(args.seed)
        self.events = 0  # events applied in the current game
        self.players: list[str] = []  # the current game's players, in seat order

    def buggy(self) -> bool:
        return self.events >= self.args.from_event

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | str:
        op = request.get("op")
        if op == "hello":
            # Every capability but perft (conform walks this engine with legal, apply and
            # set_state to compare its counts with ours), less any --without names.
            caps = [] if self.args.no_capabilities else [c for c in CAPABILITIES if c != "perft"]
            caps = [c for c in caps if c not in self.args.without]
            return {
                "ok": True,
                "name": "python-example",
                "games": self.args.game,
                "capabilities": caps,
            }
        if op == "new_game":
            options = dict(request.get("options", {}))
            if self.args.data:
                options["profile"] = {**options.get("profile", {}), **_data(self.args.data)}
            self.engine.new_game(request["game"], tuple(request["players"]), options)
            self.events = 0
            self.players = list(request["players"])
            return {"ok": True}
        if op == "apply":
            return self.apply(request["event"])
        if op == "to_act":
            actor, over = self.engine.to_act()
            if over and self.args.never_end and self.buggy():
                return {"ok": True, "to_act": "chance", "over": False}
            if not over and self.args.wrong_actor and self.buggy() and actor in self.players:
                actor = self.other_player(actor)
            return {"ok": True, "to_act": actor, "over": over}
        if op == "state":
            values = self.engine.state(request["paths"])
            lie = self.args.lie
            if lie in values and self.buggy():
                values[lie] = _wrong(values[lie])
            if self.args.flags_as_numbers and self.buggy():
                values = {p: int(v) if isinstance(v, bool) else v for p, v in values.items()}
            return {"ok": True, "values": values}
        if op == "legal":
            events = self.engine.legal()
            if self.args.drop_legal and self.buggy() and events:
                events = events[:-1]
            if self.args.extra_legal and self.buggy():
                mine = [e for e in events if e.get("player") in self.players]
                if mine and len(self.players) > 1:
                    other = {**mine[0], "player": self.other_player(mine[0]["player"])}
                    if other not in events:
                        events = [*events, other]
            return {"ok": True, "events": events}
        if op == "result":
            scores, winners = self.engine.result()
            if self.args.wrong_result and self.buggy() and scores:
                first = next(iter(scores))
                scores[first] = _wrong(scores[first])
            return {"ok": True, "scores": scores, "winners": winners}
        if op == "set_state":
            self.engine.set_state(request["values"])
            return {"ok": True}
        if op == "next":
            if self.args.bad_next and self.buggy():
                return {"ok": True, "event": {"type": "teleport", "player": "red"}}
            event = self.engine.next()
            self.events += 1
            return {"ok": True, "event": event}
        if op == "bye":
            return {"ok": True}
        return {"ok": False, "error": f"unknown op {op!r}"}

    def other_player(self, name: str) -> str:
        """The next seat after ``name``."""
        return self.players[(self.players.index(name) + 1) % len(self.players)]

    def apply(self, event: dict[str, Any]) -> dict[str, Any] | str:
        args = self.args
        if self.buggy():
            if args.crash:
                print(f"adapter: planted crash at event {self.events}", file=sys.stderr)
                sys.exit(70)
            if args.hang or args.hang_on and event.get("type") == args.hang_on:
                time.sleep(3600)
            if args.garbage:
                return "this is not JSON"
            if args.refuse and event.get("type") == args.refuse:
                return {"ok": False, "illegal": True, "rule": None, "message": "not today"}
        refused = self.engine.apply(event)
        if refused is None:
            self.events += 1
            return {"ok": True}
        if args.accept_illegal and self.buggy():
            return {"ok": True}
        rule = "OTHER-RULE-01" if args.other_rule else refused.rule
        return {"ok": False, "illegal": True, "rule": rule, "message": refused.message}


def _data(pairs: list[str]) -> dict[str, Any]:
    """``--data KEY=VALUE`` flags as a profile: each value is JSON."""
    return {key: json.loads(value) for key, _, value in (p.partition("=") for p in pairs)}


def _wrong(value: Any) -> Any:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "?"
    if isinstance(value, list):
        return [*value, value[0]] if value else [0]
    return None


def main() -> None:
    args = parse_args(sys.argv[1:])
    adapter = Adapter(args)
    separators = (",", ":") if args.compact else None
    for line in sys.stdin:
        try:
            request = json.loads(line)
            response = adapter.handle(request) if isinstance(request, dict) else None
            if response is None:
                response = {"ok": False, "error": "a request is a JSON object"}
        except EngineError as exc:
            response = {"ok": False, "error": exc.message}
        except (KeyError, TypeError, ValueError) as exc:
            response = {"ok": False, "error": f"bad request: {exc}"}
        if not isinstance(response, str):
            response = json.dumps(response, separators=separators)
        sys.stdout.write(response)
        sys.stdout.write("\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("op") == "bye":
            return


if __name__ == "__main__":
    main()

"""Which rule ids can refuse each event type, read from the engine code (not run).

For each event class the game's handler table names a handler. Starting from the rule set's
``apply`` (shared checks) and that handler, every function of the game package (and of
``reference.core``) it calls is read, transitively, and every rule-id literal in those bodies
is collected: ``RuleViolation("PIL-MARKET-04", ...)``, ``check_actor(..., "PIL-TURN-01")``, a
module constant naming an id, or an attribute of the rule set (``self.turn_rule``); a call
of a rule-set method (``self.before_event(...)``) is followed too. It is an upper bound (a
helper's every id counts for every caller); docs/games/<game>.md lists the same sets, read
by hand.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
from collections.abc import Callable, Iterator
from functools import cache
from types import FunctionType, ModuleType
from typing import Any

from reference.registry import make_game

RULE_ID = re.compile(r"^(CORE|[A-Z]{3})-[A-Z0-9]+(-[A-Za-z0-9]+)*$")
HANDLER_TABLES = ("HANDLERS", "_HANDLERS")


EXPLAINING = frozenset({"why_not", "why_to_act", "owes", "_why_not_added"})
"""The shell's explanations of a refusal already made (why this player is not asked, what
is owed): the ids they name say why, they refuse nothing, so they are not followed."""


def _own(obj: Any, game: str) -> bool:
    module = getattr(obj, "__module__", "") or ""
    name = getattr(obj, "__name__", "")
    return module.startswith((f"reference.{game}", "reference.core")) and name not in EXPLAINING


@cache
def _body(func: FunctionType) -> ast.AST:
    return ast.parse(textwrap.dedent(inspect.getsource(func)))


def _is_docstring(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    return isinstance(parents.get(node), ast.Expr)


TRACE_CALLS = frozenset({"noted", "note_work", "_next_trader", "_after_take", "_maybe_end_cards"})
"""Trace points (reference/core/trace.py) and the Pillars steps that pass a rule id on to
one: the id they name explains a change of the position, it refuses nothing."""
TRACE_HELPERS = ("_note", "note_")
"""Functions named so only note rules (trace points): every id in them explains a change."""


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _is_traced(node: ast.AST, parents: dict[ast.AST, ast.AST], tree: ast.AST) -> bool:
    """Whether a literal names the rule a change rests on (a trace point's id), not a
    refusal: an argument of a trace call (or a ``rule=`` keyword), a value compared with,
    or a value put in names (one, or a tuple of them) no ``RuleViolation`` raises with."""
    parent = parents.get(node)
    while isinstance(parent, (ast.IfExp, ast.Tuple, ast.List)):
        parent = parents.get(parent)
    if isinstance(parent, ast.keyword) and parent.arg == "rule":
        return True
    if isinstance(parent, ast.Compare):
        return True
    if isinstance(parent, ast.Call):
        return _call_name(parent) in TRACE_CALLS
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        target = parent.targets[0]
        names = [target] if isinstance(target, ast.Name) else getattr(target, "elts", [])
        if names and all(isinstance(n, ast.Name) for n in names):
            raised = {
                call.args[0].id
                for call in ast.walk(tree)
                if isinstance(call, ast.Call)
                and _call_name(call) == "RuleViolation"
                and call.args
                and isinstance(call.args[0], ast.Name)
            }
            return not raised & {n.id for n in names if isinstance(n, ast.Name)}
    return False


def _literals_and_calls(func: FunctionType, rules: Any) -> Iterator[tuple[str, Any]]:
    """('id', rule id) for each rule-id literal, ('call', callee) for each resolvable call,
    in the order they stand in the source; ``self`` is the rule set ``rules``."""
    tree = _body(func)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    module = importlib.import_module(func.__module__)
    names = dict(vars(module))
    if func.__closure__:
        names.update(inspect.getclosurevars(func).nonlocals)
    placed = [n for n in ast.walk(tree) if hasattr(n, "lineno")]
    for node in sorted(placed, key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if (
                RULE_ID.match(node.value)
                and not _is_docstring(node, parents)
                and not _is_traced(node, parents, tree)
                and not func.__name__.endswith("_rule")  # names the rule a change rests on
                and not func.__name__.startswith(TRACE_HELPERS)
            ):
                yield "id", node.value
        elif isinstance(node, ast.Name):
            value = names.get(node.id)
            if isinstance(value, str) and RULE_ID.match(value):
                yield "id", value
            elif callable(value):
                yield "call", value
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = rules if node.value.id == "self" else names.get(node.value.id)
            if isinstance(owner, ModuleType) or owner is rules:
                value = getattr(owner, node.attr, None)
                if isinstance(value, str) and RULE_ID.match(value):
                    if not isinstance(parents.get(node), ast.Compare):  # compared: no refusal
                        yield "id", value
                elif callable(value):
                    yield "call", value


def reachable_ids(start: Callable[..., Any], game: str, rules: Any) -> set[str]:
    """Every rule id in ``start`` and the game's functions it calls, transitively."""
    found: set[str] = set()
    seen: set[Any] = set()
    todo = [start]
    while todo:
        func = todo.pop()
        func = getattr(func, "__func__", func)
        if func in seen or not isinstance(func, FunctionType) or not _own(func, game):
            continue
        seen.add(func)
        for kind, value in _literals_and_calls(func, rules):
            if kind == "id":
                found.add(value)
            else:
                todo.append(value)
    return found


def refusals(game: str) -> dict[str, set[str]]:
    """Event wire name -> rule ids that can refuse it (apply's shared checks included)."""
    rules = make_game(game, {})
    table = getattr(rules, "handlers", None)
    if table is None:  # a game whose handler table lives in its engine module
        engine = importlib.import_module(f"reference.{game}.engine")
        table = next(getattr(engine, n) for n in HANDLER_TABLES if hasattr(engine, n))
    shared = reachable_ids(type(rules).apply, game, rules)
    return {cls.type: shared | reachable_ids(h, game, rules) for cls, h in table.items()}


def ordered_ids(start: Callable[..., Any], game: str, rules: Any) -> list[str]:
    """The rule ids of ``start`` and the game's functions it calls in the order a reader
    meets them: each function's source from the top, a call read where it stands (its
    callee's ids before what follows it), each function once. For straight-line checks
    this is the order they are made in: of two rules an event breaks, the earlier is the
    one it is refused by (ids in different branches of an ``if`` are never both checked)."""
    found: list[str] = []
    seen: set[Any] = set()

    def visit(func: Any) -> None:
        func = getattr(func, "__func__", func)
        if func in seen or not isinstance(func, FunctionType) or not _own(func, game):
            return
        seen.add(func)
        for kind, value in _literals_and_calls(func, rules):
            if kind == "call":
                visit(value)
            elif value not in found:
                found.append(value)

    visit(start)
    return found


def refusal_order(game: str) -> dict[str, list[str]]:
    """``any event`` -> the shared checks' ids in order; each event's wire name -> its own
    handler's ids in order (those not shared)."""
    rules = make_game(game, {})
    table = getattr(rules, "handlers", None)
    if table is None:
        engine = importlib.import_module(f"reference.{game}.engine")
        table = next(getattr(engine, n) for n in HANDLER_TABLES if hasattr(engine, n))
    shared = ordered_ids(type(rules).apply, game, rules)
    order = {"any event": shared}
    for cls, handler in table.items():
        order[cls.type] = [i for i in ordered_ids(handler, game, rules) if i not in shared]
    return order

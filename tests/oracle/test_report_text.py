"""The text lines' escaping: ``text_safe`` and ``json_safe`` skip their regular expressions
for a printable text (fast start); each answer must be what the expression alone gives."""

from __future__ import annotations

import re
import sys

import pytest

from oracle import report_text
from oracle.report_text import json_safe, text_safe

SAMPLES = ("", "plain", "tab\there", "line\nbreak", "é ü 中 😀", "\u00a0nbsp", "\u2028sep")


def _terminal_escaped(text: str) -> str:
    """What text_safe gave before the shortcut: the expression on every text."""
    return re.sub(report_text._TERMINAL_UNSAFE, report_text._escaped, text)


def test_every_character_is_escaped_as_the_expression_says() -> None:
    # all of the Basic Multilingual Plane (surrogates included) and a sample beyond it
    for code in [*range(0x10000), 0x1F600, 0xE0001, 0xF0000, sys.maxunicode]:
        char = chr(code)
        for text in (char, f"a{char}b"):
            assert text_safe(text) == _terminal_escaped(text), hex(code)
            assert json_safe(text) == re.sub(report_text._SURROGATE, "\ufffd", text), hex(code)


@pytest.mark.parametrize("text", SAMPLES)
def test_samples_agree_with_the_expression(text: str) -> None:
    assert text_safe(text) == _terminal_escaped(text)


def test_worked_examples() -> None:
    # worked out by hand: newline and tab stay, ESC and DEL and C1 controls are escaped,
    # a lone surrogate is escaped in text and replaced by U+FFFD in JSON
    assert text_safe("a\tb\nc") == "a\tb\nc"
    assert text_safe("\x1b[31mred") == "\\x1b[31mred"
    assert text_safe("del\x7f c1\x85") == "del\\x7f c1\\x85"
    assert text_safe("lone \ud800") == "lone \\ud800"
    assert text_safe("\u00a0\u2028") == "\u00a0\u2028"  # not printable, yet nothing to escape
    assert json_safe({"k\udfff": ["v\ud800", "ok\n"]}) == {"k\ufffd": ["v\ufffd", "ok\n"]}

"""Municipium's options (a log header's or scenario's ``options``; ``profile`` replaces data)."""

from __future__ import annotations

import attrs

END_MODES: tuple[str, ...] = ("finish_round", "finish_turn", "immediate")


@attrs.frozen
class MunicipiumOptions:
    """Where players really differ.

    end_mode (MUN-END-01):
        ``finish_round`` (default, the seed): once a family has five decurions the round is
        played to its end, then most decurions wins. ``immediate`` (some reviews' "first to
        five wins"): the game ends at once when a family reaches five. ``finish_turn`` (the
        seed's words read literally, "man spiller dog turen færdig": the turn is played to its
        end): the game ends when the turn in which a family reached five is over.
    """

    end_mode: str = attrs.field(default="finish_round", validator=attrs.validators.in_(END_MODES))

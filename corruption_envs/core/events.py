"""A game's readable event log, each event for everyone or for one seat only (its private events).

The rules write it (`state.events.say(audience, text)`, only when config record_events=True: otherwise
`state.events` is None and the texts are never built); the adapter reads it for a seat
(`env.events_for(agent)`), so no tool reaches into a game's state for it.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

EVERYONE = -1  # the audience of a public event


class EventLog:
    """Events in the order they happened, as (audience, text): audience EVERYONE or one seat."""

    __slots__ = ("entries",)

    def __init__(self, entries: Iterable[tuple[int, str]] = ()) -> None:
        self.entries: list[tuple[int, str]] = list(entries)

    @staticmethod
    def for_config(config: dict[str, Any]) -> "EventLog | None":
        """A new log when the config records events, else None (the rules then skip every text)."""
        return EventLog() if config["record_events"] else None

    def say(self, audience: int, text: str) -> None:
        """Log `text` for `audience`: EVERYONE, or the one seat that may read it."""
        self.entries.append((audience, text))

    def visible_to(self, seat: int | None) -> list[str]:
        """The texts `seat` may read, oldest first: the public ones and its own (None: every text;
        EVERYONE: the public ones only)."""
        if seat is None:
            return [text for _, text in self.entries]
        return [text for audience, text in self.entries if audience == EVERYONE or audience == seat]

    def seen_by(self, seat: int) -> "EventLog":
        """The log as `seat` knows it: other seats' private events tell what it cannot see."""
        return EventLog(e for e in self.entries if e[0] == EVERYONE or e[0] == seat)

    def copy(self) -> "EventLog":
        return EventLog(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return iter(self.entries)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EventLog) and self.entries == other.entries

    __hash__ = None  # mutable

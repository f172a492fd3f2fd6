"""Named blocks of a flat Discrete action space: encode, decode and name every index.

A game declares its actions once, block after block, each block a product of named fields in row-major
order (the last field varies fastest). The layout then encodes a block's fields to an index, decodes an
index back to `(block, fields)` and names any index, with a state (filled in from it) or without.

>>> acts = ActionLayout()
>>> acts.add("play", lambda state, card, spot: f"play card {card} on spot {spot}", card=3, spot=range(1, 3)).start
0
>>> acts.add("pass", "pass").start, acts.size
(6, 7)
>>> acts.encode("play", card=2, spot=1), acts.decode(4), acts["play"].indices[2, 1]
(4, ('play', mappingproxy({'card': 2, 'spot': 1})), 4)
>>> acts.name(6)
'pass'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping, Sequence, Union

# a block's readable name: a fixed text, or a function of the state (None: no state) and the fields
Label = Union[str, Callable[..., str]]


@dataclass(frozen=True)
class ActionBlock:
    """One block: the indices [start, stop), a product of its fields' values."""

    name: str
    start: int
    stop: int
    fields: tuple[str, ...]
    values: tuple[tuple, ...]  # per field, its values in index order
    label: Label
    # (field values in field order) -> action index: the hot path's encode, a plain dict lookup
    indices: Mapping[tuple, int] = field(repr=False, compare=False)

    @property
    def size(self) -> int:
        return self.stop - self.start

    @property
    def slice(self) -> slice:
        return slice(self.start, self.stop)

    def __contains__(self, index: int) -> bool:
        return self.start <= index < self.stop


class ActionLayout:
    """The actions of one game: blocks in index order; see the module docstring."""

    def __init__(self) -> None:
        self.blocks: dict[str, ActionBlock] = {}
        self.size = 0
        # index -> (block, fields): the hot path's decode, a plain list lookup (`decode` checks the range)
        self.decoded: list[tuple[str, Mapping[str, Any]]] = []

    def add(self, name: str, label: Label, **fields: int | Sequence) -> ActionBlock:
        """Append block `name`; each field is a count n (values 0..n-1) or its sequence of values."""
        if name in self.blocks:
            raise ValueError(f"action block {name!r} added twice")
        values = tuple(tuple(range(v)) if isinstance(v, int) else tuple(v) for v in fields.values())
        for f, vs in zip(fields, values):
            if not vs or len(set(vs)) != len(vs):
                raise ValueError(f"field {f!r} of action block {name!r} needs distinct values, got {vs}")
        names = tuple(fields)
        start = self.size
        combos = list(product(*values))
        self.decoded += [(name, MappingProxyType(dict(zip(names, combo)))) for combo in combos]
        self.size = len(self.decoded)
        indices = MappingProxyType({combo: start + i for i, combo in enumerate(combos)})
        block = ActionBlock(name, start, self.size, names, values, label, indices)
        self.blocks[name] = block
        return block

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[ActionBlock]:
        return iter(self.blocks.values())

    def __getitem__(self, name: str) -> ActionBlock:
        return self.blocks[name]

    def encode(self, block: str, **fields: Any) -> int:
        """The index of `block` with these field values; ValueError naming a wrong block, field or value."""
        b = self.blocks.get(block)
        if b is None:
            raise ValueError(f"unknown action block {block!r}; the blocks are {list(self.blocks)}")
        if set(fields) != set(b.fields):
            raise ValueError(f"action block {block!r} takes the fields {list(b.fields)}, got {sorted(fields)}")
        for f, vs in zip(b.fields, b.values):
            if fields[f] not in vs:
                raise ValueError(f"{f}={fields[f]!r} is not a value of action block {block!r}; use one of {list(vs)}")
        return b.indices[tuple(fields[f] for f in b.fields)]

    def decode(self, index: int) -> tuple[str, Mapping[str, Any]]:
        """(block name, read-only {field: value}) of an action index."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is out of range [0, {self.size})")
        return self.decoded[index]

    def name(self, index: int, state: Any = None) -> str:
        """The readable name of `index`: filled in from `state` when given, else from the layout alone."""
        block, fields = self.decode(index)
        label = self.blocks[block].label
        return label if isinstance(label, str) else label(state, **fields)

"""Named slices of a flat float32 vector (OpenSpiel's observer with named tensor pieces)."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping


class Layout(Mapping):
    """An ordered, read-only map name -> slice into a flat vector, with each piece's shape.

    >>> lay = Layout(); lay.add("my_hand", 9); lay.add("scores", (7,)); lay.size, len(lay)
    slice(0, 9, None)
    slice(9, 16, None)
    (16, 2)
    >>> list(lay.items())
    [('my_hand', slice(0, 9, None)), ('scores', slice(9, 16, None))]
    """

    def __init__(self) -> None:
        self.slices: dict[str, slice] = {}
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.size = 0

    def add(self, name: str, shape: int | tuple[int, ...]) -> slice:
        if name in self.slices:
            raise ValueError(f"layout piece {name!r} added twice")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        n = 1
        for d in shape:
            n *= d
        piece = slice(self.size, self.size + n)
        self.slices[name] = piece
        self.shapes[name] = shape
        self.size += n
        return piece

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.slices)

    def __len__(self) -> int:
        return len(self.slices)

    def starts(self, names: Iterable[str]) -> tuple[int, ...]:
        """Where each named piece starts in the vector (what compiled readers index by)."""
        return tuple(self.slices[name].start for name in names)

    def view(self, vector, name: str):
        """The piece `name` of `vector`, reshaped to its declared shape."""
        return vector[self.slices[name]].reshape(self.shapes[name])

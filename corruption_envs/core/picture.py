"""Drawing primitives shared by the games' pictures (render_mode="rgb_array").

Pillow is an optional extra (`pip install corruption-envs[render]`): it is imported on first use, so the
envs stay importable without it. A game's `picture.py` lays out its table with a `Canvas` (text, cards,
card backs, player panels) and returns `Canvas.array()`, an HxWx3 uint8 array.
"""
from __future__ import annotations

import io
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

INSTALL_HINT = "pip install corruption-envs[render]"
MIN_PILLOW = (10, 1)  # ImageFont.load_default(size=...) gives a scalable font from 10.1 on

# One colour per seat (up to the 7 seats of the biggest game), dark enough for white text.
SEAT_COLOURS = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14),
                (23, 190, 207), (140, 86, 75))
BACKGROUND = (246, 242, 232)
INK = (30, 30, 30)
FAINT = (120, 120, 120)
PAPER = (255, 255, 255)
BACK = (70, 70, 90)  # the back of a face-down card
HIGHLIGHT = (255, 215, 0)


def require_pillow() -> Any:
    """The PIL package, or ImportError saying how to install it."""
    try:
        import PIL
        from PIL import Image, ImageDraw, ImageFont  # noqa: F401  (the submodules Canvas uses)
    except ImportError:
        raise ImportError(
            f"pictures (render_mode='rgb_array', the --html viewer) need Pillow >= 10.1: {INSTALL_HINT}"
        ) from None
    if tuple(int(x) for x in PIL.__version__.split(".")[:2]) < MIN_PILLOW:
        raise ImportError(
            f"pictures need Pillow >= 10.1, found {PIL.__version__}: {INSTALL_HINT} --upgrade"
        )
    return PIL


@lru_cache(maxsize=None)
def font(size: int) -> Any:
    return require_pillow().ImageFont.load_default(size=size)


@lru_cache(maxsize=8192)
def _stamp(text: str, size: int, anchor: str) -> tuple[Any, int, int]:
    """`text` rendered once as a mask, with its offset from the anchor point: frames of one game
    repeat most of their texts, and FreeType rendering is most of a picture's cost."""
    pil = require_pillow()
    left, top, right, bottom = font(size).getbbox(text, anchor=anchor)
    mask = pil.Image.new("L", (max(1, right - left), max(1, bottom - top)))
    pil.ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font(size), anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=8192)
def _length(text: str, size: int) -> float:
    return font(size).getlength(text)


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def viewer_title(viewer: int | None) -> str:
    return "everything shown" if viewer is None else f"as player_{viewer} sees it"


class Canvas:
    """A fixed-width drawing that grows downwards: draw at any y, `array()` crops to what was used."""

    def __init__(self, width: int, height: int, background: tuple[int, int, int] = BACKGROUND) -> None:
        pil = require_pillow()
        self.image = pil.Image.new("RGB", (width, height), background)
        self.draw = pil.ImageDraw.Draw(self.image)
        self.width = width
        self.bottom = 0  # lowest pixel drawn so far

    def _used(self, y: float) -> None:
        self.bottom = max(self.bottom, int(y))

    # --- primitives -------------------------------------------------------------------------------
    def text(self, x: float, y: float, text: str, size: int = 14, colour: tuple = INK,
             anchor: str = "la") -> float:
        """Draw one line; returns its right edge x."""
        mask, left, top = _stamp(text, size, anchor)
        x0, y0 = int(round(x)) + left, int(round(y)) + top
        self.image.paste(colour, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
        self._used(y0 + mask.height)
        return x0 + mask.width

    def text_width(self, text: str, size: int = 14) -> float:
        return _length(text, size)

    def fit(self, text: str, width: float, size: int = 14) -> str:
        """`text` cut (with an ellipsis) to fit `width` pixels."""
        if self.text_width(text, size) <= width:
            return text
        while text and self.text_width(text + "…", size) > width:
            text = text[:-1]
        return text + "…"

    def box(self, x: float, y: float, w: float, h: float, fill: tuple = PAPER, outline: tuple = INK,
            width: int = 1, radius: int = 6) -> None:
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=radius, fill=fill, outline=outline,
                                    width=width)
        self._used(y + h)

    def card(self, x: float, y: float, w: float, h: float, lines: Sequence[str],
             fill: tuple = PAPER, ink: tuple = INK, outline: tuple = INK, size: int = 13,
             width: int = 1) -> None:
        """A card with `lines` of text centred on it (each cut to fit)."""
        self.box(x, y, w, h, fill=fill, outline=outline, width=width)
        step = size + 3
        top = y + (h - step * len(lines)) / 2 + step / 2
        for k, line in enumerate(lines):
            self.text(x + w / 2, top + k * step, self.fit(line, w - 6, size), size, ink, anchor="mm")

    def back(self, x: float, y: float, w: float, h: float, edge: tuple = INK, mark: str = "?") -> None:
        """The back of a face-down card: dark, cross-hatched, edged in its owner's colour."""
        self.box(x, y, w, h, fill=BACK, outline=edge, width=3)
        for k in range(-int(h), int(w), 8):
            x0, y0 = x + max(k, 0) + 3, y + max(-k, 0) + 3
            length = min(x + w - 3 - x0, y + h - 3 - y0)
            if length > 0:
                self.draw.line((x0, y0, x0 + length, y0 + length), fill=(95, 95, 120))
        self.text(x + w / 2, y + h / 2, mark, max(12, int(h * 0.45)), PAPER, anchor="mm")

    def token(self, x: float, y: float, r: float, fill: tuple, label: str = "", size: int = 12) -> None:
        """A round marker (worker, official...) centred at (x, y), with an optional label."""
        self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK)
        self._used(y + r)
        if label:
            self.text(x, y, label, size, PAPER, anchor="mm")

    def header(self, title: str, subtitle: str, height: int = 52) -> int:
        """A dark band across the top; returns the y below it."""
        self.draw.rectangle((0, 0, self.width, height), fill=(40, 44, 52))
        self.text(12, 8, title, 20, PAPER)
        self.text(12, 32, subtitle, 14, (210, 210, 210))
        self._used(height)
        return height + 8

    def seat_panels(self, y: float, lines: Sequence[Sequence[str]], acting: int,
                    height: int = 0) -> int:
        """One panel a seat, side by side, in its colour; the seat to act outlined in gold.

        `lines[p]` is seat p's text (its first line the title). Returns the y below the panels."""
        n = len(lines)
        gap = 8
        w = (self.width - 16 - gap * (n - 1)) / n
        h = height or 22 + 17 * max(len(ls) - 1 for ls in lines) + 8
        for p, ls in enumerate(lines):
            x = 8 + p * (w + gap)
            colour = seat_colour(p)
            self.box(x, y, w, h, fill=PAPER, outline=HIGHLIGHT if p == acting else colour,
                     width=4 if p == acting else 2)
            self.draw.rectangle((x + 2, y + 2, x + w - 2, y + 22), fill=colour)
            self.text(x + 8, y + 4, self.fit(ls[0], w - 16, 15), 15, PAPER)
            for k, line in enumerate(ls[1:]):
                self.text(x + 8, y + 27 + 17 * k, self.fit(line, w - 16, 13), 13)
        return int(y + h + 10)

    def wrapped(self, x: float, y: float, text: str, width: float, size: int = 13,
                colour: tuple = INK) -> int:
        """`text` wrapped at words to `width`; returns the y below it."""
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and self.text_width(trial, size) > width:
                self.text(x, y, line, size, colour)
                y += size + 4
                line = word
            else:
                line = trial
        if line:
            self.text(x, y, line, size, colour)
            y += size + 4
        return int(y)

    # --- output -------------------------------------------------------------------------------------
    def array(self, margin: int = 10) -> np.ndarray:
        """HxWx3 uint8 of the drawing, cropped below the lowest thing drawn."""
        bottom = min(self.image.height, self.bottom + margin)
        return np.asarray(self.image.crop((0, 0, self.width, bottom)), dtype=np.uint8)


def png_bytes(array: np.ndarray) -> bytes:
    """A picture as PNG, palette-compressed (the drawings use few colours)."""
    pil = require_pillow()
    image = pil.Image.fromarray(array).quantize(colors=64, method=pil.Image.Quantize.FASTOCTREE,
                                               dither=pil.Image.Dither.NONE)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

"""Colours and proportions shared by the graphic displays.

Plain data only (no pygame), so tests and other back ends can read it. Sizes are
fractions of the screen height: one layout then serves the 320×240 SPI panel, the
480×320 HDMI panel and any bigger window.
"""

from __future__ import annotations

from dataclasses import field

from nsdevice.rules.frozen import dataclass

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Palette:
    """The screen's own colours: light text on a near-black ground for a dim table."""

    background: Colour = (16, 18, 24)
    header: Colour = (36, 40, 52)
    legend: Colour = (30, 33, 43)
    text: Colour = (242, 242, 242)
    dim: Colour = (168, 174, 186)
    accent: Colour = (255, 206, 64)  # the list cursor, "last turn": the eye goes here first
    accent_text: Colour = (16, 18, 24)
    warning: Colour = (255, 132, 102)  # "no effect": readable on the dark ground
    key_cap: Colour = (226, 228, 234)
    key_text: Colour = (16, 18, 24)
    card_text: Colour = (14, 14, 18)  # every card colour below is light enough for it
    card_edge: Colour = (250, 250, 250)
    symbol_fill: Colour = (255, 255, 255)  # white symbols with a dark rim read on any card
    symbol_edge: Colour = (14, 14, 18)
    special_badge: Colour = (244, 140, 46)  # the special-stations cards are orange (T-SP)
    pip_empty: Colour = (86, 92, 108)
    pencil_tip: Colour = (236, 206, 160)  # bare wood
    table: Colour = (44, 50, 66)  # the table seen from above, a shade off the ground
    chair: Colour = (84, 92, 112)  # a seat's chair: its white number reads on it
    power_ring: Colour = (112, 84, 176)  # behind a pencil power's icon: no station (L-PP)


@dataclass(frozen=True, slots=True)
class Sizes:
    """Fractions of the screen height (text sizes are the height of a line of text)."""

    title: float = 0.075
    body: float = 0.07
    small: float = 0.058
    legend: float = 0.056
    smallest: float = 0.045  # nothing is drawn smaller: below this the 2" panel is unreadable
    value: float = 0.2  # a number being entered, a deal code
    margin: float = 0.022
    card_symbol: float = 0.5  # the turn's symbol box; shapes fill 85-96% of it (40% asked)


# Card backs by city and kind (RULES 1, T-2, P-2, L-2). A street card has one colour;
# an underground card two, drawn as two halves. Tones are lightened from the printed
# cards so dark text and the white-and-black symbols stay readable on every one.
CARD_COLOURS: dict[str, dict[str, tuple[Colour, ...]]] = {
    "tokyo": {
        "street": ((242, 128, 176),),  # pink
        "underground": ((92, 190, 104), (246, 206, 62)),  # green, yellow
    },
    "paris": {
        "street": ((246, 206, 62),),  # yellow
        "underground": ((96, 158, 236), (92, 190, 104)),  # blue, green
    },
    "london": {
        "street": ((96, 164, 238),),  # blue
        "underground": ((242, 128, 176), (246, 206, 62)),  # pink, yellow
    },
}

# Pencil colours (C-8) as swatches on the dark ground: brown and purple are lifted so a
# swatch never disappears into the background.
PENCIL_COLOURS: dict[str, Colour] = {
    "purple": (160, 100, 222),
    "blue": (64, 136, 240),
    "pink": (244, 116, 184),
    "brown": (168, 108, 62),
    "orange": (246, 148, 44),
    "green": (72, 186, 92),
}


@dataclass(frozen=True, slots=True)
class Theme:
    palette: Palette = field(default_factory=Palette)
    sizes: Sizes = field(default_factory=Sizes)
    cards: dict[str, dict[str, tuple[Colour, ...]]] = field(default_factory=lambda: CARD_COLOURS)
    pencils: dict[str, Colour] = field(default_factory=lambda: PENCIL_COLOURS)

    def px(self, fraction: float, height: int, least: int = 1) -> int:
        """A size in pixels for a screen `height` pixels tall."""
        return max(least, round(fraction * height))

    def card_colours(self, city: str, kind: str) -> tuple[Colour, ...]:
        return self.cards.get(city, CARD_COLOURS["tokyo"])[kind]

    def pencil(self, colour: str) -> Colour:
        return self.pencils.get(colour, self.palette.dim)


DEFAULT_THEME = Theme()


# The status LED (Display HAT Mini, Pico board) in the kind of the card being played:
# saturated tones, because an LED shows pale screen colours as white.
LED_COLOURS: dict[str, dict[str, Colour]] = {
    "tokyo": {"street": (255, 20, 90), "underground": (0, 255, 40)},
    "paris": {"street": (255, 170, 0), "underground": (0, 90, 255)},
    "london": {"street": (0, 90, 255), "underground": (255, 20, 90)},
}


def kind_led_colour(view: object) -> Colour | None:
    """The LED's colour for a screen: on a turn, the kind of the card players draw from
    (its first colour for a two-coloured underground card); None (off) elsewhere."""
    cards = getattr(view, "cards", ()) if getattr(view, "screen", "") == "turn" else ()
    if not cards:
        return None
    city = getattr(view, "city", "tokyo")
    return LED_COLOURS.get(city, LED_COLOURS["tokyo"])[cards[-1].kind.value]

"""Wiring diagrams and connection tables drawn from the hardware profiles themselves.

    python hardware/wiring.py          # rewrite hardware/wiring/*.svg and the tables in
                                       # hardware/README.md
    python hardware/wiring.py --check  # exit 1 if any of them is out of date

Pins come only from the profiles, read through `nsdevice.hardware.profiles` (so a moved profile
folder or an edited pin shows up here), and for the Pico board from the constants at
the top of `firmware/main.py`. `tests/test_wiring.py` regenerates everything and
compares, so a diagram can never disagree with the code.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from nsdevice.hardware.profiles import Profile, list_profiles, load_profile

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "hardware" / "wiring"
README = ROOT / "hardware" / "README.md"
FIRMWARE_MAIN = ROOT / "firmware" / "main.py"

# --- the two pin headers ------------------------------------------------------------------

# The Pi's 40-pin header, physical pin → what it carries ("GPIO n" is BCM n).
PI_HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO 2", 4: "5V", 5: "GPIO 3", 6: "GND", 7: "GPIO 4", 8: "GPIO 14",
    9: "GND", 10: "GPIO 15", 11: "GPIO 17", 12: "GPIO 18", 13: "GPIO 27", 14: "GND",
    15: "GPIO 22", 16: "GPIO 23", 17: "3V3", 18: "GPIO 24", 19: "GPIO 10", 20: "GND",
    21: "GPIO 9", 22: "GPIO 25", 23: "GPIO 11", 24: "GPIO 8", 25: "GND", 26: "GPIO 7",
    27: "GPIO 0", 28: "GPIO 1", 29: "GPIO 5", 30: "GND", 31: "GPIO 6", 32: "GPIO 12",
    33: "GPIO 13", 34: "GND", 35: "GPIO 19", 36: "GPIO 16", 37: "GPIO 26", 38: "GPIO 20",
    39: "GND", 40: "GPIO 21",
}  # fmt: skip
# The Pico's 40 pins, counted down the left side from pin 1 (USB at the top), then up
# the right side.
PICO_PINS: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}  # fmt: skip
BUTTON_WORDS = {"next": "NEXT", "back": "BACK", "menu": "MENU", "spare": "spare"}
# What each arcade button looks like (hardware/README.md's button legend).
ARCADE_BUTTONS = {"next": "green", "back": "white", "menu": "blue", "spare": "optional"}
FIRMWARE_ORDER = ("next", "back", "menu", "spare")  # BUTTON_PINS' order in firmware/main.py

COLOURS = {
    "power": "#c0392b", "ground": "#222222", "free": "#d9d9d9", "panel": "#8e44ad",
    "button": "#1e8449", "led": "#d68910", "usb": "#2471a3",
}  # fmt: skip


def pi_pin(bcm: int) -> int:
    """The header pin that carries BCM `bcm`."""
    return next(pin for pin, name in PI_HEADER.items() if name == f"GPIO {bcm}")


def _row_distance(a: int, b: int) -> float:
    """How far apart two pins of a 2 × 20 header are: rows, plus half for the other side."""
    return abs((a + 1) // 2 - (b + 1) // 2) + (0.5 if a % 2 != b % 2 else 0.0)


def shared_ground(pins: Iterable[int], header: dict[int, str]) -> int:
    """The ground pin closest to all of `pins` together: one wire chained from switch
    to switch reaches it."""
    pins = list(pins)
    grounds = [pin for pin, name in header.items() if name == "GND"]
    return min(grounds, key=lambda ground: (sum(_row_distance(ground, p) for p in pins), ground))


# --- what each build connects ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connection:
    """One wire or one occupied pin: `pin` on the board's header, what it is for."""

    pin: int
    signal: str  # "GPIO 23", "GND", "GP2"
    role: str  # for people: "NEXT button (green)"
    kind: str  # a key of COLOURS
    other_end: str = ""


def _role(role: str) -> tuple[str, str]:
    """A profile's pin role (`Profile.pins()`) in words, and its colour kind."""
    if role.startswith("[input.buttons] "):
        button = role.removeprefix("[input.buttons] ")
        return f"{BUTTON_WORDS[button]} button", "button"
    if role.startswith("[led] "):
        return f"LED {role.removeprefix('[led] ')}", "led"
    if role == "[display] data_command_pin":
        return "panel data/command", "panel"
    if role == "[display] backlight_pin":
        return "panel backlight", "panel"
    return f"panel {role.removesuffix(' (used by the panel)')}", "panel"


def pi_connections(profile: Profile) -> list[Connection]:
    """Every header pin the build uses, from the profile; grounds for wired buttons."""
    connections = []
    roles = profile.pins()
    buttons = dict(profile.input.buttons)
    wired = profile.display.kind != "st7789"  # a HAT brings its own wiring
    ground = shared_ground((pi_pin(p) for p in buttons.values()), PI_HEADER) if buttons else None
    for bcm, role in sorted(roles.items(), key=lambda item: pi_pin(item[0])):
        words, kind = _role(role)
        other = ""
        if kind == "button" and wired:
            name = next(name for name, pin in buttons.items() if pin == bcm)
            words = f"{words} ({ARCADE_BUTTONS[name]})"
            other = f"switch NO tab; COM tab → GND, pin {ground}"
        connections.append(Connection(pi_pin(bcm), f"GPIO {bcm}", words, kind, other))
    if wired and ground is not None:
        connections.append(
            Connection(ground, "GND", "ground, shared", "ground", "every switch's COM tab")
        )
    return sorted(connections, key=lambda connection: connection.pin)


def firmware_pins(path: Path = FIRMWARE_MAIN) -> tuple[tuple[int, ...], int]:
    """BUTTON_PINS and LED_PIN from the top of firmware/main.py (read, not run: it needs
    MicroPython's `machine`)."""
    values: dict[str, object] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in ("BUTTON_PINS", "LED_PIN"):
                values[target.id] = ast.literal_eval(node.value)
    buttons, led = values["BUTTON_PINS"], values["LED_PIN"]
    assert isinstance(buttons, tuple) and isinstance(led, int)
    return buttons, led


def pico_connections() -> list[Connection]:
    buttons, led = firmware_pins()
    pins = {int(name[2:]): pin for pin, name in PICO_PINS.items() if name.startswith("GP")}
    ground = shared_ground((pins[gp] for gp in buttons), PICO_PINS)
    connections = [
        Connection(
            pins[gp],
            f"GP{gp}",
            f"{BUTTON_WORDS[name]} button ({ARCADE_BUTTONS[name]})",
            "button",
            f"switch NO tab; COM tab → GND, pin {ground}",
        )
        for name, gp in zip(FIRMWARE_ORDER, buttons, strict=False)
    ]
    connections.append(
        Connection(pins[led], f"GP{led}", "LED data in (WS2812 DIN)", "led", "330 Ω in series")
    )
    connections.append(
        Connection(ground, "GND", "ground, shared", "ground", "every switch's COM tab")
    )
    led_ground = shared_ground([pins[led]], PICO_PINS)
    connections.append(Connection(led_ground, "GND", "LED ground", "ground", "WS2812 GND"))
    connections.append(Connection(40, "VBUS", "LED power (5 V from USB)", "power", "WS2812 VDD"))
    return sorted(connections, key=lambda connection: connection.pin)


# --- drawing ---------------------------------------------------------------------------

ROW = 34  # px between header rows: room for a label of two lines
PIN = 8  # pin circle radius


def _svg(width: int, height: int, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="white"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _text(x: float, y: float, words: str, size: int = 13, anchor: str = "start",
          weight: str = "normal", colour: str = "#222222") -> str:  # fmt: skip
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{colour}">{escape(words)}</text>'
    )


def _header(
    x: int, top: int, header: dict[int, str], used: dict[int, Connection], title: str
) -> list[str]:
    """A 2 × 20 header, pin 1 top left, odd pins on the left; used pins labelled outward
    in their colour, the others in grey beside the pin."""
    body = [
        f'<rect x="{x - 22}" y="{top - 20}" width="{44 + ROW}" height="{19 * ROW + 40}" '
        f'rx="6" fill="#f4f4f4" stroke="#888888"/>',
        _text(x + ROW / 2, top + 19 * ROW + 40, title, 13, "middle", "bold"),
    ]
    for pin, signal in header.items():
        column = x if pin % 2 else x + ROW
        y = top + ((pin - 1) // 2) * ROW
        connection = used.get(pin)
        if connection is not None:
            colour = COLOURS[connection.kind]
        elif signal == "GND":
            colour = COLOURS["ground"]
        elif signal in ("3V3", "5V", "VBUS", "VSYS", "3V3(OUT)"):
            colour = COLOURS["power"]
        else:
            colour = COLOURS["free"]
        text_colour = "white" if colour not in (COLOURS["free"],) else "#222222"
        body.append(f'<circle cx="{column}" cy="{y}" r="{PIN}" fill="{colour}"/>')
        body.append(_text(column, y + 3.5, str(pin), 9, "middle", "bold", text_colour))
        left = pin % 2 == 1
        side = -1 if left else 1
        anchor = "end" if left else "start"
        if connection is None:
            body.append(_text(column + side * 14, y + 4, signal, 10, anchor, colour="#999999"))
            continue
        end = column + side * 120
        body.append(
            f'<line x1="{column + side * PIN}" y1="{y}" x2="{end}" y2="{y}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        body.append(_text(end + side * 6, y + 1, connection.role, 13, anchor, "bold", colour))
        detail = "; ".join(part for part in (connection.signal, connection.other_end) if part)
        body.append(_text(end + side * 6, y + 14, detail, 10, anchor, colour="#555555"))
    return body


def _legend(x: int, y: int) -> list[str]:
    body = []
    for index, (kind, words) in enumerate(
        (("button", "button"), ("panel", "panel (SPI)"), ("led", "LED"), ("ground", "ground"),
         ("power", "power"), ("free", "free"))
    ):  # fmt: skip
        left = x + index * 105
        body.append(f'<circle cx="{left}" cy="{y}" r="6" fill="{COLOURS[kind]}"/>')
        body.append(_text(left + 10, y + 4, words, 11))
    return body


def pi_diagram(profile: Profile) -> str:
    width, height = 900, 20 * ROW + 190
    x, top = width // 2 - ROW // 2, 120
    connections = pi_connections(profile)
    body = [
        _text(20, 30, f"{profile.name}: {profile.description}", 16, weight="bold"),
        _text(
            20,
            52,
            "Raspberry Pi 40-pin header, seen from above with the SD card end "
            "away from you; pin numbers are the header's, GPIO numbers are BCM.",
            11,
        ),
        *_header(x, top, PI_HEADER, {c.pin: c for c in connections}, "Raspberry Pi header"),
        *_legend(190, height - 26),
    ]
    if profile.display.kind == "st7789":
        body.append(
            _text(
                20,
                72,
                "Nothing to wire: the HAT plugs onto the header and uses the coloured pins.",
                12,
                weight="bold",
                colour="#8e44ad",
            )
        )
    return _svg(width, height, body)


def pico_diagram(profile: Profile) -> str:
    width, height = 900, 20 * ROW + 250
    x, top = width // 2 - ROW // 2 + 40, 180
    connections = pico_connections()
    vendor = profile.input.usb_vendor_id
    usb = f"USB vendor id {vendor:#06x}" if vendor is not None else "USB"
    socket = x + ROW / 2
    body = [
        _text(20, 30, f"{profile.name}: {profile.description}", 16, weight="bold"),
        _text(
            20,
            52,
            "Raspberry Pi Pico seen from above, USB socket at the top; GP numbers "
            "are the GPIO numbers in firmware/main.py.",
            11,
        ),
        f'<rect x="20" y="75" width="150" height="50" rx="6" fill="#eaf2f8" '
        f'stroke="{COLOURS["usb"]}"/>',
        _text(95, 97, "Raspberry Pi", 13, "middle", "bold"),
        _text(95, 114, "any USB port", 11, "middle"),
        f'<path d="M 170 100 H {socket - 12} Q {socket} 100 {socket} 112 V {top - 30}" '
        f'fill="none" stroke="{COLOURS["usb"]}" stroke-width="4"/>',
        f'<rect x="{socket - 10}" y="{top - 32}" width="20" height="12" rx="2" fill="#aaaaaa"/>',
        _text(185, 92, f"USB cable ({usb}, from the profile)", 11, colour=COLOURS["usb"]),
        *_header(x, top, PICO_PINS, {c.pin: c for c in connections}, "Raspberry Pi Pico"),
        *_legend(190, height - 26),
    ]
    return _svg(width, height, body)


# --- the arcade box's top panel: a 1:1 drilling template ----------------------------------


@dataclass(frozen=True, slots=True)
class Hole:
    button: str  # a key of BUTTON_WORDS
    x_mm: float  # from the panel's left edge
    y_mm: float  # from the panel's front edge (the players' side)
    diameter_mm: float


PANEL_MM = (200.0, 110.0)  # top panel, width × depth
PANEL_HEIGHT_MM = 70.0  # inside height: a 30 mm button with its microswitch is ~45 mm deep
HOLES = (
    Hole("back", 40.0, 45.0, 24.0),  # left, under the left hand
    Hole("menu", 100.0, 75.0, 24.0),  # middle, set back: not hit by accident
    Hole("next", 155.0, 45.0, 30.0),  # right, where the hand rests: the big one
    Hole("spare", 100.0, 30.0, 24.0),  # optional, front middle
)
CABLE_HOLE = (180.0, 95.0, 10.0)  # x, y, diameter: the wires or USB cable out at the back


def drill_template() -> str:
    """The arcade top panel at 1:1 (print at 100 %): outline, hole centres and sizes."""
    width, depth = PANEL_MM
    margin = 15.0
    full_width, full_height = width + 2 * margin, depth + 2 * margin + 12

    def mm(value: float) -> str:
        return f"{value:g}"

    body = [
        f'<rect x="{mm(margin)}" y="{mm(margin)}" width="{mm(width)}" height="{mm(depth)}" '
        f'fill="none" stroke="black" stroke-width="0.4"/>',
        _mm_text(
            margin,
            margin - 4,
            f"arcade top panel {mm(width)} × {mm(depth)} mm "
            f"(print at 100 %); box inside height {mm(PANEL_HEIGHT_MM)} mm",
            4,
        ),
        _mm_text(
            margin + width / 2, margin + depth + 7, "front edge: the players' side", 3.5, "middle"
        ),
    ]
    holes = [*((h.button, h.x_mm, h.y_mm, h.diameter_mm) for h in HOLES), ("cable", *CABLE_HOLE)]
    for name, x, y, diameter in holes:
        cx, cy = margin + x, margin + depth - y  # y counts from the front (bottom) edge
        dashed = ' stroke-dasharray="2 1"' if name == "spare" else ""
        body.append(
            f'<circle cx="{mm(cx)}" cy="{mm(cy)}" r="{mm(diameter / 2)}" fill="none" '
            f'stroke="black" stroke-width="0.4"{dashed}/>'
        )
        body.append(
            f'<path d="M {mm(cx - 3)} {mm(cy)} H {mm(cx + 3)} M {mm(cx)} {mm(cy - 3)} '
            f'V {mm(cy + 3)}" stroke="black" stroke-width="0.25"/>'
        )
        label = BUTTON_WORDS.get(name, name)
        body.append(
            _mm_text(cx, cy + diameter / 2 + 4.5, f"{label} Ø{mm(diameter)}", 3.5, "middle")
        )
        body.append(_mm_text(cx, cy + diameter / 2 + 8.5, f"x {mm(x)}, y {mm(y)}", 3, "middle"))
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{mm(full_width)}mm" '
            f'height="{mm(full_height)}mm" viewBox="0 0 {mm(full_width)} {mm(full_height)}" '
            'font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{mm(full_width)}" height="{mm(full_height)}" fill="white"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _mm_text(x: float, y: float, words: str, size: float, anchor: str = "start") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}">'
        f"{escape(words)}</text>"
    )


# --- the README's generated tables -----------------------------------------------------


def connection_table(connections: list[Connection], pin_word: str) -> str:
    lines = [
        f"| {pin_word} | signal | what | other end |",
        "| ---: | --- | --- | --- |",
    ]
    for c in connections:
        lines.append(f"| {c.pin} | {c.signal} | {c.role} | {c.other_end} |")
    return "\n".join(lines)


def drill_table() -> str:
    lines = [
        f"Top panel {PANEL_MM[0]:g} × {PANEL_MM[1]:g} mm, inside height {PANEL_HEIGHT_MM:g} mm. "
        "Hole centres in mm from the panel's left edge (x) and front edge (y):",
        "",
        "| hole | x | y | diameter |",
        "| --- | ---: | ---: | ---: |",
    ]
    for hole in HOLES:
        lines.append(
            f"| {BUTTON_WORDS[hole.button]} | {hole.x_mm:g} | {hole.y_mm:g} | "
            f"{hole.diameter_mm:g} |"
        )
    x, y, diameter = CABLE_HOLE
    lines.append(f"| cable out | {x:g} | {y:g} | {diameter:g} |")
    return "\n".join(lines)


def generated() -> dict[str, str]:
    """Every generated file's name (under hardware/wiring/) → its text, and every README
    block's name → its text (keys starting with 'README:')."""
    out: dict[str, str] = {}
    for name in list_profiles():
        if name == "emulator":
            continue  # no wires: QEMU's emulated Pi of image/boot.sh
        profile = load_profile(name)
        if profile.input.kind == "serial":
            out[f"{name}.svg"] = pico_diagram(profile)
            out[f"README:{name}"] = connection_table(pico_connections(), "Pico pin")
        elif profile.input.kind == "gpio":
            out[f"{name}.svg"] = pi_diagram(profile)
            out[f"README:{name}"] = connection_table(pi_connections(profile), "header pin")
    out["arcade-top-panel.svg"] = drill_template()
    out["README:arcade-top-panel"] = drill_table()
    return out


# A block: its opening line, the generated lines (none in a fresh block), its closing line.
BLOCK = re.compile(
    r"(<!-- generated by hardware/wiring.py: (?P<name>[\w.-]+) -->\n)"
    r"(?P<body>(?:(?!<!-- ).*\n)*?)"
    r"(<!-- end of generated block -->)"
)


def readme_with(blocks: dict[str, str], text: str) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in blocks:
            raise KeyError(f"hardware/README.md has a block for {name!r}, which is not generated")
        return match[1] + blocks[name] + "\n" + match[4]

    return BLOCK.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether all is current")
    args = parser.parse_args(argv)
    files = generated()
    blocks = {k.removeprefix("README:"): v for k, v in files.items() if k.startswith("README:")}
    stale = []
    readme = README.read_text()
    new_readme = readme_with(blocks, readme)
    if new_readme != readme:
        stale.append(README)
    for name, text in files.items():
        if name.startswith("README:"):
            continue
        path = OUT / name
        if not path.exists() or path.read_text() != text:
            stale.append(path)
    if args.check:
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(exist_ok=True)
    for name, text in files.items():
        if not name.startswith("README:"):
            (OUT / name).write_text(text)
    README.write_text(new_readme)
    for path in stale:
        print(f"written: {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

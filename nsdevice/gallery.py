"""One realistic example of every screen, for screenshots and the layout tests.

Each screen's examples are named by its own record (`Screen.examples`, in its family's
module of `nsdevice.session.screens`), made by the session's own builders over real deals,
so a screenshot cannot show what the box never does. This module gathers them, and adds
the two views that are no screen of the session: the notices and the hardware check's.
No pygame here: views are plain data.
"""

from __future__ import annotations

from collections.abc import Iterator

from nsdevice import views
from nsdevice.session.context import Album
from nsdevice.session.hardware_test import hardware_test_view
from nsdevice.session.screens import SCREENS
from nsdevice.session.screens.notice import notice_view

NOTICES = (  # (notice, detail): what each notice says, with a detail as the box would give it
    ("store_damaged", "/var/lib/nsdevice/state.db.damaged-20250101-101500"),
    ("store_unwritable", "/var/lib/nsdevice: read-only file system"),
    ("store_full", "/var/lib/nsdevice"),
    ("store_read_only", "/var/lib/nsdevice"),
    ("store_rewound", "nsdevice.sqlite3.damaged-20261123-101500"),
    ("display_fallback", "st7789 library not installed: pip install 'nsdevice[pi]'"),
    ("input_fallback", ""),
    ("presses_dropped", ""),
    ("voice_broken", "/opt/nsdevice/voice/clips/manifest.json: not a voice manifest"),
    ("settings_line", 'nsdevice.toml line 4: language "nl" is not one of en, es, de, it, fr'),
)


def example_views(
    city: str, language: str = "en", size: tuple[int, int] | None = None
) -> list[tuple[str, views.View]]:
    """Named examples of every screen in `screens.ALL_VIEWS` for `city`: each screen's
    record's examples, then the notices and the hardware check.

    `size` is accepted for the screenshot command's convenience; views are the same at
    every size (layout is the painter's business).
    """
    del size
    album = Album(city, language, SCREENS)
    examples = [example for screen in SCREENS.values() for example in screen.examples(album)]
    return [*examples, *_notices(language), *_hardware_test(language)]


def _notices(language: str) -> Iterator[tuple[str, views.View]]:
    for notice, detail in NOTICES:
        yield f"notice-{notice.replace('_', '-')}", notice_view(notice, detail, language)


def _hardware_test(language: str) -> list[tuple[str, views.View]]:
    """`nsdevice hwtest`'s steps, built as the check builds them."""
    return [
        ("hwtest-pattern", hardware_test_view("pattern", language)),
        ("hwtest-press", hardware_test_view("press", language, button="back", passed=("next",))),
        (
            "hwtest-led",
            hardware_test_view("led", language, led="green", passed=("next", "back", "menu")),
        ),
        (
            "hwtest-done",
            hardware_test_view("done", language, passed=("next", "menu"), failed=("back",)),
        ),
    ]

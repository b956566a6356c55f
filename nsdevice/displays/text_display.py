"""The terminal display: each screen as plain lines of text (also the fallback display)."""

from __future__ import annotations

from typing import TextIO

from nsdevice.displays.stream import StreamDisplay
from nsdevice.texts import Words
from nsdevice.views import View

RULE = "─" * 40  # between screens, so a scrolling terminal shows where one ends


class TextDisplay(StreamDisplay):
    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(stream)
        self._words: dict[str, Words] = {}

    def render(self, view: View) -> str:
        """The screen as text: title, lines (the list cursor marked), the button legend."""
        words = self._words.get(view.language)
        if words is None:
            words = self._words[view.language] = Words(view.language)
        page = words.page(view)
        lines = [RULE, page.title.upper(), ""]
        for index, line in enumerate(page.lines):
            lines.append(("> " if index in page.emphasis else "  ") + line)
        if view.hints:
            legend = "   ".join(
                f"[{words.button(h.button)}] {words.action(h.action)}" for h in view.hints
            )
            lines += ["", legend]
        return "\n".join(lines) + "\n"

    def show(self, view: View) -> None:
        self._stream.write(self.render(view))
        self._stream.flush()

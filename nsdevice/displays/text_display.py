"""The terminal display: each screen as plain lines of text (also the fallback display)."""

from __future__ import annotations

from nsdevice import texts
from nsdevice.displays.stream import StreamDisplay
from nsdevice.texts import Role
from nsdevice.views import View

RULE = "─" * 40  # between screens, so a scrolling terminal shows where one ends


def marked(code: str, cursor: int) -> str:
    """The code with the character being set in brackets: "1[5]0" (a terminal has no
    box to light up)."""
    if not 0 <= cursor < len(code):
        return code
    return f"{code[:cursor]}[{code[cursor]}]{code[cursor + 1 :]}"


class TextDisplay(StreamDisplay):
    def render(self, view: View) -> str:
        """The screen as text: title, lines (the list cursor marked), the button legend."""
        words = texts.words(view.language)
        page = words.page(view)
        lines = [RULE, page.title.upper(), ""]
        for index, line in enumerate(page.lines):
            if line.role is Role.PICTURE:  # the terminal draws no picture: says only what it shows
                continue
            text = line.text
            if line.role is Role.CODE and page.cursor is not None:
                text = marked(text, page.cursor)
            lines.append(("> " if index in page.emphasis else "  ") + text)
        if view.hints:  # by where the buttons lie, each named by its key where keys play
            hints = sorted(view.hints, key=lambda h: (h.edge, h.order))
            legend = "   ".join(
                f"[{h.key or words.button(h.button)}] {words.action(h.action)}" for h in hints
            )
            lines += ["", legend]
        return "\n".join(lines) + "\n"

    def show(self, view: View) -> None:
        self._stream.write(self.render(view))
        self._stream.flush()

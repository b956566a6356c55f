"""The JSON display: one line per screen, `view.as_dict()`, for scripts and end-to-end tests."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from nsdevice.inputs.events import Inbox
from nsdevice.views import View


class JsonDisplay:
    size = (0, 0)
    supports_brightness = False

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdout

    def show(self, view: View) -> None:
        # one object per line, flushed at once: a reader piping us sees each screen as it comes
        line = json.dumps(view.as_dict(), ensure_ascii=False, sort_keys=False)
        self._stream.write(line + "\n")
        self._stream.flush()

    def inbox(self) -> Inbox | None:
        return None

    def set_brightness(self, level: int) -> None:
        pass

    def chime(self, name: str) -> None:
        pass

    def close(self) -> None:
        pass

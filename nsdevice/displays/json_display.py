"""The JSON display: one line per screen, `view.as_dict()`, for scripts and end-to-end tests."""

from __future__ import annotations

import json

from nsdevice.displays.stream import StreamDisplay
from nsdevice.views import View


class JsonDisplay(StreamDisplay):
    def show(self, view: View) -> None:
        # one object per line, flushed at once: a reader piping us sees each screen as it comes
        line = json.dumps(view.as_dict(), ensure_ascii=False, sort_keys=False)
        self._stream.write(line + "\n")
        self._stream.flush()

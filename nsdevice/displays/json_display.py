"""The JSON display: one line per screen, `view.as_dict()`, for scripts and end-to-end tests.

Each line also carries `"say"`: what the box says for that screen (`nsdevice.voice`), a
list of `{"id", "text"}` phrases, so a whole game can be followed with the screen covered.
"""

from __future__ import annotations

import json

from nsdevice.displays.stream import StreamDisplay
from nsdevice.views import View
from nsdevice.voice import say


class JsonDisplay(StreamDisplay):
    def show(self, view: View) -> None:
        data = view.as_dict()
        data["say"] = [{"id": phrase.id, "text": phrase.text} for phrase in say(view)]
        # one object per line, flushed at once: a reader piping us sees each screen as it comes
        line = json.dumps(data, ensure_ascii=False, sort_keys=False)
        self._stream.write(line + "\n")
        self._stream.flush()

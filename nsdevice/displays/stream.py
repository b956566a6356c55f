"""What the displays that write to a text stream share: no pixels, nothing to dim, no
sound and no events of their own; only how each screen becomes text differs."""

from __future__ import annotations

import sys
from typing import TextIO

from nsdevice.displays import Display


class StreamDisplay(Display):
    def __init__(self, stream: TextIO | None = None) -> None:
        # looked up at start, not at import, so that a test's captured stdout is used
        self._stream = stream if stream is not None else sys.stdout

    # close() keeps the base's no-op: the stream belongs to whoever passed it (or is
    # stdout), not ours to close

"""What the box says aloud, and the clips it says it with (issue 24).

`phrases` derives what is said from a view (a pure function: the session needs nothing new);
`clips` finds each phrase's pre-rendered clip through the manifest that `tools/voice.py`
writes. Nothing here plays sound: the box's speaker (`nsdevice.box.speaker`) and the phones'
page (`nsdevice.web`) do, each from the same clips.
"""

from __future__ import annotations

from nsdevice.voice.phrases import CATALOGUE, Phrase, phrase_ids, phrase_text, say

__all__ = ["CATALOGUE", "Phrase", "phrase_ids", "phrase_text", "say"]

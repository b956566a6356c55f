"""A notice over any screen (a damaged save set aside, a back end that fell back): not a
screen of the table, since any press only dismisses it."""

from __future__ import annotations

from nsdevice import views
from nsdevice.session.screens.common import hints


def notice_view(notice: str, detail: str, language: str) -> views.NoticeView:
    return views.NoticeView(
        notice=notice,
        detail=detail,
        hints=hints(next="ok", back="ok", menu="ok"),  # any button dismisses it
        language=language,
    )

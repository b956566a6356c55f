"""The phones' page: where the phones find the box, and the join code."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Line, Page, Pages, Role, page_for


@page_for(views.PhonesView, title=N_("Phones"), row=("phones", N_("Phones")))
def _phones(words: Pages, view: views.PhonesView) -> Page:
    _ = words._
    lines = (
        Line(_("Scan the code to see the table on your phone.")),
        *(Line(address, Role.DETAIL) for address in view.addresses),
        Line(_("Join code: {code}").format(code=view.code), Role.HEADLINE),
    )
    return Page(words.title(view), lines)

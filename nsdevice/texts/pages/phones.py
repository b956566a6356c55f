"""The phones' page: where the phones find the box, and the join code."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Line, Page, Pages, Role, page_for


@page_for(views.PhonesView, title=N_("Phones"), row=("phones", N_("Phones")))
def _phones(words: Pages, view: views.PhonesView) -> Page:
    _ = words._
    if view.step == "wifi" and view.hotspot is not None:
        return Page(
            words.title(view),
            (
                Line(_("First join the box's own Wi-Fi: scan this code."), Role.PICTURE),
                # the name too on the small panel (not a detail): a phone that cannot
                # scan joins by it
                Line(_("Network: {name}").format(name=view.hotspot.name)),
                Line(
                    _("Password: {password}").format(password=view.hotspot.password),
                    Role.HEADLINE,
                ),
                Line(_("Then press Next for the page's code."), Role.NOTE),
            ),
        )
    lines = (
        Line(_("Scan the code to see the table on your phone."), Role.PICTURE),
        *((Line(_("The page is at:"), Role.DETAIL),) if view.addresses else ()),
        *(Line(address, Role.DETAIL) for address in view.addresses),
        Line(_("Join code: {code}").format(code=view.code), Role.HEADLINE),
    )
    return Page(words.title(view), lines)

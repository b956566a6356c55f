"""The pages before a game: the setup list, the deal code typed in, a solo player's own
pencil row."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Form, Line, Page, Pages, Role, page_for


@page_for(views.SetupView, title=N_("New game"))
def _setup(words: Pages, view: views.SetupView) -> Page:
    warning = words._("Several card modules: one is advised")
    return words._list_page(view, [Line(warning, Role.WARNING)] if view.mix_warning else [])


@page_for(views.SeedEntryView, title=N_("Deal code"))
def _seed_entry(words: Pages, view: views.SeedEntryView) -> Page:
    code = "".join(c or "·" for c in view.characters)
    lines = (
        Line(code, Role.CODE),
        Line(words._("The same code deals the same cards."), Role.NOTE),
    )
    return Page(words.title(view), lines, emphasis=(0,), form=Form.CODE, cursor=view.cursor)


@page_for(views.PencilOrderView, title=N_("Your pencil order"))
def _pencil_order(words: Pages, view: views.PencilOrderView) -> Page:
    _ = words._
    lines = [Line(_("Lay the pencils in the order you will use them."), Role.NOTE)]
    row = [*view.chosen, view.offered]
    for number, colour in enumerate(row, start=1):
        text = _("Round {number}: {colour}").format(number=number, colour=words.colour(colour))
        lines.append(Line(text, Role.PENCIL))
    if view.chosen:
        lines.append(Line(_("Hold BACK to take the last one back."), Role.BUTTONS))
    return Page(words.title(view), tuple(lines), emphasis=(len(row),))

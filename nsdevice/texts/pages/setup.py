"""The pages before a game: the setup list, the deal code typed in, a solo player's own
pencil row."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Form, Line, Page, Pages, Role, register_page

TITLES: dict[type[views.View], str] = {
    views.SetupView: N_("New game"),
    views.SeedEntryView: N_("Deal code"),
    views.PencilOrderView: N_("Your pencil order"),
}


class SetupPages(Pages):
    """The words of the screens before a game."""

    @register_page
    def _setup(self, view: views.SetupView) -> Page:
        warning = self._("Several card modules: one is advised")
        return self._list_page(view, [Line(warning, Role.WARNING)] if view.mix_warning else [])

    @register_page
    def _seed_entry(self, view: views.SeedEntryView) -> Page:
        code = "".join(c or "·" for c in view.characters)
        lines = (
            Line(code, Role.CODE),
            Line(self._("The same code deals the same cards."), Role.NOTE),
        )
        return Page(self.title(view), lines, emphasis=(0,), form=Form.CODE, cursor=view.cursor)

    @register_page
    def _pencil_order(self, view: views.PencilOrderView) -> Page:
        _ = self._
        lines = [Line(_("Lay the pencils in the order you will use them."), Role.NOTE)]
        row = [*view.chosen, view.offered]
        for number, colour in enumerate(row, start=1):
            text = _("Round {number}: {colour}").format(number=number, colour=self.colour(colour))
            lines.append(Line(text, Role.PENCIL))
        if view.chosen:
            lines.append(Line(_("Hold BACK to take the last one back."), Role.BUTTONS))
        return Page(self.title(view), tuple(lines), emphasis=(len(row),))

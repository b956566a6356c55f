"""The pages of the menu and what it leads to directly (the question, about, shutting
down), the notices over any screen, and `nsdevice hwtest`'s steps."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Form, Line, Page, Pages, Role, items, register_page

TITLES: dict[type[views.View], str] = {
    views.MenuView: N_("Menu"),
    views.ConfirmView: N_("Are you sure?"),
    views.AboutView: N_("About"),
    views.NoticeView: N_("Notice"),
    views.ShutdownView: N_("Shutting down"),
    views.HardwareTestView: N_("Hardware check"),
}
QUESTIONS = {
    "back_to_round": N_("Go back into round {round}?"),
    "restart_round": N_("Start round {round} again with the same cards?"),
    "new_game": N_("Leave this game and set up a new one?"),
    "shutdown": N_("Shut the box down now?"),
}
NOTICES = {
    "store_damaged": N_("The saved game could not be read. It was set aside."),
    "store_unwritable": N_("Games cannot be saved here; playing without saving."),
    "store_full": N_("Cannot save: the card is full. Play goes on, but a power cut would lose it."),
    "store_read_only": N_(
        "Cannot save: the card is read-only. Play goes on, but a power cut would lose it."
    ),
    "store_rewound": N_("The newest save was damaged: the game goes on from an earlier step."),
    "display_fallback": N_("No screen found; showing text instead."),
    "input_fallback": N_("Buttons not found; using the keyboard."),
    "presses_dropped": N_("Buttons sent too fast; some presses were lost."),
    "voice_broken": N_("The voice's clips cannot be read: the box stays silent."),
    # the first-boot settings file on the card (issue 31): the box starts without that line
    "settings_line": N_("A line of the settings file was not understood; the box left it out."),
}
LED_COLOURS = {"red": N_("red"), "green": N_("green"), "blue": N_("blue")}


class MenuPages(Pages):
    """The words of the menu, its questions and the box's notices."""

    @register_page
    def _menu(self, view: views.MenuView) -> Page:
        return self._list_page(view, [])

    @register_page
    def _confirm(self, view: views.ConfirmView) -> Page:
        question = self._(QUESTIONS[view.question]).format(round=view.round)
        return Page(self.title(view), (Line(question),), form=Form.MESSAGE)

    @register_page
    def _about(self, view: views.AboutView) -> Page:
        _ = self._
        code = self.seed(view.seed) if view.seed else _("The deal code shows when the game ends.")
        edges = _("Solo tiers include both ends: in {city}, {top} is tier 1, {next} tier 2.")
        edge = edges.format(
            city=self.city(view.city), top=view.first_tier_top, next=view.first_tier_top + 1
        )
        lines = [f"nsdevice {view.version}", _("A card deck for Next Station."), code]
        return Page(
            self.title(view),
            (*items(lines), Line(edge, Role.NOTE)),
            form=Form.MESSAGE,
        )

    @register_page
    def _notice(self, view: views.NoticeView) -> Page:
        lines = [Line(self._(NOTICES[view.notice]))]
        if view.detail:
            lines.append(Line(view.detail, Role.DETAIL))
        return Page(self.title(view), tuple(lines), form=Form.MESSAGE)

    @register_page
    def _shutdown(self, view: views.ShutdownView) -> Page:
        line = Line(self._("Unplug when the screen goes dark."))
        return Page(self.title(view), (line,), form=Form.MESSAGE)

    @register_page
    def _hwtest(self, view: views.HardwareTestView) -> Page:
        _ = self._
        if view.step == "pattern":
            lines = [_("Sharp text and four colour bars?"), _("Press any button to go on.")]
        elif view.step == "press":
            lines = [_("Press {button} now.").format(button=self.button(view.button or "next"))]
        elif view.step == "led":
            colour = _(LED_COLOURS[view.led or "red"])
            lines = [_("The light should be {colour}.").format(colour=colour)]
        else:
            lines = [_("All buttons answered.") if not view.failed else _("Some buttons failed.")]
        if view.passed:
            names = ", ".join(self.button(b) for b in view.passed)
            lines.append(_("Working: {buttons}").format(buttons=names))
        if view.failed:
            names = ", ".join(self.button(b) for b in view.failed)
            lines.append(_("No answer: {buttons}").format(buttons=names))
        return Page(self.title(view), tuple(items(lines)), form=Form.MESSAGE)

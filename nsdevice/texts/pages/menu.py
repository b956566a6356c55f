"""The pages of the menu and what it leads to directly (the question, about, shutting
down), the notices over any screen, and `nsdevice hwtest`'s steps."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Form, Line, Page, Pages, Role, items, page_for

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


@page_for(views.MenuView, title=N_("Menu"))
def _menu(words: Pages, view: views.MenuView) -> Page:
    return words._list_page(view, [])


@page_for(views.ConfirmView, title=N_("Are you sure?"))
def _confirm(words: Pages, view: views.ConfirmView) -> Page:
    question = words._(QUESTIONS[view.question]).format(round=view.round)
    return Page(words.title(view), (Line(question),), form=Form.MESSAGE)


@page_for(views.AboutView, title=N_("About"), row=("about", N_("About")))
def _about(words: Pages, view: views.AboutView) -> Page:
    _ = words._
    code = words.seed(view.seed) if view.seed else _("The deal code shows when the game ends.")
    edges = _("Solo tiers include both ends: in {city}, {top} is tier 1, {next} tier 2.")
    edge = edges.format(
        city=words.city(view.city), top=view.first_tier_top, next=view.first_tier_top + 1
    )
    lines = [f"nsdevice {view.version}", _("A card deck for Next Station."), code]
    return Page(
        words.title(view),
        (*items(lines), Line(edge, Role.NOTE)),
        form=Form.MESSAGE,
    )


@page_for(views.NoticeView, title=N_("Notice"))
def _notice(words: Pages, view: views.NoticeView) -> Page:
    lines = [Line(words._(NOTICES[view.notice]))]
    if view.detail:
        lines.append(Line(view.detail, Role.DETAIL))
    return Page(words.title(view), tuple(lines), form=Form.MESSAGE)


@page_for(views.ShutdownView, title=N_("Shutting down"))
def _shutdown(words: Pages, view: views.ShutdownView) -> Page:
    line = Line(words._("Unplug when the screen goes dark."))
    return Page(words.title(view), (line,), form=Form.MESSAGE)


@page_for(views.HardwareTestView, title=N_("Hardware check"))
def _hwtest(words: Pages, view: views.HardwareTestView) -> Page:
    _ = words._
    if view.step == "pattern":
        lines = [_("Sharp text and four colour bars?"), _("Press any button to go on.")]
    elif view.step == "press":
        lines = [_("Press {button} now.").format(button=words.button(view.button or "next"))]
    elif view.step == "led":
        colour = _(LED_COLOURS[view.led or "red"])
        lines = [_("The light should be {colour}.").format(colour=colour)]
    else:
        lines = [_("All buttons answered.") if not view.failed else _("Some buttons failed.")]
    if view.passed:
        names = ", ".join(words.button(b) for b in view.passed)
        lines.append(_("Working: {buttons}").format(buttons=names))
    if view.failed:
        names = ", ".join(words.button(b) for b in view.failed)
        lines.append(_("No answer: {buttons}").format(buttons=names))
    return Page(words.title(view), tuple(items(lines)), form=Form.MESSAGE)

"""The pages of the game's scores: the score entry, a seat's score sheet, the result."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.rules import scoring
from nsdevice.texts.pages.base import (
    Form,
    Line,
    Page,
    Pages,
    Role,
    page_for,
    title_for,
)
from nsdevice.texts.pages.game import LINE_SCORING

WHY_WON = {
    "total": "",
    "best_line": N_("Tie broken by the best line"),
    "shared": N_("Same total and same best line"),
}
SHEET_ITEMS = {  # the score sheet's items (S-T-END, S-P-END), as the walk-through names them
    "line": N_("Line of round {round}"),
    "stamps": N_("Tourist stamps"),
    "ring": N_("Green ring"),
    "overpasses": N_("Overpasses"),
    "interchanges": N_("Interchanges"),
    "objectives": N_("Objectives"),
}
SHEET_WHY = {  # one line each: how the item scores, in our words
    "stamps": N_("Corner districts 10, other outer districts 5"),
    "ring": N_("−3 for each ring station no line of yours reaches"),
    "overpasses": N_("2 for each crossed once, 6 for each crossed twice"),
    "interchanges": N_("Points for each station where lines meet:"),
    "objectives": N_("10 for each objective met"),
}


@title_for(views.ScoreEntryView)
def _score_entry_title(words: Pages, view: views.ScoreEntryView) -> str:
    _ = words._
    if view.solo:
        return _("Your final score")
    if view.field == "total":
        return _("Seat {seat}: total").format(seat=view.seat)
    return _("Seat {seat}: best line").format(seat=view.seat)


@title_for(views.SheetView)
def _score_sheet_title(words: Pages, view: views.SheetView) -> str:
    if view.solo:
        return words._(words.titles[views.SheetView])
    return words._("Seat {seat}: score sheet").format(seat=view.seat)


@title_for(views.ResultView)
def _result_title(words: Pages, view: views.ResultView) -> str:
    return words.tier(view.tier)[0] if view.solo else words._(words.titles[views.ResultView])


@page_for(views.ScoreEntryView)
def _score_entry(words: Pages, view: views.ScoreEntryView) -> Page:
    _ = words._
    step = _("{step} of {steps}").format(step=view.step + 1, steps=view.steps)
    lines = [
        Line("".join(view.digits), Role.CODE),
        Line(step, Role.NOTE),
        Line(_("Hold NEXT: +5 · hold BACK: digit before"), Role.BUTTONS),
    ]
    if view.sheet:
        lines.append(Line(_("Hold MENU: add it up on the score sheet"), Role.BUTTONS))
    elif view.field == "total" and not view.line_scoring:
        city = words.city(view.city)
        lines.append(Line(_("{city}: enter the total, no sheet to add up").format(city=city)))
    return Page(words.title(view), tuple(lines), emphasis=(0,), form=Form.CODE, cursor=view.cursor)


@page_for(views.SheetView, title=N_("Score sheet"))
def _score_sheet(words: Pages, view: views.SheetView) -> Page:
    _ = words._
    item = _(SHEET_ITEMS[view.item]).format(round=view.number)
    where = _("{step} of {steps}").format(step=view.step + 1, steps=view.steps)
    lines = [
        Line("".join(view.digits), Role.CODE),
        Line(item if view.along else f"{item} · {where}", Role.HEADING),
        Line(words.sheet_count(view.counts[view.count].key), Role.ITEM),
        Line(sheet_why(words, view), Role.FORMULA),
    ]
    if view.points is None or view.running is None:
        lines.append(Line(_("These counts cannot all be right"), Role.WARNING))
    else:
        sums = _("{points} points · total so far {total}").format(
            points=sheet_sum(words, view), total=view.running
        )
        lines.append(Line(sums, Role.ITEM))
        if view.module_penalty and view.step + 1 == view.steps:  # C-13, after the sheet
            solo = _("Solo: −{penalty} for modules on the result").format(
                penalty=view.module_penalty
            )
            lines.append(Line(solo, Role.NOTE))
    if view.along:  # a round's line as the game goes: a seat may leave it for the end
        lines.append(Line(_("Hold MENU: skip this seat"), Role.BUTTONS))
    else:
        lines.append(Line(_("Hold MENU: skip, type the total in"), Role.BUTTONS))
    return Page(words.title(view), tuple(lines), emphasis=(0,), form=Form.CODE, cursor=view.cursor)


def sheet_why(words: Pages, view: views.SheetView) -> str:
    """How the item scores: a line by its city's rule, the rest by the item."""
    if view.item == "line":
        return words._(LINE_SCORING[view.line_scoring])
    why = words._(SHEET_WHY[view.item])
    if view.item == "interchanges":
        table = (
            scoring.TOKYO_INTERCHANGES
            if view.line_scoring == "districts"
            else (scoring.PARIS_INTERCHANGES)
        )
        pairs = ", ".join(f"{lines}→{points}" for lines, points in sorted(table.items()))
        return f"{why} {pairs}"
    return why


def sheet_sum(words: Pages, view: views.SheetView) -> str:
    """The item's points, with a line's product written out (the points come from the
    rules, this only shows the counts they were made of)."""
    values = [c.value for c in view.counts]
    if view.item != "line":
        return str(view.points)
    if view.line_scoring == "districts":
        return f"{values[0]} × {values[1]} = {view.points}"
    monuments = scoring.PARIS_MONUMENT_POINTS
    return f"{values[0]} × {values[1]} + {monuments} × {values[2]} = {view.points}"


@page_for(views.ResultView, title=N_("Result"))
def _result(words: Pages, view: views.ResultView) -> Page:
    _ = words._
    daily = [Line(words.daily(view.daily))] if view.daily else []
    if not view.solo:
        lines = [*winner_lines(words, view), *daily, Line(words.seed(view.seed))]
        return Page(words.title(view), tuple(lines), form=Form.MESSAGE)
    sums = _("{total} points − {penalty} for modules = {adjusted}").format(
        total=view.total, penalty=view.penalty, adjusted=view.adjusted
    )
    tier = _("Tier {tier} of 6").format(tier=view.tier)
    lines = [
        Line(sums),
        Line(words.tier(view.tier)[1]),
        Line(f"{tier} · {band(words, view.tier_low, view.tier_high)}", Role.HEADLINE),
    ]
    if view.parts:  # what the sheet gave, part by part
        lines.append(Line(breakdown(words, view.parts), Role.NOTE))
    city = words.city(view.city)
    if view.new_best:
        lines.append(Line(_("New best in {city}!").format(city=city)))
    elif view.personal_best is not None:
        best = (
            _("Best in {city} with these modules: {points}")
            if view.modules_used
            else _("Best in {city} without modules: {points}")
        )
        lines.append(Line(best.format(city=city, points=view.personal_best)))
    lines += daily
    lines.append(Line(words.seed(view.seed)))
    return Page(words.title(view), tuple(lines), emphasis=(2,), form=Form.MESSAGE)


def band(words: Pages, low: int | None, high: int | None) -> str:
    """S-SOLO: a tier's scores, both ends included (D-4)."""
    if low is None:
        return words._("up to {high}").format(high=high)
    if high is None:
        return words._("{low} and up").format(low=low)
    return f"{low}–{high}"


def winner_lines(words: Pages, view: views.ResultView) -> tuple[Line, ...]:
    """Who won and why, then each seat's scores (or that none were entered)."""
    _ = words._
    if not view.seats:
        return (Line(_("Scores not entered."), Role.HEADLINE),)
    top = max(s.total for s in view.seats)
    tied = sum(s.total == top for s in view.seats) > 1  # C-12: only their best lines count
    named = {s.seat: s.name for s in view.seats if s.name}
    seats: list[Line] = []
    for s in view.seats:
        score = f"{s.total} ({s.best_line})" if tied and s.total == top else str(s.total)
        if s.name:
            seats.append(Line(words.labelled(s.name, score)))
        elif tied and s.total == top:
            seats.append(Line(_("Seat {seat}: {total} ({best})").format(
                seat=s.seat, total=s.total, best=s.best_line)))  # fmt: skip
        else:
            seats.append(Line(_("Seat {seat}: {total}").format(seat=s.seat, total=s.total)))
        if s.parts:  # what the seat's sheet gave, part by part
            seats.append(Line(breakdown(words, s.parts), Role.NOTE))
    winners = [named.get(seat, _("Seat {seat}").format(seat=seat)) for seat in view.winners]
    if len(view.winners) == 1 and named:
        head = _("{name} wins!").format(name=winners[0])
    elif len(view.winners) == 1:
        head = _("Seat {seat} wins!").format(seat=view.winners[0])
    elif named:
        head = _("Shared win: {names}").format(names=", ".join(winners))
    else:
        head = _("Shared win: seats {seats}").format(seats=", ".join(str(s) for s in view.winners))
    why = WHY_WON[view.decided_by]
    return (
        Line(head, Role.HEADLINE),
        *((Line(_(why)),) if why else ()),
        *seats,
    )


PARTS = {  # a total's parts on the result, as the sheet's items are named
    "lines": N_("Lines"),
    **{key: SHEET_ITEMS[key] for key in ("stamps", "ring", "overpasses", "interchanges")},
    "objectives": SHEET_ITEMS["objectives"],
}


def breakdown(words: Pages, parts: tuple[views.SheetPart, ...]) -> str:
    """A total part by part ("Lines: 75 · Tourist stamps: 20 · Green ring: −9 …")."""
    return " · ".join(
        words.labelled(words._(PARTS[part.key]), str(part.points).replace("-", "−"))
        for part in parts
    )

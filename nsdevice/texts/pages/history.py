"""The history's pages: the last games per city, the solo bests, the daily deals."""

from __future__ import annotations

from nsdevice import views
from nsdevice.locale import N_
from nsdevice.texts.pages.base import Line, Page, Pages, Role, items, page_for, title_for


@title_for(views.HistoryView)
def _history_title(words: Pages, view: views.HistoryView) -> str:
    title = words._("History")
    return f"{title} {view.page}/{view.pages}" if view.pages > 1 else title


@page_for(views.HistoryView, title=N_("History"), row=("history", N_("History")))
def _history(words: Pages, view: views.HistoryView) -> Page:
    _ = words._
    if view.section == "games":
        head = _("{city}: last games").format(city=words.city(view.city))
        lines = [Line(head, Role.HEADING), *items([played(words, g) for g in view.games])]
    elif view.section == "bests":
        lines = [Line(_("Solo bests, by modules played"), Role.HEADING)]
        lines += items([best(words, b) for b in view.bests])
    elif view.section == "daily":
        streak = _("Daily deals in a row: {days}").format(days=view.streak)
        days = _("Days with a daily deal: {days}").format(days=view.days_played)
        lines = [Line(streak, Role.HEADLINE), Line(days, Role.NOTE)]
        if view.bests:
            lines.append(Line(_("Best daily score"), Role.HEADING))
            lines += items(
                [
                    words.labelled(words.city(b.city), f"{b.adjusted} · {b.played_on}")
                    for b in view.bests
                ]
            )
    else:
        lines = [Line(_("No finished games yet."))]
    return Page(words.title(view), tuple(lines))


def played(words: Pages, game: views.PlayedGame) -> str:
    """One finished game on a line: when, who, and its score or winner."""
    _ = words._
    if game.players == 1:
        text = _("{date} · Solo · {points} · tier {tier}").format(
            date=game.played_on, points=game.adjusted, tier=game.tier
        )
    elif len(game.winners) == 1 and game.names and game.names[game.winners[0] - 1]:
        text = _("{date} · {count} players · {name} won with {points}").format(
            date=game.played_on,
            count=game.players,
            name=game.names[game.winners[0] - 1],
            points=game.totals[game.winners[0] - 1],
        )
    elif len(game.winners) == 1:
        text = _("{date} · {count} players · seat {seat} won with {points}").format(
            date=game.played_on,
            count=game.players,
            seat=game.winners[0],
            points=game.totals[game.winners[0] - 1],
        )
    else:
        text = _("{date} · {count} players · shared win: seats {seats}").format(
            date=game.played_on,
            count=game.players,
            seats=",\u00a0".join(str(seat) for seat in game.winners),  # kept on one line
        )
    daily = _("daily deal")
    return f"{text} · {daily}" if game.daily else text


def best(words: Pages, best: views.BestScore) -> str:
    """A solo best: the city, the module set it was played with, the score."""
    modules = " + ".join(words.module(m) for m in best.modules) or words._("no modules")
    return words.labelled(f"{words.city(best.city)} · {modules}", best.adjusted)

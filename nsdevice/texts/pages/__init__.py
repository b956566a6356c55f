"""Whole screens in words: each view's title and its page (lines of text, each with a role).

One module per family of screens, as in `nsdevice.session.screens`: `setup`, `game`,
`scores`, `menu`, `history`, `phones`, each a class of `@register_page` methods (chosen
by the view's type) and its `TITLES`; `base` holds the lines, roles and forms they share.
`Words` is every family together, for one language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from nsdevice import views
from nsdevice.texts.pages import game, history, menu, phones, room, scores, setup
from nsdevice.texts.pages.base import Form, Line, Page, Role

__all__ = ["Form", "Line", "Page", "Role", "Words"]


class Words(
    setup.SetupPages,
    game.GamePages,
    scores.ScorePages,
    menu.MenuPages,
    history.HistoryPages,
    phones.PhonePages,
):
    """The wording for one language: the vocabulary, and every screen's title and page."""

    titles: ClassVar[Mapping[type[views.View], str]] = {
        **setup.TITLES,
        **game.TITLES,
        **scores.TITLES,
        **menu.TITLES,
        **history.TITLES,
        **phones.TITLES,
        **room.TITLES,
    }

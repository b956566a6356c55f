"""One realistic example of every screen, for screenshots and the layout tests.

The game screens are built from real deals (`deal_game`), so the cards, pencils and
pairings are ones the box can actually show. Seeds are found by a fixed search, so
the gallery is the same on every run. No pygame here: views are plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from nsdevice import __version__, views
from nsdevice.rules import scoring
from nsdevice.rules.cards import Special
from nsdevice.rules.cities import city as city_data
from nsdevice.rules.deal import Deal, Round, Setup, Turn, deal_game, slots
from nsdevice.rules.modules import Module, mixes_card_modules
from nsdevice.session import pairing_view, seat_pencils

ALL_MODULES = tuple(m.value for m in Module)
SEARCH = 2000  # seeds tried when looking for a deal that shows a given situation

Finder = Callable[[Round, Turn], bool]


def _hints(**actions: str) -> tuple[views.Hint, ...]:
    return tuple(views.Hint(button, action) for button, action in actions.items())


def _deal(city: str, players: int, modules: tuple[str, ...], seed: str) -> Deal:
    return deal_game(Setup(city, players, tuple(Module(m) for m in modules), seed))


@cache  # a pure search over fixed seeds: remember each answer for the process
def _seed_for(city: str, players: int, modules: tuple[str, ...], situation: str) -> str | None:
    finder = SITUATIONS[situation]
    for number in range(SEARCH):
        seed = f"GALLERY{number}"
        deal = _deal(city, players, modules, seed)
        if any(finder(r, t) for r in deal.rounds for t in r.turns):
            return seed
    return None


def _first(deal: Deal, finder: Finder) -> tuple[Round, Turn]:
    for round_ in deal.rounds:
        for turn in round_.turns:
            if finder(round_, turn):
                return round_, turn
    raise LookupError("no such turn in this deal")


def _joker(turn: Turn) -> bool:
    return turn.card.special in (Special.JOKER, Special.FREE_ENTRY)


SITUATIONS: dict[str, Finder] = {
    "plain": lambda r, t: (
        t.number == 4
        and t.card.symbol is not None
        and t.switch_effect is None
        and not t.last
        and t.paired_effect is None
    ),
    "switch-no-effect": lambda r, t: t.switch_effect is False and t.card.symbol is not None,
    "switch": lambda r, t: t.switch_effect is True and t.number >= 4,
    "paired-effect": lambda r, t: t.paired_effect_active is True and t.number >= 3 and not t.last,
    "paired-no-effect": lambda r, t: t.paired_effect_active is False,
    "joker": lambda r, t: _joker(t) and t.number >= 3 and t.switch_effect is None,
    "last": lambda r, t: t.last and len(r.turns) >= 9,
}


def _turn_view(deal: Deal, round_: Round, turn: Turn, language: str) -> views.TurnView:
    index = turn.number - 1
    return views.TurnView(
        language=language,
        hints=_hints(next="continue" if turn.last else "reveal", back="undo", menu="menu"),
        chime="reveal",
        city=deal.setup.city.value,
        round=round_.number,
        turn=turn.number,
        controller=round_.controller,
        cards=turn.cards,
        earlier=tuple(
            views.PlayedTurn(t.number, t.cards, t.switch_effect, t.paired_effect)
            for t in round_.turns[:index]
        ),
        underground_seen=turn.underground_seen,
        switch_effect=turn.switch_effect,
        paired_effect=turn.paired_effect,
        paired_effect_active=turn.paired_effect_active,
        pairing=pairing_view(deal, round_.number),
        joker_extra=deal.city.joker_extra,
        last=turn.last,
    )


def _round_start(deal: Deal, number: int, language: str) -> views.RoundStartView:
    pairing = deal.rounds[number - 1].pairing
    return views.RoundStartView(
        language=language,
        hints=_hints(next="reveal", back="back", menu="menu"),
        city=deal.setup.city.value,
        round=number,
        players=deal.setup.players,
        controller=deal.rounds[number - 1].controller,
        pencils=seat_pencils(deal, number),
        pairing=views.Pairing(pairing.symbol.value, pairing.effect) if pairing else None,
        objectives=deal.objectives,
    )


def _pencil_pass(deal: Deal, number: int, language: str) -> views.PencilPassView:
    """Before round `number`: every pencil moves one slot on (C-8)."""
    table = slots(deal.setup.players)
    now = dict(deal.rounds[number - 2].pencils)
    solo = deal.setup.solo
    return views.PencilPassView(
        language=language,
        hints=_hints(next="continue", back="back", menu="menu"),
        city=deal.setup.city.value,
        round=number,
        players=deal.setup.players,
        moves=()
        if solo
        else tuple(
            views.PencilMove(now[slot], slot, table[(i + 1) % len(table)])
            for i, slot in enumerate(table)
        ),
        next_controller=deal.rounds[number - 1].controller,
        solo_next=deal.solo_order[number - 1] if deal.solo_order else None,
    )


def _summary(deal: Deal, language: str) -> views.SummaryView:
    setup = deal.setup
    return views.SummaryView(
        language=language,
        hints=_hints(next="continue", back="back", menu="menu"),
        city=setup.city.value,
        players=setup.players,
        modules=tuple(m.value for m in setup.modules),
        objectives=deal.objectives,
        city_gates=deal.city_gates or (),
        pencil_powers=deal.pencil_powers or (),
        solo_order=deal.solo_order or (),
        mix_warning=mixes_card_modules(setup.modules),
    )


def _setup(
    city: str, players: int, modules: tuple[str, ...], cursor: int, language: str
) -> views.SetupView:
    rows = [
        views.Row("start"),
        views.Row("city", city),
        views.Row("players", str(players)),
        *(views.Row(m, "on" if m in modules else "off") for m in ALL_MODULES),
        views.Row("seed", "random"),
        views.Row("language", language),
    ]
    return views.SetupView(
        language=language,
        hints=_hints(next="down", back="up", menu="select"),
        rows=tuple(rows),
        cursor=cursor,
        city=city,
        players=players,
        modules=modules,
        mix_warning=mixes_card_modules(tuple(Module(m) for m in modules)),
    )


def _game_turns(city: str, language: str) -> Iterator[tuple[str, views.View]]:
    many = (city, 3, ALL_MODULES)
    plain = _deal(*many, _seed_for(*many, "plain") or "A")
    round_, turn = _first(plain, SITUATIONS["plain"])
    yield "turn", _turn_view(plain, round_, turn, language)
    yield "turn-first", _turn_view(plain, plain.rounds[0], plain.rounds[0].turns[0], language)
    joker_name = "turn-free-entry" if city == "paris" else "turn-joker"
    for name, situation in (
        ("turn-switch-no-effect", "switch-no-effect"),
        ("turn-switch", "switch"),
        ("turn-paired-effect", "paired-effect"),
        ("turn-paired-no-effect", "paired-no-effect"),
        (joker_name, "joker"),
        ("turn-last", "last"),
    ):
        seed = _seed_for(*many, situation)
        if seed is None:  # e.g. Paris: a switch always works there (P-4)
            continue
        deal = _deal(*many, seed)
        round_, turn = _first(deal, SITUATIONS[situation])
        yield name, _turn_view(deal, round_, turn, language)


def example_views(
    city: str, language: str = "en", size: tuple[int, int] | None = None
) -> list[tuple[str, views.View]]:
    """Named examples of every screen in `views.ALL_VIEWS` for `city`.

    `size` is accepted for the screenshot command's convenience; views are the same at
    every size (layout is the painter's business).
    """
    del size
    language_ = language
    three = _deal(city, 3, ALL_MODULES, "TABLE3")
    two = _deal(city, 2, ("objectives",), "TABLE2")
    four = _deal(city, 4, (), "TABLE4")
    solo = _deal(city, 1, ALL_MODULES, "SOLO1")
    plain_solo = _deal(city, 1, (), "SOLO2")
    tiers = city_data(city).tier_upper_bounds
    solo_total = tiers[2] + 4 + 10 * len(ALL_MODULES)
    adjusted = scoring.solo_adjusted(solo_total, len(ALL_MODULES))
    common = {"language": language_}
    ok = tuple(views.Hint(b, "ok") for b in ("next", "back", "menu"))
    back = _hints(next="back", back="back", menu="back")
    result_hints = _hints(next="new_game", back="back", menu="menu")

    examples: list[tuple[str, views.View]] = [
        ("setup", _setup(city, 3, ("objectives",), 0, language_)),
        ("setup-mix-warning", _setup(city, 1, ALL_MODULES, 5, language_)),
        (
            "seed-entry",
            views.SeedEntryView(
                characters=("K", "7", "P", "2", "X", ""),
                cursor=3,
                hints=_hints(next="change", back="change", menu="next_character"),
                **common,
            ),
        ),
        ("summary", _summary(two, language_)),
        ("summary-all-modules", _summary(solo, language_)),
        ("summary-plain", _summary(plain_solo, language_)),
        ("round-start-3-players", _round_start(three, 2, language_)),
        ("round-start-2-players", _round_start(two, 1, language_)),
        ("round-start-4-players", _round_start(four, 3, language_)),
        ("round-start-solo", _round_start(solo, 1, language_)),
        *_game_turns(city, language_),
        (
            "round-end",
            views.RoundEndView(
                city=city,
                round=2,
                line_scoring=city_data(city).line_scoring,
                hints=_hints(next="continue", back="back", menu="menu"),
                chime="round_end",
                **common,
            ),
        ),
        ("pencil-pass-3-players", _pencil_pass(three, 2, language_)),
        ("pencil-pass-2-players", _pencil_pass(two, 3, language_)),
        ("pencil-pass-solo", _pencil_pass(solo, 4, language_)),
        (
            "game-end",
            views.GameEndView(
                city=city,
                players=3,
                seed=three.setup.seed,
                hints=_hints(next="scores", back="back", menu="menu"),
                **common,
            ),
        ),
        (
            "game-end-solo",
            views.GameEndView(
                city=city,
                players=1,
                seed=solo.setup.seed,
                hints=_hints(next="scores", back="back", menu="menu"),
                **common,
            ),
        ),
        (
            "score-entry-solo",
            views.ScoreEntryView(
                city=city,
                seat=1,
                field="total",
                value=solo_total,
                step=0,
                steps=1,
                solo=True,
                hints=_hints(next="plus", back="minus", menu="done"),
                **common,
            ),
        ),
        (
            "score-entry-best-line",
            views.ScoreEntryView(
                city=city,
                seat=2,
                field="best_line",
                value=38,
                step=3,
                steps=6,
                solo=False,
                hints=_hints(next="plus", back="minus", menu="continue"),
                **common,
            ),
        ),
        (
            "result-solo",
            views.ResultView(
                city=city,
                seed=solo.setup.seed,
                solo=True,
                total=solo_total,
                modules_used=len(ALL_MODULES),
                penalty=scoring.MODULE_PENALTY * len(ALL_MODULES),
                adjusted=adjusted,
                tier=scoring.solo_tier(city_data(city), adjusted),
                personal_best=adjusted + 12,
                new_best=False,
                hints=result_hints,
                **common,
            ),
        ),
        (
            "result-solo-new-best",
            views.ResultView(
                city=city,
                seed=plain_solo.setup.seed,
                solo=True,
                total=tiers[4] + 9,
                modules_used=0,
                penalty=0,
                adjusted=tiers[4] + 9,
                tier=scoring.solo_tier(city_data(city), tiers[4] + 9),
                personal_best=tiers[3],
                new_best=True,
                hints=result_hints,
                **common,
            ),
        ),
        (
            "result-players",
            views.ResultView(
                city=city,
                seed=three.setup.seed,
                solo=False,
                seats=(
                    views.SeatResult(1, 142, 31),
                    views.SeatResult(2, 156, 36),
                    views.SeatResult(3, 149, 40),
                ),
                winners=(2,),
                decided_by="total",
                hints=result_hints,
                **common,
            ),
        ),
        (
            "result-tie-best-line",
            views.ResultView(
                city=city,
                seed=four.setup.seed,
                solo=False,
                seats=(
                    views.SeatResult(1, 151, 33),
                    views.SeatResult(2, 151, 38),
                    views.SeatResult(3, 120, 30),
                    views.SeatResult(4, 147, 41),
                ),
                winners=(2,),
                decided_by="best_line",
                hints=result_hints,
                **common,
            ),
        ),
        (
            "result-shared",
            views.ResultView(
                city=city,
                seed=two.setup.seed,
                solo=False,
                seats=(views.SeatResult(1, 133, 35), views.SeatResult(2, 133, 35)),
                winners=(1, 2),
                decided_by="shared",
                hints=result_hints,
                **common,
            ),
        ),
        (
            "menu",
            views.MenuView(
                rows=(
                    views.Row("resume"),
                    views.Row("show_setup"),
                    views.Row("restart_round"),
                    views.Row("new_game"),
                    views.Row("language", language_),
                    views.Row("sound", "on"),
                    views.Row("brightness", "4/5"),
                    views.Row("shutdown"),
                    views.Row("about"),
                ),
                cursor=7,
                hints=_hints(next="down", back="up", menu="select"),
                **common,
            ),
        ),
    ]
    for question, number in (
        ("back_to_round", 2),
        ("restart_round", 3),
        ("new_game", 3),
        ("shutdown", 0),
    ):
        view = views.ConfirmView(
            question=question,
            round=number,
            hints=_hints(next="yes", back="no", menu="no"),
            **common,
        )
        examples.append((f"confirm-{question.replace('_', '-')}", view))
    examples.append(
        ("about", views.AboutView(version=__version__, city=city, hints=back, **common))
    )
    examples.append(
        (
            "about-game-over",
            views.AboutView(
                version=__version__, seed=three.setup.seed, city=city, hints=back, **common
            ),
        )
    )
    for notice, detail in (
        ("store_damaged", "/var/lib/nsdevice/state.db.damaged-20250101-101500"),
        ("store_unwritable", "/var/lib/nsdevice: read-only file system"),
        ("display_fallback", "st7789 library not installed: pip install 'nsdevice[pi]'"),
        ("input_fallback", ""),
    ):
        view = views.NoticeView(notice=notice, detail=detail, hints=ok, **common)
        examples.append((f"notice-{notice.replace('_', '-')}", view))
    examples.append(("shutdown", views.ShutdownView(**common)))
    any_button = _hints(next="continue", back="continue", menu="continue")
    for name, test in (
        ("pattern", views.HardwareTestView(step="pattern", hints=any_button, **common)),
        ("press", views.HardwareTestView(step="press", button="back", passed=("next",), **common)),
        (
            "led",
            views.HardwareTestView(
                step="led", led="green", passed=("next", "back", "menu"), **common
            ),
        ),
        (
            "done",
            views.HardwareTestView(
                step="done", passed=("next", "menu"), failed=("back",), hints=any_button, **common
            ),
        ),
    ):
        examples.append((f"hwtest-{name}", test))
    return examples

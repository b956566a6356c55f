#!/usr/bin/env python3
"""Golden deals: the whole deal of a few fixed codes, pinned as files (RULES D-1, D-2).

Usage: python tools/golden_deals.py [--check]

A deal code shown at a game's end must deal the same cards on every box and every later
version (D-2), as python-chess pins its move generator with perft counts. For every city ×
1-4 players × every set of modules (each alone and every mix X-4 allows, which is all of
them) this writes `tests/data/deals/CITY-Np-MODULES.json`: for each code in `SEEDS` the
setup draws and every round's turns, compactly (one string a turn, card ids as the deck
data names them). `codes.json` pins how the box draws a fresh code and the day's code.

tests/test_golden_deals.py compares the rules core with these files. Rewrite them only
when a change of the cards every code deals is intended (a new deck fact, a fixed rule):
run this, read `git diff tests/data/deals` and say why in the commit. `--check` writes
nothing and exits 1 naming each file that differs.
"""

from __future__ import annotations

import datetime
import json
import random
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

from nsdevice.rules.cards import StationCard
from nsdevice.rules.cities import CityName, city
from nsdevice.rules.deal import Deal, Round, Setup, Turn, daily_seed, deal_game, draw_seed
from nsdevice.rules.modules import Module

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "data" / "deals"
# A one-letter code, a drawn-looking one and the longest a player may type (D-2).
SEEDS = ("A", "K7Q2MX", "NEXTSTATION2026Z")
# The day's code of these dates for each city, and the codes a fixed source draws.
DAYS = ("2026-01-01", "2026-11-24", "2027-02-28")
DRAW_SOURCES = (0, 1, 2026)
REGENERATE = "python tools/golden_deals.py"


def module_sets() -> list[tuple[Module, ...]]:
    """No module, each alone, and every mix (X-4 warns but allows them all)."""
    return [
        subset for size in range(len(Module) + 1) for subset in combinations(tuple(Module), size)
    ]


def cases() -> list[tuple[CityName, int, tuple[Module, ...]]]:
    return [
        (name, players, modules)
        for name in CityName
        for players in range(1, 5)
        for modules in module_sets()
    ]


def file_name(name: CityName, players: int, modules: tuple[Module, ...]) -> str:
    mix = "+".join(m.value for m in modules) or "none"
    return f"{name.value}-{players}p-{mix}.json"


# A card as two letters: its back (Street, Underground; Paris's metro is underground) and
# what it shows (sQuare, Circle, Triangle, Pentagon, Joker, sWitch, Free entry). Each is
# one card of a deck (T-2, P-2, L-2); `codes.json` pins each deck's ids in data order.
BACKS = {"street": "S", "underground": "U"}
FACES = {"square": "q", "circle": "c", "triangle": "t", "pentagon": "p", "joker": "j",
         "switch": "w", "free_entry": "f"}  # fmt: skip


def card_code(card: StationCard) -> str:
    face = card.symbol if card.symbol is not None else card.special
    assert face is not None
    return BACKS[card.kind.value] + FACES[face.value]


def _turn(turn: Turn, number: int, underground: int) -> str:
    """`Sw+Uc!`: the turn's cards joined by "+", then a mark each for the switch (`!`
    with effect, `~` none: T-4, L-3, D-3) and the pairing (`*` its effect, `°` inactive:
    T-SP-3, D-10). A number or underground count that is not the one the cards imply is
    written out (`#n`, `=u`), so the code is exact yet short."""
    text = "+".join(card_code(card) for card in turn.cards)
    if turn.switch_effect is not None:
        text += "!" if turn.switch_effect else "~"
    if turn.paired_effect is not None:
        text += "*" if turn.paired_effect_active else "°"
    if turn.number != number:
        text += f"#{turn.number}"
    if turn.underground_seen != underground:
        text += f"={turn.underground_seen}"
    return text


def _round(round_: Round) -> str:
    """`r2 c2 | 1:brown 2:pink … | square joker_double_track | Uc Sw+Up~ … | rest Sj St`:
    the round and its controller, pencils by slot, pairing, the turns, then the cards
    left in the deck (C-2: the whole shuffle is pinned)."""
    turns = []
    underground = 0
    for number, turn in enumerate(round_.turns, start=1):
        underground += sum(1 for card in turn.cards if card.underground)
        turns.append(_turn(turn, number, underground))
    used = sum(len(turn.cards) for turn in round_.turns)
    pairing = f"{round_.pairing.symbol.value} {round_.pairing.effect}" if round_.pairing else "-"
    return " | ".join(
        (
            f"r{round_.number} c{round_.controller}",
            " ".join(f"{slot}:{colour}" for slot, colour in round_.pencils),
            pairing,
            " ".join(turns),
            " ".join(["rest", *(card_code(card) for card in round_.order[used:])]),
        )
    )


def encode(deal: Deal) -> dict[str, Any]:
    """The whole deal as compact JSON: the setup draws, then one line a round."""
    return {
        "seed": deal.setup.seed,
        "objectives": " ".join(deal.objectives),
        "city_gates": _pairs(deal.city_gates),
        "pencil_powers": _pairs(deal.pencil_powers),
        "solo_order": " ".join(deal.solo_order) if deal.solo_order is not None else None,
        "rounds": [_round(round_) for round_ in deal.rounds],
    }


def _pairs(pairs: tuple[tuple[str, str], ...] | None) -> str | None:
    return None if pairs is None else " ".join(f"{a}:{b}" for a, b in pairs)


def case_content(name: CityName, players: int, modules: tuple[Module, ...]) -> dict[str, Any]:
    return {
        "city": name.value,
        "players": players,
        "modules": [m.value for m in modules],
        "deals": [encode(deal_game(Setup(name, players, modules, seed))) for seed in SEEDS],
    }


def codes_content() -> dict[str, Any]:
    """D-2: the codes the box draws from a fixed source and each city's code of a day;
    and each deck's card ids in data order with their codes (a shuffle starts from it)."""
    return {
        "decks": {
            name.value: " ".join(f"{card_code(card)}={card.id}" for card in city(name).deck)
            for name in CityName
        },
        "drawn": {str(n): draw_seed(random.Random(n)) for n in DRAW_SOURCES},
        "daily": {
            name.value: {day: daily_seed(datetime.date.fromisoformat(day), name) for day in DAYS}
            for name in CityName
        },
    }


def dumps(content: dict[str, Any]) -> str:
    """One round or setup draw a line or so, so a diff shows what moved."""
    return json.dumps(content, indent=1, ensure_ascii=False) + "\n"


def expected_files() -> dict[str, str]:
    files = {file_name(*case): dumps(case_content(*case)) for case in cases()}
    files["codes.json"] = dumps(codes_content())
    return files


def main(argv: list[str]) -> int:
    check = "--check" in argv
    if set(argv) - {"--check"}:
        print("usage: python tools/golden_deals.py [--check]", file=sys.stderr)
        return 2
    wanted = expected_files()
    present = {path.name for path in FOLDER.glob("*.json")} if FOLDER.exists() else set()
    differing = sorted(
        name
        for name, text in wanted.items()
        if name not in present or (FOLDER / name).read_text(encoding="utf-8") != text
    )
    extra = sorted(present - set(wanted))
    if check:
        for name in [*differing, *extra]:
            print(f"differs: {FOLDER / name}")
        return 1 if differing or extra else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in differing:
        (FOLDER / name).write_text(wanted[name], encoding="utf-8")
    for name in extra:
        (FOLDER / name).unlink()
    print(f"{len(differing)} written, {len(extra)} removed, {len(wanted)} golden files in {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

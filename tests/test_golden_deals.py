"""Golden deals (RULES D-1, D-2): every city × 1-4 players × every module set deals, for a
few fixed codes, exactly the cards pinned in tests/data/deals/, as python-chess pins its
move generator with perft counts. A code shown at a game's end is a promise: renaming a
random stream (city gates, special effects, pencils…), fixing an order that was drawn, or
reordering a deck's data changes the cards of every code ever shown, and fails here.

When such a change is intended, regenerate the files with `python tools/golden_deals.py`,
read `git diff tests/data/deals` and say in the commit why every code now deals otherwise.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from nsdevice.rules.cities import CityName, city
from tools.golden_deals import (
    FOLDER,
    REGENERATE,
    SEEDS,
    case_content,
    cases,
    codes_content,
    expected_files,
    file_name,
)

HOW_TO_REGENERATE = (
    f"If the change of cards is intended (it changes what every deal code deals, D-2), "
    f"run `{REGENERATE}`, read `git diff tests/data/deals` and say why in the commit."
)


def first_difference(stored: Any, now: Any, where: str = "") -> str | None:
    """Where two JSON values first differ, and how, for a message a person can act on."""
    if isinstance(stored, dict) and isinstance(now, dict):
        for key in sorted(set(stored) | set(now), key=str):
            found = first_difference(stored.get(key), now.get(key), f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(now, list) and len(stored) == len(now):
        for index, (a, b) in enumerate(zip(stored, now, strict=True)):
            found = first_difference(a, b, f"{where}[{index}]")
            if found:
                return found
        return None
    if stored != now:
        return f"{where or 'the file'}:\n  pinned: {stored!r}\n  now:    {now!r}"
    return None


def read(name: str) -> Any:
    path = FOLDER / name
    if not path.exists():
        pytest.fail(f"{path} is missing. {HOW_TO_REGENERATE}")
    return json.loads(path.read_text(encoding="utf-8"))


def case_id(case: tuple[CityName, int, tuple[object, ...]]) -> str:
    return file_name(*case).removesuffix(".json")


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_every_code_deals_the_pinned_cards_D1_D2_C8_C10_C11_TSP2_PCG1_LPP(case):
    name = file_name(*case)
    difference = first_difference(read(name), case_content(*case))
    if difference is not None:
        pytest.fail(f"{FOLDER / name}: the deal changed at {difference}\n{HOW_TO_REGENERATE}")


def test_drawn_and_daily_codes_are_pinned_and_each_deck_in_its_data_order_D2_T2_P2_L2():
    difference = first_difference(read("codes.json"), codes_content())
    if difference is not None:
        pytest.fail(f"{FOLDER / 'codes.json'}: changed at {difference}\n{HOW_TO_REGENERATE}")


def test_the_folder_holds_exactly_the_golden_files():
    present = {path.name for path in FOLDER.glob("*")}
    wanted = set(expected_files())
    assert present == wanted, (
        f"missing {sorted(wanted - present)[:5]}, unexpected {sorted(present - wanted)[:5]}. "
        f"{HOW_TO_REGENERATE}"
    )


def test_cases_cover_every_city_player_count_and_module_mix_C1_X4():
    assert len(cases()) == len(CityName) * 4 * 2**4
    assert len(SEEDS) >= 3


def _turn_codes(line: str) -> tuple[list[str], list[str]]:
    """A pinned round line's turns and the cards left in the deck after them."""
    _, _, _, turns, rest = line.split(" | ")
    return turns.split(), rest.split()[1:]


def test_each_pinned_round_holds_the_whole_shuffled_deck_C2():
    """The compact lines pin every card: a round's turns and rest are its 11 cards once."""
    legend = read("codes.json")["decks"]
    for name in CityName:
        deck = sorted(pair.split("=")[0] for pair in legend[name.value].split())
        assert len(deck) == len(city(name).deck) == 11
        for players in (1, 4):
            for deal in read(f"{name.value}-{players}p-none.json")["deals"]:
                for line in deal["rounds"]:
                    turns, rest = _turn_codes(line)
                    cards = [code[:2] for turn in turns for code in turn.split("+")] + rest
                    assert sorted(cards) == deck, line


def test_the_fixed_codes_reach_every_mark_the_lines_can_carry_C5_T4_TSP3_D10():
    """The pinned codes are worth pinning: among them a switch with and without effect
    (C-5, T-4), a paired effect used and one inactive (T-SP-3, D-10), a round of 10 turns
    and a round that leaves cards in the deck (C-4)."""
    lines = [
        line
        for name in CityName
        for deal in read(f"{name.value}-2p-special_stations.json")["deals"]
        for line in deal["rounds"]
    ]
    text = " ".join(lines)
    for mark in ("!", "~", "*", "°"):
        assert mark in text, mark
    assert any(len(_turn_codes(line)[0]) == 10 for line in lines)
    assert any(_turn_codes(line)[1] for line in lines)

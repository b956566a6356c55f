"""A room player's name (issue 34, D-15): composed before it is kept, so one name typed
two ways is one name, and refused when it is combining marks alone (nothing to sit on:
it would draw as nothing, or as a box, on the caller), with the phone's own words."""

from __future__ import annotations

import unicodedata

import pytest

from nsdevice.locale import LANGUAGES
from nsdevice.rules import room as rules_room
from nsdevice.texts import words
from tests.test_web_room import room  # noqa: F401  # the fixture

DECOMPOSED = "Zoe\u0308"  # "Zoë" as some keyboards type it: an e and a diaeresis
MARKS = ("\u0301\u0308", "\u0301 \u0308", "\u20dd")  # acute and diaeresis; spaced; a ring


def test_a_name_is_composed_before_it_is_kept_and_counted_D15():
    assert rules_room.player_name(DECOMPOSED) == "Zoë"
    # twenty letters with their accents typed apart are twenty letters, not forty
    assert rules_room.player_name("e\u0301" * 20) == "é" * 20


@pytest.mark.parametrize("name", MARKS)
def test_a_name_of_marks_alone_is_no_name_D15(name):
    assert all(unicodedata.category(c)[0] in "MZ" for c in name)
    with pytest.raises(rules_room.MarksOnly):
        rules_room.player_name(name)
    with pytest.raises(ValueError):  # nor from a results file
        rules_room.Result(rules_room.ROOM, 1, 1, name, 10, 2)


def test_the_box_hears_the_composed_name_D15(room):  # noqa: F811
    answer = room.join(name=DECOMPOSED)
    assert answer.status_code == 200, answer.text
    [joined] = room.inbox.get(0)
    assert joined.name == "Zoë"


@pytest.mark.parametrize("name", MARKS)
def test_a_join_with_marks_alone_is_refused_400_in_the_phones_words_D15(room, name):  # noqa: F811
    answer = room.join(name=name)
    assert answer.status_code == 400
    why = answer.json()["why"]
    assert room.inbox.get(0) == []
    said = {language: words(language).phone()[why] for language in LANGUAGES}
    assert len(set(said.values())) == len(LANGUAGES)  # each language its own words

"""Saved games written before the screens became an enum (at 337d507) still restore, to
the same screen, and save again the same values (RULES D-1: the same deal), now as
version 2 with the score entry's digits beside them."""

from __future__ import annotations

import json

import pytest

from nsdevice.session import ScreenName, Session

GAME = (
    '"settings": {"brightness": 5, "city": "paris", "language": "en", "modules": '
    '["objectives", "city_gates"], "players": 3, "sound": true}, "setup": {"city": "paris", '
    '"modules": ["objectives", "city_gates"], "players": 3, "seed": "OLD337"}, "version": 1'
)
# snapshots as 337d507 wrote them (`Session.snapshot()`)
SAVED = {
    "menu over a turn": '{"best_before": null, "cursor": 2, "entry": 0, "question": "", '
    '"recorded": false, "revealed": 3, "round": 1, "scores": [], "screen": "menu", '
    '"seed_characters": [], "seed_code": null, "under": "turn", ' + GAME + "}",
    "confirm back into round 1": '{"best_before": null, "cursor": 0, "entry": 0, '
    '"question": "back_to_round", "recorded": false, "revealed": 0, "round": 2, "scores": [], '
    '"screen": "confirm", "seed_characters": [], "seed_code": null, "under": "round_start", '
    + GAME
    + "}",
    "score entry": '{"best_before": null, "cursor": 0, "entry": 1, "question": "back_to_round", '
    '"recorded": false, "revealed": 10, "round": 4, "scores": [5, 0, 0, 0, 0, 0], '
    '"screen": "score_entry", "seed_characters": [], "seed_code": null, '
    '"under": "round_start", ' + GAME + "}",
    "about over the result": '{"best_before": null, "cursor": 5, "entry": 5, '
    '"question": "back_to_round", "recorded": true, "revealed": 10, "round": 4, '
    '"scores": [5, 0, 0, 0, 0, 0], "screen": "about", "seed_characters": [], '
    '"seed_code": null, "under": "result", ' + GAME + "}",
    "seed entry": '{"best_before": null, "cursor": 1, "entry": 0, "question": "", '
    '"recorded": false, "revealed": 0, "round": 1, "scores": [], "screen": "seed_entry", '
    '"seed_characters": ["B", "A"], "seed_code": null, "settings": {"brightness": 5, '
    '"city": "tokyo", "language": "en", "modules": [], "players": 2, "sound": true}, '
    '"setup": null, "under": "", "version": 1}',
}


@pytest.mark.parametrize("name", SAVED)
def test_a_saved_game_from_before_restores_and_saves_the_same_D1(name):
    saved = json.loads(SAVED[name])
    session = Session.restore(saved)
    assert session.screen == saved["screen"] and isinstance(session.screen, ScreenName)
    assert session.view().screen == ("summary" if saved["screen"] == "recall" else saved["screen"])
    again = json.loads(json.dumps(session.snapshot()))
    assert again["version"] == 2
    added = {key: again.pop(key) for key in ("digits", "digit", "sheet", "sheet_step")}
    assert {**again, "version": 1} == saved
    if saved["screen"] == "score_entry":  # the field's value, digit by digit, cursor first
        assert added == {"digits": ["0", "0", "0"], "digit": 0, "sheet": [], "sheet_step": 0}
    assert json.dumps(Session.restore(session.snapshot()).snapshot(), sort_keys=True) == (
        json.dumps(session.snapshot(), sort_keys=True)
    )


def test_what_the_restored_screens_show():
    menu = Session.restore(json.loads(SAVED["menu over a turn"])).view()
    assert "restart_round" in [row.key for row in menu.rows]  # over a round under way
    confirm = Session.restore(json.loads(SAVED["confirm back into round 1"])).view()
    assert confirm.question == "back_to_round" and confirm.round == 1
    about = Session.restore(json.loads(SAVED["about over the result"])).view()
    assert about.seed == "OLD337"  # D-2: the game is over, its code may be shown
    entry = Session.restore(json.loads(SAVED["score entry"])).view()
    assert (entry.seat, entry.field, entry.value) == (1, "best_line", 0)

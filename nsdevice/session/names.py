"""The names of the screens the session can be on, and what kind of place each one is.

A `ScreenName` member's value is the name a snapshot stores, so saved games keep
restoring: never rename one. What each screen does (its press handler, its view, its
kind) is its entry in the one table, `nsdevice.session.screens.SCREENS`.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class ScreenName(StrEnum):
    SETUP = "setup"
    SEED_ENTRY = "seed_entry"
    PENCIL_ORDER = "pencil_order"  # solo: the player lays the pencils' row (C-8)
    SUMMARY = "summary"
    ROUND_START = "round_start"
    TURN = "turn"
    ROUND_END = "round_end"
    PENCIL_PASS = "pencil_pass"
    GAME_END = "game_end"
    SCORE_ENTRY = "score_entry"
    SCORE_SHEET = "score_sheet"  # one seat's score sheet, item by item, from the score entry
    RESULT = "result"
    MENU = "menu"
    CONFIRM = "confirm"
    ABOUT = "about"
    RECALL = "recall"  # this game's cards again, from the menu
    SHUTDOWN = "shutdown"
    PHONES = "phones"  # the page's address and join code, from the menu
    HISTORY = "history"  # the finished games and the bests, from the menu
    ROUND_SO_FAR = "round_so_far"  # this round's cards so far, from the menu
    DECK = "deck"  # the round's cards not revealed yet, from the menu
    ROOM_RESULTS = "room_results"  # a room game's end: the room's ranking (issue 25)
    ROOM_TABLES = "room_tables"  # a room's tables and who sits where; the caller frees seats


class Kind(Enum):
    """Where a screen stands: it decides what a snapshot on it must hold."""

    SETUP = "setup"  # before a game: no deal yet
    GAME = "game"  # a step of the game; the menu opens over it
    OVERLAY = "overlay"  # over a game screen (`under`), which it returns to
    MESSAGE = "message"  # the box says one thing and no press matters (shutting down)

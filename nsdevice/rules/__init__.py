"""The rules core: a setup and a seed in, a whole game out. Pure, deterministic, no I/O.

Nothing here imports the rest of the box (DESIGN.md: dependencies point inward).
"""

from nsdevice.rules.cards import Kind, Special, StationCard, Symbol
from nsdevice.rules.cities import City, CityName, city
from nsdevice.rules.deal import Deal, Pairing, Round, Setup, Turn, deal_game, normalize_seed
from nsdevice.rules.modules import Module, mixes_card_modules, parse_modules

__all__ = [
    "City",
    "CityName",
    "Deal",
    "Kind",
    "Module",
    "Pairing",
    "Round",
    "Setup",
    "Special",
    "StationCard",
    "Symbol",
    "Turn",
    "city",
    "deal_game",
    "mixes_card_modules",
    "normalize_seed",
    "parse_modules",
]

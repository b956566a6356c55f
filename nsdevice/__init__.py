"""nsdevice: the Next Station table companion."""

from nsdevice.optimized import unsigned_dataclasses

__version__ = "0.1.0"

unsigned_dataclasses()  # before any class is made (the service runs optimized)

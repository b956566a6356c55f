"""nsdevice: the Next Station table companion."""

__version__ = "0.1.0"

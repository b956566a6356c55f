"""The one error every command reports the same way: one line on stderr, exit status 2."""


class UsageError(Exception):
    """Bad input from the person at the keyboard; the message is the whole line."""

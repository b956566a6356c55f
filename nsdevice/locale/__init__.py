"""Gettext catalogs for the box's five languages (English is the source text)."""

from __future__ import annotations

import gettext
import locale as system_locale
import os
from functools import cache

LANGUAGES = ("en", "es", "de", "it", "fr")
DOMAIN = "nsdevice"


@cache  # catalogs are read-only files: load each language once per process
def translations(language: str) -> gettext.NullTranslations:
    """The catalog for `language`; English (the msgids themselves) when there is none."""
    if language == "en":
        return gettext.NullTranslations()
    # the catalogs sit beside this module (an installed package is a folder): importlib's
    # resources would bring zipfile, tempfile and shutil into the start (issue 23)
    folder = os.path.dirname(os.path.abspath(__file__))
    return gettext.translation(DOMAIN, localedir=folder, languages=[language], fallback=True)


def system_language(environ: dict[str, str] | None = None) -> str:
    """The first of our languages named by LC_ALL, LC_MESSAGES, LANG or LANGUAGE; else English."""
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        for part in env.get(variable, "").split(":"):
            code = part.split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
    try:
        code = (system_locale.getlocale()[0] or "").split("_")[0].lower()
    except ValueError:
        code = ""
    return code if code in LANGUAGES else "en"


def N_(message: str) -> str:
    """Marks `message` for the catalogs without translating it here: tables of words are
    built once, and each word is translated when it is shown (`Words._`)."""
    return message

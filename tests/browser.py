"""A real headless Chromium for the phone page's tests: Debian's `chromium` and
`chromium-driver` through selenium (.ci/run installs them when missing)."""

from __future__ import annotations

import shutil
import tempfile

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
MISSING = "needs Debian's chromium and chromium-driver (.ci/run installs them)"


def chromium(width: int = 390, height: int = 844):
    """One browser; its windows are the phones. The caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in (
        "--headless",
        "--no-sandbox",  # root in CI has no user namespace sandbox
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        # every window is a phone in someone's hand: none is throttled as a background tab
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        f"--user-data-dir={tempfile.mkdtemp(prefix='nsdevice-chromium-')}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    # Headless Chromium keeps a window 500 px wide at least, whatever `--window-size`
    # asks: every window (a new one too) gets a phone's own viewport of width × height
    metrics = {"width": width, "height": height, "pixelRatio": 1.0}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    return webdriver.Chrome(service=Service(DRIVER or ""), options=options)

"""`nsdevice run` and `hwtest`: plan the back ends, open them, and run the loop or the check.

`cli` is the one dispatcher; this package only plans (`plan`), opens (`opening`, and the
phones' page in `web`) and runs. The back ends come from one table (`nsdevice.hardware.backends`),
imported only when chosen.

A back end chosen on the command line that cannot start falls back to one that can, with
a one-line notice on stderr (and on screen where it matters). The SPI panel and GPIO
buttons a hardware profile names are required instead: see `missing_hardware`.
"""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from nsdevice.errors import UsageError
from nsdevice.imports import without_openssl
from nsdevice.options import HwtestOptions, RunOptions
from nsdevice.runner.opening import (
    buttons_after_first_frame,
    led_output,
    open_buttons,
    open_hardware,
    open_lights,
    panel,
    tracker_options,
)
from nsdevice.runner.planning import Plan, notice, plan, usage
from nsdevice.views import Hotspot, View

if TYPE_CHECKING:
    from nsdevice.appliance.settings import Problem
    from nsdevice.box.loop import Loop
    from nsdevice.box.saving import Saver
    from nsdevice.box.speaker import Speaker
    from nsdevice.displays import Display
    from nsdevice.inputs.device import InputDevice
    from nsdevice.inputs.events import Inbox
    from nsdevice.session import Capabilities, Session
    from nsdevice.web.forked import Forked
    from nsdevice.web.server import WebSide
from nsdevice.runner.web import open_web, phone_addresses, web_address, web_early

POWER_OFF_STATUS = "NSDEVICE_POWER_OFF_EXIT_STATUS"
Opened = TypeVar("Opened")


def run(options: RunOptions) -> int:
    """Plan and open the back ends, start or resume the game, run the loop, close."""
    without_openssl()  # before the store loads hashlib: its checksums on CPython's SHA-256
    options, settings_problems = with_settings_file(options)
    chosen = plan(options)
    address = web_address(options)
    today = local_date(os.environ)  # before the hardware opens: a bad test date exits 2
    # before the folder's lock, the hardware and any thread: it shares the box's pages
    forked = web_early(address)
    try:
        # the box's own modules after the fork (the store, SQLite and the session they
        # load, issue 35): every page of them the box rewrote would stay behind in the page
        from nsdevice.store import hold_folder, state_directory

        directory = Path(options.state_dir) if options.state_dir else state_directory()
        folder = hold_folder(directory)  # one box per state folder, else exit 2 naming it
        later = buttons_after_first_frame(chosen)
        display, inbox, inputs = open_hardware_saying_why(chosen, buttons_later=later)
    except BaseException:
        if forked is not None:
            forked.close()
        raise
    later = later and not inputs  # (opened at once where the display fell back)
    shutdown = Shutdown(options.shutdown_command or "", os.environ.get(POWER_OFF_STATUS, ""))
    capabilities = _capabilities(options, chosen, display, inputs, address, shutdown, later)
    session, saver = _start_game(options, directory, capabilities, today)
    for problem in settings_problems:  # the box starts; the line is named on its screen
        notice(f"{problem} (left out)")
        session.notices.append(("settings_line", str(problem)))
    parts = (display, inbox, inputs, later)
    box = _open_box(options, chosen, session, saver, parts, address, shutdown, forked)
    try:
        status = box.loop.run()
        return shutdown.status or status
    finally:
        box.close(inputs, display)
        saver.close(session.snapshot())
        folder.release()


class Shutdown:
    """What the box does when the session asks to shut down: the command given, or under
    the service an agreed exit status, after which the unit's root-side ExecStopPost
    powers off (systemd/nsdevice.service): the box may not power off itself."""

    def __init__(self, command: str, power_off_status: str) -> None:
        self.command, self.power_off_status = command, power_off_status
        self.status = 0  # the exit status the box ends with

    @property
    def possible(self) -> bool:
        return bool(self.command) or self.power_off_status.isdigit()

    def __call__(self, request: str) -> None:
        if request != "shutdown":
            return
        if self.command:
            import shlex
            import subprocess  # only here: 17 M instructions of the Pi's start (issue 35)

            subprocess.run(shlex.split(self.command), check=False)
        elif self.power_off_status.isdigit():
            self.status = int(self.power_off_status)


def _capabilities(
    options: RunOptions,
    chosen: Plan,
    display: Display,
    inputs: list[InputDevice],
    address: tuple[str, int] | None,
    shutdown: Shutdown,
    buttons_later: bool,
) -> Capabilities:
    from nsdevice.session import Capabilities

    return Capabilities(
        brightness=display.supports_brightness,
        shutdown=shutdown.possible,
        panel=panel(chosen, inputs, buttons_later=buttons_later),
        phones=phone_addresses(*address) if address else (),
        hotspot=hotspot_reader(options.hotspot, address[1] if address else None),
    )


def _start_game(
    options: RunOptions,
    directory: Path,
    capabilities: Capabilities,
    today: Callable[[], datetime.date],
) -> tuple[Session, Saver]:
    """The saved game resumed (with the command line's settings), else a fresh deal of
    the remembered setup, saved at once so that a restart keeps the same deal; a room
    game as chosen when `--room` asks for one that is not under way."""
    from nsdevice.box.saving import open_game
    from nsdevice.locale import system_language
    from nsdevice.session import Session, Settings

    chosen_settings = _chosen_settings(options)

    def fresh(records: Saver) -> Session:
        # No game under way: deal one of the remembered setup, so that NEXT goes forward
        # from the first screen.
        session = Session(
            Settings.from_dict({"language": system_language(), **chosen_settings}),
            capabilities=capabilities,
            records=records,
            today=today,
        )
        session.deal_new_game()
        records(session.snapshot())
        return session

    def restore(data: dict[str, Any], records: Saver) -> Session:
        saved = _with_settings(data, chosen_settings)
        return Session.restore(saved, capabilities=capabilities, records=records, today=today)

    started = open_game(directory, fresh=fresh, restore=restore, log=notice)
    session, saver = started.session, started.saver
    if options.room and not session.plays_room(options.seed):
        session.deal_new_game(seed=options.seed)  # the room's game, as chosen
        saver(session.snapshot())
    elif chooses_game(options) and not options.room and not session.plays_table(options.seed):
        session.deal_new_game(seed=options.seed)  # the one-table game, as chosen
        saver(session.snapshot())
    for key, detail in started.notices:
        notice(f"{key.replace('_', ' ')}: {detail}")
    return session, saver


@dataclass(frozen=True)
class Box:
    """The running box around the loop: the phones' page and the voice, closed with it."""

    loop: Loop
    web: WebSide | None
    speaker: Speaker

    def close(self, inputs: list[InputDevice], display: Display) -> None:
        if self.web is not None:
            self.web.close()
        for device in inputs:
            with contextlib.suppress(Exception):
                device.close()
        self.speaker.close()
        display.close()


def _open_box(
    options: RunOptions,
    chosen: Plan,
    session: Session,
    saver: Saver,
    parts: tuple[Display, Inbox, list[InputDevice], bool],
    address: tuple[str, int] | None,
    shutdown: Shutdown,
    forked: Forked | None = None,
) -> Box:
    """The loop, with the phones' page (started: it serves once the loop has drawn its
    first frame) and the voice, which follows the menu's setting; and the profile's
    buttons and LED, which the loop opens once its first frame is out where `parts` says
    they wait (`buttons_after_first_frame`)."""
    display, inbox, inputs, buttons_later = parts
    from nsdevice.box.loop import Loop
    from nsdevice.box.notify import Notifier
    from nsdevice.box.speaker import BROKEN_NOTICE, Speaker
    from nsdevice.inputs.events import Busy, ButtonTracker
    from nsdevice.inputs.room_inbox import RoomInbox
    from nsdevice.session.settings import VOLUME_LEVELS

    busy = Busy()  # the loop's frame in the making: the page and the voice let it go first
    room = RoomInbox(inbox)  # the phones' joins and sheets, taken by the loop in batches
    web = open_web(address, inbox, options.phone_buttons, busy, room, forked) if address else None
    # pygame's mixer opens after the first frame
    speaker = Speaker(
        lambda: (session.settings.voice, session.settings.volume / VOLUME_LEVELS),
        busy,
        log=notice,
    )
    # A box with the voice on reads its clips' manifest before the first frame, so that a
    # broken one is a notice on that frame (and the voice off); with the voice off the
    # box pays nothing at start, and a broken manifest met later is a log line.
    if session.settings.voice and (broken := speaker.check()) is not None:
        session.notices.append((BROKEN_NOTICE, broken))
    loop = Loop(
        session=session,
        display=display,
        inbox=inbox,
        tracker=ButtonTracker(**tracker_options(chosen)),
        save=saver,
        notifier=Notifier(),
        outputs=[speaker] if buttons_later else [*led_output(chosen, inputs), speaker],
        later=(lambda: _open_buttons(chosen, inbox, inputs)) if buttons_later else lambda: (),
        on_request=shutdown,
        publish=web.publish if web is not None else None,
        retry=saver.retry,
        busy=busy,
        room_inbox=room,
    )
    if web is not None:
        web.start()
    return Box(loop, web, speaker)


def with_settings_file(options: RunOptions) -> tuple[RunOptions, tuple[Problem, ...]]:
    """The options with what the card's settings file adds (`--settings`): its hardware
    when none was given, its language and voice unless given; and the lines left out.
    A bad line never stops the box: it is named on the screen."""
    if options.settings is None:
        return options, ()
    from nsdevice.appliance.settings import load_settings
    from nsdevice.hardware.profiles import list_profiles

    settings = load_settings(Path(options.settings), tuple(list_profiles()))
    changes: dict[str, Any] = {}
    if options.hardware is None and "hardware" in settings.given:
        changes["hardware"] = settings.hardware
    if options.language is None and settings.language:
        changes["language"] = settings.language
    if not options.voice and settings.voice:
        changes["voice"] = True
    return replace(options, **changes), settings.problems


def hotspot_reader(path: str | None, port: int | None) -> Callable[[], Hotspot | None]:
    """What the Phones screen asks for the box's own Wi-Fi: the file firstboot's access
    point describes itself in exists only while it is up (nothing without a page)."""
    if path is None or port is None:
        from nsdevice.session.settings import no_hotspot

        return no_hotspot
    from nsdevice.appliance.network import read_hotspot

    file = Path(path)
    return lambda: read_hotspot(file, port)


def chooses_game(options: RunOptions) -> bool:
    """The command line chooses the game: a room (`--room`), or a one-table game by any of
    `--city`, `--players`, `--modules`, `--seed`."""
    game = (options.city, options.players, options.modules, options.seed)
    return options.room or any(value is not None for value in game)


def _chosen_settings(options: RunOptions) -> dict[str, Any]:
    """What the command line sets of the remembered settings: `--language`, `--voice`,
    and the game's setup when it chooses one (kept as a new game's setup)."""
    chosen: dict[str, Any] = {}
    if options.language:
        chosen["language"] = options.language
    if options.voice:
        chosen["voice"] = True
    if chooses_game(options):
        from nsdevice.rules.modules import parse_modules

        chosen["room"] = options.room  # a one-table game chosen leaves a room's setup
        if options.city:
            chosen["city"] = options.city
        if options.players is not None:
            chosen["players"] = options.players
        if options.modules is not None:
            chosen["modules"] = [m.value for m in parse_modules(options.modules)]
    return chosen


def _with_settings(data: dict[str, Any], chosen: dict[str, Any]) -> dict[str, Any]:
    """A saved snapshot with the command line's settings in force (a damaged one is left
    for `Session.restore` to refuse)."""
    settings = data.get("settings") if isinstance(data, dict) else None
    if not chosen or not isinstance(settings, dict):
        return data
    return {**data, "settings": {**settings, **chosen}}


def open_hardware_saying_why(
    chosen: Plan, *, buttons_later: bool = False
) -> tuple[Display, Inbox, list[InputDevice]]:
    """`open_hardware`; when the profile's hardware is missing, its one line (cause; fix)
    also goes to systemd as the service's status, so `systemctl status nsdevice` shows it
    even after the restart limit has pushed it out of the journal lines it shows."""
    return _saying_why(lambda: open_hardware(chosen, buttons_later=buttons_later))


def _open_buttons(
    chosen: Plan, inbox: Inbox, inputs: list[InputDevice]
) -> list[Callable[[View], None]]:
    """The profile's buttons, opened by the loop once its first frame is out (they join
    `inputs`, closed with the box), and its LED's output. Missing buttons stop the box
    with their line, as they did before the first frame; the box then closes the panel."""
    inputs.extend(_saying_why(lambda: open_buttons(chosen, inbox)))
    return led_output(chosen, inputs)


def _saying_why(opening: Callable[[], Opened]) -> Opened:
    from nsdevice.box.notify import Notifier
    from nsdevice.hardware.missing import HardwareMissing

    try:
        return opening()
    except HardwareMissing as missing:
        Notifier().status(str(missing))
        raise


TODAY_VARIABLE = "NSDEVICE_TODAY"  # a test hook: YYYY-MM-DD fixes the clock of the day's deal


def local_date(environ: Mapping[str, str]) -> Callable[[], datetime.date]:
    """The clock for the day's deal (D-2): the local date, asked at each new game; a test
    fixes it with NSDEVICE_TODAY=YYYY-MM-DD (refused with exit 2 when not a date)."""
    fixed = environ.get(TODAY_VARIABLE, "")
    if not fixed:
        return datetime.date.today
    try:
        day = datetime.date.fromisoformat(fixed)
    except ValueError:
        raise usage(f"{TODAY_VARIABLE}={fixed!r}: not a date (YYYY-MM-DD)") from None
    return lambda: day


def check_hardware(options: HwtestOptions) -> int:
    """`nsdevice hwtest`: open the profile's hardware as `run` would, and guide the check."""
    from nsdevice.hardware.check import check

    try:
        chosen = plan(RunOptions(hardware=options.hardware))
    except UsageError as error:  # plan speaks as `run`; this is hwtest's own option
        raise UsageError(str(error).replace("nsdevice run:", "nsdevice hwtest:", 1)) from None
    display, inbox, inputs = open_hardware_saying_why(chosen)
    leds = open_lights(chosen, inputs)
    try:
        return check(display, inbox, leds=leds, timeout=options.timeout)
    finally:
        for device in inputs:
            device.close()
        display.close()

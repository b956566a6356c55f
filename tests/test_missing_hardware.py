"""The panel and buttons a profile names are required: missing, the box stops and says why.

The SPI device is missing for real (the real `st7789` library, or its absence, against a
/dev/spidev node that does not exist); the GPIO buttons go through gpiozero's mock pin
factory, with a pin another program already holds.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from nsdevice.errors import UsageError
from nsdevice.hardware.missing import HardwareMissing, required_parts
from nsdevice.inputs.events import QueueInbox
from nsdevice.options import RunOptions
from nsdevice.runner.opening import open_display, open_hardware, open_inputs
from nsdevice.runner.planning import plan

REPOSITORY = Path(__file__).resolve().parent.parent
PROFILES = REPOSITORY / "nsdevice" / "profiles"


def args(**overrides: Any) -> RunOptions:
    return RunOptions(**overrides)


def panel_on_a_missing_bus(folder: Path) -> Path:
    """The Display HAT Mini's profile moved to SPI1 CE0 (/dev/spidev1.0), a device no test
    machine has switched on, so the panel is missing wherever the tests run."""
    text = (PROFILES / "display-hat-mini.toml").read_text(encoding="utf-8")
    for before, after in (("spi_port = 0", "spi_port = 1"),
                          ("spi_chip_select = 1", "spi_chip_select = 0"),
                          ('name = "display-hat-mini"', 'name = "hat-on-spi1"')):  # fmt: skip
        assert before in text
        text = text.replace(before, after)
    path = folder / "hat-on-spi1.toml"
    path.write_text(text, encoding="utf-8")
    assert not Path("/dev/spidev1.0").exists(), "this machine has /dev/spidev1.0"
    return path


def nsdevice(*arguments: str, state: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                   "GPIOZERO_PIN_FACTORY": "mock", "STATE_DIRECTORY": str(state)}  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "nsdevice", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )


# --- which parts are required -------------------------------------------------------------


def test_the_profiles_panel_and_buttons_are_required_only_when_it_chose_them():
    hat = plan(args(hardware="display-hat-mini"), {})
    assert hat.required == {"display", "input"}
    assert plan(args(hardware="display-hat-mini", display="text"), {}).required == {"input"}
    assert plan(args(hardware="display-hat-mini", input="keyboard"), {}).required == {"display"}
    # a KMS/DRM screen falls back to its own console; the serial board is waited for
    assert plan(args(hardware="arcade-gpio"), {}).required == {"input"}
    assert plan(args(hardware="arcade-serial"), {}).required == frozenset()
    assert plan(args(), {"DISPLAY": ":0"}).required == frozenset()
    assert required_parts(None, "auto", "auto") == frozenset()


def test_hardware_missing_is_a_one_line_usage_error():
    error = HardwareMissing("the cause", "the fix")
    assert isinstance(error, UsageError)
    assert str(error) == "nsdevice: the cause; fix: the fix"


# --- the panel ------------------------------------------------------------------------------


def test_a_missing_spi_device_stops_run_with_the_cause_and_the_fix(tmp_path):
    chosen = plan(args(hardware=str(panel_on_a_missing_bus(tmp_path))), {})
    with pytest.raises(HardwareMissing) as caught:
        open_display(chosen)
    message = str(caught.value)
    assert "\n" not in message
    assert "hat-on-spi1 names an SPI panel on /dev/spidev1.0 that did not open" in message
    # with the library installed its own error names the device; without it, the driver
    assert ("raspi-config nonint do_spi 0" in message) or ("pip install '.[pi]'" in message)
    assert message.endswith("or play without it: --display text")


def test_a_missing_panel_library_names_the_install_as_the_fix(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "st7789", None)  # makes `import st7789` fail
    with pytest.raises(HardwareMissing, match=r"pip install '\.\[pi\]'"):
        open_display(plan(args(hardware="display-hat-mini"), {}))


def test_a_panel_asked_for_on_the_command_line_still_falls_back(monkeypatch):
    monkeypatch.setitem(sys.modules, "st7789", None)
    display, message = open_display(plan(args(hardware="display-hat-mini", display="st7789"), {}))
    assert type(display).__name__ == "TextDisplay"
    assert message.startswith("no st7789 display") and message.endswith("using the terminal")


def test_run_as_a_service_exits_2_with_one_line_when_the_panel_is_missing(tmp_path):
    profile = panel_on_a_missing_bus(tmp_path)
    result = nsdevice("run", "--hardware", str(profile), state=tmp_path / "state")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("nsdevice: profile hat-on-spi1 names an SPI panel")
    assert "fix: " in lines[0]
    assert result.stdout == ""  # no terminal display was started behind it


def test_hwtest_stops_with_exit_2_instead_of_counting_keys(tmp_path):
    profile = panel_on_a_missing_bus(tmp_path)
    result = nsdevice("hwtest", "--hardware", str(profile), "--timeout", "1",
                      state=tmp_path / "state")  # fmt: skip
    assert result.returncode == 2
    assert "works" not in result.stdout and "press NEXT" not in result.stdout
    (line,) = result.stderr.splitlines()
    assert "names an SPI panel on /dev/spidev1.0 that did not open" in line


# --- the buttons ----------------------------------------------------------------------------


@pytest.fixture
def busy_pin():
    """gpiozero's mock pins, with the NEXT pin of arcade-gpio already held by someone else."""
    from gpiozero import Device

    Device.pin_factory = MockFactory()
    holder = DigitalInputDevice(23)
    try:
        yield 23
    finally:
        holder.close()
        Device.pin_factory.reset()
        Device.pin_factory = MockFactory()


def test_the_profiles_buttons_that_do_not_open_stop_the_box(busy_pin):
    chosen = plan(args(hardware="arcade-gpio", display="json"), {})
    assert chosen.required == {"input"}
    with pytest.raises(HardwareMissing) as caught:
        open_inputs(chosen, QueueInbox(), "json")
    message = str(caught.value)
    assert "profile arcade-gpio names GPIO buttons that did not open" in message
    assert f"GPIO{busy_pin}" in message or str(busy_pin) in message
    assert "python3-lgpio" in message and message.endswith("--input keyboard")


def test_buttons_missing_close_the_display_that_did_open(busy_pin):
    closed = []

    class Panel:
        def inbox(self):
            return None

        def close(self):
            closed.append(True)

    chosen = plan(args(hardware="arcade-gpio", display="json"), {})
    import nsdevice.runner.opening as opening

    original = opening.open_display
    opening.open_display = lambda plan: (Panel(), None)
    try:
        with pytest.raises(HardwareMissing):
            open_hardware(chosen)
    finally:
        opening.open_display = original
    assert closed == [True]


def test_buttons_asked_for_on_the_command_line_still_fall_back(busy_pin):
    chosen = plan(args(hardware="arcade-gpio", display="json", input="gpio"), {})
    inputs, message = open_inputs(chosen, QueueInbox(), "window")
    assert inputs == []
    assert message.startswith("no GPIO buttons") and message.endswith("; using the keyboard")


def test_gpiozeros_fallback_list_is_summarised_so_the_fix_stays_on_the_line():
    from nsdevice.cli import readable
    from nsdevice.hardware.missing import missing_input
    from nsdevice.hardware.profiles import load_profile

    fallbacks = "; ".join(f"Falling back from {name}: No module named {name!r}"
                          for name in ("lgpio", "rpigpio", "pigpio", "native" * 30))  # fmt: skip
    reason = f"no GPIO buttons: Unable to load any default pin factory! ({fallbacks})"
    line = readable(str(missing_input(load_profile("arcade-gpio"), reason)))
    assert "Falling back" not in line
    assert "pin factory" in line and line.endswith("--input keyboard")


class NotifySocket:
    """systemd's end of NOTIFY_SOCKET: keeps each message, and closes a barrier's pipe
    only once the messages before it have been read, as systemd does."""

    def __init__(self, folder: Path) -> None:
        import socket
        import threading

        self.path = str(folder / "notify")
        self.messages: list[str] = []
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(self.path)
        self._socket.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        import array
        import socket

        while not self._stop.is_set():
            try:
                data, extras, _, _ = self._socket.recvmsg(4096, socket.CMSG_SPACE(16))
            except TimeoutError:
                continue
            self.messages.append(data.decode())
            for level, kind, payload in extras:
                if (level, kind) == (socket.SOL_SOCKET, socket.SCM_RIGHTS):
                    for descriptor in array.array("i", payload[: len(payload) // 4 * 4]):
                        os.close(descriptor)  # the barrier: everything before it was read

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._socket.close()


def test_a_missing_panel_is_the_services_status_and_waits_for_systemd_to_read_it(tmp_path):
    """Issue 22: `systemctl status` showed only systemd's own lines after the restart
    limit. The cause line is sent as STATUS= and a barrier makes sure systemd read it
    before the process exits (a message from a main process already gone is dropped).
    tools/systemd-status-check shows it under a real systemd."""
    profile = panel_on_a_missing_bus(tmp_path)
    listener = NotifySocket(tmp_path)
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                   "GPIOZERO_PIN_FACTORY": "mock", "STATE_DIRECTORY": str(tmp_path / "state"),
                   "NOTIFY_SOCKET": listener.path}  # fmt: skip
    try:
        result = subprocess.run([sys.executable, "-m", "nsdevice", "run", "--hardware",
                                 str(profile)], capture_output=True, text=True, env=environment,
                                timeout=60)  # fmt: skip
    finally:
        listener.close()
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert listener.messages == [f"STATUS={line}", "BARRIER=1"]


def test_the_status_barrier_waits_until_systemd_has_read_the_line(tmp_path):
    import socket
    import threading
    import time

    from nsdevice.box.notify import Notifier

    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(tmp_path / "notify"))
    got: list[bytes] = []

    def slow_systemd() -> None:
        got.append(server.recv(4096))
        _, extras, _, _ = server.recvmsg(4096, socket.CMSG_SPACE(4))
        time.sleep(0.5)  # busy elsewhere: the barrier holds until the pipe is closed
        os.close(int.from_bytes(extras[0][2][:4], sys.byteorder))

    thread = threading.Thread(target=slow_systemd)
    thread.start()
    started = time.monotonic()
    Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify")}).status("no panel;\nfix: switch SPI on")
    waited = time.monotonic() - started
    thread.join()
    server.close()
    assert got == [b"STATUS=no panel; fix: switch SPI on"] and waited >= 0.45


def test_the_profiles_buttons_open_after_the_first_frame_and_missing_still_stop_the_box(
    busy_pin, tmp_path, monkeypatch, capsys
):
    """Issue 35: a profile's GPIO buttons open once the first frame is out (READY=1 sent):
    missing, the box still stops with their one line, also systemd's status, and closes."""
    from nsdevice.runner import run

    listener = NotifySocket(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", listener.path)
    try:
        with pytest.raises(HardwareMissing) as caught:
            run(args(hardware="arcade-gpio", display="json", state_dir=str(tmp_path / "state")))
    finally:
        listener.close()
    frames = capsys.readouterr().out.splitlines()
    assert len(frames) == 1 and '"screen": "summary"' in frames[0]  # the first frame
    assert "profile arcade-gpio names GPIO buttons that did not open" in str(caught.value)
    assert listener.messages == ["READY=1", f"STATUS={caught.value}", "BARRIER=1"]

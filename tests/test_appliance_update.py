"""`nsdevice update` (issue 31): only bundles signed by the release key, installed beside
the running release, switched to only once the new one is READY, and the old one back by
itself when it is not, with the game still there.

Bundles are built and signed here with a throwaway Ed25519 key; the release key's
private half is never in the repository. The service is a stand-in for systemd at one
seam (`Service`): it runs the release's real `nsdevice run` with a NOTIFY_SOCKET of its
own and waits for the READY=1 the app sends after its first frame, as systemd's
Type=notify does; `Systemd`'s own commands are checked separately.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from compiled_code import keeps_columns
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from nsdevice.appliance.bundle import (
    RELEASE_KEY,
    BundleRefused,
    Release,
    make_bundle,
    open_bundle,
)
from nsdevice.appliance.update import (
    EXEC_START,
    Systemd,
    UpdateFailed,
    current_release,
    install_venv,
    switch,
    update,
)
from nsdevice.store import Store

REPOSITORY = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "LANG": "C"}
# a game as a release before the screens became an enum wrote it (snapshot version 1,
# tests/test_saved_games.py): Paris, 3 players, the menu over round 1's third card
OLD_SNAPSHOT = json.loads(
    '{"best_before": null, "cursor": 2, "entry": 0, "question": "", "recorded": false, '
    '"revealed": 3, "round": 1, "scores": [], "screen": "menu", "seed_characters": [], '
    '"seed_code": null, "under": "turn", "settings": {"brightness": 5, "city": "paris", '
    '"language": "en", "modules": ["objectives", "city_gates"], "players": 3, "sound": true}, '
    '"setup": {"city": "paris", "modules": ["objectives", "city_gates"], "players": 3, '
    '"seed": "OLD337"}, "version": 1}'
)


# --- keys and bundles, made here -----------------------------------------------------------


def pem_pair() -> tuple[bytes, bytes]:
    """A throwaway release key: (private PEM, public PEM)."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())  # fmt: skip
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private, public


def make_wheel(folder: Path, version: str, files: dict[str, bytes]) -> Path:
    """A pure wheel of `nsdevice` at `version` holding `files` (path → bytes), with the
    console script a real one has and a RECORD pip checks."""
    folder.mkdir(parents=True, exist_ok=True)
    info = f"nsdevice-{version}.dist-info"
    files = {
        **files,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: nsdevice\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
        f"{info}/entry_points.txt": b"[console_scripts]\nnsdevice = nsdevice.cli:main\n",
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    wheel = folder / f"nsdevice-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def source_files() -> dict[str, bytes]:
    """This checkout's package, as a release's wheel carries it."""
    root = REPOSITORY / "nsdevice"
    return {
        str(path.relative_to(REPOSITORY)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


BROKEN = {  # a release whose box falls over at start, before any frame
    "nsdevice/__init__.py": b'raise SystemExit("nsdevice 0.2.0: broken on purpose")\n',
    "nsdevice/__main__.py": b"",
}


def unpacking_installer(release: Release, folder: Path) -> None:
    """A release as a folder with `bin/nsdevice`: its wheels unpacked (pure wheels are
    their installed files) and run by this interpreter, so the tests need no index and
    no venv per release. `install_venv`, the box's own, is checked on its own below.
    `-P`: the working folder (this checkout) must not put its own package first."""
    lib = folder / "lib"
    for wheel in release.wheels:
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(lib)
    launcher = folder / "bin" / "nsdevice"
    launcher.parent.mkdir(parents=True)
    command = f'PYTHONPATH="{lib}" exec "{sys.executable}" -P -m nsdevice "$@"'
    launcher.write_text(f"#!/bin/sh\n{command}\n")
    launcher.chmod(0o755)


def installed(opt: Path, version: str, files: dict[str, bytes], scratch: Path) -> Path:
    """A release already on the box (as install.sh or an earlier update left it)."""
    wheel = make_wheel(scratch / f"wheels-{version}", version, files)
    folder = opt / "releases" / version
    unpacking_installer(Release(version, f"nsdevice=={version}", (wheel,)), folder)
    return folder


# --- the service, as systemd's Type=notify sees it -----------------------------------------


class NotifyService:
    """Runs a release's `nsdevice run` as the unit would (its own state folder, the
    JSON display so no screen is needed) and waits for READY=1 on its notify socket."""

    def __init__(self, opt: Path, state: Path, socket_path: Path, deadline: float = 30) -> None:
        self.opt, self.state, self.path, self.deadline = opt, state, socket_path, deadline
        self.process: subprocess.Popen[bytes] | None = None
        self.tried: list[str] = []
        self.restored = 0
        self.kept = False

    def start(self, release: Path) -> bool:
        self.stop()
        self.path.unlink(missing_ok=True)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(str(self.path))
            env = {**ENV, "NOTIFY_SOCKET": str(self.path)}
            # one press, a minute away: the box sits on its first screen until stopped
            self.process = subprocess.Popen(
                [str(release / "bin" / "nsdevice"), "run", "--input", "script", "--display",
                 "json", "--keys", "next", "--pace", "60", "--no-web",
                 "--state-dir", str(self.state)],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )  # fmt: skip
            ready = self._wait_ready(listener)
        if not ready:
            return False
        time.sleep(0.5)  # and still up a moment later, as Systemd's settle
        return self.process.poll() is None

    def _wait_ready(self, listener: socket.socket) -> bool:
        assert self.process is not None
        end = time.monotonic() + self.deadline
        while time.monotonic() < end:
            if select.select([listener], [], [], 0.1)[0]:
                if b"READY=1" in listener.recv(4096).split(b"\n"):
                    return True
            elif self.process.poll() is not None:
                return False
        return False

    def try_release(self, folder: Path) -> bool:
        self.tried.append(folder.name)
        return self.start(folder)

    def restore(self) -> None:
        self.restored += 1
        running = current_release(self.opt)
        assert running is not None and self.start(running), "the old release did not come back"

    def keep(self) -> None:
        self.kept = True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        self.process = None


@pytest.fixture(scope="module")
def source() -> dict[str, bytes]:
    return source_files()


@pytest.fixture
def service(tmp_path):
    running = NotifyService(tmp_path / "opt", tmp_path / "state", tmp_path / "notify")
    yield running
    running.stop()


def run_release(release: Path, state: Path, keys: str) -> list[dict]:
    result = subprocess.run(
        [str(release / "bin/nsdevice"), "run", "--input", "script", "--display", "json",
         "--no-web", "--state-dir", str(state), "--keys", keys],
        capture_output=True, text=True, env=ENV, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def without_chime(screen: dict) -> dict:
    return {key: value for key, value in screen.items() if key != "chime"}


# --- the switch ---------------------------------------------------------------------------


def test_a_release_that_does_not_start_goes_back_to_the_old_one_and_the_game_is_there(
    tmp_path, source, service
):
    """Done when (issue 31): `nsdevice update` with a release that fails to start goes
    back to the old one and the game is still there."""
    opt, state = tmp_path / "opt", tmp_path / "state"
    old = installed(opt, "0.1.0", source, tmp_path)
    switch(opt, old)
    played = run_release(opt / "current", state, "next,next,next,next")  # a round under way
    assert played[-1]["screen"] == "turn"
    private, public = pem_pair()
    bundle = make_bundle(tmp_path / "nsdevice-0.2.0.tar", "0.2.0",
                         [make_wheel(tmp_path / "broken", "0.2.0", BROKEN)], private)  # fmt: skip

    with pytest.raises(UpdateFailed, match=r"0\.2\.0 did not start; back on 0\.1\.0"):
        update(bundle, opt=opt, public_key=public, installer=unpacking_installer,
               service=service, say=lambda line: None)  # fmt: skip

    assert service.tried == ["0.2.0"] and service.restored == 1 and not service.kept
    assert service.process is not None and service.process.poll() is None  # the old one runs
    service.stop()
    assert current_release(opt) == old
    assert not (opt / "releases" / "0.2.0").exists()  # the failed one is gone
    resumed = run_release(opt / "current", state, "menu")
    assert without_chime(resumed[0]) == without_chime(played[-1])  # the same card, resumed


def test_a_release_that_starts_is_switched_to_and_restores_an_older_snapshot(
    tmp_path, source, service
):
    """An older snapshot version (1) restores in the newer release, with its history."""
    opt, state = tmp_path / "opt", tmp_path / "state"
    old = installed(opt, "0.1.0", source, tmp_path)
    switch(opt, old)
    opened = Store.open(state)  # the game the old release kept, in version 1's form
    assert opened.store.save(OLD_SNAPSHOT)
    opened.store.close()
    private, public = pem_pair()
    new_wheel = make_wheel(tmp_path / "new", "0.3.0", source)
    bundle = make_bundle(tmp_path / "nsdevice-0.3.0.tar", "0.3.0", [new_wheel], private)
    said: list[str] = []

    assert update(bundle, opt=opt, public_key=public, installer=unpacking_installer,
                  service=service, say=said.append) == "0.3.0"  # fmt: skip

    assert service.tried == ["0.3.0"] and service.kept and service.restored == 0
    service.stop()
    assert current_release(opt) == opt / "releases" / "0.3.0"
    assert os.readlink(opt / "current") == "releases/0.3.0"  # relative: the tree moves whole
    assert old.is_dir()  # the one before stays, to go back to by hand
    assert said[-1] == "nsdevice update: 0.3.0 is running (was 0.1.0)"
    screens = run_release(opt / "current", state, "menu")
    assert screens[0]["screen"] == "menu"  # where the old release left it
    so_far = screens[1]
    assert (so_far["screen"], so_far["city"], so_far["round"]) == ("round_so_far", "paris", 1)
    assert len(so_far["turns"]) == 3  # the same three cards of deal OLD337 (D-1)


def test_only_two_releases_are_kept(tmp_path, source):
    opt = tmp_path / "opt"
    switch(opt, installed(opt, "0.1.0", {"nsdevice/__init__.py": b""}, tmp_path))
    private, public = pem_pair()

    class Up:
        def try_release(self, folder: Path) -> bool:
            return True

        def restore(self) -> None:
            raise AssertionError("not to be called")

        def keep(self) -> None:
            pass

    for version in ("0.2.0", "0.3.0"):
        wheel = make_wheel(tmp_path / version, version, {"nsdevice/__init__.py": b""})
        bundle = make_bundle(tmp_path / f"{version}.tar", version, [wheel], private)
        update(bundle, opt=opt, public_key=public, installer=unpacking_installer,
               service=Up(), say=lambda line: None)  # fmt: skip
    assert sorted(p.name for p in (opt / "releases").iterdir()) == ["0.2.0", "0.3.0"]


# --- what is refused --------------------------------------------------------------------------


def rebuilt(bundle: Path, out: Path, change) -> Path:
    """The bundle's members, one of them changed by `change(name, data) -> data | None`
    (None leaves the member out)."""
    with tarfile.open(bundle) as tar:
        members = [(m.name, tar.extractfile(m).read()) for m in tar.getmembers()]  # type: ignore[union-attr]
    with tarfile.open(out, "w") as tar:
        for name, data in members:
            changed = change(name, data)
            if changed is None:
                continue
            info = tarfile.TarInfo(name)
            info.size = len(changed)
            tar.addfile(info, io.BytesIO(changed))
    return out


def flip_last_byte_of_a_wheel(name: str, data: bytes) -> bytes:
    if name != "payload.tar":
        return data
    return data[:600] + bytes([data[600] ^ 1]) + data[601:]  # inside the wheel's bytes


def other_description(name: str, data: bytes) -> bytes:
    if name != "bundle.json":
        return data
    return data.replace(b'"0.2.0"', b'"0.2.1"').replace(b"==0.2.0", b"==0.2.1")


@pytest.fixture
def signed(tmp_path) -> tuple[Path, bytes, bytes]:
    private, public = pem_pair()
    wheel = make_wheel(tmp_path / "w", "0.2.0", {"nsdevice/__init__.py": b"# 0.2.0\n"})
    return make_bundle(tmp_path / "nsdevice-0.2.0.tar", "0.2.0", [wheel], private), public, private


def refused(tmp_path: Path, bundle: Path, public: bytes) -> subprocess.CompletedProcess[str]:
    opt = tmp_path / "opt"
    key = tmp_path / "release-key.pub"
    key.write_bytes(public)
    return subprocess.run(
        [sys.executable, "-m", "nsdevice", "update", str(bundle), "--opt", str(opt),
         "--public-key", str(key)],
        capture_output=True, text=True, env=ENV, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("how", "why"),
    [
        ("signed by another key", "not signed by the nsdevice release key"),
        ("payload altered", "its payload was altered after it was signed"),
        ("description altered", "not signed by the nsdevice release key"),
        ("no signature", "no bundle.json.sig: not a signed release bundle"),
        ("not a bundle", "not a release bundle"),
    ],
)
def test_an_unsigned_or_altered_bundle_is_refused_with_one_line_and_nothing_changes(
    tmp_path, signed, how, why
):
    bundle, public, _ = signed
    opt = tmp_path / "opt"
    old = installed(opt, "0.1.0", {"nsdevice/__init__.py": b""}, tmp_path)
    switch(opt, old)
    if how == "signed by another key":
        public = pem_pair()[1]
    elif how == "payload altered":
        bundle = rebuilt(bundle, tmp_path / "b.tar", flip_last_byte_of_a_wheel)
    elif how == "description altered":
        bundle = rebuilt(bundle, tmp_path / "b.tar", other_description)
    elif how == "no signature":
        bundle = rebuilt(bundle, tmp_path / "b.tar",
                         lambda n, d: None if n == "bundle.json.sig" else d)  # fmt: skip
    else:
        bundle = tmp_path / "b.tar"
        bundle.write_bytes(b"\x7fELF not a tar at all" * 40)
    result = refused(tmp_path, bundle, public)
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and why in result.stderr, result.stderr
    # the file named (a long path cut to 80 characters, cli.readable), then why
    assert result.stderr.startswith("nsdevice update: ") and " refused: " in result.stderr
    assert current_release(opt) == old
    assert sorted(p.name for p in (opt / "releases").iterdir()) == ["0.1.0"]  # nothing left


def test_a_signed_bundle_may_hold_only_wheels(tmp_path):
    """Even signed, a member outside wheels/ (a path climbing out) is refused whole."""
    private, public = pem_pair()
    wheel = make_wheel(tmp_path / "w", "0.2.0", {"nsdevice/__init__.py": b""})
    bundle = make_bundle(tmp_path / "b.tar", "0.2.0", [wheel], private)

    def climbing(name: str, data: bytes) -> bytes:
        if name != "payload.tar":
            return data
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as tar:
            info = tarfile.TarInfo("wheels/../../etc/evil.whl")
            info.size = 4
            tar.addfile(info, io.BytesIO(b"evil"))
        return out.getvalue()

    altered = rebuilt(bundle, tmp_path / "c.tar", climbing)
    # sign the altered payload properly: only the member check stands in the way
    with tarfile.open(altered) as tar:
        payload = tar.extractfile("payload.tar").read()  # type: ignore[union-attr]
    description = json.dumps({"format": 1, "version": "0.2.0", "requirement": "nsdevice==0.2.0",
                              "payload_sha256": hashlib.sha256(payload).hexdigest()}).encode()
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    key = load_pem_private_key(private, password=None)
    signature = key.sign(description)  # type: ignore[union-attr,call-arg]
    final = rebuilt(altered, tmp_path / "d.tar", lambda n, d: {"bundle.json": description,
                    "bundle.json.sig": signature}.get(n, d))  # fmt: skip
    with pytest.raises(BundleRefused, match="not only wheels"):
        open_bundle(final, tmp_path / "unpacked", public)
    assert not (tmp_path / "etc").exists()


def test_the_shipped_release_key_is_a_public_ed25519_key_and_no_private_key_is_here():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = serialization.load_pem_public_key(RELEASE_KEY.read_bytes())
    assert isinstance(key, Ed25519PublicKey)
    tracked = subprocess.run(["git", "-C", str(REPOSITORY), "ls-files"], capture_output=True,
                             text=True, check=True).stdout.split()  # fmt: skip
    for name in tracked:
        path = REPOSITORY / name
        if path.is_file() and path.stat().st_size < 1_000_000:
            assert b"PRIVATE KEY-----" not in path.read_bytes() or name.startswith("tests/"), name


def test_sign_release_tool_makes_a_bundle_the_box_accepts(tmp_path):
    private, public = pem_pair()
    key = tmp_path / "release.pem"
    key.write_bytes(private)
    wheel = make_wheel(tmp_path / "w", "0.4.0", {"nsdevice/__init__.py": b""})
    out = tmp_path / "nsdevice-0.4.0.tar"
    result = subprocess.run(
        [sys.executable, str(REPOSITORY / "tools/sign_release.py"), "--key", str(key),
         "--out", str(out), str(wheel)],
        capture_output=True, text=True, timeout=60, check=False, cwd=REPOSITORY,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    release = open_bundle(out, tmp_path / "unpacked", public)
    assert (release.version, release.requirement) == ("0.4.0", "nsdevice==0.4.0")


# --- systemd's side ---------------------------------------------------------------------------


def test_the_unit_runs_current_exactly_as_a_trial_runs_a_release():
    unit = (REPOSITORY / "systemd/nsdevice.service").read_text(encoding="utf-8")
    lines = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    assert lines == ["ExecStart=" + EXEC_START.format(release="/opt/nsdevice/current")]


def commands(returns: dict[str, int]) -> tuple[list[str], object]:
    said: list[str] = []

    def run(argv: Sequence[str]) -> int:
        said.append(" ".join(argv))
        return returns.get(" ".join(argv), 0)

    return said, run


def test_systemd_trial_restarts_on_the_new_release_then_keeps_the_units_own_line(tmp_path):
    said, run = commands({})
    trial = tmp_path / "run/nsdevice.service.d/trial.conf"
    systemd = Systemd(run=run, settle=0, trial=trial)  # type: ignore[arg-type]
    assert systemd.try_release(Path("/opt/nsdevice/releases/0.2.0"))
    text = trial.read_text(encoding="utf-8")
    assert "ExecStart=\n" in text  # the unit's own line reset first
    assert "ExecStart=/opt/nsdevice/releases/0.2.0/bin/nsdevice run --hardware " in text
    assert said == ["systemctl daemon-reload", "systemctl reset-failed nsdevice.service",
                    "systemctl restart nsdevice.service",
                    "systemctl is-active --quiet nsdevice.service"]  # fmt: skip
    systemd.keep()
    assert not trial.exists() and said[-1] == "systemctl daemon-reload"


def test_systemd_trial_that_fails_is_undone_and_the_old_release_restarted(tmp_path):
    said, run = commands({"systemctl restart nsdevice.service": 1})
    trial = tmp_path / "trial.conf"
    systemd = Systemd(run=run, settle=0, trial=trial)  # type: ignore[arg-type]
    assert not systemd.try_release(Path("/opt/nsdevice/releases/0.2.0"))
    assert "systemctl is-active --quiet nsdevice.service" not in said
    systemd.restore()
    assert not trial.exists()
    assert said[-3:] == ["systemctl daemon-reload", "systemctl reset-failed nsdevice.service",
                         "systemctl restart nsdevice.service"]  # fmt: skip


def test_a_trial_that_falls_over_after_ready_fails(tmp_path):
    _, run = commands({"systemctl is-active --quiet nsdevice.service": 3})
    systemd = Systemd(run=run, settle=0, trial=tmp_path / "t.conf")  # type: ignore[arg-type]
    assert not systemd.try_release(Path("/opt/nsdevice/releases/0.2.0"))


def test_the_box_installs_a_release_offline_into_a_venv_of_its_own(tmp_path):
    """The real installer: a venv with the system's packages, pip with no index, only the
    bundle's wheels (a tiny release whose `nsdevice` says its version)."""
    files = {"nsdevice/__init__.py": b"",
             "nsdevice/cli.py": b"def main():\n    print('nsdevice 9.9.9')\n"}  # fmt: skip
    wheel = make_wheel(tmp_path / "wheels", "9.9.9", files)
    folder = tmp_path / "releases" / "9.9.9"
    install_venv(Release("9.9.9", "nsdevice==9.9.9", (wheel,)), folder)
    said = subprocess.run([str(folder / "bin/nsdevice")], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert said.stdout == "nsdevice 9.9.9\n"
    config = (folder / "pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = true" in config
    # the service runs optimized (its unit's PYTHONOPTIMIZE=2) and writes no bytecode
    cached = folder.glob("lib/python3*/site-packages/nsdevice/__pycache__/cli.*.pyc")
    levels = {path.name.split(".", 2)[-1]: path for path in cached}
    assert levels.keys() == {"pyc", "opt-2.pyc"}
    # level 2 as the service reads it, without column positions (decision 0011); a command
    # run by hand reads level 0, which keeps them for its tracebacks
    assert keeps_columns(levels["pyc"]) and not keeps_columns(levels["opt-2.pyc"])


# --- under a real systemd ---------------------------------------------------------------------

@pytest.mark.skipif(
    os.environ.get("NSDEVICE_UPDATE_CHECK") != "1" or os.geteuid() != 0,
    reason="about 3 minutes as root (a Debian base built once, then booted): "
    "NSDEVICE_UPDATE_CHECK=1 runs it, or tools/update-systemd-check on its own",
)
def test_the_switch_under_a_real_systemd():
    """The same two updates through the real unit and systemctl in a booted Debian
    (systemd-nspawn --boot): a release that does not start goes back, the next one is
    switched to, and the box resumes the same card after each (about a minute)."""
    result = subprocess.run([str(REPOSITORY / "tools/update-systemd-check")],
                            capture_output=True, text=True, timeout=900, check=False)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout and result.stdout.count("ok   ") == 11

"""The SD-card image's pure parts (image/lib.sh, image/check_root.py, image/emulator.py),
read without building anything: the whole build and boot are commands in docs/image.md
(tens of minutes cold), not a CI test."""

from __future__ import annotations

import importlib.util
import itertools
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pygame
import pytest

from nsdevice.inputs.events import Button, Edge
from nsdevice.inputs.serial_board import Link, SerialBoard

IMAGE = Path(__file__).resolve().parent.parent / "image"
MiB = 1024 * 1024


def shell(function: str, **environment: str) -> str:
    """What one of lib.sh's functions prints."""
    script = f'die() {{ echo "$*" >&2; exit 2; }}; say() {{ :; }}; . "{IMAGE}/lib.sh"; {function}'
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, check=True, env=environment or None
    )
    return done.stdout


def module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, IMAGE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    spec.loader.exec_module(loaded)
    return loaded


def table() -> list[tuple[int, int, str]]:
    """(start, size, type) in sectors from lib.sh's sfdisk script."""
    found = re.findall(r"start=(\d+), size=(\d+), type=(\w+)", shell("partition_table"))
    return [(int(start), int(size), kind) for start, size, kind in found]


def test_the_card_fits_two_gib_with_the_firmware_first_and_partitions_in_a_row():
    partitions = table()
    assert [kind for _, _, kind in partitions] == ["c", "83", "83"]  # FAT32 LBA, then ext4
    assert partitions[0][0] == 2048  # 1 MiB: aligned for any card's erase blocks
    for (start, size, _), (following, _, _) in itertools.pairwise(partitions):
        assert start + size == following  # no gap, no overlap
        assert start % 2048 == 0
    end = (partitions[-1][0] + partitions[-1][1]) * 512
    image_mib = int(shell("echo $IMAGE_MiB"))
    assert end == image_mib * MiB <= 2 * 1024 * MiB
    sizes = [int(word) for word in shell("partition_sizes").split()]
    assert [size * 512 // MiB for _, size, _ in partitions] == sizes


def test_spi_is_switched_on_for_the_display_hat_mini():
    lines = shell("config_txt_custom").splitlines()
    assert "dtparam=spi=on" in lines  # Raspberry Pi's own device trees
    assert "dtoverlay=nsdevice-spi" in lines  # Debian's upstream ones (the overlay below)


BASE_TREE = """/dts-v1/;
/ { compatible = "raspberrypi,3-model-b", "brcm,bcm2837"; #address-cells = <1>; #size-cells = <1>;
    soc { #address-cells = <1>; #size-cells = <1>;
        gpio@7e200000 { reg = <0x7e200000 0xb4>; };
        spi@7e204000 { compatible = "brcm,bcm2835-spi"; reg = <0x7e204000 0x200>;
                       status = "disabled"; }; }; };
"""


def test_the_spi_overlay_turns_spi0_on_with_a_spidev_on_the_panels_chip_select(tmp_path):
    """Applied the way the Pi's firmware applies it (by target path: Debian's device
    trees carry no symbols), onto the nodes of the upstream BCM2837 tree."""
    (tmp_path / "base.dts").write_text(BASE_TREE)
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", tmp_path / "base.dtb",
                    tmp_path / "base.dts"], check=True)  # fmt: skip
    subprocess.run(["dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", tmp_path / "spi.dtbo",
                    IMAGE / "nsdevice-spi.dts"], check=True)  # fmt: skip
    subprocess.run(["fdtoverlay", "-i", tmp_path / "base.dtb", "-o", tmp_path / "out.dtb",
                    tmp_path / "spi.dtbo"], check=True)  # fmt: skip

    def get(node: str, name: str) -> str:
        found = subprocess.run(["fdtget", tmp_path / "out.dtb", node, name],
                               capture_output=True, text=True, check=True)  # fmt: skip
        return found.stdout.strip()

    spi = "/soc/spi@7e204000"
    assert get(spi, "status") == "okay"
    assert get(f"{spi}/spidev@1", "reg") == "1"  # the HAT's panel: chip select 1
    assert get(f"{spi}/spidev@1", "compatible") == "rohm,dh2228fv"  # one spidev binds
    pins = get("/soc/gpio@7e200000/nsdevice_spi0_pins", "brcm,pins").split()
    assert pins == ["7", "8", "10", "11"]  # not 9: the panel's data/command line


def test_the_state_has_its_own_file_system_and_the_journal_stays_in_memory():
    mounts = {
        fields[1]: fields
        for fields in (line.split() for line in shell("fstab").splitlines())
        if fields and not fields[0].startswith("#")
    }
    labels = shell("echo $ROOT_LABEL $FIRMWARE_LABEL $STATE_LABEL").split()
    assert mounts["/"][0] == f"LABEL={labels[0]}"
    assert mounts["/boot/firmware"][0] == f"LABEL={labels[1]}"
    state = mounts["/var/lib/nsdevice"]
    assert state[0] == f"LABEL={labels[2]}" and state[2] == "ext4"
    assert "nofail" in state[3]  # a damaged state partition never stops the box
    assert "Storage=volatile" in shell("journald_conf").splitlines()
    assert "PasswordAuthentication no" in shell("sshd_config").splitlines()


def test_the_mirror_is_the_machines_own_in_either_apt_format(tmp_path):
    apt = tmp_path / "apt"
    (apt / "sources.list.d").mkdir(parents=True)
    (apt / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\n"
        "Components: main\n\nTypes: deb\nURIs: http://security.example/debian-security\n"
        "Suites: bookworm-security\nComponents: main\n"
    )
    lines = shell("mirror_lines", NSDEVICE_APT_DIR=str(apt), PATH="/usr/bin:/bin").splitlines()
    assert lines == [
        "deb http://mirror.example/debian bookworm main non-free-firmware",
        "deb http://mirror.example/debian bookworm-updates main non-free-firmware",
        "deb http://security.example/debian-security bookworm-security main non-free-firmware",
    ]
    (apt / "sources.list.d" / "debian.sources").unlink()
    (apt / "sources.list").write_text(
        "deb [arch=amd64] http://other.example/debian bookworm main\n"
    )
    lines = shell("mirror_lines", NSDEVICE_APT_DIR=str(apt), PATH="/usr/bin:/bin").splitlines()
    assert lines[0] == "deb http://other.example/debian bookworm main non-free-firmware"
    assert len(lines) == 2  # no security mirror named: none made up


def test_the_base_trees_cache_key_follows_its_package_list():
    packages = shell("base_packages").split()
    for needed in ("linux-image-arm64", "raspi-firmware", "network-manager", "openssh-server"):
        assert needed in packages
    key = shell("base_key").strip()
    assert re.fullmatch(r"[0-9a-f]{16}", key)
    other = shell("base_packages() { echo linux-image-arm64; }; base_key").strip()
    assert other != key


def test_the_pi_extra_is_read_from_pyproject():
    requires = module("wheel_requires")
    assert any(line.startswith("st7789") for line in requires.requirements("pyproject.toml", "pi"))
    assert any(line.startswith("pygame-ce") for line in requires.requirements("pyproject.toml"))


def fake_root(tmp_path: Path, shadow: str, ssh_enabled: bool = False) -> Path:
    tree = tmp_path / "tree"
    (tree / "etc/ssh/sshd_config.d").mkdir(parents=True)
    (tree / "etc/ssh/sshd_config.d/nsdevice.conf").write_text("PasswordAuthentication no\n")
    (tree / "etc/shadow").write_text(shadow)
    (tree / "etc/passwd").write_text(
        "root:x:0:0::/root:/bin/bash\nnsdevice:x:999:999::/:/bin/false\n"
    )
    wants = tree / "etc/systemd/system/multi-user.target.wants"
    wants.mkdir(parents=True)
    (wants / "nsdevice.service").symlink_to("/etc/systemd/system/nsdevice.service")
    if ssh_enabled:
        (wants / "ssh.service").symlink_to("/lib/systemd/system/ssh.service")
    return tree


def test_the_security_check_passes_locked_accounts_and_fails_any_usable_password(tmp_path):
    check = module("check_root")
    locked = fake_root(tmp_path, "root:*:20000:0:99999:7:::\nnsdevice:!:20000::::::\n")
    assert check.main([str(locked)]) == 0
    for shadow in ("root:$6$salt$hash:20000::::::\n", "root::20000::::::\n"):
        (locked / "etc/shadow").write_text(shadow)
        assert check.usable_passwords(locked) == ["root (etc/shadow)"]
        assert check.main([str(locked)]) == 1


def test_the_security_check_fails_ssh_enabled_without_first_boot(tmp_path):
    check = module("check_root")
    tree = fake_root(tmp_path, "root:*:1::::::\n", ssh_enabled=True)
    assert check.main([str(tree)]) == 1
    assert check.enabled_units(tree) == ["nsdevice.service", "ssh.service"]


def test_a_screendump_becomes_a_png_with_the_same_pixels(tmp_path):
    emulator = module("emulator")
    width, height = 5, 3
    pixels = b"".join(
        bytes((x * 40, y * 80, (x + y) * 20)) for y in range(height) for x in range(width)
    )
    png = tmp_path / "screen.png"
    png.write_bytes(emulator.ppm_to_png(b"P6\n%d %d\n255\n" % (width, height) + pixels))
    picture = pygame.image.load(str(png))
    assert picture.get_size() == (width, height)
    assert tuple(picture.get_at((4, 2)))[:3] == (160, 160, 120)


def test_the_emulated_board_is_understood_by_the_boxs_own_serial_back_end(tmp_path):
    """boot.sh's stand-in for the Pico speaks firmware/PROTOCOL.md well enough that the
    real SerialBoard shakes hands with it and reads its presses as NEXT."""
    emulator = module("emulator")
    path = tmp_path / "board.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    board = emulator.Board(path)
    board.start()
    connection, _ = server.accept()
    connection.settimeout(0.05)

    class SocketLink(Link):  # the port as the box sees it: the other end of QEMU's UART
        in_waiting = 0

        def read(self, size: int = 1) -> bytes:
            try:
                return connection.recv(size)
            except TimeoutError:
                return b""

        def write(self, data: bytes) -> int | None:
            connection.sendall(data)
            return len(data)

        def close(self) -> None:
            connection.close()

    edges: list[Edge] = []

    class Inbox:
        def put(self, item: object, wait: float = 0.0) -> bool:
            if isinstance(item, Edge):
                edges.append(item)
            return True

    reader = SerialBoard(Inbox(), port="emulated", open_port=lambda _port: SocketLink())
    reader.start()
    try:
        assert board.connected.wait(10)
        deadline = time.monotonic() + 10
        while not reader.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        board.press(0)
        while len(edges) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [(edge.button, edge.down) for edge in edges[:2]] == [
            (Button.NEXT, True),
            (Button.NEXT, False),
        ]
    finally:
        reader.close()
        board.stop()
        server.close()


def test_ready_is_read_from_systemds_coloured_status_line():
    emulator = module("emulator")
    seen = (
        b"\x1b[0;32m  OK  \x1b[0m] Started \x1b[0;1;39mnsdevice.service\x1b[0m"
        b"\xe2\x80\xa6tation table companion (nsdevice)."
    )
    assert emulator.READY_LINE.search(seen)
    assert emulator.READY_LINE.search(b"[  OK  ] Started nsdevice.service - Next Station")
    starting = b"Job nsdevice.service/start running (7min 21s / 15min 44s)"
    assert not emulator.READY_LINE.search(starting)
    assert not emulator.READY_LINE.search(b"Started \x1b[0;1;39mnsdevice-firstboot.service")


CARD_TREE = """/dts-v1/;
/ { compatible = "raspberrypi,3-model-b", "brcm,bcm2837"; #address-cells = <1>; #size-cells = <1>;
    chosen { };
    soc { #address-cells = <1>; #size-cells = <1>;
        gpio@7e200000 { reg = <0x7e200000 0xb4>; };
        serial@7e201000 { reg = <0x7e201000 0x200>;
                          bluetooth { compatible = "brcm,bcm43438-bt"; }; };
        spi@7e204000 { compatible = "brcm,bcm2835-spi"; reg = <0x7e204000 0x200>;
                       status = "disabled"; }; }; };
"""
CARD_TOOLS = ("sfdisk", "mkfs.vfat", "mcopy", "mdir", "mke2fs", "debugfs", "dumpe2fs", "e2fsck",
              "dtc", "fdtput", "fdtget", "fdtoverlay")  # fmt: skip


def small_card(folder: Path) -> tuple[Path, int]:
    """A card laid out as build.sh lays it (FAT with the kernel, initrd, device tree,
    config.txt and the SPI overlay; an ext4 root), its root pulled from a running box:
    a transaction left in the journal. Returns the card and the root's offset."""
    for tool in CARD_TOOLS:
        if shutil.which(tool) is None:
            pytest.skip(f"no {tool} here")
    files = folder / "firmware"
    (files / "overlays").mkdir(parents=True)
    (files / "vmlinuz-6.1.0-arm64").write_bytes(b"kernel")
    (files / "initrd.img-6.1.0-arm64").write_bytes(b"initrd")
    (files / "config.txt").write_text(shell("config_txt_custom"))
    (folder / "card.dts").write_text(CARD_TREE)
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", files / "bcm2837-rpi-3-b.dtb",
                    folder / "card.dts"], check=True)  # fmt: skip
    subprocess.run(["dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o",
                    files / "overlays/nsdevice-spi.dtbo", IMAGE / "nsdevice-spi.dts"],
                   check=True)  # fmt: skip
    fat, root = folder / "fat.img", folder / "root.img"
    subprocess.run(["mkfs.vfat", "-C", fat, "8192"], check=True, capture_output=True)
    subprocess.run(["mcopy", "-s", "-i", fat, *files.iterdir(), "::/"], check=True)
    tree = folder / "tree"
    for path in ("etc/systemd/system/multi-user.target.wants", "etc/default", "usr/local/sbin"):
        (tree / path).mkdir(parents=True)
    subprocess.run(["mke2fs", "-q", "-t", "ext4", "-d", tree, root, "8M"], check=True)
    (folder / "old").write_bytes(b"Z" * 4096)
    journal = "jo\njw -b 1000 {}\njc\n".format(folder / "old")
    subprocess.run(["debugfs", "-w", "-f", "-", root], input=journal.encode(), check=True,
                   capture_output=True)  # fmt: skip
    assert "needs_recovery" in subprocess.run(["dumpe2fs", "-h", root], capture_output=True,
                                              text=True).stdout  # fmt: skip
    card = folder / "card.img"
    card.write_bytes(b"")
    table = "label: dos\nunit: sectors\n\nstart=2048, size=16384, type=c\n"
    table += "start=18432, size=16384, type=83\n"
    subprocess.run(["truncate", "-s", "20M", card], check=True)
    subprocess.run(["sfdisk", "--quiet", card], input=table.encode(), check=True)
    for image, mib in ((fat, 1), (root, 9)):
        subprocess.run(["dd", f"if={image}", f"of={card}", "bs=1M", f"seek={mib}",
                        "conv=notrunc", "status=none"], check=True)  # fmt: skip
    return card, 9 * MiB


def root_says(card: Path, offset: int, request: str) -> str:
    done = subprocess.run(["debugfs", "-R", request, f"{card}?offset={offset}"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return done.stdout


def test_boot_sh_prepares_a_pulled_plugs_card_for_the_emulated_pi(tmp_path):
    """What boot.sh changes on its copy of the card before QEMU starts: the journal played
    back first (or the kernel's replay at mount would undo the drop-in), the ports report
    a unit of multi-user.target (systemd.run= on the command line replaces the default
    target: the box would never start), and /chosen with `ranges` (without, simplefb
    cannot place its framebuffer: error -22, no /dev/fb0)."""
    emulator = module("emulator")
    card, root = small_card(tmp_path)
    folder = tmp_path / "boot"
    folder.mkdir()
    _, _, dtb = emulator.prepare(card, folder, True)

    assert (
        "needs_recovery"
        not in subprocess.run(
            ["dumpe2fs", "-h", f"{card}?offset={root}"], capture_output=True, text=True
        ).stdout
    )
    assert "systemd.run" not in emulator.COMMAND_LINE
    # no getty on the console READY is read from: while one holds it, systemd is silent
    words = emulator.COMMAND_LINE.split()
    console = next(w for w in words if w.startswith("console=")).split("=")[1].split(",")[0]
    assert f"systemd.mask=serial-getty@{console}.service" in words
    link = root_says(card, root, f"stat {emulator.PORTS_WANTS}")
    assert "Type: symlink" in link
    assert f'Fast link dest: "/etc/systemd/system/{emulator.PORTS_UNIT}"' in link
    assert emulator.PORTS_WANTS.startswith("/etc/systemd/system/multi-user.target.wants/")
    unit = root_says(card, root, f"cat /etc/systemd/system/{emulator.PORTS_UNIT}")
    assert "ExecStart=/usr/local/sbin/nsdevice-emulator-ports" in unit
    assert "After=nsdevice.service" in unit
    assert "EnvironmentFile=/etc/default/nsdevice-emulator" in root_says(
        card, root, "cat /etc/systemd/system/nsdevice.service.d/emulator.conf"
    )

    def get(node: str, name: str, kind: str = "s") -> str:
        return subprocess.run(["fdtget", "-t", kind, dtb, node, name], capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip

    assert get("/chosen", "ranges", "x") == ""  # there and empty: the CPU's own addresses
    framebuffer = f"/chosen/framebuffer@{emulator.FRAMEBUFFER['base']:x}"
    assert get(framebuffer, "compatible") == "simple-framebuffer"
    assert get(framebuffer, "reg", "x").split() == ["3c100000", f"{1280 * 480:x}"]
    assert get("/soc/spi@7e204000", "status") == "okay"  # the card's own overlay, applied
    children = subprocess.run(["fdtget", "-l", dtb, emulator.UART0], capture_output=True,
                              text=True, check=True).stdout.split()  # fmt: skip
    assert "bluetooth" not in children
    settings = subprocess.run(["mcopy", "-i", f"{card}@@{MiB}", "::/nsdevice.toml", "-"],
                              capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert 'hardware = "emulator"' in settings

    emulator.prepare(card, folder, False)  # the same card again, without --ports
    assert (
        "File not found"
        in subprocess.run(
            ["debugfs", "-R", f"stat {emulator.PORTS_WANTS}", f"{card}?offset={root}"],
            capture_output=True,
            text=True,
        ).stderr
    )


def test_the_ports_are_read_from_their_own_lines_among_systemds_status_lines():
    emulator = module("emulator")
    console = (
        b"NSPORT tcp LISTEN 0 2048 0.0.0.0:8414 0.0.0.0:*\r\n"
        b"\x1b[0;32m  OK  \x1b[0m] Started \x1b[0;1;39msystemd-timesyncd.service\x1b[0m\r\n"
        b"[  OK  ] Reached target time-set.target - System Time Set.\r\n"
        b"NSSPI /dev/spidev0.1\r\n"
        # as seen in the emulator: the serial getty's prompt, then the line after a return
        b"nextstation login: \r          \rNSPORT udp UNCONN 0 0 0.0.0.0:5353 0.0.0.0:*\r\n"
        b"NSPORTS-END\r\n"
    )
    assert emulator.ports_seen(console) == [
        "tcp LISTEN 0 2048 0.0.0.0:8414 0.0.0.0:*",
        "udp UNCONN 0 0 0.0.0.0:5353 0.0.0.0:*",
    ]
    assert emulator.spidev_seen(console) == ["/dev/spidev0.1"]
    assert emulator.ports_seen(console.replace(b"NSPORTS-END", b"")) is None  # not yet said


def test_the_ports_report_waits_for_the_units_own_page_port():
    """The page starts in its own process after the first frame, so a report taken just
    after READY found nothing listening; it waits for the port the unit gives the page."""
    emulator = module("emulator")
    unit = (IMAGE.parent / "systemd/nsdevice.service").read_text(encoding="utf-8")
    found = re.search(r"^Environment=NSDEVICE_WEB=[\d.]+:(\d+)$", unit, re.M)
    assert found is not None
    assert f'ss -Hltn "sport = :{found.group(1)}"' in emulator.REPORT

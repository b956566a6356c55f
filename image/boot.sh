#!/usr/bin/env bash
# Boot the nsdevice image in QEMU's emulated Raspberry Pi and prove it (docs/image.md):
#
#   image/boot.sh DIR/nsdevice-*.img.xz [--keys next,next] [--screenshot shot.png]
#
# Prints one JSON line: {"ready_s": …, "screen": …, "boot_log": …}. The work is in
# image/emulator.py (the standard library only: a fresh machine has just Python).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 "$here/emulator.py" "$@"

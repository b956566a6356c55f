#!/usr/bin/env bash
# A pulled plug mid-game, in the emulator (docs/image.md):
#
#   image/resume-check.sh DIR/nsdevice-*.img.xz [KEYS]
#
# Boots the card, presses KEYS (default next,next: the setup, then the first card),
# takes the screen, then kills QEMU outright (no shutdown: a pulled plug); boots the same
# card again without a key and takes the screen. The same card must be on both: the
# script prints both boots' JSON lines and what the OCR read, and exits 0 only when the
# two screens read the same.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
image=${1:?usage: resume-check.sh IMAGE [KEYS]}
keys=${2:-next,next}
work=$(mktemp -d "${TMPDIR:-/var/tmp}/nsdevice-resume.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$here/boot.sh" "$image" --disk "$work/card.img" --keys "$keys" --screenshot "$work/before.png" \
    --log "$work/before.log" | tee "$work/before.json"
"$here/boot.sh" "$image" --disk "$work/card.img" --screenshot "$work/after.png" \
    --log "$work/after.log" | tee "$work/after.json"
python3 - "$work/before.json" "$work/after.json" <<'PY'
import json, sys
before, after = (json.load(open(path)) for path in sys.argv[1:3])
print("before the pulled plug:", before.get("screen_text"))
print("after booting again:   ", after.get("screen_text"))
same = bool(before.get("screen_text")) and before.get("screen_text") == after.get("screen_text")
print("same card:", "yes" if same else "no")
sys.exit(0 if same else 1)
PY

#!/usr/bin/env bash
# A pulled plug mid-game, in the emulator (docs/image.md):
#
#   image/resume-check.sh DIR/nsdevice-*.img.xz [KEYS] [boot.sh options for the first boot]
#
# Boots the card, presses KEYS (default next,next: the setup, then the first card),
# takes the screen, then kills QEMU outright (no shutdown: a pulled plug); boots the same
# card again without a key and takes the screen. The same card must be on both: the
# script prints both boots' JSON lines and what the OCR read, and exits 0 only when the
# two screens read the same. More options go to the first boot (--ports,
# --ready-screenshot PNG, --timeout S). The work (the card, both consoles and screens)
# goes to a new folder under ${TMPDIR:-/var/tmp}, or to $NSDEVICE_RESUME_DIR, which is kept.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
image=${1:?usage: resume-check.sh IMAGE [KEYS] [boot.sh options]}
keys=${2:-next,next}
shift $(($# >= 2 ? 2 : 1))
if [[ -n ${NSDEVICE_RESUME_DIR:-} ]]; then
    work=$NSDEVICE_RESUME_DIR
    mkdir -p "$work"
    rm -f "$work/card.img"
else
    work=$(mktemp -d "${TMPDIR:-/var/tmp}/nsdevice-resume.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
started=$SECONDS
"$here/boot.sh" "$image" --disk "$work/card.img" --keys "$keys" --screenshot "$work/before.png" \
    --log "$work/before.log" --timeout 1800 "$@" | tee "$work/before.json"
"$here/boot.sh" "$image" --disk "$work/card.img" --screenshot "$work/after.png" \
    --log "$work/after.log" --timeout 1800 | tee "$work/after.json"
echo "both boots: $((SECONDS - started)) s"
python3 - "$work/before.json" "$work/after.json" <<'PY'
import json, sys
before, after = (json.load(open(path)) for path in sys.argv[1:3])
print("before the pulled plug:", before.get("screen_text"))
print("after booting again:   ", after.get("screen_text"))
same = bool(before.get("screen_text")) and before.get("screen_text") == after.get("screen_text")
print("same card:", "yes" if same else "no")
sys.exit(0 if same else 1)
PY

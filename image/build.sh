#!/usr/bin/env bash
# Build the nsdevice SD-card image: Debian arm64 with Debian's kernel and Raspberry Pi
# firmware, the project installed the way systemd/install.sh does, one command:
#
#   image/build.sh --out DIR
#
# gives DIR/nsdevice-<version>-arm64.img.xz and DIR/nsdevice-<version>-arm64.manifest.
# Slow part first and cached: the Debian root tree (mmdebstrap under qemu-user) is kept
# under $NSDEVICE_IMAGE_CACHE (default /var/cache/nsdevice-image), keyed by a hash of its
# package list, so a rebuild only lays the app on top. No loop devices, no mounts of the
# image: sfdisk on a file, mkfs.vfat + mtools, mke2fs -d, dd (see docs/image.md).
#
# The Debian mirror is the machine's own (apt's sources) or NSDEVICE_DEBIAN_MIRROR /
# NSDEVICE_DEBIAN_SECURITY; pip uses the machine's pip configuration.
set -euo pipefail
set -o errtrace
trap 'printf "build.sh: failed at line %s: %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

say() { printf 'build.sh: %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 2; }

usage() {
    cat <<'USAGE'
usage: image/build.sh --out DIR [--base-only] [--keep-tree]

  --out DIR     where the .img.xz and its manifest are written
  --base-only   build (or find in the cache) the Debian base tree and stop
  --keep-tree   keep the root tree under DIR/tree (for the security check)
USAGE
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$(cd "$here/.." && pwd)
# shellcheck source=image/lib.sh
. "$here/lib.sh"

out=""
base_only=no
keep_tree=no
while (($#)); do
    case $1 in
        --out) (($# >= 2)) || die "--out needs a directory"; out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        --base-only) base_only=yes ;;
        --keep-tree) keep_tree=yes ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done
[[ -n $out || $base_only == yes ]] || { usage >&2; die "--out DIR is required"; }
[[ $EUID -eq 0 ]] || die "run me as root: mmdebstrap, chroot and file ownership need it"

cache=${NSDEVICE_IMAGE_CACHE:-/var/cache/nsdevice-image}
umask 022
# Every timestamp in the image (FAT, ext4, tar) from one date: the last commit's.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$source_dir" log -1 --format=%ct 2>/dev/null || echo 1700000000)}
export SOURCE_DATE_EPOCH

ensure_host_tools
ensure_binfmt

base=$(build_base "$cache")
say "base tree: $base"
[[ $base_only == no ]] || exit 0

build_image "$base" "$out" "$keep_tree" "$cache" "$source_dir"

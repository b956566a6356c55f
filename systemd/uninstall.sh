#!/usr/bin/env bash
# Remove the nsdevice service that install.sh set up. Run as root:
#
#   sudo systemd/uninstall.sh [--purge]
#
# Stops and disables the service, removes the unit and /opt/nsdevice (the venv). The
# saved games (/var/lib/nsdevice), the profiles and /etc/default/nsdevice stay unless
# --purge, which also removes the nsdevice user. Safe to run twice.
# --root DIR (or DESTDIR=DIR) works on files under DIR only, as install.sh does.
set -euo pipefail

readonly SERVICE=nsdevice.service
# install.sh --appliance's: the first boot and the box's own access point
readonly APPLIANCE_UNITS=(nsdevice-firstboot.service nsdevice-hotspot.service)
readonly SERVICE_USER=nsdevice

say() { printf 'uninstall.sh: %s\n' "$*"; }
die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 2; }

usage() {
    cat <<'USAGE'
usage: uninstall.sh [--purge] [--root DIR]

  --purge     also delete saved games, cache, profiles, /etc/default/nsdevice, any
              `systemctl edit` drop-ins and the nsdevice user
  --root DIR  work on files under DIR and change nothing else (also DESTDIR)
USAGE
}

purge=no
root=${DESTDIR:-}

while (($#)); do
    case $1 in
        --purge) purge=yes ;;
        --root) (($# >= 2)) || die "--root needs a directory"; root=$2; shift ;;
        --root=*) root=${1#*=} ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

if [[ -n $root ]]; then
    dry=yes
    [[ -d $root ]] || die "no such directory: $root"
    root=$(cd "$root" && pwd)
else
    dry=no
    [[ $EUID -eq 0 ]] || die "run me as root (sudo), or use --root DIR"
fi

units=$root/etc/systemd/system

remove() {
    local path
    for path in "$@"; do
        if [[ -e $path || -L $path ]]; then
            rm -rf -- "$path"
            say "removed $path"
        fi
    done
}

for unit in "$SERVICE" "${APPLIANCE_UNITS[@]}"; do
    if [[ $dry == no ]]; then
        if systemctl cat "$unit" >/dev/null 2>&1; then
            systemctl disable --now --quiet "$unit"
            say "stopped and disabled $unit"
        fi
    else
        remove "$units/multi-user.target.wants/$unit"
    fi
    remove "$units/$unit"
done

remove "$root/opt/nsdevice" "$root/usr/local/lib/nsdevice" \
    "$root/etc/NetworkManager/dispatcher.d/90-nsdevice-hotspot" \
    "$root/etc/apt/apt.conf.d/80nsdevice-bytecode"

if [[ $purge == yes ]]; then
    remove "$units/$SERVICE.d" "$root/var/lib/nsdevice" "$root/var/cache/nsdevice" \
        "$root/var/lib/nsdevice-setup" \
        "$root/etc/NetworkManager/system-connections/nsdevice-wifi.nmconnection" \
        "$root/etc/NetworkManager/system-connections/nsdevice-hotspot.nmconnection" \
        "$root/etc/nsdevice" "$root/etc/default/nsdevice"
    if [[ $dry == no ]] && id -u "$SERVICE_USER" >/dev/null 2>&1; then
        userdel "$SERVICE_USER"
        say "removed user $SERVICE_USER"
    fi
else
    say "kept saved games and settings (/var/lib/nsdevice, /etc/nsdevice, /etc/default/nsdevice); --purge removes them"
fi

if [[ $dry == no ]]; then
    systemctl daemon-reload
    systemctl reset-failed "$SERVICE" 2>/dev/null || true
fi

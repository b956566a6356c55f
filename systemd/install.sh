#!/usr/bin/env bash
# Install nsdevice as a systemd service from this checkout. Run as root on the box:
#
#   sudo systemd/install.sh [--profile NAME] [--no-start] [--pi | --no-pi] [--appliance]
#                           [--venv-ready]
#
# The app goes into /opt/nsdevice/releases/<version> (a venv) and /opt/nsdevice/current
# links to it; the unit runs /opt/nsdevice/current/bin/nsdevice, and `nsdevice update`
# switches the link once a new release is up. --appliance also installs the first-boot
# unit (the card's nsdevice.toml), the box's own access point and its dispatcher script:
# what the SD image is built with (image/, docs/appliance.md).
#
# Safe to run again (to update the app, or after a failed run): it never overwrites a
# profile or /etc/default/nsdevice that already exists, and it restarts the service so
# the new code runs.
#
# In an image build (a chroot, no systemd running: /run/systemd/system is absent) it
# does everything but talk to systemd: the unit is enabled offline and starts at the
# next boot.
#
# --root DIR (or DESTDIR=DIR) installs the files under DIR instead of / (a mounted image)
# and enables the unit there, touching nothing else: no user or groups, no venv. The
# tests use it, and it shows what an install would write.
set -euo pipefail

readonly SERVICE=nsdevice.service
# With --appliance: the first boot (nsdevice.toml) and the box's own access point.
readonly APPLIANCE_UNITS=(nsdevice-firstboot.service nsdevice-hotspot.service)
readonly SERVICE_USER=nsdevice
# The device groups the unit names in SupplementaryGroups= (see nsdevice.service).
readonly DEVICE_GROUPS=(gpio spi video render input dialout audio)

say() { printf 'install.sh: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }

usage() {
    cat <<'EOF'
usage: install.sh [--profile NAME] [--no-start] [--pi | --no-pi] [--appliance]
                  [--venv-ready] [--root DIR]

  --profile NAME  hardware profile written to /etc/default/nsdevice on the first
                  install (default display-hat-mini); later runs keep the file
  --no-start      enable the service but do not (re)start it now
  --pi, --no-pi   install the Raspberry Pi extra (st7789 panel driver); default:
                  when this machine is a Raspberry Pi or the profile has the panel
  --appliance     also the first-boot unit (nsdevice.toml on the card), the box's
                  own access point and its NetworkManager dispatcher script
  --venv-ready    this version's release venv is already filled (the image
                  build fills it on the build machine, not under emulation):
                  only link it as current
  --root DIR      write the files under DIR, enable the unit there and change
                  nothing else (also DESTDIR): for a mounted image
EOF
}

profile=display-hat-mini
start=yes
pi=auto
root=${DESTDIR:-}
appliance=no
venv_ready=no

while (($#)); do
    case $1 in
        --profile) (($# >= 2)) || die "--profile needs a name"; profile=$2; shift ;;
        --profile=*) profile=${1#*=} ;;
        --no-start) start=no ;;
        --pi) pi=yes ;;
        --no-pi) pi=no ;;
        --appliance) appliance=yes ;;
        --venv-ready) venv_ready=yes ;;
        --root) (($# >= 2)) || die "--root needs a directory"; root=$2; shift ;;
        --root=*) root=${1#*=} ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
    shift
done

# The name ends up in a file systemd reads and on the app's command line: keep it plain.
[[ $profile =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] || die "not a profile name: $profile"

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ -f $source_dir/pyproject.toml && -f $source_dir/systemd/$SERVICE ]] ||
    die "run me from an nsdevice checkout (no pyproject.toml next to systemd/)"

# Refuse a misspelt profile before doing anything slow.
known_profiles() {
    local file
    for file in "$source_dir"/nsdevice/profiles/*.toml "$root"/etc/nsdevice/profiles/*.toml; do
        if [[ -e $file ]]; then basename "$file" .toml; fi
    done | sort -u | paste -sd ' ' -
}
[[ -e $source_dir/nsdevice/profiles/$profile.toml || -e $root/etc/nsdevice/profiles/$profile.toml ]] ||
    die "no hardware profile $profile (known: $(known_profiles))"

if [[ -n $root ]]; then
    dry=yes
    mkdir -p "$root"
    root=$(cd "$root" && pwd)
    say "installing into $root only: no user or venv; the unit is enabled there, offline"
else
    dry=no
    [[ $EUID -eq 0 ]] || die "run me as root (sudo), or use --root DIR to try me out"
fi

# Root's umask may be 077; the service user must be able to read what we install.
umask 022

scratch=""
trap '[[ -z $scratch ]] || rm -rf "$scratch"' EXIT

is_raspberry_pi() {
    [[ -r /proc/device-tree/model ]] && tr -d '\0' </proc/device-tree/model | grep -q 'Raspberry Pi'
}

# An image build runs in a chroot where no systemd runs: nothing to reload or start.
systemd_is_running() {
    [[ -d /run/systemd/system ]]
}

# The profile in force: an edited one in /etc wins over the one shipped in the package.
profile_file() {
    local edited=$root/etc/nsdevice/profiles/$profile.toml
    if [[ -e $edited ]]; then echo "$edited"; else echo "$source_dir/nsdevice/profiles/$profile.toml"; fi
}

profile_has_panel() {
    grep -q '^kind = "st7789"' "$(profile_file)"
}

ensure_user() {
    local group
    for group in "${DEVICE_GROUPS[@]}"; do
        # A group Raspberry Pi OS has but this system lacks: an empty one grants nothing
        # and lets SupplementaryGroups= resolve, so the unit still starts.
        getent group "$group" >/dev/null || { groupadd --system "$group"; say "created group $group"; }
    done
    if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir /var/lib/nsdevice --no-create-home \
            --shell /usr/sbin/nologin --comment "Next Station box" "$SERVICE_USER"
        say "created system user $SERVICE_USER"
    fi
    # The unit grants these groups itself; membership lets `sudo -u nsdevice nsdevice
    # hwtest` see the same devices as the service.
    usermod --append --groups "$(IFS=,; echo "${DEVICE_GROUPS[*]}")" "$SERVICE_USER"
}

# This checkout's version: its release's folder under /opt/nsdevice/releases.
release_version() {
    sed -n 's/^version = "\(.*\)"$/\1/p' "$source_dir/pyproject.toml" | head -n 1
}

build_venv() {
    local version venv extra=""
    version=$(release_version)
    [[ $version =~ ^[0-9][0-9A-Za-z.+-]*$ ]] || die "no version in pyproject.toml"
    venv=/opt/nsdevice/releases/$version
    case $pi in
        yes) extra="[pi]" ;;
        # An image built on a PC is no Pi yet, but its profile knows it needs the panel.
        auto) if is_raspberry_pi || profile_has_panel; then extra="[pi]"; fi ;;
    esac
    if [[ $venv_ready == yes ]]; then
        [[ -x $venv/bin/nsdevice ]] || die "--venv-ready: no $venv/bin/nsdevice"
        say "$venv is filled already"
    elif [[ ! -x $venv/bin/python ]]; then
        # System site packages: Raspberry Pi OS ships lgpio (python3-lgpio) as a
        # Debian package, and gpiozero finds it through them.
        python3 -m venv --system-site-packages "$venv"
        say "created $venv"
    fi
    if [[ $venv_ready == no ]]; then
        # Build from a copy so pip's build files do not land, owned by root, in the
        # checkout. (pip reinstalls a local folder even at the same version, so a rerun
        # updates.)
        scratch=$(mktemp -d)
        tar -C "$source_dir" --exclude=.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build -cf - . |
            tar -C "$scratch" -xf -
        "$venv/bin/python" -m pip install --quiet --upgrade "$scratch$extra"
        say "installed nsdevice${extra} into $venv"
    fi
    # `current` is switched in one rename, as `nsdevice update` does
    ln -sfn "releases/$version" /opt/nsdevice/.current-install
    mv -T /opt/nsdevice/.current-install /opt/nsdevice/current
    say "/opt/nsdevice/current -> releases/$version"
    if [[ -d /opt/nsdevice/venv ]]; then
        rm -rf /opt/nsdevice/venv  # the layout before releases: the unit no longer runs it
        say "removed the old /opt/nsdevice/venv"
    fi
}

install_profiles() {
    local folder=$root/etc/nsdevice/profiles shipped target
    install -d -m 0755 "$folder"
    for shipped in "$source_dir"/nsdevice/profiles/*.toml; do
        target=$folder/$(basename "$shipped")
        if [[ ! -e $target ]]; then
            install -m 0644 "$shipped" "$target"
            say "added profile $target"
        elif ! cmp -s "$shipped" "$target"; then
            # Someone edited it (or it is from an older version): theirs stays in force.
            install -m 0644 "$shipped" "$target.new"
            say "kept your $target; this version's is beside it as $(basename "$target").new"
        fi
    done
}

write_defaults() {
    local file=$root/etc/default/nsdevice current
    if [[ -e $file ]]; then
        current=$(sed -n 's/^NSDEVICE_PROFILE=//p' "$file" | tail -n 1)
        if [[ $current != "$profile" ]]; then
            say "kept $file (NSDEVICE_PROFILE=${current:-unset}); edit it to change the profile"
        fi
        return
    fi
    install -d -m 0755 "$(dirname "$file")"
    cat >"$file" <<EOF
# Settings for nsdevice.service; read at every start (systemctl restart nsdevice).
# NSDEVICE_PROFILE: a name from /etc/nsdevice/profiles, or a path to a .toml file.
NSDEVICE_PROFILE=$profile
# NSDEVICE_OPTIONS: more options for nsdevice run, e.g. --voice --language de
NSDEVICE_OPTIONS=
EOF
    chmod 0644 "$file"
    say "wrote $file with NSDEVICE_PROFILE=$profile"
}

install_unit() {
    local units=$root/etc/systemd/system
    install -d -m 0755 "$units" "$root/opt/nsdevice" "$root/opt/nsdevice/releases"
    install -m 0644 "$source_dir/systemd/$SERVICE" "$units/$SERVICE"
    install -m 0644 "$source_dir/hardware/README.md" "$root/opt/nsdevice/README.md"
    say "installed $units/$SERVICE"
    # The unit runs the box optimized (PYTHONOPTIMIZE=2) and it cannot write bytecode:
    # apt's hook gives the system's modules their level-2 bytecode after each change.
    install -d -m 0755 "$root/usr/local/lib/nsdevice" "$root/etc/apt/apt.conf.d"
    install -m 0755 "$source_dir/systemd/optimized-bytecode" \
        "$root/usr/local/lib/nsdevice/optimized-bytecode"
    install -m 0644 "$source_dir/systemd/80nsdevice-bytecode" \
        "$root/etc/apt/apt.conf.d/80nsdevice-bytecode"
}

# Bytecode for the optimized service, compiled once here (the image build compiles it
# natively itself, --venv-ready): the release at both levels (a command run by hand is
# not optimized), level 2 without column positions (decision 0011), and the system's
# modules at level 2 (`optimized-bytecode`).
compile_bytecode() {
    local venv
    venv=/opt/nsdevice/releases/$(release_version)
    "$venv/bin/python" -m compileall -q -j 0 -o 0 "$venv" >/dev/null || true
    PYTHONNODEBUGRANGES=1 "$venv/bin/python" -m compileall -q -j 0 -o 2 "$venv" >/dev/null || true
    /usr/local/lib/nsdevice/optimized-bytecode
    say "compiled the bytecode the optimized service reads"
}

# The appliance's pieces (the SD image): the first boot, the box's own Wi-Fi, the dispatcher
# that tells the box while it is up, and the settings file the card carries.
install_appliance() {
    local units=$root/etc/systemd/system unit
    for unit in "${APPLIANCE_UNITS[@]}"; do
        install -m 0644 "$source_dir/systemd/$unit" "$units/$unit"
        say "installed $units/$unit"
    done
    install -d -m 0755 "$root/usr/local/lib/nsdevice" "$root/etc/NetworkManager/dispatcher.d"
    install -m 0755 "$source_dir/systemd/hotspot" "$root/usr/local/lib/nsdevice/hotspot"
    install -m 0755 "$source_dir/systemd/90-nsdevice-hotspot" \
        "$root/etc/NetworkManager/dispatcher.d/90-nsdevice-hotspot"
    install -d -m 0755 "$root/boot/firmware"
    if [[ ! -e $root/boot/firmware/nsdevice.toml ]]; then
        install -m 0644 "$source_dir/image/nsdevice.toml" "$root/boot/firmware/nsdevice.toml"
        say "added $root/boot/firmware/nsdevice.toml (the card's settings)"
    fi
}

# Enable without a running systemd: systemctl works on the files alone (--root); where
# there is no systemctl, make the link it would make, given WantedBy=multi-user.target.
enable_offline() {
    local target=${root:-/} unit
    for unit in "$@"; do
        if command -v systemctl >/dev/null && systemctl --root="$target" enable --quiet "$unit"; then
            continue
        fi
        install -d -m 0755 "$root/etc/systemd/system/multi-user.target.wants"
        ln -sfn "/etc/systemd/system/$unit" "$root/etc/systemd/system/multi-user.target.wants/$unit"
    done
}

enable_and_start() {
    local units=("$SERVICE")
    if [[ $appliance == yes ]]; then units+=("${APPLIANCE_UNITS[@]}"); fi
    if [[ $dry == yes ]]; then
        enable_offline "${units[@]}"
        say "enabled ${units[*]} under $root"
        return
    fi
    if ! systemd_is_running; then
        enable_offline "${units[@]}"
        say "enabled ${units[*]}; no systemd is running here (an image build?): they start at the next boot"
        return
    fi
    systemctl daemon-reload
    systemctl enable --quiet "${units[@]}"
    say "enabled ${units[*]}"
    if [[ $start == yes ]]; then
        # Forget earlier failed starts, or the start limit may refuse this one.
        systemctl reset-failed "$SERVICE" 2>/dev/null || true
        systemctl restart "$SERVICE"
        say "started $SERVICE (journalctl -u nsdevice -f to follow it)"
    fi
}

warn_if_spi_off() {
    if profile_has_panel && [[ ! -e /dev/spidev0.1 ]]; then
        say "warning: no /dev/spidev0.1: enable SPI (raspi-config nonint do_spi 0) and reboot"
    fi
}

if [[ $dry == no ]]; then
    ensure_user
    build_venv
fi
install_profiles
write_defaults
install_unit
if [[ $dry == no && $venv_ready == no ]]; then compile_bytecode; fi
if [[ $appliance == yes ]]; then install_appliance; fi
enable_and_start
if [[ $dry == no ]] && systemd_is_running; then
    warn_if_spi_off  # an image's devices appear only when it boots
fi

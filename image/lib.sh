# The image build's parts, sourced by image/build.sh (bash). The pure ones (the package
# list, the partition table, config.txt, cmdline.txt, fstab) only print text, so the
# tests read them without building anything (tests/test_image_build.py).

readonly SUITE=bookworm
readonly ARCH=arm64
readonly IMAGE_MiB=1800          # the raw image: under 2 GiB, a 2 GB card takes it
readonly FIRMWARE_MiB=256        # the FAT partition Debian mounts at /boot/firmware
readonly STATE_MiB=128           # /var/lib/nsdevice: the saved game and the history
readonly ROOT_LABEL=NSROOT
readonly STATE_LABEL=NSSTATE
readonly FIRMWARE_LABEL=NSBOOT

# Debian's packages in the root tree, one a line (the cache key is their hash).
base_packages() {
    cat <<'PACKAGES'
linux-image-arm64
initramfs-tools
raspi-firmware
firmware-brcm80211
wireless-regdb
systemd-sysv
systemd-timesyncd
udev
dbus
kmod
iproute2
e2fsprogs
dosfstools
fake-hwclock
ca-certificates
network-manager
wpasupplicant
openssh-server
python3
python3-venv
python3-spidev
PACKAGES
}

# The initramfs holds only what mounts the root (MODULES=list): Debian's default
# (MODULES=most) copies most of the kernel's modules, over 40 minutes under qemu-user on
# a loaded 2-core machine; this list takes about 4. The rest load from the root.
initramfs_modules() {
    cat <<'MODULES'
# nsdevice image: the modules that mount the root on the SD card of every 64-bit Pi
# (Zero 2 W, 3, 4, 400) and of QEMU's raspi3b; everything else loads from the root.
sdhci-iproc
bcm2835
mmc_block
ext4
crc32c_generic
raspberrypi
clk-raspberrypi
reset-raspberrypi
gpio-raspberrypi-exp
raspberrypi-power
MODULES
}

# One "deb ..." line per apt source for the suite, from NSDEVICE_DEBIAN_MIRROR /
# NSDEVICE_DEBIAN_SECURITY or the machine's own apt sources (deb822 or one-line).
debian_mirror() {
    local kind=$1 # debian | security
    local wanted=$SUITE
    [[ $kind == security ]] && wanted=$SUITE-security
    local apt=${NSDEVICE_APT_DIR:-/etc/apt}
    local files=()
    [[ -e $apt/sources.list ]] && files+=("$apt/sources.list")
    local f
    for f in "$apt"/sources.list.d/*.list "$apt"/sources.list.d/*.sources; do
        [[ -e $f ]] && files+=("$f")
    done
    ((${#files[@]})) || return 0
    awk -v wanted="$wanted" '
        # deb822 stanzas: URIs + Suites
        /^[[:space:]]*$/ { if (uri != "" && has) print uri; uri = ""; has = 0; next }
        /^URIs:/ { uri = $2 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == wanted) has = 1 }
        # one-line form
        /^deb[[:space:]]/ { u = $2; s = $3; if ($2 ~ /^\[/) { u = $3; s = $4 } if (s == wanted) print u }
        END { if (uri != "" && has) print uri }
    ' "${files[@]}" | head -n 1
}

mirror_lines() {
    local debian=${NSDEVICE_DEBIAN_MIRROR:-$(debian_mirror debian)}
    local security=${NSDEVICE_DEBIAN_SECURITY:-$(debian_mirror security)}
    [[ -n $debian ]] || die "no Debian mirror for $SUITE in /etc/apt/sources.list(.d); set NSDEVICE_DEBIAN_MIRROR"
    echo "deb $debian $SUITE main non-free-firmware"
    echo "deb $debian $SUITE-updates main non-free-firmware"
    if [[ -n $security ]]; then
        echo "deb $security $SUITE-security main non-free-firmware"
    fi
}

# What a fresh machine of this kind lacks (it has Python): install from Debian.
ensure_host_tools() {
    local missing=() pair
    for pair in mmdebstrap:mmdebstrap sfdisk:fdisk mkfs.vfat:dosfstools mcopy:mtools \
        mke2fs:e2fsprogs xz:xz-utils qemu-aarch64-static:qemu-user-static \
        update-binfmts:binfmt-support qemu-system-aarch64:qemu-system-arm \
        dtc:device-tree-compiler fdtput:device-tree-compiler; do
        command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    done
    ((${#missing[@]})) || return 0
    say "installing ${missing[*]}"
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        $(printf '%s\n' "${missing[@]}" | sort -u) >&2
}

ensure_binfmt() {
    if ! update-binfmts --display qemu-aarch64 2>/dev/null | grep -q 'qemu-aarch64 (enabled)'; then
        update-binfmts --enable qemu-aarch64 >&2 || die "cannot enable qemu-aarch64 in binfmt_misc"
    fi
}

base_key() {
    { echo "$SUITE $ARCH minbase main,non-free-firmware v2"; base_packages; initramfs_modules; } |
        sha256sum | cut -c1-16
}

# The Debian tree as a tar, cached by its package list. One mkinitramfs instead of the
# two dpkg would run (each minutes under qemu-user): update-initramfs is diverted to a
# no-op while packages install, then run once at the end.
build_base() {
    local cache=$1 key tarball
    key=$(base_key)
    tarball=$cache/base-$SUITE-$ARCH-$key.tar
    if [[ -s $tarball ]]; then
        echo "$tarball"
        return
    fi
    install -d -m 0755 "$cache"
    local mirrors modules=$cache/initramfs-modules
    mirrors=$(mirror_lines)
    initramfs_modules >"$modules"
    say "building the Debian base tree ($SUITE $ARCH, key $key): slow the first time"
    local start=$SECONDS
    mmdebstrap --arch="$ARCH" --variant=minbase --components=main,non-free-firmware \
        --include="$(base_packages | paste -sd, -)" \
        --dpkgopt=force-unsafe-io --format=tar \
        --aptopt='APT::Install-Recommends "false"' \
        --setup-hook='mkdir -p "$1/boot/firmware"' \
        --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs' \
        --essential-hook='printf "#!/bin/sh\nexit 0\n" >"$1/usr/sbin/update-initramfs"; chmod 0755 "$1/usr/sbin/update-initramfs"' \
        --customize-hook='rm -f "$1/usr/sbin/update-initramfs"; chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs' \
        --customize-hook="upload $modules /etc/initramfs-tools/modules" \
        --customize-hook='sed -i "s/^MODULES=.*/MODULES=list/" "$1/etc/initramfs-tools/initramfs.conf"' \
        --customize-hook='chroot "$1" update-initramfs -c -k all' \
        "$SUITE" "$tarball.part" - <<<"$mirrors" >&2
    mv "$tarball.part" "$tarball"
    say "base tree built in $((SECONDS - start)) s"
    echo "$tarball"
}

# --- the pure parts: text only, read by the tests ----------------------------------------

# Sizes in MiB of the three partitions, in order: firmware (FAT), root, state.
partition_sizes() {
    echo "$FIRMWARE_MiB $((IMAGE_MiB - 1 - FIRMWARE_MiB - STATE_MiB)) $STATE_MiB"
}

# sfdisk's script for the card: a DOS label (the Pi's boot ROM reads only MBR), the FAT
# first (type c, where the firmware looks), then the root, then the state at the end.
partition_table() {
    local firmware root state
    read -r firmware root state <<<"$(partition_sizes)"
    local mib=2048 # sectors of 512 bytes in a MiB
    cat <<TABLE
label: dos
label-id: 0x4e534456
unit: sectors

start=$((1 * mib)), size=$((firmware * mib)), type=c, bootable
start=$(((1 + firmware) * mib)), size=$((root * mib)), type=83
start=$(((1 + firmware + root) * mib)), size=$((state * mib)), type=83
TABLE
}

# The Raspberry Pi firmware's settings, appended by Debian's raspi-firmware to the
# config.txt it writes (so a kernel update keeps them).
config_txt_custom() {
    cat <<'CONFIG'
# nsdevice: the Display HAT Mini's panel is on SPI0 (chip select 1). Debian's kernel
# boots with the upstream device trees, which have no spi=on switch (the dtparam is for
# Raspberry Pi's own): the overlay switches SPI0 on there (image/nsdevice-spi.dts).
dtparam=spi=on
dtoverlay=nsdevice-spi
# No rainbow square, no boot delay: the box's picture comes up sooner.
disable_splash=1
boot_delay=0
CONFIG
}

# The kernel's command line on the card (Debian's raspi-firmware writes cmdline.txt
# from its settings: ROOTPART, CONSOLES and raspi-extra-cmdline).
cmdline_extra() {
    echo "rootfstype=ext4 fsck.repair=yes quiet"
}

fstab() {
    cat <<FSTAB
# The root, the firmware partition and the box's state, each found by its label.
LABEL=$ROOT_LABEL / ext4 defaults,noatime,commit=30 0 1
LABEL=$FIRMWARE_LABEL /boot/firmware vfat defaults,noatime,umask=0022,flush,nofail,x-systemd.device-timeout=5min 0 2
# The saved game and the history on their own file system: the only place written
# during a game, so a pulled plug can at worst cost the last write there, never the
# system. nofail: a damaged partition never stops the boot in a rescue shell; 5 minutes
# for the device to show: a loaded emulator's udev takes over systemd's default 90 s.
LABEL=$STATE_LABEL /var/lib/nsdevice ext4 defaults,noatime,nofail,x-systemd.device-timeout=5min 0 2
FSTAB
}

journald_conf() {
    cat <<'JOURNALD'
# nsdevice image: the journal lives in RAM only. An SD card wears out under logs, and a
# pulled plug must not leave a half-written journal behind.
[Journal]
Storage=volatile
RuntimeMaxUse=16M
JOURNALD
}

# sshd starts only when first boot enabled it (a public key was given); it makes its
# host keys then, so no two cards share them.
# Should first boot turn SSH on (a public key was given), only keys open it.
sshd_config() {
    cat <<'SSHD'
# nsdevice image: keys only. No account has a password anyway; this says so twice.
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
SSHD
}

ssh_keys_dropin() {
    cat <<'DROPIN'
[Service]
ExecStartPre=/usr/bin/ssh-keygen -A
DROPIN
}

# --- the build ----------------------------------------------------------------------------

project_version() {
    python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' \
        "$1/pyproject.toml"
}

# The project's Python dependencies for the Pi: aarch64 wheels only (nothing compiles
# under qemu), fetched on this machine with its own pip settings and kept in the cache,
# keyed by the requirements, so a rebuild needs no network and gets the same wheels.
# pip inside the chroot then installs from that folder alone (PIP_NO_INDEX); install.sh
# builds the project itself there from the checkout.
fetch_wheels() {
    local cache=$1 source=$2 pyver=$3
    local plain pi key
    plain=$(python3 "$here/wheel_requires.py" "$source/pyproject.toml") || return 1
    pi=$(python3 "$here/wheel_requires.py" "$source/pyproject.toml" pi) || return 1
    key=$({ echo "$pyver aarch64 v1"; echo "$plain"; echo "$pi"; } | sha256sum | cut -c1-16)
    local dest=$cache/wheels-$key
    if [[ -d $dest ]]; then
        echo "$dest"
        return
    fi
    local tools=$cache/host-venv
    [[ -x $tools/bin/pip ]] || python3 -m venv "$tools" >&2
    local platform
    read -ra platform <<<"$(aarch64_wheels "$pyver")"
    rm -rf "$dest.part"
    # The build back end too: install.sh builds the project offline in the chroot.
    "$tools/bin/pip" download --quiet --dest "$dest.part" "${platform[@]}" $plain "setuptools>=70.1" >&2 ||
        return 1
    # The Pi extra (the panel library) without spidev, which has no wheel: Debian's
    # python3-spidev stands in for it (the venv sees system packages, as install.sh
    # makes it).
    "$tools/bin/pip" download --quiet --dest "$dest.part" "${platform[@]}" --no-deps $pi >&2 || return 1
    local wheel requires
    for wheel in "$dest.part"/*.whl; do
        requires+=" $(python3 "$here/wheel_requires.py" "$wheel" | grep -v '^spidev' || true)"
    done
    "$tools/bin/pip" download --quiet --dest "$dest.part" "${platform[@]}" $requires >&2 || return 1
    mv "$dest.part" "$dest"
    echo "$dest"
}

with_mounts() { # TREE COMMAND...: run with /proc, /sys and /dev inside the tree
    local tree=$1
    shift
    mount -t proc proc "$tree/proc"
    mount -t sysfs sysfs "$tree/sys"
    mount --bind /dev "$tree/dev"
    local status=0
    "$@" || status=$?
    umount "$tree/dev" "$tree/sys" "$tree/proc"
    return $status
}

# pip's options for installing aarch64 wheels on this machine (fetch_wheels, fill_release).
aarch64_wheels() {
    local pyver=$1
    echo --only-binary=:all: --implementation cp --python-version "$pyver" \
        --platform manylinux2014_aarch64 --platform manylinux_2_28_aarch64 \
        --platform manylinux_2_34_aarch64 --platform linux_aarch64
}

# The release venv filled on this machine, not by pip under qemu-user (minutes on a
# loaded machine): the tree's own Python makes the venv (one start under qemu, no pip
# in it: `nsdevice update` makes each new release's venv with pip itself); the project's
# wheel is built here (pure Python); this machine's pip puts the aarch64 wheels' files
# into the venv's site-packages (--target with the Pi's platform tags) and the console
# script gets the venv's Python.
fill_release() {
    local tree=$1 wheels=$2 source=$3 pyver=$4 cache=$5 work=$6
    local release tools=$cache/host-venv
    release=/opt/nsdevice/releases/$(project_version "$source")
    [[ -x $tools/bin/pip ]] || python3 -m venv "$tools" >&2
    # setuptools from the fetched wheels (70.1 builds wheels itself): offline
    "$tools/bin/pip" install --quiet --no-index --find-links "$wheels" "setuptools>=70.1" >&2
    install -d "$work/source" "$work/project"
    tar -C "$source" --exclude=.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build -cf - . |
        tar -C "$work/source" -xf -
    "$tools/bin/pip" wheel --quiet --no-deps --no-build-isolation --no-index \
        --wheel-dir "$work/project" "$work/source" >&2
    rm -rf "$work/source"
    chroot "$tree" /usr/bin/python3 -m venv --without-pip --system-site-packages "$release" >&2
    local site=$tree$release/lib/python$pyver/site-packages
    # The project and the Pi extra's requirements but spidev (Debian's stands in),
    # resolved as pip in the tree would (the cache also holds wheels `pip download` took
    # for older Pythons' markers); then the panel library itself without its spidev.
    local panel pi_requires
    panel=$(ls "$wheels"/st7789-*.whl)
    pi_requires=$(python3 "$here/wheel_requires.py" "$panel" | grep -v '^spidev' || true)
    # shellcheck disable=SC2046,SC2086 # the options and requirements are words
    "$tools/bin/pip" install --quiet --no-index --find-links "$wheels" --no-compile \
        --disable-pip-version-check $(aarch64_wheels "$pyver") --target "$site" \
        "$work"/project/*.whl $pi_requires >&2
    # shellcheck disable=SC2046
    "$tools/bin/pip" install --quiet --no-index --no-deps --no-compile --disable-pip-version-check \
        $(aarch64_wheels "$pyver") --target "$site" "$panel" >&2
    local script
    for script in "$site"/bin/*; do
        sed "1s|^#!.*|#!$release/bin/python|" "$script" >"$tree$release/bin/${script##*/}"
        chmod 0755 "$tree$release/bin/${script##*/}"
    done
    rm -rf "$site/bin"
}

install_project() {
    local tree=$1 wheels=$2 source=$3 pyver=$4 cache=$5 work=$6
    fill_release "$tree" "$wheels" "$source" "$pyver" "$cache" "$work"
    install -d "$tree/tmp/nsdevice-src"
    tar -C "$source" --exclude=.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build -cf - . |
        tar -C "$tree/tmp/nsdevice-src" -xf -
    # install.sh as on a box (in a chroot, no systemd running: it enables offline): the
    # user, its groups, the profiles, the units, `current`; the venv is filled already.
    with_mounts "$tree" chroot "$tree" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 /tmp/nsdevice-src/systemd/install.sh --no-start --appliance \
        --venv-ready >&2
    rm -rf "$tree/tmp/nsdevice-src"
    # Bytecode compiled here, natively (the same Python 3.11 bytecode the Pi runs), not
    # by pip under qemu-user: minutes less. The service cannot write to /opt, so without
    # it every start would compile again. SOURCE_DATE_EPOCH makes them checked-hash pycs.
    # The service runs optimized (PYTHONOPTIMIZE=2): the release at both levels (a command
    # run by hand is not), and the system's modules at level 2 with timestamps, as apt's
    # hook compiles them again after a change of packages (systemd/optimized-bytecode);
    # level 2 without column positions (PYTHONNODEBUGRANGES=1, decision 0011).
    local python system
    python=$(ls -d "$tree"/usr/bin/python3.* | grep -E 'python3\.[0-9]+$' | head -n 1)
    system=("$tree/usr/lib/${python##*/}" "$tree/usr/lib/python3/dist-packages")
    if [[ $(python3 -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")') == "${python##*/}" ]]; then
        python3 -m compileall -q -j 0 -o 0 -s "$tree" -p / "$tree/opt/nsdevice" >&2 || true
        PYTHONNODEBUGRANGES=1 python3 -m compileall -q -j 0 -o 2 -s "$tree" -p / \
            "$tree/opt/nsdevice" >&2 || true
        PYTHONNODEBUGRANGES=1 python3 -m compileall -q -j 0 -o 2 --invalidation-mode timestamp \
            -s "$tree" -p / "${system[@]}" >&2 || true
    else
        say "this machine's Python is not ${python##*/}: the bytecode is compiled under qemu"
        with_mounts "$tree" chroot "$tree" "/usr/bin/${python##*/}" -m compileall -q -o 0 /opt/nsdevice >&2 || true
        with_mounts "$tree" chroot "$tree" /usr/bin/env PYTHONNODEBUGRANGES=1 \
            "/usr/bin/${python##*/}" -m compileall -q -o 2 /opt/nsdevice >&2 || true
        with_mounts "$tree" chroot "$tree" /usr/local/lib/nsdevice/optimized-bytecode >&2 || true
    fi
}

configure_tree() {
    local tree=$1 source=$2
    fstab >"$tree/etc/fstab"
    install -d "$tree/etc/systemd/journald.conf.d" "$tree/etc/systemd/system/ssh.service.d" \
        "$tree/var/lib/nsdevice"
    journald_conf >"$tree/etc/systemd/journald.conf.d/nsdevice.conf"
    ssh_keys_dropin >"$tree/etc/systemd/system/ssh.service.d/nsdevice-host-keys.conf"
    install -d "$tree/etc/ssh/sshd_config.d"
    sshd_config >"$tree/etc/ssh/sshd_config.d/nsdevice.conf"
    echo nsdevice >"$tree/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tnsdevice\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
        >"$tree/etc/hosts"
    # Debian's raspi-firmware writes config.txt and cmdline.txt from these (at every
    # kernel update too), so the settings survive on the box.
    {
        echo "ROOTPART=LABEL=$ROOT_LABEL"
        echo 'CONSOLES="serial0,115200 tty1"'
    } >>"$tree/etc/default/raspi-firmware"
    config_txt_custom >"$tree/etc/default/raspi-firmware-custom"
    cmdline_extra >"$tree/etc/default/raspi-extra-cmdline"
    # SSH: installed, off; first boot enables it only with a key, and it makes host keys
    # then (none are baked into the image, or every card would share them).
    rm -f "$tree"/etc/ssh/ssh_host_*
    chroot "$tree" systemctl disable --quiet ssh.service ssh.socket 2>/dev/null || true
    # No login on the screen: the box's picture is there, and no account has a password.
    chroot "$tree" systemctl mask --quiet getty@tty1.service
    # Every account locked: no password works (docs/image.md, the security check).
    chroot "$tree" sh -c 'for user in $(cut -d: -f1 /etc/shadow); do usermod --lock "$user" >/dev/null 2>&1 || true; done'
    chroot "$tree" passwd --lock root >/dev/null
    # Settings a card writer edits: nsdevice.toml on the FAT partition (the appliance's
    # first boot reads it), where there is one in this checkout.
    if [[ -e $source/image/nsdevice.toml ]]; then
        install -m 0644 "$source/image/nsdevice.toml" "$tree/boot/firmware/nsdevice.toml"
    fi
    # Each card gets its own machine id at first boot; no host's apt lists or logs.
    : >"$tree/etc/machine-id"
    rm -f "$tree/var/lib/dbus/machine-id" "$tree/etc/resolv.conf"
    # apt's downloaded .deb files too, should the base tree keep any
    rm -rf "$tree"/var/lib/apt/lists/* "$tree"/var/cache/apt/*.bin "$tree"/var/log/*.log \
        "$tree"/var/cache/apt/archives/*.deb "$tree"/var/cache/apt/archives/partial/* \
        "$tree"/tmp/* "$tree"/var/tmp/*
    # The firmware files again, from the settings above (Debian's own hook).
    # (/proc mounted: the hook checks that it runs in a chroot, or wants /boot/firmware mounted)
    with_mounts "$tree" chroot "$tree" /etc/initramfs/post-update.d/z50-raspi-firmware >&2
    install -d "$tree/boot/firmware/overlays"
    dtc -@ -q -I dts -O dtb -o "$tree/boot/firmware/overlays/nsdevice-spi.dtbo" "$here/nsdevice-spi.dts"
}

kernel_version() {
    local kernel
    kernel=$(ls "$1"/boot/vmlinuz-* | sort -V | tail -n 1)
    echo "${kernel##*/vmlinuz-}"
}

# The manifest: every file of the image with its size and sha256, then every Debian
# package and Python distribution with its version. Same inputs, same manifest.
write_manifest() {
    local tree=$1 manifest=$2 name=$3
    {
        echo "# $name: files (path size sha256), Debian packages, Python distributions"
        echo "[files]"
        python3 "$here/manifest.py" "$tree"
        echo "[debian]"
        chroot "$tree" dpkg-query -W -f='${Package} ${Version}\n' | LC_ALL=C sort
        echo "[python]"
        # read here from the release's site-packages (its venv has no pip to ask)
        python3 -c 'import importlib.metadata as m, sys
for d in m.distributions(path=sys.argv[1:]): print(d.metadata["Name"] + "==" + d.version)' \
            "$tree"/opt/nsdevice/releases/*/lib/python3*/site-packages | LC_ALL=C sort -f
    } >"$manifest"
}

# The card: FAT from /boot/firmware, ext4 root from the rest, an empty ext4 state.
assemble() {
    local tree=$1 image=$2 work=$3
    local firmware root state
    read -r firmware root state <<<"$(partition_sizes)"
    rm -f "$image"
    truncate -s "${IMAGE_MiB}M" "$image"
    partition_table | sfdisk --quiet "$image" >&2
    # FAT: a fixed volume id and the files' own times, so two builds match.
    mkfs.vfat -F 32 -n "$FIRMWARE_LABEL" -i 4e534456 -C "$work/firmware.img" $((firmware * 1024)) >/dev/null
    (cd "$tree/boot/firmware" && mcopy -s -p -m -i "$work/firmware.img" ./* ::/)
    # The root without the firmware files (they live on the FAT) and without the state.
    mv "$tree/boot/firmware" "$work/firmware-files"
    install -d "$tree/boot/firmware"
    E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH mke2fs -q -t ext4 -L "$ROOT_LABEL" \
        -U 6e736476-0000-4000-8000-000000000001 -E hash_seed=6e736476-0000-4000-8000-000000000002 \
        -d "$tree" "$work/root.img" "${root}M" >&2
    E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH mke2fs -q -t ext4 -L "$STATE_LABEL" \
        -U 6e736476-0000-4000-8000-000000000003 -E hash_seed=6e736476-0000-4000-8000-000000000004 \
        "$work/state.img" "${state}M" >&2
    rmdir "$tree/boot/firmware"
    mv "$work/firmware-files" "$tree/boot/firmware"
    dd if="$work/firmware.img" of="$image" bs=1M seek=1 conv=notrunc,sparse status=none
    dd if="$work/root.img" of="$image" bs=1M seek=$((1 + firmware)) conv=notrunc,sparse status=none
    dd if="$work/state.img" of="$image" bs=1M seek=$((1 + firmware + root)) conv=notrunc,sparse status=none
    rm -f "$work/firmware.img" "$work/root.img" "$work/state.img"
}

build_image() {
    local base=$1 out=$2 keep_tree=$3 cache=$4 source=$5
    local version name work tree start=$SECONDS
    version=$(project_version "$source")
    name=nsdevice-$version-$ARCH
    install -d "$out"
    out=$(cd "$out" && pwd)
    work=$(mktemp -d "${TMPDIR:-/var/tmp}/nsdevice-image.XXXXXX")
    # Gone however the build ends; --one-file-system: never into a mount left in the tree.
    trap "rm -rf --one-file-system '$work'" EXIT
    tree=$work/tree
    install -d "$tree"
    tar -C "$tree" --numeric-owner -xpf "$base"
    say "base tree unpacked ($((SECONDS - start)) s)"
    local pyver
    pyver=$(chroot "$tree" python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    local wheels
    wheels=$(fetch_wheels "$cache" "$source" "$pyver") || die "could not fetch the aarch64 wheels"
    say "wheels ready ($((SECONDS - start)) s)"
    install_project "$tree" "$wheels" "$source" "$pyver" "$cache" "$work"
    say "project installed ($((SECONDS - start)) s)"
    configure_tree "$tree" "$source"
    write_manifest "$tree" "$out/$name.manifest" "$name"
    assemble "$tree" "$work/$name.img" "$work"
    say "image assembled ($((SECONDS - start)) s)"
    rm -f "$out/$name.img.xz"
    # -0: the fastest level; the image is mostly free blocks and compressed files
    xz -T0 -0 --stdout "$work/$name.img" >"$out/$name.img.xz.part"
    mv "$out/$name.img.xz.part" "$out/$name.img.xz"
    say "raw $(stat -c %s "$work/$name.img") bytes, xz $(stat -c %s "$out/$name.img.xz") bytes ($((SECONDS - start)) s)"
    if [[ $keep_tree == yes ]]; then
        rm -rf "$out/tree"
        mv "$tree" "$out/tree"
    fi
    rm -rf "$work"
    echo "$out/$name.img.xz"
}

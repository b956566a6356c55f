#!/usr/bin/env python3
"""Make a signed release bundle for `nsdevice update` (docs/appliance.md, "Releasing").

Usage: python tools/sign_release.py --key PATH --out FILE [--extras pi] WHEEL [WHEEL ...]

The wheels are everything the release installs on the box, offline: the project's own
(`pip wheel --no-deps -w wheels .`) and each dependency's for the Pi (aarch64, the box's
Python), e.g. `pip download --only-binary=:all: --platform manylinux2014_aarch64
--python-version 3.11 -d wheels '.[pi]'`. The version is read from the project's wheel.

The key is the release key's private half (PEM, Ed25519), kept outside this repository
(an offline machine, a hardware token's export, a CI secret): only its public half,
nsdevice/appliance/release-key.pub, is shipped and checked by every box. To make a key
pair for a fork: `openssl genpkey -algorithm ed25519 -out release.pem` and
`openssl pkey -in release.pem -pubout -out nsdevice/appliance/release-key.pub`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from nsdevice.appliance.bundle import make_bundle

WHEEL_NAME = re.compile(r"nsdevice-([0-9][0-9A-Za-z.+]*)-py3-none-any\.whl")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--key", required=True, type=Path, help="the release key (PEM)")
    parser.add_argument("--out", required=True, type=Path, help="the bundle to write")
    parser.add_argument("--extras", default="", help='extras to install, e.g. "pi"')
    parser.add_argument("wheels", nargs="+", type=Path)
    args = parser.parse_args(argv)
    versions = [m.group(1) for w in args.wheels if (m := WHEEL_NAME.fullmatch(w.name))]
    if len(versions) != 1:
        print("sign_release: give exactly one nsdevice wheel among the wheels", file=sys.stderr)
        return 2
    try:
        make_bundle(args.out, versions[0], args.wheels, args.key.read_bytes(), args.extras)
    except (OSError, ValueError) as error:
        print(f"sign_release: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: nsdevice {versions[0]}, {len(args.wheels)} wheel(s), signed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

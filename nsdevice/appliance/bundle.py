"""A release bundle: the wheels of one release, and a signature that says it is ours.

A bundle is a tar file of three members:

- `bundle.json`: `{"format": 1, "version": "0.2.0", "requirement": "nsdevice[pi]==0.2.0",
  "payload_sha256": "…"}`;
- `bundle.json.sig`: the Ed25519 signature of `bundle.json`'s bytes by the release key;
- `payload.tar`: `wheels/*.whl`, everything the release installs, offline.

The signature covers the small description, and the description the payload's SHA-256,
so a bundle of any size is checked while it is read once, never held in memory.

Why Ed25519 through `cryptography`: small keys and signatures, no parameters to get
wrong, deterministic signing; `cryptography` is the library Python's ecosystem uses for
it, in Debian (python3-cryptography) and with wheels for the Pi's aarch64. It is imported
only here, when a bundle is made or checked: the box itself never loads it.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nsdevice.rules.frozen import dataclass

FORMAT = 1
DESCRIPTION = "bundle.json"
SIGNATURE = "bundle.json.sig"
PAYLOAD = "payload.tar"
DESCRIPTION_LIMIT = 65_536
PAYLOAD_LIMIT = 1 << 30  # bytes: a release's wheels are tens of megabytes
VERSION = re.compile(r"[0-9][0-9A-Za-z.+-]{0,39}")
REQUIREMENT = re.compile(r"nsdevice(\[[a-z,]+\])?==([0-9][0-9A-Za-z.+-]{0,39})")
RELEASE_KEY = Path(__file__).with_name("release-key.pub")  # the project's, public half only


class BundleRefused(ValueError):
    """Not a bundle signed by the release key, or damaged: nothing was installed."""


@dataclass(frozen=True, slots=True)
class Release:
    version: str
    requirement: str  # what pip installs from the bundle's wheels
    wheels: tuple[Path, ...]


def make_bundle(
    out: Path, version: str, wheels: Sequence[Path], private_key: bytes, extras: str = ""
) -> Path:
    """Write a bundle of `wheels` signed with `private_key` (PEM, Ed25519) to `out`.
    `extras`: e.g. "pi" for the Display HAT Mini's driver."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    if not VERSION.fullmatch(version):
        raise ValueError(f"not a release version: {version!r}")
    key = load_pem_private_key(private_key, password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError("the release key must be an Ed25519 key")
    payload = io.BytesIO()
    with tarfile.open(fileobj=payload, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for wheel in sorted(wheels):
            tar.add(wheel, arcname=f"wheels/{wheel.name}", filter=_plain_member)
    data = payload.getvalue()
    requirement = f"nsdevice[{extras}]=={version}" if extras else f"nsdevice=={version}"
    description = json.dumps(
        {
            "format": FORMAT,
            "version": version,
            "requirement": requirement,
            "payload_sha256": hashlib.sha256(data).hexdigest(),
        },
        indent=1,
    ).encode("utf-8")
    with tarfile.open(out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, content in (
            (DESCRIPTION, description),
            (SIGNATURE, key.sign(description)),
            (PAYLOAD, data),
        ):
            member = tarfile.TarInfo(name)
            member.size, member.mode = len(content), 0o644
            tar.addfile(member, io.BytesIO(content))
    return out


def _plain_member(member: tarfile.TarInfo) -> tarfile.TarInfo:
    member.uid = member.gid = 0
    member.uname = member.gname = ""
    member.mtime = 0
    return member


def open_bundle(path: Path, into: Path, public_key: bytes) -> Release:
    """Check the bundle at `path` against `public_key` (PEM) and unpack its wheels into
    `into`; `BundleRefused` (one line, why) for anything that is not a release we signed."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    try:
        key = load_pem_public_key(public_key)
    except ValueError:
        raise BundleRefused("the release key is not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise BundleRefused("the release key shipped with this box is not an Ed25519 key")
    try:
        with tarfile.open(path, mode="r:") as tar:
            description = _member(tar, DESCRIPTION, DESCRIPTION_LIMIT)
            signature = _member(tar, SIGNATURE, 64)
            try:
                key.verify(signature, description)
            except InvalidSignature:
                raise BundleRefused("not signed by the nsdevice release key") from None
            facts = _description(description)
            payload = tar.getmember(PAYLOAD) if PAYLOAD in tar.getnames() else None
            if payload is None or not payload.isfile() or payload.size > PAYLOAD_LIMIT:
                raise BundleRefused("its payload is missing or too large")
            stream = tar.extractfile(payload)
            assert stream is not None  # a regular file, checked above
            into.mkdir(parents=True, exist_ok=True)
            copy = into / PAYLOAD
            digest = hashlib.sha256()
            with copy.open("wb") as file:
                while chunk := stream.read(1 << 20):
                    digest.update(chunk)
                    file.write(chunk)
            if digest.hexdigest() != facts["payload_sha256"]:
                raise BundleRefused("its payload was altered after it was signed")
    except (tarfile.TarError, OSError, EOFError) as error:
        raise BundleRefused(f"not a release bundle ({error})") from None
    wheels = _unpack_wheels(into / PAYLOAD, into / "wheels")
    (into / PAYLOAD).unlink()
    return Release(facts["version"], facts["requirement"], wheels)


def _member(tar: tarfile.TarFile, name: str, limit: int) -> bytes:
    try:
        member = tar.getmember(name)
    except KeyError:
        raise BundleRefused(f"no {name}: not a signed release bundle") from None
    if not member.isfile() or member.size > limit:
        raise BundleRefused(f"{name} is not a small file")
    stream = tar.extractfile(member)
    assert stream is not None
    return stream.read(limit)


def _description(data: bytes) -> dict[str, Any]:
    """The signed description, checked (signed is not the same as well-formed)."""
    try:
        facts = json.loads(data)
    except ValueError:
        raise BundleRefused("its description is not JSON") from None
    if not isinstance(facts, dict) or facts.get("format") != FORMAT:
        raise BundleRefused("a bundle format this box does not know")
    version, requirement = facts.get("version"), facts.get("requirement")
    digest = facts.get("payload_sha256")
    match = REQUIREMENT.fullmatch(requirement) if isinstance(requirement, str) else None
    if not (isinstance(version, str) and VERSION.fullmatch(version) and match
            and match.group(2) == version and isinstance(digest, str)
            and re.fullmatch(r"[0-9a-f]{64}", digest)):  # fmt: skip
        raise BundleRefused("its description is incomplete")
    return facts


def _unpack_wheels(payload: Path, into: Path) -> tuple[Path, ...]:
    """Only `wheels/NAME.whl` regular files, by their plain names: nothing lands elsewhere."""
    into.mkdir(parents=True, exist_ok=True)
    wheels: list[Path] = []
    with tarfile.open(payload, mode="r:") as tar:
        for member in tar.getmembers():
            folder, _, name = member.name.partition("/")
            if not (member.isfile() and folder == "wheels" and name.endswith(".whl")
                    and re.fullmatch(r"[A-Za-z0-9_.+-]+", name)):  # fmt: skip
                raise BundleRefused(f"its payload holds {member.name!r}, not only wheels")
            stream = tar.extractfile(member)
            assert stream is not None
            target = into / name
            with target.open("wb") as file:
                while chunk := stream.read(1 << 20):
                    file.write(chunk)
            wheels.append(target)
    if not wheels:
        raise BundleRefused("its payload holds no wheels")
    return tuple(wheels)

"""No package registry's host name anywhere in the repository (house rule): a tool that
needs a mirror reads it from the machine's own configuration (apt sources, pip's index),
and a document names the project, not the registry's address.

The names are put together here from their parts, so that this file holds none of them."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The registries' hosts, label by label: PyPI and its file host, Debian's archive and
# security mirrors (any ftp.XX country mirror too), npm's registry and site.
HOSTS = (
    ("pypi", "org"),
    ("pypi", "python", "org"),
    ("test", "pypi", "org"),
    ("files", "python" "hosted", "org"),  # split: `grep -ri` over the repository finds
    ("python" "hosted", "org"),  # nothing here either (issue 32's check)
    ("deb", "debian", "org"),
    ("security", "debian", "org"),
    ("ftp", "debian", "org"),
    ("httpredir", "debian", "org"),
    ("archive", "debian", "org"),
    ("snapshot", "debian", "org"),
    ("registry", "npm" "js", "org"),
    ("npm" "js", "com"),
    ("registry", "yarnpkg", "com"),
)
COUNTRY_MIRROR = re.compile(r"\bftp\.[a-z]{2}\." + r"\.".join(("debian", "org")) + r"\b", re.I)
HOST = re.compile(
    r"(?<![\w.-])(?:" + "|".join(r"\.".join(map(re.escape, labels)) for labels in HOSTS) + r")\b",
    re.IGNORECASE,
)

# Files left out of the check while another change rewrites them (none now: the tools
# that need a Debian mirror read it from the machine's apt sources, tools/debian-mirror).
PENDING: set[str] = set()


def tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


SECOND_LEVEL = {labels[-2].encode() for labels in HOSTS}
BYTES = re.compile(HOST.pattern.encode(), re.IGNORECASE)
COUNTRY_BYTES = re.compile(COUNTRY_MIRROR.pattern.encode(), re.IGNORECASE)


def hosts_in(text: str) -> list[str]:
    return [match.group(0) for match in (*HOST.finditer(text), *COUNTRY_MIRROR.finditer(text))]


def hosts_in_file(path: Path) -> list[str]:
    """Any file, pictures and archives too: the bytes are searched as they are."""
    data = path.read_bytes().lower()
    if not any(label in data for label in SECOND_LEVEL):  # most files: one quick look
        return []
    found = (*BYTES.finditer(data), *COUNTRY_BYTES.finditer(data))
    return [match.group(0).decode("ascii", errors="replace") for match in found]


def test_no_registry_host_name_in_any_file() -> None:
    found: list[str] = []
    files = tracked_files()
    assert len(files) > 100
    for path in files:
        if not path.is_file() or path.relative_to(ROOT).as_posix() in PENDING:
            continue
        found += [f"{path.relative_to(ROOT)}: {host}" for host in hosts_in_file(path)]
    assert found == [], "write the project's name, or read the mirror from the machine"


def test_the_host_pattern_finds_each_registry() -> None:
    dot = "."
    for labels in HOSTS:
        host = dot.join(labels)
        assert hosts_in(f"see https://{host}/simple") == [host]
    mirror = dot.join(("ftp", "fr", "debian", "org"))
    assert hosts_in(f"deb http://{mirror}/debian bookworm main") == [mirror]
    assert hosts_in("notpypi" + dot + "organ and nsdevice.local are fine") == []

"""No link in the repository's Markdown leaves the repository, and none is broken.

A link is whatever Markdown renders as `href` or `src` (links, images, reference links, raw
HTML), never an address written in a code span. Every link is relative: it names a file
that exists inside the clone (and, with `#anchor`, a heading of that file). A link with a
scheme (`https:`, `mailto:`) leaves the repository and fails, and so does a path climbing
out of the clone (`../shared/…`): a reader with only the clone, or only the built site,
must be able to follow every one. A project outside is named in prose instead.

Headings' anchors are made the way Git forges make them (lower case, punctuation dropped,
spaces to hyphens), the same function the docs site uses (mkdocs.yml), so an anchor that
works on one works on the other."""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
from pymdownx.slugs import slugify

from tests.markdown_pages import markdown_files

ROOT = Path(__file__).resolve().parent.parent
# Folders that are not the repository's own writing: tools' output, environments, caches.


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.targets.append(value)
            if name in ("id", "name") and value:
                self.ids.add(value)


def render(path: Path) -> Links:
    html = markdown.markdown(
        path.read_text(encoding="utf-8"),
        extensions=["tables", "fenced_code", "toc"],
        extension_configs={"toc": {"slugify": slugify(case="lower")}},
    )
    links = Links()
    links.feed(html)
    return links




def problems(path: Path, anchors: dict[Path, set[str]], root: Path = ROOT) -> list[str]:
    found: list[str] = []
    for target in render(path).targets:
        parts = urlsplit(target)
        if parts.scheme or parts.netloc:
            found.append(f"leaves the repository: {target}")
            continue
        where = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        if not where.is_relative_to(root):
            found.append(f"climbs out of the clone: {target}")
        elif not where.exists():
            found.append(f"no such file: {target}")
        elif parts.fragment and where.suffix == ".md":
            if where not in anchors:
                anchors[where] = render(where).ids
            if parts.fragment not in anchors[where]:
                found.append(f"no heading for #{parts.fragment} in {where.relative_to(root)}")
    return [f"{path.relative_to(root)}: {problem}" for problem in found]


def test_no_link_leaves_the_repository_and_none_is_broken() -> None:
    files = list(markdown_files())
    assert ROOT / "README.md" in files and ROOT / "docs" / "rules.md" in files
    anchors: dict[Path, set[str]] = {}
    found = [problem for path in files for problem in problems(path, anchors)]
    assert found == []


def test_the_link_check_catches_each_kind(tmp_path: Path) -> None:
    """The checker on a page with one link of each kind it must refuse, and fine ones."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n\n## Every city\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# A page\n\n## Its part\n\n[ok](rules.md) [ok](#its-part) [ok](rules.md#every-city)\n"
        "`https://in.a.code.span/` is no link.\n\n"
        "[out](https://example.invalid/) [mail](mailto:someone@example.invalid) "
        "[up](../../outside.md) [gone](nothing-here.md) [anchor](rules.md#no-such-part) "
        '<img src="//example.invalid/x.png">\n',
        encoding="utf-8",
    )
    found = problems(page, {}, root=tmp_path)
    assert [problem.split(": ", 1)[1] for problem in found] == [
        "leaves the repository: https://example.invalid/",
        "leaves the repository: mailto:someone@example.invalid",
        "climbs out of the clone: ../../outside.md",
        "no such file: nothing-here.md",
        "no heading for #no-such-part in docs/rules.md",
        "leaves the repository: //example.invalid/x.png",
    ]

"""The docs site is the repository's own Markdown, laid out as in the repository.

MkDocs reads only its `docs_dir`; this hook hands it the README, the changelog and the
pages under docs/, hardware/ and firmware/ at their places in the clone instead, so that
every relative link works the same on a Git forge, in a clone and on the built site, and
the build's own link and anchor checks (`mkdocs build --strict`) cover them all. Named in
mkdocs.yml (`hooks:`)."""

from collections.abc import Iterator
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
PLACES = ("README.md", "CHANGELOG.md", "docs", "hardware", "firmware")
KINDS = {".md", ".png", ".svg", ".jpg"}


def sources() -> Iterator[Path]:
    for place in PLACES:
        top = ROOT / place
        found = [top] if top.is_file() else sorted(top.rglob("*"))
        yield from (path for path in found if path.is_file() and path.suffix in KINDS)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    docs = Path(config.docs_dir).resolve()
    theirs = [  # the theme's own files stay; docs/ comes back below, rooted at the clone
        file for file in files
        if file.abs_src_path is None or not Path(file.abs_src_path).resolve().is_relative_to(docs)
    ]
    ours = [
        File(path.relative_to(ROOT).as_posix(), str(ROOT), config.site_dir,
             config.use_directory_urls)
        for path in sources()
    ]
    return Files([*theirs, *ours])

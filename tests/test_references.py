"""What the code cites, a reader of the repository has.

Comments, docstrings, templates and scripts send a reader to docs/rules.md by a heading
(``docs/rules.md, "Sitting out"``, several as ``"Drawing", "Swapping the lowest trump" and
"Sleeping"``) or by its anchor (``docs/rules.md#sitting-out``, the app's
``/rules/#sitting-out``), to README.md or one of the documents it leads to (docs/using.md,
docs/api.md, docs/export.md, docs/development.md, docs/deploy.md, docs/games.md) by a
heading (or the bold title of a list item), or to the OpenAPI schema. A heading cited stays
on one line, so that it can be checked. The documents' own links (``[...](docs/using.md#the-
evenings-card)``, a picture's ``src``) lead to a file of the repository and a heading of it.
The specification's own files, which the repository does not hold, are never cited: their
names are ``NAMES`` below.

Runs without Django (``pytest tests/test_references.py -p no:django``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent

#: The folders whose files must cite nothing the repository lacks.
FOLDERS = ("scorepad", "referee", "templates", "static", "tests", "bench", "docs")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".json", ".md", ".sh", ".toml", ".cfg"}

#: The documents whose headings are checked where they are cited: the README and the documents
#: it leads to.
DOCUMENTS = ["README.md", "docs/rules.md", "docs/using.md", "docs/api.md", "docs/export.md",
             "docs/development.md", "docs/deploy.md", "docs/games.md", "bench/README.md"]
#: (not inside a longer path: bench/README.md is not the README)
_DOC = r"(?<![\w/.-])(?:" + "|".join(re.escape(d) for d in DOCUMENTS) + ")"

#: The specification's files: not in the repository, so never cited.
NAMES = re.compile(r"\b(?:RULES|NOTES|API)\.md\b")

#: A cited heading: the quoted text after the document's name (a comma between them or not),
#: and further quoted headings after a comma, "and" or "to", across a comment's line breaks.
_NEXT = r'(?:,|\s+and|\s+to)(?:\s*(?:#:?|\*)?\s*)"([^"\n]+)"'
_CITATION = re.compile(
    rf'(?P<doc>{_DOC}),?\s+\(?"(?P<first>[^"\n]+)"'
    rf"(?P<more>(?:{_NEXT})*)")
_ANCHOR = re.compile(r"(?:docs/rules\.md|/rules/)#([a-z0-9-]+)")
#: A citation whose (last) heading goes on past the end of its line.
_BROKEN = re.compile(
    rf'{_DOC},?\s+\(?"(?:[^"\n]*"(?:,|\s+and|\s+to)?'
    r'\s*(?:#:?)?\s*")*[^"\n]*$', flags=re.MULTILINE)


def project_files() -> list[Path]:
    files: list[Path] = []
    for folder in FOLDERS:
        for path in sorted((PROJECT / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                files.append(path)
    return files


def headings(document: str, *, items: bool = False) -> set[str]:
    """A markdown document's headings (any level), outside fenced code; with ``items``, the
    bold titles that open list items too (``- **Account recovery** (...)``)."""
    found: set[str] = set()
    fenced = False
    for line in (PROJECT / document).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (
            (match := re.match(r"^#{1,6} (.+)$", line))
            or (items and (match := re.match(r"^\s*- \*\*(.+?)\*\*", line)))
        ):
            found.add(match.group(1).strip())
    return found


def anchor(heading: str) -> str:
    """GitHub's anchor of a plain ASCII heading, as ``scorepad.rulesdoc.slug`` makes it."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


def citations() -> list[tuple[str, str, str]]:
    """Every (file, document, heading) cited by heading in the project's files."""
    found: list[tuple[str, str, str]] = []
    for path in project_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in _CITATION.finditer(text):
            cited = [match["first"], *re.findall(_NEXT, match["more"])]
            found += [(str(path.relative_to(PROJECT)), match["doc"], h) for h in cited]
    return found


def test_no_file_cites_the_specifications_files_that_the_repository_lacks():
    cited = [
        f"{path.relative_to(PROJECT)}:{number}: {line.strip()}"
        for path in project_files()
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1)
        if NAMES.search(line)
    ]
    assert cited == []


def test_the_reader_of_citations_finds_one_heading_and_a_list_of_them():
    assert _CITATION.search('see docs/rules.md, "Sitting out".')["first"] == "Sitting out"
    match = _CITATION.search('(docs/rules.md, "Drawing", "Swapping the lowest trump" and\n'
                             '    #: "Sleeping")')
    assert re.findall(_NEXT, match["more"]) == ["Swapping the lowest trump", "Sleeping"]


def test_the_code_cites_docs_rules_md_by_heading_somewhere():
    assert {h for _path, doc, h in citations() if doc == "docs/rules.md"} >= {
        "Sitting out", "Knocks and collapses", "First lead", "The second-life pile"}


def test_every_document_checked_is_a_file_of_the_repository():
    assert [d for d in DOCUMENTS if not (PROJECT / d).is_file()] == []


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_heading_cited_is_a_heading_of_its_document(document):
    # docs/rules.md is cited by its headings alone: each has a stable anchor.
    known = headings(document, items=document != "docs/rules.md")
    wrong = sorted({f"{path}: {h!r}" for path, doc, h in citations()
                    if doc == document and h not in known})
    assert wrong == []


def test_no_heading_cited_is_broken_across_two_lines():
    broken = [f"{path.relative_to(PROJECT)}: {match.group(0).strip()}"
              for path in project_files()
              for match in _BROKEN.finditer(path.read_text(encoding="utf-8", errors="replace"))]
    assert broken == []


def test_every_rules_anchor_cited_is_the_anchor_of_a_heading():
    known = {anchor(h) for h in headings("docs/rules.md")}
    wrong = sorted({f"{path.relative_to(PROJECT)}: #{name}" for path in project_files()
                    for name in _ANCHOR.findall(path.read_text(encoding="utf-8",
                                                               errors="replace"))
                    if name not in known})
    assert wrong == []


def test_every_rules_heading_cited_keeps_a_stable_anchor_listed_at_the_top():
    # docs/rules.md lists its anchors between <!-- anchors --> markers; the /rules/ page and
    # GitHub both make them from the headings, so a heading cited is a link that holds.
    text = (PROJECT / "docs/rules.md").read_text(encoding="utf-8")
    listed = re.search(r"<!-- anchors -->(.*?)<!-- /anchors -->", text, flags=re.DOTALL)
    assert listed
    anchors = set(re.findall(r"\]\(#([a-z0-9-]+)\)", listed.group(1)))
    cited = {h for _path, doc, h in citations() if doc == "docs/rules.md"}
    assert sorted(h for h in cited if anchor(h) not in anchors) == []


def github_anchor(heading: str) -> str:
    """The anchor GitHub makes of any heading: lower case, punctuation dropped (letters of
    any script kept), each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def links(document: str) -> list[str]:
    """The relative targets of a markdown document's links and pictures, outside code."""
    text = re.sub(r"```.*?```|`[^`\n]*`", "", (PROJECT / document).read_text(encoding="utf-8"),
                  flags=re.DOTALL)
    found = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'src="([^"]+)"', text)
    return [t for t in found if not re.match(r"[a-z]+:", t)]


def test_the_readme_leads_to_every_document_of_docs():
    assert sorted({d for d in DOCUMENTS if d != "README.md"} - set(links("README.md"))) == []


@pytest.mark.parametrize("document", ["README.md", "bench/README.md", *sorted(
    f"docs/{p.name}" for p in (PROJECT / "docs").glob("*.md"))])
def test_every_link_of_a_document_leads_to_a_file_and_a_heading_of_it(document):
    wrong = []
    for target in links(document):
        path, _, fragment = target.partition("#")
        file = (PROJECT / document).parent / path if path else PROJECT / document
        if not file.resolve().is_file() or fragment and file.suffix == ".md" and fragment not in {
                github_anchor(h) for h in headings(str(file.resolve().relative_to(PROJECT)))}:
            wrong.append(target)
    assert wrong == []


def test_the_readme_is_a_page_a_newcomer_reads_with_the_two_commands_near_its_top():
    lines = (PROJECT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    top = "\n".join(lines[:20])
    assert "make run " in top and "make test " in top
    targets = re.findall(r"^([a-z-]+):", (PROJECT / "Makefile").read_text(encoding="utf-8"),
                         flags=re.MULTILINE)
    assert {"run", "test"} <= set(targets)

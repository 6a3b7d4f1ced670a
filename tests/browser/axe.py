"""axe-core, Deque's accessibility engine, on the pages the browser tests visit (issue 33:
Lighthouse's accessibility stays at 100; Lighthouse runs axe-core's rules too). The engine
comes with the test dependencies (axe-playwright-python ships axe-core's axe.min.js), never
from a CDN, and is put into the page by Playwright, past the page's content security
policy, as a browser extension would be."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

#: The rules: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

#: Judged with the page scrolled to its end, where a sticky bar (the deal form's Save) rests
#: in its place: scrolled elsewhere it stands over the form's taps, as any sticky bar does
#: over what scrolls under it, and axe-core's target-size counts them as obscured there.
RUN = """async (tags) => {
  const y = window.scrollY;
  window.scrollTo(0, document.documentElement.scrollHeight);
  let found;
  try {
    found = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                     resultTypes: ["violations"]});
  } finally {
    window.scrollTo(0, y);
  }
  return found.violations.map(v => v.id + " (" + v.impact + "): " + v.help + " — " +
    v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " +
                                 n.failureSummary.replace(/\\s+/g, " ")).join(" | "));
}"""


@cache
def engine() -> str:
    from axe_playwright_python.base import AXE_FILE_PATH

    return Path(AXE_FILE_PATH).read_text(encoding="utf-8")


def violations(page: Any) -> list[str]:
    """What axe-core finds on the page as it is now (one line per rule broken)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(engine())
    return list(page.evaluate(RUN, TAGS))


def accessible(page: Any, state: str = "") -> None:
    """The page as it is now breaks no rule (``state``: what the test did, for the
    failure's message)."""
    found = violations(page)
    assert found == [], f"{state or page.url}:\n" + "\n".join(found)

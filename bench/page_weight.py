"""Page weight and time-to-usable on a phone with a slow CPU.

    .venv/bin/python bench/page_weight.py [--throttle 4]

gunicorn + whitenoise (collectstatic: hashed, compressed files) with production settings;
Debian's chromium through Playwright at a 360 × 740 phone viewport, the CPU slowed
``--throttle`` times (CDP Emulation.setCPUThrottlingRate), cold cache. For the session
page of a 200-deal session (scoreboard + deal form), the deal form alone (edit a deal),
and the anonymous home page (no database content; the "static" yardstick) it prints the
bytes transferred (compressed, headers included) with and without htmx, the requests,
and the milliseconds until the DOM is ready, the load event, and the first button works.
Targets: the session page under 30 KB without htmx, under 50 KB with it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common as c  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
TARGET_WITHOUT_HTMX = 30 * 1024
TARGET_WITH_HTMX = 50 * 1024


def visit(browser: Any, url: str, cookie: tuple[str, str] | None, base: str,
          throttle: float, ready: str, again: bool = False) -> dict[str, Any]:
    """One visit with a cold cache; ``again``: the page opened once before in the same
    browser (its HTTP cache and the service worker warm), and what the second visit costs."""
    # the return visit without the service worker: what it fetches is not the page's
    # (Network events), so the HTTP cache alone is measured (the worker can only save more)
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="en-GB",
                                  service_workers="block" if again else "allow")
    if cookie:
        context.add_cookies([{"name": cookie[0], "value": cookie[1], "url": base}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": not again})
    if again:  # the first visit, everything it loads when idle, the service worker
        page.goto(url, wait_until="networkidle")
        page.wait_for_timeout(2000)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    urls: dict[str, str] = {}
    sizes: dict[str, int] = {}
    encodings: dict[str, str] = {}

    def response(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["response"]["url"]
        headers = {k.lower(): v for k, v in event["response"]["headers"].items()}
        encodings[event["requestId"]] = headers.get("content-encoding", "")

    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
    sizes.clear()
    t0 = time.perf_counter()
    page.goto(url, wait_until="load")
    page.locator(ready).first.wait_for(state="visible")
    usable_ms = (time.perf_counter() - t0) * 1000
    timing = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return [n.domContentLoadedEventEnd, n.loadEventEnd]; }")
    page.wait_for_load_state("networkidle")  # what loads when the page is idle counts too
    page.wait_for_timeout(300)  # let late responses finish
    files = [(urls.get(rid, "?"), size, encodings.get(rid, "")) for rid, size in sizes.items()]
    context.close()
    total = sum(size for _u, size, _e in files)
    htmx = sum(size for u, size, _e in files if "htmx" in u)
    return {"total": total, "without_htmx": total - htmx, "requests": len(files),
            "dom_ms": timing[0], "load_ms": timing[1], "usable_ms": usable_ms,
            "files": files}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--throttle", type=float, default=4)
    parser.add_argument("--verbose", action="store_true", help="list every file")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit("no chromium: apt-get install -y chromium")
    c.setup_django()
    seeded = c.seed_session(200, "pw")
    name, value = seeded.cookie.split("=", 1)
    from playwright.sync_api import sync_playwright

    with c.gunicorn() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        sid = seeded.session.pk
        pages = [
            ("home page, anonymous (static)", f"{base}/", None,
             "main a:visible, main button:visible"),
            ("session page, 200 deals", f"{base}/sessions/{sid}/", (name, value),
             "#deal-form button:visible"),
            ("deal form (edit a deal)", f"{base}/sessions/{sid}/deals/200/edit",
             (name, value), "form button:visible"),
        ]
        visit(browser, pages[0][1], None, base, 1, pages[0][3])  # warm up the server
        results = [(label, visit(browser, url, cookie, base, args.throttle, ready))
                   for label, url, cookie, ready in pages]
        label, url, cookie, ready = pages[1]
        results.append(("session page, return visit",
                        visit(browser, url, cookie, base, args.throttle, ready, again=True)))
        browser.close()

    print(f"phone 360×740, CPU throttled {args.throttle:g}×, cold cache; bytes on the wire "
          f"(compressed, with headers)")
    print(f"{'':<32}{'KB':>8}{'KB w/o htmx':>13}{'requests':>10}{'DOM ms':>9}"
          f"{'load ms':>9}{'usable ms':>11}")
    for label, r in results:
        print(f"{label:<32}{r['total'] / 1024:8.1f}{r['without_htmx'] / 1024:13.1f}"
              f"{r['requests']:>10}{r['dom_ms']:9.0f}{r['load_ms']:9.0f}{r['usable_ms']:11.0f}")
        if args.verbose:
            for url, size, encoding in r["files"]:
                print(f"    {size:>7} B  {encoding or '-':<5} {url.replace(base, '')}")
    session = results[1][1]
    ok = session["without_htmx"] < TARGET_WITHOUT_HTMX and session["total"] < TARGET_WITH_HTMX
    print(f"session page: {session['without_htmx'] / 1024:.1f} KB without htmx (target < 30), "
          f"{session['total'] / 1024:.1f} KB with it (target < 50): "
          f"{'met' if ok else 'MISSED'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

"""The README's picture (the session page on a phone) and the two of docs/using.md,
"A tournament evening" (the screen and the seating plan), made again on demand:

    .venv/bin/python docs/screenshots.py                        # every picture, in German
    .venv/bin/python docs/screenshots.py --lang en --only session   # the README's

It migrates a throwaway SQLite database in a temporary folder, seeds a Stammtisch's
evening there (four players, five deals) and a prize evening (twelve players at a pub,
three rounds of six deals at three tables: two rounds closed, the third under way), serves
them with ``manage.py runserver`` (as ``make run`` does) and photographs, with Playwright
and /usr/bin/chromium, the session page on a 360 px phone, the public screen at 1920×1080
and the open round's seating plan as printed on A4. Each picture is kept small (fewer
colours with Pillow when needed): the phone's under 80 KB, the others under ~150 KB.
Nothing outside the temporary folder and docs/img/ is touched.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "screenshots-only-pass"
LIMIT = 150_000  # bytes per picture
PHONE_LIMIT = 80_000  # the README's picture
#: The phone the README's picture is taken on (CSS pixels), and its pixels per CSS pixel.
PHONE = {"width": 360, "height": 740}
PHONE_SCALE = 1.5
#: How many of the scripted evening's deals the Stammtisch has played.
TABLE_DEALS = 5

PLAYERS = ["Anna Huber", "Bert Maier", "Cilli Wimmer", "Franz Eder", "Gerti Moser",
           "Hans Pichler", "Josef Leitner", "Lisi Brandstätter", "Maria Aigner",
           "Otto Reiter", "Resi Hofer", "Sepp Gruber"]
DEALS = 6


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _deals() -> list[dict[str, Any]]:
    """Legal Salzburg deals for four seats named 0..3, seat 3 dealing first (the browser
    tests' scripted evening, tests/browser/evening.py, by seat)."""
    sys.path.insert(0, str(ROOT))
    from tests.browser.evening import EVENING, FIRST_DEALER, SEATS

    shift = SEATS.index(FIRST_DEALER) - 3

    def seat(name: str) -> int:
        return (SEATS.index(name) - shift) % 4

    out = []
    for deal in EVENING:
        deal = dict(deal)
        if "declarer" in deal:
            deal["declarer"] = seat(deal["declarer"])
            deal["tricks"] = {seat(n): t for n, t in deal["tricks"].items()}
            deal["stayed_home"] = [seat(n) for n in deal["stayed_home"]]
        out.append(deal)
    return out


def _named(deal: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """A deal by seat number as the table's names (seat 3 is the table's first dealer)."""
    deal = dict(deal)
    if "declarer" in deal:
        deal["declarer"] = order[deal["declarer"]]
        deal["tricks"] = {order[s]: t for s, t in deal["tricks"].items()}
        deal["stayed_home"] = [order[s] for s in deal["stayed_home"]]
    return deal


def _table(director: Any) -> int:
    """A Stammtisch's Salzburg evening, the first deals of the browser tests' script
    played: the session the README shows."""
    from scorepad import services
    from tests.browser.evening import EVENING, FIRST_DEALER, SEATS

    session = services.session_start(
        group_name="Stammtisch Mondsee", user=director, preset="salzburg", seats=SEATS,
        dealer=FIRST_DEALER, name="Kirtag")
    names = services.Names.of(session)
    for deal in EVENING[:TABLE_DEALS]:
        services.deal_record(session=session, user=director, data=names.deal_ids(deal))
    return int(session.pk)


def seed() -> dict[str, Any]:
    """The evenings in the database DATABASE_URL names (Django set up by the caller)."""
    import random

    from django.contrib.auth import get_user_model

    from scorepad import games, rosters, services
    from scorepad.tournaments import services as tour

    game = [g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][0]
    director = get_user_model().objects.create_user(username="wirtin", password=PASSWORD)
    stammtisch = _table(director)
    group = rosters.group_create(user=director, name="Gasthaus zur Post")
    made = tour.tournament_create(
        group=group, user=director, name="Preis-Mulatschak", game=game, preset="salzburg",
        rounds=3, round_ends="deals", deals_per_round=DEALS, table_size=4,
        scoring="placement", draw="random")
    for name in PLAYERS:
        tour.entrant_register(tournament=made, name=name)
    rng = random.Random(28)
    script = _deals()
    for number, played in ((1, [DEALS] * 3), (2, [DEALS] * 3), (3, [DEALS, 3, 1])):
        drawn = tour.round_draw(tournament=made, user=director, rng=rng)
        for table, count in zip(drawn.tables.order_by("number"), played, strict=True):
            session = table.session
            seats = [s.player.name for s in session.seats.order_by("position")]
            dealer = seats.index(session.first_dealer.name)
            order = [seats[(dealer + 1 + i) % 4] for i in range(4)]  # seat 3 deals first
            start = (number + table.number) % (len(script) - DEALS + 1)
            names = services.Names.of(session)
            for deal in script[start:start + count]:
                services.deal_record(session=session, user=director,
                                     data=names.deal_ids(_named(deal, order)))
        if number < 3:
            tour.round_close(tournament=made, number=number)
    return {"tournament": made.pk, "token": made.screen_token, "session": stammtisch}


def _small(path: Path, limit: int = LIMIT) -> None:
    """Keep a picture under ``limit`` bytes with fewer colours."""
    from PIL import Image

    if path.stat().st_size <= limit:
        return
    image = Image.open(path).convert("RGB")
    for colours in (256, 128, 64):
        image.quantize(colours, dither=Image.Dither.NONE).save(path, optimize=True)
        if path.stat().st_size <= limit:
            return
    raise SystemExit(f"{path.name} stays over {limit} bytes")


#: The address the pictures show (mapped to the local server inside the browser).
HOST = "schreiber.example"
#: A4 at 96 CSS pixels an inch: the sheet, and the area inside the print margins (12 mm).
A4 = (794, 1123)
MARGIN = 45
SCALE = 1.5


def _on_a4(path: Path) -> None:
    """The printable area's picture on a white A4 sheet with its margins."""
    from PIL import Image

    area = Image.open(path).convert("RGB")
    sheet = Image.new("RGB", (round(A4[0] * SCALE), round(A4[1] * SCALE)), "white")
    inner = round((A4[1] - 2 * MARGIN) * SCALE)
    sheet.paste(area.crop((0, 0, area.width, min(area.height, inner))),
                (round(MARGIN * SCALE), round(MARGIN * SCALE)))
    sheet.save(path, optimize=True)


def _log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "wirtin")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button.primary").click()
    page.wait_for_url(base + "/")


def shoot_session(browser: Any, base: str, seeded: dict[str, Any], locale: str) -> Path:
    """The session page as the phone that keeps the score sees it when it opens: the
    scores, who deals next, the entry panel (with the page's light scheme)."""
    path = OUT / "session.png"
    phone = browser.new_context(viewport=PHONE, device_scale_factor=PHONE_SCALE,
                                is_mobile=True, has_touch=True, locale=locale,
                                color_scheme="light").new_page()
    _log_in(phone, base)
    phone.goto(f"{base}/sessions/{seeded['session']}/")
    phone.locator("#entry").wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(path))
    phone.context.close()
    _small(path, PHONE_LIMIT)
    return path


def shoot(port: int, seeded: dict[str, Any], lang: str, only: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    base = f"http://{HOST}"
    locale = {"de": "de-AT", "en": "en-GB", "hu": "hu-HU"}[lang]
    screen_png, plan_png = OUT / "tournament-screen.png", OUT / "tournament-plan.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            f"--host-resolver-rules=MAP {HOST}:80 127.0.0.1:{port}"])
        made = [shoot_session(browser, base, seeded, locale)] if only != "tournament" else []
        if only == "session":
            browser.close()
            return made
        # the screen: 1920×1080 CSS pixels, photographed at 1280 px wide
        screen = browser.new_context(viewport={"width": 1920, "height": 1080},
                                     device_scale_factor=2 / 3, locale=locale).new_page()
        screen.goto(f"{base}/screen/{seeded['token']}/")
        screen.locator("#screen-live li.screen-table").first.wait_for()
        screen.screenshot(path=str(screen_png))
        # the seating plan as printed: the A4 sheet's printable width, print media
        width = A4[0] - 2 * MARGIN
        director = browser.new_context(viewport={"width": width, "height": A4[1]},
                                       device_scale_factor=SCALE, locale=locale).new_page()
        _log_in(director, base)
        director.emulate_media(media="print")
        director.goto(f"{base}/tournaments/{seeded['tournament']}/rounds/3/plan")
        director.locator(".plan-qr svg").first.wait_for()
        assert director.evaluate("document.documentElement.scrollWidth") <= width
        director.screenshot(path=str(plan_png), full_page=True)
        browser.close()
    _on_a4(plan_png)
    for path in (screen_png, plan_png):
        _small(path)
    return [*made, screen_png, plan_png]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("de", "en", "hu"), default="de")
    parser.add_argument("--only", choices=("all", "session", "tournament"), default="all",
                        help="the README's session page, or the tournament's two pictures")
    args = parser.parse_args()
    lang, only = args.lang, args.only
    with tempfile.TemporaryDirectory(prefix="schreiber-shots-") as folder:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
               "DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "scorepad.settings",
               "DJANGO_ALLOWED_HOSTS": f"{HOST},localhost,127.0.0.1"}
        env.pop("CACHE_URL", None)
        python = sys.executable
        subprocess.run([python, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                       env=env, check=True)
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_DEBUG",
                                                "DJANGO_SETTINGS_MODULE")})
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        seeded = seed()
        port = _free_port()
        server = subprocess.Popen([python, "manage.py", "runserver", f"127.0.0.1:{port}",
                                   "--noreload"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/manifest.webmanifest",
                                           timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            for path in shoot(port, seeded, lang, only):
                print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1000} KB")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()

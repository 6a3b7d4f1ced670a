"""A prize evening in the browser: the director makes a tournament, registers eight
players at the door and draws; two table phones without an account open their tables by
the seating plan's address (its QR code's) and record their deals; the public screen
shows the live scores; the director closes the round, draws the second, the tables play,
the tournament ends. A second evening has every format: combined points, categories,
fees and prizes, results confirmed at the tables, and a final. Every figure on the
screen is compared with this test's own computation from the rules (the referee's
replay of each table's deals) and the tournament's scoring as docs/tournaments.md words
it (places shared as in sport, 3 × (n − k) / (n − 1) points or the score plus rank
points, sums with two places, ranking by points, score, wins; the final's order)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import expect

from referee.deal import deal_from_dict
from referee.rules import mulatschak_rules
from referee.session import replay
from scorepad import games
from scorepad.models import Session

from .phone import enter_deal, log_in, new_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anna", "Bert", "Cilli", "Dominik", "Erna", "Franz", "Gerti", "Hans"]
PRESET = "salzburg"
DEALS = 2
SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture
def brisk_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen asks for news every second instead of every 5: the evening waits for
    the screen after every deal, and what it checks is what the screen shows, not how often
    it asks (tests/scorepad test the interval the screen's parts name)."""
    from scorepad.views import tournaments

    monkeypatch.setattr(tournaments, "SCREEN_SECONDS", 1)
GAME = [g for g in games.for_tournaments() if games.get(g).TOURNAMENT.ends_with_game][0]


# --- this test's own computation ------------------------------------------------------------


def deals_for(seats: list[str], dealer: str) -> list[dict[str, Any]]:
    """Two deals, each declared by the player after its dealer (as at any table)."""
    d = seats.index(dealer)
    order = [seats[(d + 1 + i) % 4] for i in range(4)]  # who speaks first, second, ...
    first = {"kind": "played", "declarer": order[0], "bid": 2, "trump": "acorns",
             "tricks": dict(zip(order, (2, 1, 1, 1), strict=True)), "stayed_home": [],
             "knocked": False}
    after = order[1:] + order[:1]
    second = {"kind": "played", "declarer": after[0], "bid": 3, "trump": "hearts",
              "tricks": dict(zip(after, (3, 1, 1, 0), strict=True)), "stayed_home": [],
              "knocked": False}
    return [first, second]


def table_scores(seats: list[str], dealer: str, deals: list[dict[str, Any]]) -> dict[str, int]:
    """A round's score at a table: the start score minus the player's score."""
    rules = mulatschak_rules(PRESET)
    result = replay(rules, seats, dealer, [deal_from_dict(d) for d in deals])
    assert result.illegal is None
    return {p: rules.start_score - int(result.state.scores[p]) for p in seats}


def sport_places(values: dict[str, Any]) -> dict[str, int]:
    """1, 2, 2, 4: one more than the number of those strictly better."""
    return {p: 1 + sum(1 for q in values if values[q] > v) for p, v in values.items()}


def placement_points(scores: dict[str, int]) -> dict[str, Fraction]:
    n = len(scores)
    places = sport_places(scores)
    out = {}
    for p, k in places.items():
        sharing = sum(1 for q in places if places[q] == k)
        covered = [Fraction(3 * (n - j), n - 1) for j in range(k, k + sharing)]
        out[p] = sum(covered, Fraction(0)) / sharing
    return out


def two_places(value: Fraction) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def ranking(rounds: list[dict[str, int]]) -> list[tuple[int, str, str, str, int]]:
    """(place, name, points, score, wins) from each round's scores by player."""
    totals: dict[str, list[Any]] = {p: [Fraction(0), Fraction(0), 0] for p in PLAYERS}
    for scores in rounds:
        by_table: dict[int, dict[str, int]] = {}
        for name, (table, score) in scores.items():
            by_table.setdefault(table, {})[name] = score
        for table in by_table.values():
            points, places = placement_points(table), sport_places(table)
            for name, score in table.items():
                totals[name][0] += points[name]
                totals[name][1] += score
                totals[name][2] += places[name] == 1
    keys = {p: tuple(v) for p, v in totals.items()}
    places = sport_places(keys)
    lines = [(places[p], p, two_places(v[0]), two_places(v[1]), v[2]) for p, v in totals.items()]
    return sorted(lines, key=lambda line: (line[0], line[1]))


def test_the_sport_places_and_points_of_this_test():
    """The computation itself, on the contract's examples."""
    assert placement_points({"a": 9, "b": 5, "c": 3, "d": 1}) == {
        "a": 3, "b": 2, "c": 1, "d": 0}
    assert placement_points({"a": 9, "b": 5, "c": 5, "d": 1}) == {
        "a": 3, "b": Fraction(3, 2), "c": Fraction(3, 2), "d": 0}
    assert placement_points({"a": 3, "b": 2, "c": 1}) == {"a": 3, "b": Fraction(3, 2), "c": 0}
    assert sport_places({"a": 3, "b": 2, "c": 2, "d": 1}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert two_places(Fraction(9, 8)) == "1.13" and two_places(Fraction(-9, 8)) == "-1.13"


# --- the browser ----------------------------------------------------------------------------


def screen_ranking(screen: Any) -> list[tuple[int, str, str, str, int]]:
    rows = screen.locator("#screen-ranking table.ranking tbody tr").all()
    out = []
    for row in rows:
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        name = cells[1].split("#")[0].strip()
        out.append((int(cells[0].rstrip(".")), name, cells[2], cells[3], int(cells[4])))
    return sorted(out, key=lambda line: (line[0], line[1]))


def screen_tables(screen: Any) -> dict[int, dict[str, str]]:
    out = {}
    for item in screen.locator("#screen-live li.screen-table").all():
        number = int(item.locator("h3").inner_text().split()[1])
        seats = {}
        for seat in item.locator("ol.screen-seats li").all():
            name, score = seat.locator("span").all_inner_texts()
            seats[name.strip()] = score.strip().replace("−", "-")
        out[number] = seats
    return out




def draw(director: Any, number: int) -> None:
    """Draw round ``number``: round 1 asks first (the second tap draws)."""
    if number == 1:
        director.locator("details.confirm summary", has_text="Draw round 1").click()
        director.get_by_role("button", name="Yes, draw round 1").click()
    else:
        director.get_by_role("button", name=f"Draw round {number}").click()
    director.wait_for_selector("text=Seating plan (print)")


def end_the_tournament(director: Any) -> None:
    director.locator("details.confirm summary", has_text="End the tournament").click()
    director.get_by_role("button", name="Yes, end the tournament").click()
    director.wait_for_selector("text=Final ranking")


def make_tournament(director: Any, base: str, group: Any, name: str, **choices: str) -> str:
    """The director's form: the name, the game, the rules by name, and ``choices`` (a
    field's name: a radio's value or the text to type). The tournament's page."""
    director.goto(f"{base}/groups/{group.pk}/tournaments/")
    director.fill("input[name=name]", name)
    director.locator(f"input[name=game][value={GAME}] + label").click()
    director.locator(f"input[name=preset][value={PRESET}] + label").click()
    for field, value in choices.items():
        radio = director.locator(f"input[type=radio][name={field}][value='{value}']")
        if radio.count():
            director.locator(f"label[for={radio.get_attribute('id')}]").click()
        elif field.startswith("tiebreak_"):
            director.select_option(f"select[name={field}]", value)
        elif field == "confirm_results":
            director.check("input[name=confirm_results]")
        else:
            director.fill(f"input[name={field}]", value)
    director.get_by_role("button", name="Make the tournament").click()
    director.wait_for_selector("#register-name")
    return director.url.split("#")[0]


def banner_seats(page: Any) -> list[str]:
    return [t.split(": ", 1)[1] for t in page.locator(".table-phone-seats li").all_inner_texts()]


def play_round(browser: Any, base: str, director: Any, screen: Any, tournament_page: str,
               number: int) -> dict[str, tuple[int, int]]:
    """Draw round ``number``, play both tables on their own phones, check the screen live;
    the round's scores by name: (table, score)."""
    director.goto(tournament_page)
    draw(director, number)
    director.get_by_role("link", name="Seating plan (print)").click()
    links = director.locator("a[data-table-url]")
    assert links.count() == 2
    urls = [links.nth(i).get_attribute("href") for i in range(2)]
    assert all(u.startswith(base + "/t/") for u in urls)
    assert director.locator(".plan-qr svg").count() == 2
    scores: dict[str, tuple[int, int]] = {}
    for table_number, url in enumerate(urls, 1):
        phone = new_phone(browser)  # no login
        phone.goto(url)
        banner = phone.locator("[data-table-phone]")
        assert banner.get_attribute("data-table-phone") == str(table_number)
        assert f"Table {table_number} · Round {number}" in banner.inner_text()
        seats = banner_seats(phone)
        assert len(seats) == 4
        # nothing of the group on the table's phone
        phone.locator("details.menu summary").tap()
        assert phone.locator("details.menu nav a").count() == 0
        session_id = int(phone.url.rstrip("/").rsplit("/", 1)[1])
        dealer = Session.objects.get(pk=session_id).first_dealer.name
        deals = deals_for(seats, dealer)
        if number == 1 and table_number == 1:  # Undo on the table's phone, then again
            enter_deal(phone, seats, deals[0], 1)
            phone.locator("#entry #undo-last summary").tap()
            with phone.expect_navigation():
                phone.get_by_role("button", name="Delete deal 1").tap()
            expect(phone.locator(".messages")).to_contain_text("Deal 1 deleted")
            assert Session.objects.get(pk=session_id).deals.count() == 0
        for n, deal in enumerate(deals, 1):
            enter_deal(phone, seats, deal, n)
            expected = table_scores(seats, dealer, deals[:n])
            row = screen.locator(
                f"#screen-live li.screen-table:has(h3:text('Table {table_number}'))")
            expect(row.locator("h3 small")).to_have_text(
                "finished" if n == DEALS else f"{n} deal" + ("s" if n != 1 else ""),
                timeout=15_000)
            assert screen_tables(screen)[table_number] == {
                p: two_places(Fraction(v)) for p, v in expected.items()}
        assert phone.console_errors == []
        for name, score in table_scores(seats, dealer, deals).items():
            scores[name] = (table_number, score)
        phone.context.close()
    # the ranking part stands at the closed rounds while the tables play (before the first
    # is closed: the players, without places)
    done = number - 1
    expect(screen.locator("#screen-ranking h2 small")).to_have_text(
        f"after {done} round" + ("s" if done != 1 else "") if done
        else "the ranking follows the first closed round")
    director.goto(tournament_page)
    director.get_by_role("button", name="Close the round").click()
    director.wait_for_selector(f"text=Draw round {number + 1}" if number < 2
                               else "text=End the tournament")
    return scores


@pytest.mark.long(55)
def test_a_whole_evening_with_two_table_phones_and_the_screen(live_server, browser,
                                                             brisk_screen):
    from tests.scorepad.factories import group_with, user

    base = live_server.url
    anna = user("director")
    group = group_with(anna, "Gasthaus zur Post")
    director = new_phone(browser)
    log_in(director, base, "director")
    tournament_page = make_tournament(director, base, group, "Preis-Abend", rounds="2",
                                      round_ends="deals", deals_per_round=str(DEALS),
                                      table_size="4", scoring="placement")
    for name in PLAYERS:
        director.fill("#register-name", name)
        director.press("#register-name", "Enter")
        expect(director.locator("ol.list")).to_contain_text(name)
    screen_url = director.get_by_role("link", name="The screen (public)").get_attribute("href")

    screen = new_phone(browser, width=SCREEN["width"], height=SCREEN["height"])  # no login
    screen.goto(screen_url)
    assert screen.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]

    rounds = []
    for number in (1, 2):
        rounds.append(play_round(browser, base, director, screen, tournament_page, number))
        expected = ranking(rounds)
        if number == 1:
            # places differ, so the comparison below is a real check: each table's deals
            # give 3, 1.5, 1.5 and 0 points. (Round 2's sums depend on the random draw:
            # they can fall into two levels, 4.5 and 1.5, as one CI run met.)
            assert len({line[2] for line in expected}) == 3
        expect(screen.locator("#screen-ranking h2 small")).to_have_text(
            f"after {number} round" + ("s" if number > 1 else ""), timeout=15_000)
        assert screen_ranking(screen) == expected
        # the live part lists no table between rounds
        expect(screen.locator("#screen-live li.screen-table")).to_have_count(0)
    end_the_tournament(director)
    expect(screen.locator("#screen-ranking h2")).to_contain_text("Final ranking",
                                                                         timeout=15_000)
    assert screen_ranking(screen) == ranking(rounds)
    # the director's ranking says the same
    director.goto(tournament_page)
    lines = []
    for row in director.locator("table.ranking tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        lines.append((int(cells[0].rstrip(".")), cells[1].split("#")[0].strip(), cells[2],
                      cells[3], int(cells[4])))
    assert sorted(lines, key=lambda line: (line[0], line[1])) == ranking(rounds)
    assert screen.console_errors == [] and director.console_errors == []


def test_a_table_phone_keeps_deals_offline_and_its_round_ending_refuses_them_in_words(
        live_server, browser):
    """The offline queue on a table's phone: a deal kept offline arrives once; one kept
    while the director closes the round is refused with the words of the ended code, and
    nothing more is recorded."""
    from scorepad.models import Deal
    from scorepad.tournaments import services as tour
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.tournament_play import drawn, tournament

    from .phone import until
    from .test_offline import installed, outbox

    director = user("director")
    contest = tournament(group_with(director), director, players=8, rounds=2,
                         preset=PRESET, round_ends="deals", deals_per_round=DEALS)
    table = drawn(contest, director).tables.get(number=1)
    session = table.session
    seats = [s.player.name for s in session.seats.order_by("position")]
    after_dealer = (seats.index(session.first_dealer.name) + 1) % 4

    def kept_offline(declarer: int) -> None:
        for selector in (f"label[for=decl-{declarer}]", "label[for=bid-2]",
                         "label[for=trump-acorns]", "button[data-split]"):
            phone.locator(selector).tap()
        phone.locator("#save-button").tap()
        until(phone, lambda: len(outbox(phone)) == 1)

    phone = new_phone(browser)  # no login
    phone.goto(f"{live_server.url}/t/{table.code}/")
    installed(phone)
    phone.context.set_offline(True)
    kept_offline(after_dealer)
    assert Deal.objects.filter(session=session).count() == 0
    phone.context.set_offline(False)
    until(phone, lambda: Deal.objects.filter(session=session).count() == 1)
    until(phone, lambda: outbox(phone) == [])

    phone.context.set_offline(True)
    kept_offline((after_dealer + 1) % 4)
    tour.round_close(tournament=contest, number=1, force=True)
    phone.context.set_offline(False)
    until(phone, lambda: "Round 1 is closed" in " ".join(outbox(phone)))
    assert Deal.objects.filter(session=session).count() == 1
    # the open page's scoreboard, polled, says so too
    expect(phone.locator("#scoreboard [data-table-ended]")).to_contain_text(
        "Round 1 is closed", timeout=15_000)


# --- an evening with every format: a final, categories, fees and prizes ---------------------

RANK_POINTS = [60, 40, 20, 0]
LADIES = {"Cilli", "Erna", "Gerti"}
UNPAID = {"Hans"}
FEE = Decimal("5.00")


def play_table(browser: Any, url: str, table_number: int, label: str, screen: Any,
               confirmer: int) -> dict[str, int]:
    """A table's phone (no login) plays its two deals; the screen follows live; the
    phone then says the table is finished, and the seat ``confirmer`` confirms the
    result with one tap. The round's scores by name."""
    phone = new_phone(browser)
    phone.goto(url)
    banner = phone.locator("[data-table-phone]")
    assert f"Table {table_number} · {label}" in banner.inner_text()
    seats = banner_seats(phone)
    session_id = int(phone.url.rstrip("/").rsplit("/", 1)[1])
    dealer = Session.objects.get(pk=session_id).first_dealer.name
    deals = deals_for(seats, dealer)
    for n, deal in enumerate(deals, 1):
        enter_deal(phone, seats, deal, n)
    expected = table_scores(seats, dealer, deals)
    row = screen.locator(f"#screen-live li.screen-table:has(h3:text('Table {table_number}'))")
    expect(row.locator("h3 small")).to_have_text("finished", timeout=15_000)
    assert screen_tables(screen)[table_number] == {
        p: two_places(Fraction(v)) for p, v in expected.items()}
    # no deal form any more: the table says it has finished, and offers the confirmation
    finished = phone.locator("[data-table-finished]")
    expect(finished).to_contain_text("This table has finished its round")
    assert phone.locator("#deal-form").count() == 0
    with phone.expect_navigation():
        finished.get_by_role("button", name=seats[confirmer]).tap()
    expect(phone.locator("[data-confirmed]")).to_contain_text(
        f"The result is confirmed by {seats[confirmer]}")
    assert phone.console_errors == []
    phone.context.close()
    return expected


def seating_urls(director: Any, base: str, count: int) -> list[str]:
    director.get_by_role("link", name="Seating plan (print)").click()
    links = director.locator("a[data-table-url]")
    assert links.count() == count
    urls = [links.nth(i).get_attribute("href") for i in range(count)]
    assert all(u.startswith(base + "/t/") for u in urls)
    return urls


def screen_lines(screen: Any) -> list[tuple[int, str]]:
    """(place, name) of the screen's ranking, in the order shown."""
    out = []
    for row in screen.locator("#screen-ranking table.ranking tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        out.append((int(cells[0].rstrip(".")), cells[1].split("#")[0].strip()))
    return out


@pytest.mark.long(70)
def test_an_evening_with_a_final_categories_fees_and_prizes(live_server, browser,
                                                             brisk_screen):
    from scorepad.models import Entrant, Tournament
    from tests.scorepad.factories import group_with, user
    from tests.scorepad.test_tournament_format_logic import combined_points

    base = live_server.url
    anna = user("director")
    group = group_with(anna, "Gasthaus zur Post")
    director = new_phone(browser, width=1280, height=900)
    log_in(director, base, "director")
    tournament_page = make_tournament(
        director, base, group, "Preis-Mulatschak", rounds="1", round_ends="deals",
        deals_per_round=str(DEALS), table_size="4", scoring="combined",
        rank_points=", ".join(map(str, RANK_POINTS)), final_tables="1",
        confirm_results="on", entry_fee=str(FEE))
    contest = Tournament.objects.get()
    # at the door: the names typed one after another, Cilli with her category
    for name in PLAYERS:
        if name == "Cilli":
            director.fill("#register-category", "Damen")
        director.locator("#register-name").type(name)
        director.keyboard.press("Enter")
        if name == "Cilli":
            expect(director.locator("#players .player-name")).to_have_count(3)
            director.fill("#register-category", "")
            director.locator("#register-name").focus()
    expect(director.locator("#players .player-name")).to_have_count(8)
    # the others' category and who paid: one tap each
    for name in sorted(LADIES - {"Cilli"}):
        row = director.locator("#players li.player", has_text=name)
        row.get_by_role("button", name="Damen").click()
        expect(row.get_by_role("button", name="Damen")).to_have_attribute("aria-pressed",
                                                                          "true")
    for name in PLAYERS:
        if name not in UNPAID:
            row = director.locator("#players li.player", has_text=name)
            row.get_by_role("button", name="paid").click()
            expect(row.locator("button[value=paid]")).to_have_attribute("aria-pressed", "true")
    # the prize list, beside the players
    if director.locator(".prize-setup[open]").count() == 0:
        director.locator(".prize-setup summary").click()
    for index, (kind, value) in enumerate([("percent", "50"), ("amount", "10.00"),
                                           ("item", "Geschenkkorb")]):
        director.select_option(f"select[name=prize_kind_{index}]", kind)
        director.fill(f"input[name=prize_value_{index}]", value)
    director.get_by_role("button", name="Save the prizes").click()
    pot = FEE * (len(PLAYERS) - len(UNPAID))
    expect(director.locator("#prizes")).to_contain_text(f"pot €{pot}")
    screen_url = director.get_by_role("link", name="The screen (public)").get_attribute("href")
    screen = new_phone(browser, width=SCREEN["width"], height=SCREEN["height"])
    screen.goto(screen_url)
    expect(screen.locator(".screen-players li")).to_have_count(8)

    # round 1 on two table phones, each result confirmed at its table
    draw(director, 1)
    round_one: dict[str, int] = {}
    tables: dict[str, int] = {}
    for number, url in enumerate(seating_urls(director, base, 2), 1):
        scores = play_table(browser, url, number, "Round 1", screen, confirmer=number)
        round_one |= scores
        tables |= dict.fromkeys(scores, number)
    director.goto(tournament_page)
    expect(director.locator("#tournament-tables [data-confirmed]")).to_have_count(2)
    director.get_by_role("button", name="Close the round").click()
    director.wait_for_selector("text=Draw the final")
    lots = dict(Entrant.objects.filter(tournament=contest).values_list("player__name", "lot"))
    assert sorted(lots.values()) == list(range(1, 9))

    # this test's own qualifying ranking: combined points, then score, then wins
    points: dict[str, Fraction] = {}
    for number in (1, 2):
        at_table = {p: s for p, s in round_one.items() if tables[p] == number}
        points |= combined_points(at_table, RANK_POINTS)
    wins = {p: int(sport_places({q: s for q, s in round_one.items()
                                 if tables[q] == tables[p]})[p] == 1) for p in PLAYERS}
    keys = {p: (points[p], round_one[p], wins[p]) for p in PLAYERS}
    qualifying = sport_places(keys)
    expect(screen.locator("#screen-ranking h2 small")).to_have_text("after 1 round",
                                                                     timeout=15_000)
    shown = screen_lines(screen)
    assert sorted(shown) == sorted((qualifying[p], p) for p in PLAYERS)

    # the final: one tap, the best four by standing (a tie at the cut by lot)
    director.get_by_role("button", name="Draw the final").click()
    seeded = sorted(PLAYERS, key=lambda p: (qualifying[p], lots[p]))[:4]
    final_scores = play_table(browser, seating_urls(director, base, 1)[0], 1, "Round 2",
                              screen, confirmer=0)
    assert set(final_scores) == set(seeded)
    director.goto(tournament_page)
    director.get_by_role("button", name="Close the round").click()
    end_the_tournament(director)

    # the final ranking: the finalists by their final place (then their standing, then
    # lot), everybody else after them in their order
    final_places = sport_places(final_scores)
    finalists = sorted(seeded, key=lambda p: (final_places[p], qualifying[p], lots[p]))
    others = sorted((p for p in PLAYERS if p not in seeded),
                    key=lambda p: (qualifying[p], PLAYERS.index(p)))
    expected = [(final_places[p], p) for p in finalists] + [
        (4 + 1 + sum(1 for q in others if keys[q] > keys[p]), p) for p in others]
    expect(screen.locator("#screen-ranking h2")).to_contain_text("Final ranking",
                                                                 timeout=15_000)
    assert screen_lines(screen) == expected
    # a category's ranking on the screen: its players in that order, their places in it
    screen.goto(screen_url + "?category=Damen")
    ladies = [(place, p) for place, p in expected if p in LADIES]
    assert screen_lines(screen) == [
        (1 + sum(1 for q_place, _q in ladies if q_place < place), p) for place, p in ladies]

    # the prizes, printed with the final ranking: by place, then by lot
    strict = sorted(expected, key=lambda line: (line[0], lots[line[1]]))
    first = (pot * Decimal("0.50")).quantize(Decimal("0.01"))
    director.goto(tournament_page.rstrip("/") + "/ranking/print")
    prizes = director.locator(".final-prizes li").all_inner_texts()
    assert prizes == [f"€{first} (50 %) · {strict[0][1]}",
                      f"€10.00 · {strict[1][1]}", f"Geschenkkorb · {strict[2][1]}"]
    assert screen.console_errors == [] and director.console_errors == []

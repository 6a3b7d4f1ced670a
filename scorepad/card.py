"""The evening's card: a picture of a session for the group's chat, drawn on the server
with Pillow, 1080 px wide, light or dark, in the active language, and the same words as
text for a copy (docs/using.md, "The evening's card").

What the card says comes from the session: the group, the evening's name, date and game,
the standings and the evening's notable deals as its game package tells them
(``Game.card``), and with a stake the transfers of the settlement. Names are drawn whole,
in their full Unicode (DejaVu Sans, shipped in ``scorepad/fonts``): a name too wide for
its column is drawn smaller and, at the smallest size, over several lines, never cut.
``render`` says where it drew every text (``Drawn``), so that a test can measure them.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from . import amounts, games, services, stats
from .cache import backend
from .models import Session

WIDTH = 1080
MARGIN = 72
FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
#: The smallest size a name is drawn at before it goes over several lines.
SMALLEST = 30
THEMES: dict[str, dict[str, str]] = {
    "light": {"bg": "#ffffff", "fg": "#141414", "muted": "#5b5b5b", "accent": "#0b57a4",
              "line": "#d0d0d0", "band": "#eef3fa"},
    "dark": {"bg": "#141414", "fg": "#f2f2f2", "muted": "#b0b0b0", "accent": "#8cc4ff",
             "line": "#3a3a3a", "band": "#1f2a38"},
}


@dataclass(frozen=True)
class Content:
    """What the card says, in the active language."""

    group: str
    title: str  # the evening's name, or the game's
    subtitle: str  # date · game
    standings: tuple[tuple[str, str, str], ...]  # (name, figure, detail), best first
    facts: tuple[str, ...]
    transfers: tuple[str, ...]
    footer: str


@dataclass(frozen=True)
class Drawn:
    """A text as drawn: its role (``name``, ``figure``, ...), the text, its box."""

    role: str
    text: str
    box: tuple[int, int, int, int]


@dataclass
class _Layout:
    height: int = 0
    items: list[tuple[str, str, tuple[int, int], Any, str, str]] = field(default_factory=list)
    rules: list[tuple[int, int, int]] = field(default_factory=list)
    bands: list[tuple[int, int]] = field(default_factory=list)


def content(session: Session) -> Content:
    """The card's words for the session, in the active language."""
    record = stats.load(Session.objects.filter(pk=session.pk))[0]
    session = record.session  # as stored now
    game = games.of(session)
    told = game.card(record)
    names = record.names
    standings = tuple((names.get(row["player"], "?"), str(row["figure"]),
                       str(row.get("detail", ""))) for row in told["standings"])
    transfers: tuple[str, ...] = ()
    if session.stake is not None:
        money = services.settlement(session)
        transfers = tuple(f"{t['from']} → {t['to']}  "
                          f"{amounts.money(t['amount'], money['currency'] or '')}"
                          for t in money["transfers"]) or (_("Nobody owes anybody anything."),)
    day = date_format(session.date, "DATE_FORMAT")
    return Content(
        group=session.group.title,
        title=session.name or str(game.TITLE),
        subtitle=" · ".join([day, str(game.TITLE)] if session.name else [day]),
        standings=standings,
        facts=tuple(str(f) for f in told["facts"]),
        transfers=transfers,
        footer=_("Kept by Schreiber"),
    )


def text(card: Content) -> str:
    """The card as text, for a copy into the chat."""
    lines = [card.group, card.title, card.subtitle, ""]
    lines += [f"{i}. {name}: {figure}" + (f" ({detail})" if detail else "")
              for i, (name, figure, detail) in enumerate(card.standings, 1)]
    if card.facts:
        lines += ["", *card.facts]
    if card.transfers:
        lines += ["", _("Who pays whom"), *card.transfers]
    return "\n".join(lines).strip() + "\n"


@functools.lru_cache(maxsize=64)
def _font(bold: bool, size: int) -> Any:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def _width(font: Any, value: str) -> float:
    return float(font.getlength(value))


def _wrap(value: str, font: Any, width: float) -> list[str]:
    """The text over as many lines as it needs, broken between words where it can and
    inside a word where one alone is too wide; nothing is left out."""
    lines: list[str] = []
    current = ""
    for word in value.split(" "):
        trial = f"{current} {word}" if current else word
        if _width(font, trial) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        current = ""
        for char in word:
            if _width(font, current + char) > width and current:
                lines.append(current)
                current = ""
            current += char
    if current or not lines:
        lines.append(current)
    return lines


def fitted(value: str, *, bold: bool, size: int, width: float) -> tuple[Any, list[str]]:
    """The font and lines that draw ``value`` whole within ``width``: the size given if it
    fits, smaller down to ``SMALLEST``, then over several lines."""
    for step in range(size, SMALLEST - 1, -2):
        font = _font(bold, step)
        if _width(font, value) <= width:
            return font, [value]
    font = _font(bold, SMALLEST)
    return font, _wrap(value, font, width)


def _line_height(font: Any) -> int:
    ascent, descent = font.getmetrics()
    return int(ascent + descent + font.size * 0.18)


def _layout(card: Content) -> _Layout:
    out = _Layout()
    inner = WIDTH - 2 * MARGIN
    y = MARGIN

    def block(role: str, value: str, *, bold: bool, size: int, colour: str,
              x: int = MARGIN, width: float = inner, gap: int = 0) -> int:
        nonlocal y
        font, lines = fitted(value, bold=bold, size=size, width=width)
        for line in lines:
            out.items.append((role, line, (x, y), font, colour, value))
            y += _line_height(font)
        y += gap
        return y

    block("group", card.group, bold=False, size=40, colour="muted", gap=6)
    block("title", card.title, bold=True, size=68, colour="fg", gap=4)
    block("subtitle", card.subtitle, bold=False, size=40, colour="accent", gap=28)
    out.rules.append((MARGIN, WIDTH - MARGIN, y))
    y += 28
    place_w = 76
    for i, (name, figure, detail) in enumerate(card.standings, 1):
        top = y
        figure_font = _font(True, 46)
        figure_w = int(_width(figure_font, figure))
        name_w = inner - place_w - figure_w - 32
        if name_w < inner // 3:  # a very long figure goes under the name
            name_w = inner - place_w
        out.items.append(("place", f"{i}.", (MARGIN, y), _font(True, 56), "accent", f"{i}."))
        name_font, lines = fitted(name, bold=True, size=56, width=name_w)
        line_y = y
        for line in lines:
            out.items.append(("name", line, (MARGIN + place_w, line_y), name_font, "fg", name))
            line_y += _line_height(name_font)
        if name_w == inner - place_w:
            out.items.append(("figure", figure, (MARGIN + place_w, line_y), figure_font,
                              "fg", figure))
            line_y += _line_height(figure_font)
        else:
            out.items.append(("figure", figure, (WIDTH - MARGIN - figure_w, y + 6),
                              figure_font, "fg", figure))
        y = max(line_y, y + _line_height(_font(True, 56)))
        if detail:
            y = block("detail", detail, bold=False, size=34, colour="muted",
                      x=MARGIN + place_w, width=inner - place_w)
        if i == 1:
            out.bands.append((top - 14, y + 6))
        y += 22
    if card.facts:
        out.rules.append((MARGIN, WIDTH - MARGIN, y))
        y += 26
        for fact in card.facts:
            block("fact", fact, bold=False, size=36, colour="fg", gap=6)
        y += 16
    if card.transfers:
        out.rules.append((MARGIN, WIDTH - MARGIN, y))
        y += 26
        block("heading", _("Who pays whom"), bold=True, size=40, colour="fg", gap=8)
        for transfer in card.transfers:
            block("transfer", transfer, bold=False, size=38, colour="fg", gap=4)
        y += 16
    y += 12
    block("footer", card.footer, bold=False, size=30, colour="muted")
    out.height = y + MARGIN - 20
    return out


def render(card: Content, theme: str = "light") -> tuple[bytes, list[Drawn]]:
    """The card as a PNG, and where each text was drawn."""
    colours = THEMES[theme if theme in THEMES else "light"]
    layout = _layout(card)
    image = Image.new("RGB", (WIDTH, layout.height), colours["bg"])
    draw = ImageDraw.Draw(image)
    for top, bottom in layout.bands:
        draw.rounded_rectangle((MARGIN - 24, top, WIDTH - MARGIN + 24, bottom), radius=18,
                               fill=colours["band"])
    for x0, x1, y in layout.rules:
        draw.line((x0, y, x1, y), fill=colours["line"], width=3)
    drawn = []
    for role, line, (x, y), font, colour, _whole in layout.items:
        draw.text((x, y), line, font=font, fill=colours[colour])
        box = draw.textbbox((x, y), line, font=font)
        drawn.append(Drawn(role, line, (int(box[0]), int(box[1]), int(box[2]), int(box[3]))))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue(), drawn


def filename(session: Session) -> str:
    return f"schreiber-{session.date:%Y-%m-%d}-{session.pk}.png"


def png(session: Session, theme: str = "light") -> bytes:
    """The session's card as a PNG, in the active language."""
    return render(content(session), theme)[0]


#: Seconds a drawn card is kept (its key names the session's version).
KEPT_SECONDS = 600


def theme_of(asked: object) -> str:
    """The theme a URL asks for, light for anything else."""
    return asked if isinstance(asked, str) and asked in THEMES else "light"


def language_of(asked: object) -> str:
    """The language a URL asks for, else the request's."""
    codes = dict(settings.LANGUAGES)
    return asked if isinstance(asked, str) and asked in codes else translation.get_language()


def png_kept(session: Session, theme: str, language: str) -> bytes:
    """``png`` in ``language``, drawn once per version of the session, theme and language
    (the API's card, the session page's and the card page's share it)."""
    key = f"card:{session.pk}:{session.version}:{theme}:{language}"
    body = backend.get(key)
    if not isinstance(body, bytes):
        with translation.override(language):
            body = png(session, theme)
        backend.put(key, body, KEPT_SECONDS)
    return body

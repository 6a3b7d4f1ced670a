"""The shape of the code: no import circles among the scorepad's modules, and nothing
below the pages and the API imports a view or the API (services, models, games, the
importer, the statistics... only ever import downwards). Read from the source, imports
inside functions included. A circle counts the imports of ``if TYPE_CHECKING:`` blocks
too (a module that names another's types knows it as well); the rules of what may import
what count only what runs."""

from __future__ import annotations

import ast
import functools
import re
import types
from pathlib import Path

from scorepad import games

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorepad"
#: The edges: what a request or a command comes in through (a game's own endpoints, its
#: ``api`` module, are an edge too).
EDGES = ("scorepad.views", "scorepad.api", "scorepad.urls", "scorepad.management")


def is_edge(name: str) -> bool:
    parts = name.split(".")
    return name.startswith(EDGES) or (
        len(parts) == 4 and parts[:2] == ["scorepad", "games"] and parts[3] == "api")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")
            if "migrations" not in p.parts}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(name: str, source: str, *, package: bool, known: set[str], types: bool
             ) -> tuple[set[str], set[str]]:
    """The scorepad modules the module ``name`` imports (with ``types``, in its
    ``if TYPE_CHECKING:`` blocks too), and the scorepad modules it names that do not
    exist (an import that can only fail)."""
    anchor = name if package else name.rsplit(".", 1)[0]
    found: set[str] = set()
    missing: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node) and not types:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = anchor.split(".")
                base = ".".join([*parts[: len(parts) - (node.level - 1)],
                                 *([base] if base else [])])
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    for module in found:
        if module.split(".")[0] == "scorepad" and module not in known:
            missing.add(module)
    return {m for m in found if m in known} - {name}, missing


def imports(name: str, path: Path, known: set[str], types: bool = False) -> set[str]:
    """The scorepad modules ``name`` imports."""
    out, _missing = imported(name, path.read_text(encoding="utf-8"),
                             package=path.name == "__init__.py", known=known, types=types)
    if name == "scorepad.games":  # the registry imports its games by name
        out |= {m for m in games.modules() if m in known}
    return out


@functools.cache
def graph(types: bool = False) -> dict[str, set[str]]:
    """Read once per process (every test of this module asks it; the tree does not change
    while the tests run)."""
    found = modules()
    known = set(found)
    return {name: imports(name, path, known, types) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return out


def test_the_graph_sees_the_imports_it_should():
    edges = graph()
    assert "scorepad.games.mura" in edges["scorepad.games"]
    assert "scorepad.services" in edges["scorepad.views.entry"]
    assert "scorepad.games.mura.play" in edges["scorepad.games.mura"]
    assert "scorepad.games.base" in edges["scorepad.games.mura.play"]
    assert "scorepad.models" not in edges["scorepad.games.mura.play"]  # types only


def test_no_module_of_the_scorepad_imports_itself_round_a_circle():
    assert cycles(graph(types=True)) == []


def test_the_graph_sees_the_imports_inside_functions_and_for_types_only():
    edges = graph(types=True)
    assert "scorepad.models" in edges["scorepad.games.mura.play"]  # types only
    assert "scorepad.middleware" in edges["scorepad.views.project"]
    source = ("from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from ..models import Session\n"
              "def choices():\n    from .. import games\n    return games.choices()\n")
    known = {"scorepad", "scorepad.games", "scorepad.models", "scorepad.views",
             "scorepad.views.x"}
    seen = imported("scorepad.views.x", source, package=False, known=known, types=True)
    assert seen == ({"scorepad.games", "scorepad.models"}, set())
    assert imported("scorepad.views.x", source, package=False, known=known, types=False
                    ) == ({"scorepad.games"}, set())


def test_every_import_of_a_scorepad_module_names_one_that_exists():
    known = set(modules())
    missing = {}
    for name, path in modules().items():
        _found, gone = imported(name, path.read_text(encoding="utf-8"),
                                package=path.name == "__init__.py", known=known, types=True)
        if gone:
            missing[name] = sorted(gone)
    assert missing == {}
    assert imported("scorepad.views.project", "from .middleware import too_large_message\n",
                    package=False, known=known, types=False
                    ) == (set(), {"scorepad.views.middleware"})


def test_the_models_do_not_import_the_games():
    """The games speak of sessions and deals: the registry puts what the models need of
    it (the games' names and titles) into scorepad.gamechoices, below both."""
    assert not {t for t in graph(types=True)["scorepad.models"]
                if t.startswith("scorepad.games")}


def test_the_models_game_choices_are_the_registrys():
    from scorepad.models import Session, Tournament

    assert Session._meta.get_field("game").choices == games.choices()
    assert Tournament._meta.get_field("game").choices == games.choices()
    assert Session(game=games.default()).get_game_display() == games.registered()[0].TITLE


def test_the_circle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_nothing_below_the_pages_and_the_api_imports_a_view_or_the_api():
    edges = graph()
    upward = {
        (name, target)
        for name, targets in edges.items() if not is_edge(name)
        for target in targets if target.startswith(("scorepad.views", "scorepad.api"))
    }
    assert upward == set()


def test_the_games_know_no_page_no_endpoint_and_no_service():
    edges = graph()
    for name, targets in edges.items():
        if name.startswith("scorepad.games") and not is_edge(name):
            assert not {t for t in targets if t.startswith(
                ("scorepad.services", "scorepad.rosters", "scorepad.sharing", "scorepad.views",
                 "scorepad.api", "scorepad.transfer",
                 "scorepad.stats", "scorepad.models"))}, name


def test_a_games_endpoints_are_an_edge_and_nothing_in_the_game_imports_them():
    edges = graph()
    assert is_edge("scorepad.games.mura.api") and not is_edge("scorepad.games.mura")
    assert not is_edge("scorepad.games.api")
    for name, targets in edges.items():
        if not is_edge(name):
            assert not {t for t in targets if is_edge(t)}, name


# --- views adapt: the use cases hold the transactions and the domain's own errors ------------


def _opens_a_transaction(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module == "django.db.transaction" or (node.module == "django.db" and any(
            alias.name in ("transaction", "atomic") for alias in node.names))
    if isinstance(node, ast.Import):
        return any(alias.name == "django.db.transaction" for alias in node.names)
    return isinstance(node, ast.Attribute) and node.attr == "atomic"


def transactions_opened(source: str) -> list[int]:
    """The lines of ``source`` that open (or import what opens) a transaction: Django's
    ``transaction`` or ``atomic``, in a ``with``, a decorator or a call alike."""
    return sorted(getattr(node, "lineno", 0) for node in ast.walk(ast.parse(source))
                  if _opens_a_transaction(node))


def test_no_page_and_no_endpoint_opens_a_transaction():
    pages_and_endpoints = [path for name, path in sorted(modules().items()) if is_edge(name)
                           and not name.startswith(("scorepad.urls", "scorepad.management"))]
    assert len(pages_and_endpoints) > 10
    found = [f"{path.relative_to(ROOT)}:{line}" for path in pages_and_endpoints
             for line in transactions_opened(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_transaction_finder_finds_each_way_of_opening_one():
    assert transactions_opened("from django.db import transaction\n") == [1]
    assert transactions_opened("from django.db.transaction import atomic\n") == [1]
    assert transactions_opened("import django.db.transaction\n") == [1]
    assert transactions_opened("def f():\n    with db.transaction.atomic():\n        pass\n"
                               ) == [2]
    assert transactions_opened("@transaction.atomic\ndef view(request): pass\n") == [1]
    assert transactions_opened("from django.db import models\nx = models.F('a')\n") == []


def test_the_use_cases_raise_the_domains_errors_not_the_apis():
    """DRF is the API's (its serializers also check shapes in scorepad/fields.py and the
    games' shapes); the use cases refuse with scorepad.errors, the edge words them."""
    for name in ("scorepad.services", "scorepad.rosters", "scorepad.sharing",
                 "scorepad.guests", "scorepad.dealwrite", "scorepad.loaded"):
        tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                    for alias in node.names} | {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not {m for m in imported if m.split(".")[0] == "rest_framework"}, name


def members(protocol: type) -> set[str]:
    """The names a protocol class itself declares."""
    return ({name for name in vars(protocol) if not name.startswith("_")}
            | set(vars(protocol).get("__annotations__", {})))


def promised_names() -> set[str]:
    """Every name of the ``Game`` protocol: the names of its parts."""
    return set().union(*(members(part) for part in games.PARTS))


def test_the_game_protocol_is_its_small_parts():
    assert set(games.Game.__mro__) >= set(games.PARTS) and not members(games.Game)
    sizes = {part.__name__: len(members(part)) for part in games.PARTS}
    assert all(4 <= size <= 14 for size in sizes.values()), sizes
    assert sum(sizes.values()) == len(promised_names())  # no name in two parts


def protocol_gaps(game: types.ModuleType) -> list[str]:
    """What ``game`` (a registered game's package) lacks of the whole game protocol: a
    name it does not provide, a module of its package named like a promised name (it
    would shadow it), or a registry that finds another package under its name."""
    promised = promised_names()
    gaps = [f"missing {name}" for name in sorted(promised) if not hasattr(game, name)]
    package = Path(str(game.__file__)).parent
    gaps += [f"module {stem}.py shadows it"
             for stem in sorted({p.stem for p in package.glob("*.py")} & promised)]
    gaps += [f"{name} is a module" for name in sorted(promised)
             if isinstance(getattr(game, name, None), types.ModuleType)]
    if games.get(game.NAME) is not game:
        gaps.append("the registry finds another package under its name")
    return gaps


def test_every_game_in_the_registry_provides_the_whole_game_protocol():
    assert {"parse_deal", "board", "money", "entry_context", "BOARD_OUT"} <= promised_names()
    for game in games.registered():
        assert protocol_gaps(game) == [], game.NAME


def test_a_game_that_lacks_part_of_the_protocol_is_told_what():
    game = types.ModuleType("scorepad.games.half")
    game.__file__ = str(PACKAGE / "games" / "half" / "__init__.py")
    game.NAME = games.registered()[0].NAME
    game.parse_deal = lambda data: {}
    gaps = protocol_gaps(game)
    assert "missing board" in gaps and "missing parse_deal" not in gaps
    assert "the registry finds another package under its name" in gaps


# --- a game is a package, not a branch ------------------------------------------------------

#: A game's name (in any spelling the code uses), or a comparison of the game a session
#: plays with a name: outside scorepad/games/ neither may appear (STYLE: "a game is a
#: package, not a branch"). The registry's one setting lists the games' packages.
GAME_NAMES = re.compile(r"mulatschak|mura|m[uü]e?ller|matz", re.IGNORECASE)
GAME_COMPARED = re.compile(r"""\bgame\s*(?:==|!=)\s*["']|\bgame\s+(?:not\s+)?in\s*[\[(]""")
#: Where to look: the app outside its games, the shared templates and the static files.
SEARCHED = (PACKAGE, ROOT / "templates", ROOT / "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt", ".json", ".webmanifest"}
#: The lines that must name a game, by file: (the text that may stay, why).
ALLOWED: dict[str, tuple[tuple[str, str], ...]] = {
    "scorepad/settings.py": (
        ("scorepad.games.", "SCHREIBER_GAMES, the registry's one setting"),
    ),
    "scorepad/messages.py": (
        # messages are keyed by code, and the field names of an input they word are a game's
        ('"bad_penalty"', "the referee API's penalties field: its keys mura and zeros"),
    ),
}


def _searched_files() -> list[Path]:
    out = []
    for folder in SEARCHED:
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(ROOT)
            if (path.is_file() and path.suffix in SUFFIXES and "__pycache__" not in rel.parts
                    and rel.parts[:2] not in (("scorepad", "games"), ("scorepad", "migrations"))
                    and rel.parts[:2] != ("static", "vendor")):
                out.append(path)
    return out


def test_nothing_outside_the_games_names_a_game_or_compares_one():
    found = []
    for path in _searched_files():
        rel = path.relative_to(ROOT).as_posix()
        allowed = [text for text, _why in ALLOWED.get(rel, ())]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if (GAME_NAMES.search(line) or GAME_COMPARED.search(line)) and not any(
                    text in line for text in allowed):
                found.append(f"{rel}:{number}: {line.strip()[:120]}")
    assert found == []


def test_the_game_name_check_finds_names_and_comparisons():
    assert GAME_NAMES.search('{% if session.game == "mura" %}')
    assert GAME_NAMES.search("form:has(input[value=muller_matz]:checked)")
    assert GAME_NAMES.search("Müller Matz") and GAME_NAMES.search("MULATSCHAK_PACKS")
    assert GAME_COMPARED.search("if session.game == 'x':")
    assert GAME_COMPARED.search('{% if table.game != "x" %}')
    assert not GAME_COMPARED.search("tool.game == game")
    assert _searched_files() and not any("games" in p.parts for p in _searched_files())


def test_every_exception_is_still_needed():
    for rel, allowed in ALLOWED.items():
        path = ROOT / rel
        assert path.is_file(), rel
        text = path.read_text(encoding="utf-8")
        for what, _why in allowed:
            assert what in text, (rel, what)
        assert GAME_NAMES.search(text), rel


# --- a shared script hooks into no game's form ------------------------------------------------

#: What a game's templates alone name: its data attributes and its form fields (a field
#: named with a number, ``x_{{ seat.index }}``, by its prefix ``x_``).
ATTRIBUTE = re.compile(r"\b(data-[a-z0-9-]+)")
FIELD = re.compile(r"""\bname=["']([A-Za-z_]\w*)""")
#: Shared widgets a game's form may opt into, and mechanisms any game's form may use: a
#: shared script may read these although only one game's templates have them today (why).
SHARED_MECHANISMS: dict[str, str] = {
    "data-suggest": "a choice the referee's live check fills in when the form left it empty "
                    "(static/entry.js)",
    **dict.fromkeys(
        ("data-trick", "data-leader", "data-trick-ranks", "data-number-pad", "data-pad",
         "data-pad-for", "data-pad-range-by", "data-pad-ranges", "data-number"),
        "the card picker and the number pad (templates/scorepad/_card_picker.html, "
        "static/cardpicker.js), widgets a game's form opts into"),
}


def _vocabulary(files: list[Path]) -> set[str]:
    out: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        out |= set(ATTRIBUTE.findall(text)) | {f"field:{f}" for f in FIELD.findall(text)}
    return out


def games_own_words() -> dict[str, str]:
    """Each attribute and field that only one game's templates name → that game."""
    own = {game.NAME: _vocabulary(sorted(Path(game.__file__).parent.rglob("*.html")))
           for game in games.registered()}
    shared = _vocabulary(sorted((ROOT / "templates").rglob("*.html")))
    out = {}
    for name, words in own.items():
        others = set().union(shared, *(w for n, w in own.items() if n != name))
        out |= dict.fromkeys(words - others, name)
    return out


def _camel(attribute: str) -> str:
    first, *rest = attribute.removeprefix("data-").split("-")
    return first + "".join(part.title() for part in rest)


def read_by(text: str, word: str) -> bool:
    """Whether the script ``text`` reads the attribute or form field ``word``; an attribute
    the script writes itself (``el.dataset.x = ...``) is its own."""
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    if word.startswith("field:"):
        field = re.escape(word.removeprefix("field:"))
        end = "" if word.endswith("_") else r"(?!\w)"
        called = rf"""(?<!classList\.)\b\w+\(\s*(?:[\w.]+\s*,\s*)?["']{field}["']\s*\)"""
        return bool(re.search(rf"""name\s*[\^$*~|]?=\s*["']?{field}{end}""", text)
                    or re.search(rf"""\.name\s*[!=]==?\s*["']{field}["']""", text)
                    or re.search(called, text))
    camel = _camel(word)
    written = re.search(rf"""dataset\.{camel}\s*=(?!=)|setAttribute\(["']{word}["']""", text)
    read = re.search(rf"{re.escape(word)}(?![\w-])", text) or re.search(
        rf"\bdataset\.{camel}\b(?!\s*=(?!=))", text)
    return bool(read) and not written


def shared_scripts() -> list[Path]:
    return sorted([*(ROOT / "static").glob("*.js"), *(ROOT / "templates").glob("*.js")])


def test_no_shared_script_hooks_into_one_games_form():
    """A game's own logic on the phone (what its deal means: a one-tap split of the tricks,
    the deal in words) lives in the game's phone.js, which hooks into the shared scripts
    (static/entry.js, ``hook``); a shared script that reads what only one game's forms
    have is that game's logic outside its package, whether or not it says the name."""
    own = games_own_words()
    found = sorted(
        f"{path.relative_to(ROOT).as_posix()}: {word} ({game})"
        for path in shared_scripts()
        for word, game in own.items()
        if word not in SHARED_MECHANISMS and read_by(path.read_text(encoding="utf-8"), word))
    assert found == []


def test_the_hook_check_finds_a_games_words_in_a_script():
    own = games_own_words()
    assert {"data-split", "data-muli-text", "field:declarer", "field:bid"} <= set(own)
    assert read_by('const b = form.querySelector("[data-split]");', "data-split")
    assert read_by("text = group.dataset.muliText;", "data-muli-text")
    assert read_by('form.querySelector("input[name=declarer]:checked")', "field:declarer")
    assert read_by('picked(form, "bid")', "field:bid")
    assert read_by('if (submitter.name === "loser") {', "field:loser")
    assert read_by('form.querySelectorAll("select[name^=o_]")', "field:o_")
    assert not read_by('row.classList.contains("home")', "field:home")
    assert not read_by("li.dataset.number = String(n);", "data-number")
    assert not read_by("// [data-split] is the game's", "data-split")


def test_every_shared_mechanism_is_still_read_and_still_one_games():
    own = games_own_words()
    scripts = [path.read_text(encoding="utf-8") for path in shared_scripts()]
    for word in SHARED_MECHANISMS:
        assert word in own, word  # used by two games now, or by none: no longer needed here
        assert any(read_by(text, word) for text in scripts), word

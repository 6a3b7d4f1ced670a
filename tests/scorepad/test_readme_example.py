"""The README's example of the referee API answers what the README says it does: the curl
command, read from README.md as a newcomer would copy it, gets a 422 naming the rule and the
player, in German (README.md, "The API")."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def readme_curl() -> tuple[str, str, dict[str, object]]:
    """The path, the language and the body of the README's curl command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"```sh\n(curl .*?)\n```", readme, flags=re.DOTALL)
    assert command, "README.md has no curl example"
    text = command.group(1)
    path = re.search(r"http://127\.0\.0\.1:8000(/api/v1/\S+)", text).group(1)  # type: ignore[union-attr]
    language = re.search(r"Accept-Language: (\w+)", text).group(1)  # type: ignore[union-attr]
    body = json.loads(re.search(r"-d '(.*)'", text, flags=re.DOTALL).group(1))  # type: ignore[union-attr]
    return path, language, body


def test_the_readmes_example_is_refused_as_the_readme_says(api):
    path, language, body = readme_curl()
    response = api.post(path, body, language=language)
    assert response.status_code == 422
    violations = response.json()["violations"]
    assert [(v["code"], v["player"]) for v in violations] == [
        ("stay_home_forbidden_hearts", "Cilli")]
    said = re.search(r"\(`stay_home_forbidden_hearts`, \*(.*?), \.\.\.\*\)",
                     " ".join((ROOT / "README.md").read_text(encoding="utf-8").split()))
    assert said and violations[0]["message"].startswith(said.group(1))

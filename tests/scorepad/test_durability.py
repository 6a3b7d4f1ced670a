"""Nothing lost on the embedded database and on paper (issue 12, section 4).

- SQLite, the default, flushes every commit to disk (``synchronous=FULL`` in WAL mode): a
  saved deal survives a power cut of the pub's small server, not only a crash of the app
  (the cost per deal is in bench/README.md, ``bench/sqlite_sync.py``);
- ``manage.py backup`` does not print password hashes into a terminal, and a missing
  folder for ``--output`` is a one-line error, not a traceback.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import ROOT

from .factories import group_with, session_at

pytestmark = pytest.mark.django_db


def _env(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return env | {"DJANGO_SETTINGS_MODULE": "scorepad.settings", "DJANGO_DEBUG": "1"} | more


def test_the_embedded_sqlite_database_flushes_every_commit(tmp_path):
    code = ("import django; django.setup(); from django.db import connection; "
            "c = connection.cursor(); "
            "print(c.execute('PRAGMA journal_mode').fetchone()[0], "
            "c.execute('PRAGMA synchronous').fetchone()[0])")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            env=_env(DATABASE_URL=f"sqlite:///{tmp_path / 'pub.sqlite3'}"),
                            text=True, timeout=60)
    assert result.stdout.split() == ["wal", "2"], result.stderr  # 2 = FULL


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_backup_refuses_to_print_into_a_terminal(anna):
    session_at(group_with(anna), anna)
    screen = Terminal()
    with pytest.raises(CommandError) as caught:
        call_command("backup", stdout=screen)
    assert "--output" in str(caught.value)
    assert screen.getvalue() == ""  # not a single password hash on the screen


def test_backup_still_writes_to_a_pipe(anna):
    session_at(group_with(anna), anna)
    pipe = io.StringIO()
    call_command("backup", stdout=pipe)
    assert json.loads(pipe.getvalue())["kind"] == "backup"


def test_backup_into_a_missing_folder_is_a_one_line_error(tmp_path):
    target = tmp_path / "no-such-folder" / "backup.json"
    with pytest.raises(CommandError) as caught:
        call_command("backup", output=str(target))
    assert "no-such-folder" in str(caught.value) and "\n" not in str(caught.value)
    assert not target.parent.exists()


def test_backup_into_a_missing_folder_prints_no_traceback(tmp_path):
    target = tmp_path / "missing" / "backup.json"
    result = subprocess.run(
        [sys.executable, "manage.py", "backup", "--output", str(target)], cwd=ROOT,
        env=_env(DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}"),
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "missing" in result.stderr


@pytest.mark.parametrize("document", ["deploy.md", "export.md"])
def test_the_documented_cron_line_writes_the_backup_to_a_file(document):
    text = (ROOT / "docs" / document).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if "manage.py backup" in line
             and line.strip().startswith(("0 ", "1", "2", "3", "4", "5", "*"))]
    assert lines, f"no cron line for the backup in docs/{document}"
    for line in lines:
        assert "--output" in line, line

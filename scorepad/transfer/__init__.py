"""Export, import and backup: a session, a group or the whole instance as one JSON file.

The file names players by their *names* (never database ids) and carries everything needed
to reproduce a session exactly: game, preset and frozen rules, seats in order, the first
dealer, stake and currency, status, every deal as recorded (with its number and version)
and the whole change history. docs/export.md ("Export, import and backups") describes the format
and what stays compatible.

Importing is a replay: every deal goes through the same shape checks and the same game
module (``scorepad.games``) as live recording, so the referee rejects an illegal deal
exactly as it would at the table. Every problem is reported with its place in
the file (a JSON-pointer-like path such as ``session/deals/4/data/tricks/Anna``); one
problem and nothing is written (one transaction).

By concern: ``fileformat`` (the format, its limits, the problems and the readers of the
file's fields), ``exporting`` (a session or a group out, and a session as CSV), ``importing``
(a session or a group file in), ``tournaments`` (a group's tournaments, both ways) and
``backups`` (the whole instance, both ways).
"""

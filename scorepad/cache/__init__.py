"""Everything cached, and the rule that nothing of one user reaches another through it
(tests/scorepad/test_cache_per_user.py): a cached page or answer is filed under what it
depends on (session, version, language, role class), and what differs per asker (CSRF
token, idempotency key, poll grant, account) is put in per answer.

- ``backend``: the one way to the cache (Redis, or one process's memory): the safe
  helpers, the Redis backend, ``Recent`` (what one process keeps, bounded).
- ``versions``: each session's version (never lowered), its group, its seats' names.
- ``grants``: access generations (the truth in the database, copied into the cache),
  poll grants, members' roles.
- ``logins``: logged-in accounts and API tokens; the one hook on the user's changes.
- ``login_sessions``: Django's ``cached_db`` login sessions.
- ``answers``: conditional GET, rendered scoreboards kept by ETag.
- ``table_codes``: a tournament table's code (the API's ``Table`` login) while its
  session's version is the one read with it.
- ``screens``: what a tournament's public screen needs to answer its polls without a
  query (the tournament's version, its open round's sessions), and each table of its live
  part rendered, by the versions it was rendered from.
"""

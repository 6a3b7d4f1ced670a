"""What is cached, and the rule that nothing of one user reaches another through it.

- ``backend``: the shared cache (Redis, one client per server).
- ``grants``: access generations (the database's truth, copied into the cache), poll
  grants, members' roles.
- ``logins``: logged-in accounts and API tokens.
- ``login_sessions``: Django's ``cached_db`` login sessions.
- ``answers``: rendered answers kept by ETag (conditional GET).
"""

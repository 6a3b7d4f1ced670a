"""The pages, by what the user does: the session page (``session``), entering a deal
(``entry``), correcting one (``corrections``), looking back (``looking_back``), groups and
invitations (``groups``), the account (``account``), and the project's own pages and
error handlers (``project``). ``common`` holds what they share.

Views only adapt: access through ``scorepad.access``, every change through
``scorepad.services`` (a group and its roster through ``scorepad.rosters``, links and
invitations through ``scorepad.sharing``), and whatever differs between games asked of
the session's game module, once per view.
"""

from __future__ import annotations

from .project import bad_request, locked_out, not_found, server_error

__all__ = ["bad_request", "locked_out", "not_found", "server_error"]

"""Seasons: a club's year across evenings and tournaments (docs/tournaments.md, "Seasons").
``cup`` is pure (no Django): cup points and the standings; ``reading`` reads the events and
answers the standings (``standings``, ``etag``); ``services`` are the use cases."""

from __future__ import annotations

from .reading import categories, etag, events, standings, standings_and_etag

__all__ = ["categories", "etag", "events", "standings", "standings_and_etag"]

"""Tournaments: a prize evening at several tables (docs/tournaments.md). ``draw`` and
``ranking`` are pure (no Django); ``services`` are the use cases."""

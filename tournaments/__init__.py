"""The tournament service: its core (players, tournaments, entries, rounds, matches in
``models``; the pure ``formats``, ``scoring``, ``standings``; the writes in ``services`` and the
reads in ``selectors``) and one sub-package a concept: ``matches`` (a match's life), ``ratings``,
``analysis``, ``clubs``, ``players``, ``signups``, ``seasons``, ``stages``, ``backup``; the site's
pages (``web``) and API (``api``) on top. docs/architecture.md draws the rooms and the arrows."""

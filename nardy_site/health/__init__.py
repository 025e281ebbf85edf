"""Operational health: the /healthz endpoint and a probe task that proves a worker runs."""

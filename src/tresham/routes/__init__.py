"""tresham.routes: what a run is and its legality (``runs``), the network as stop-to-stop
chains (``network``), and the exact optimizer (``optimizer``)."""

from tresham.routes.network import run_from_connections
from tresham.routes.optimizer import (
    MAX_CANDIDATES,
    MAX_COMBINATION_STEPS,
    RouteSolution,
    alternatives,
    best_runs,
    has_run,
    solve,
)
from tresham.routes.runs import Run, run_revenue, validate_run, validate_runs

__all__ = [
    "MAX_CANDIDATES",
    "MAX_COMBINATION_STEPS",
    "RouteSolution",
    "Run",
    "alternatives",
    "best_runs",
    "has_run",
    "run_from_connections",
    "run_revenue",
    "solve",
    "validate_run",
    "validate_runs",
]

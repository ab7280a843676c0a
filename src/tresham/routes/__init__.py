"""tresham.routes: run validation, revenue and the route search."""

from tresham.routes.simple import (
    MAX_CANDIDATES,
    MAX_COMBINATION_STEPS,
    Run,
    best_runs,
    run_from_connections,
    run_revenue,
    validate_run,
    validate_runs,
)

__all__ = [
    "MAX_CANDIDATES",
    "MAX_COMBINATION_STEPS",
    "Run",
    "best_runs",
    "run_from_connections",
    "run_revenue",
    "validate_run",
    "validate_runs",
]

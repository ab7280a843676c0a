"""Fixtures of the server tests (tests/test_server*.py); the helpers are in conftest_server.py.

`pg_cluster`: one throwaway PostgreSQL server per test process (skipped where PostgreSQL is
not installed, failing instead in CI). `pg_url`: a fresh database on it. `db_url`: the same
test on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest_server import PgCluster, postgres_bindir


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    bindir = postgres_bindir()
    if bindir is None:
        message = "PostgreSQL is not installed (make test installs it: tools/ensure_postgres.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    cluster = PgCluster(bindir)
    try:
        cluster.start()
    except Exception:
        cluster.stop()
        raise
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    return pg_cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tresham.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tresham.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()

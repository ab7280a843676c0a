#!/usr/bin/env bash
# Makes sure a PostgreSQL server (initdb, pg_ctl, postgres) is installed for the server tests.
# The tests start a throwaway cluster of their own in a temporary folder (as the `postgres`
# user when run as root) and stop it afterwards; nothing here starts a server.
# Installs Debian's `postgresql` package when the programs are missing and we are root.
set -euo pipefail

have_postgres() {
    command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1 && return 0
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null 2>&1
}

if have_postgres; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "PostgreSQL is not installed and we are not root: the PostgreSQL tests will be" \
         "skipped (install Debian's 'postgresql' package to run them)." >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "PostgreSQL is not installed and there is no apt-get: the PostgreSQL tests will be" \
         "skipped." >&2
    exit 0
fi
echo "installing PostgreSQL (Debian package 'postgresql') for the server tests" >&2
export DEBIAN_FRONTEND=noninteractive
# (The package's own cluster is not used: the tests make their own.)
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends postgresql; }; then
    echo "could not install PostgreSQL: the PostgreSQL tests will be skipped (and fail in CI)" >&2
fi
exit 0

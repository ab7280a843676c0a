#!/usr/bin/env bash
# Makes sure a Debian package some tests need is installed.
# Usage: ensure_debian_package.sh PACKAGE "WHAT NEEDS IT" CHECK
#   CHECK: a bash snippet that succeeds when the package's programs are there.
# When CHECK fails and we are root with apt-get, installs PACKAGE (after `apt-get update`);
# otherwise it says which tests will be skipped. It never fails the build itself: the tests
# that need the package say what is missing.
set -euo pipefail

package=$1
needed_by=$2
check=$3

if bash -c "$check"; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "'$package' is not installed and we are not root: $needed_by will be skipped" \
         "(install Debian's '$package' package to run them)." >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "'$package' is not installed and there is no apt-get: $needed_by will be skipped." >&2
    exit 0
fi
echo "installing Debian's '$package' for $needed_by" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "$package"; }; then
    echo "could not install '$package': $needed_by will fail" >&2
fi
exit 0

#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (tests/test_web_browser.py),
# which drive it through Playwright for Python (Playwright's own browser downloads are not
# used). Installs the `chromium` package when it is missing and we are root; otherwise says
# that the browser tests will be skipped.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "Chromium is not installed and we are not root: the browser tests will be skipped" \
         "(install Debian's 'chromium' package to run them)." >&2
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is not installed and there is no apt-get: the browser tests will be" \
         "skipped." >&2
    exit 0
fi
echo "installing Chromium (Debian package 'chromium') for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }; then
    echo "could not install Chromium: the browser tests will fail" >&2
fi
exit 0

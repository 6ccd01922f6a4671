# Source this file: it installs Debian's chromium package when no chromium is on the machine, and
# exports DECKCHECK_CHROMIUM for the browser tests (Playwright drives it; Playwright's own browser
# download cannot work here). In CI the browser tests fail when it is missing.
if ! command -v chromium >/dev/null 2>&1; then
    echo "installing Chromium (Debian package chromium)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq chromium >/dev/null
fi
DECKCHECK_CHROMIUM=$(command -v chromium)
export DECKCHECK_CHROMIUM

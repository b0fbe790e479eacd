#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard browser test (DashboardBrowserIT) when it is missing.
# .ci/run calls it before `mvn verify`: CI runs as root on a fresh Debian machine that has no browser.
# A test tool's own browser download does not work here (only package registries are reachable).
set -euo pipefail
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  echo "[browser] $("$CHROMIUM" --version 2>/dev/null | head -n 1)"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "[browser] no Chromium at $CHROMIUM and cannot install it (needs root and apt-get);" \
       "the dashboard browser test will be skipped" >&2
  exit 0
fi
echo "[browser] installing Debian's chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core > /dev/null
echo "[browser] $("$CHROMIUM" --version 2>/dev/null | head -n 1)"

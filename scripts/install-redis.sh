#!/usr/bin/env bash
# Installs Debian's redis-server for the tests of @idv-toolkit/throttle-redis when it is missing. The
# tests start their own server on a free port (no service, no saved data); nothing else uses it.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
echo "Installing Debian's redis-server for the Redis throttle tests..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
redis-server --version

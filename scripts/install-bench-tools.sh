#!/usr/bin/env bash
# Installs Debian's wrk, the load generator of the server benchmarks (a load generator written in
# JavaScript saturates before the servers it measures on 2 cores).
set -euo pipefail
if command -v wrk >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wrk >/dev/null

#!/usr/bin/env bash
# Installs Debian's PostgreSQL for the sandbox's tests when it is missing. The tests start their own
# throwaway cluster (packages/sandbox/src/sql/pg-cluster.test-helper.ts) in a temp directory on a free port,
# as the `postgres` user, and remove it afterwards; the package's own cluster is never started or used.
set -euo pipefail
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
echo "Installing Debian's PostgreSQL for the sandbox's PostgreSQL tests..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null
ls /usr/lib/postgresql/*/bin/initdb

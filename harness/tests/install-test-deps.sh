#!/usr/bin/env bash
# What the tests need beyond the harness's venv, installed when missing: Debian's chromium, for the browser check
# of the comparison page (test_report_browser.py). Idempotent, and only a check when it is already there. Without
# root it installs nothing: it says so, and the browser test skips with that reason.
set -euo pipefail

# Debian's sshd and rsync for the SSH path of TARGET=aws on stand-in hosts (test_aws_ssh_e2e.py, which starts its
# own sshd with its own config: the package's service is never started here). Without them that test skips.
ssh_missing=()
[ -x /usr/sbin/sshd ] || ssh_missing+=(openssh-server)
command -v rsync >/dev/null 2>&1 || ssh_missing+=(rsync)
if [ ${#ssh_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: installing ${ssh_missing[*]} (apt-get install --no-install-recommends)"
    # Installing the package must not open an SSH server on this machine: a policy-rc.d that refuses every start
    # (Debian's mechanism, honoured by invoke-rc.d and deb-systemd-invoke) for the duration, unless one exists.
    own_policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && own_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${ssh_missing[@]}" >/dev/null 2>&1 \
      || { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 \
           && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${ssh_missing[@]}" >/dev/null 2>&1; } \
      || echo "test-deps: installing ${ssh_missing[*]} failed: the SSH test will be skipped"
    [ -z "$own_policy" ] || rm -f /usr/sbin/policy-rc.d
  else
    echo "test-deps: ${ssh_missing[*]} missing and not installable here (root + apt-get): the SSH test will be skipped"
  fi
else
  echo "test-deps: sshd and rsync present"
fi

# PostgreSQL's server binaries for the db scenario's tests (thread-service's DatabaseScenarioTests, the db e2e run):
# the same script `make bench SCENARIO=db` uses; no cluster is created or started by installing it.
if [ "$(id -u)" -eq 0 ]; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  if "$here/../../infra/host/install-postgresql"; then
    echo "test-deps: PostgreSQL server present ($(printf '%s\n' /usr/lib/postgresql/*/bin | tail -1))"
  else
    echo "test-deps: installing PostgreSQL failed: the database tests will be skipped"
  fi
fi

if command -v chromium >/dev/null 2>&1; then
  echo "test-deps: chromium present ($(chromium --version 2>/dev/null | head -1))"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "test-deps: chromium is missing and this is not root, so it is not installed:" \
       "the browser test will be skipped (as root: apt-get install chromium)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-deps: chromium is missing and there is no apt-get: the browser test will be skipped"
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
install() { apt-get install -y -q --no-install-recommends chromium >"$log" 2>&1; }
echo "test-deps: installing Debian's chromium (apt-get install --no-install-recommends chromium)"
# A fresh machine has no package lists yet: update only when the first attempt cannot find the package.
if ! install; then
  echo "test-deps: apt-get update, then retrying"
  { apt-get update -q >"$log" 2>&1 && install; } || { tail -20 "$log"; echo "test-deps: installing chromium failed"; exit 1; }
fi
echo "test-deps: $(chromium --version 2>/dev/null | head -1) installed"

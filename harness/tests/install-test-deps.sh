#!/usr/bin/env bash
# What the tests need beyond the harness's venv, installed when missing: Debian's chromium, for the browser check
# of the comparison page (test_report_browser.py). Idempotent, and only a check when it is already there. Without
# root it installs nothing: it says so, and the browser test skips with that reason.
set -euo pipefail

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
  apt-get update -q >"$log" 2>&1 && install || { tail -20 "$log"; echo "test-deps: installing chromium failed"; exit 1; }
fi
echo "test-deps: $(chromium --version 2>/dev/null | head -1) installed"

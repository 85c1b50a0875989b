#!/usr/bin/env bash
# Removes every namespace, link and process that up.sh made. Safe to run twice.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/netns.conf"
inventory=${1:-}

for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS_PREFIX-" || true); do
  mapfile -t pids < <(ip netns pids "$ns" 2>/dev/null)
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
      sleep 0.1
    done
    mapfile -t pids < <(ip netns pids "$ns" 2>/dev/null)
    if [ "${#pids[@]}" -gt 0 ]; then
      kill -KILL "${pids[@]}" 2>/dev/null || true
      # The namespace, and with it its veth, only goes away once its last process has.
      for _ in $(seq 20); do
        [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
        sleep 0.1
      done
    fi
  fi
  ip netns delete "$ns"   # also deletes the namespace's end of its veth pair, and so the pair
done
# A veth whose namespace end was never moved (up.sh stopped half-way) stays in the host namespace.
for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^$VETH_PREFIX" || true); do
  ip link delete "$link" 2>/dev/null || true
done
ip link show "$BRIDGE" >/dev/null 2>&1 && ip link delete "$BRIDGE"
[ -n "$inventory" ] && rm -f "$inventory"

left=$( { ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS_PREFIX-";
          ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^($BRIDGE|$VETH_PREFIX)"; } || true)
if [ -n "$left" ]; then
  echo "loadlab: could not remove: ${left//$'\n'/ }" >&2
  exit 1
fi
echo "netns hosts down"
exit 0

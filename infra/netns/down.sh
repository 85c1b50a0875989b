#!/usr/bin/env bash
# Removes every namespace, link and process that up.sh made. Safe to run twice.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/netns.conf"
inventory=${1:-}

for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS_PREFIX-" || true); do
  pids=$(ip netns pids "$ns" 2>/dev/null || true)
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
      sleep 0.1
    done
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
  fi
  ip netns delete "$ns"   # also deletes the namespace's end of its veth pair, and so the pair
done
ip link show "$BRIDGE" >/dev/null 2>&1 && ip link delete "$BRIDGE"
[ -n "$inventory" ] && rm -f "$inventory"
echo "netns hosts down"
exit 0

#!/usr/bin/env bash
# Creates the harness's hosts as network namespaces on this machine: one for the delay-service, one for the
# thread-service, one per injector, joined by a bridge on a private subnet that only they use.
#
# No packet can leave the machine: the namespaces get no default route, and the bridge holds an address in the
# subnet, so the subnet is a connected route on the host — traffic to an address no namespace holds dies on the
# bridge instead of following the host's default route. Usage: up.sh INJECTORS INVENTORY_JSON
set -euo pipefail
injectors=${1:?usage: up.sh INJECTORS INVENTORY_JSON}
inventory=${2:?usage: up.sh INJECTORS INVENTORY_JSON}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR
source "$here/netns.conf"

[ "$(id -u)" -eq 0 ] || { echo "loadlab: TARGET=netns needs root (ip netns); run as root or use TARGET=local" >&2; exit 2; }
command -v ip >/dev/null || { echo "loadlab: TARGET=netns needs iproute2 (ip)" >&2; exit 2; }
if ip link show "$BRIDGE" >/dev/null 2>&1 || ip netns list 2>/dev/null | grep -q "^$NS_PREFIX-"; then
  echo "loadlab: netns hosts already exist (bridge $BRIDGE or namespaces $NS_PREFIX-*); run 'make down TARGET=netns' first" >&2
  exit 2
fi
# The subnet must be ours alone: a route or an address already in it would send the hosts' traffic elsewhere.
taken=$(ip -4 route show table all root "$SUBNET_PREFIX.0/24"; ip -4 addr show to "$SUBNET_PREFIX.0/24")
if [ -n "$taken" ]; then
  echo "loadlab: $SUBNET_PREFIX.0/24 is already in use on this machine (change SUBNET_PREFIX in infra/netns/netns.conf):" >&2
  echo "$taken" >&2
  exit 2
fi

# Undo a half-made set of hosts if anything below fails.
undo_if_failed() {
  local status=$?
  rm -f "$inventory.tmp"
  if [ "$status" -ne 0 ]; then
    "$here/down.sh" >/dev/null 2>&1
    echo "loadlab: creating the netns hosts failed (exit $status, see above); removed what was made" >&2
  fi
  exit "$status"
}
trap undo_if_failed EXIT

ip link add "$BRIDGE" type bridge
ip addr add "$SUBNET_PREFIX.1/24" dev "$BRIDGE"
ip link set "$BRIDGE" up

add_host() {  # add_host NAME LAST_OCTET
  local ns="$NS_PREFIX-$1" addr="$SUBNET_PREFIX.$2" veth="$VETH_PREFIX$2"
  ip netns add "$ns"
  ip link add "$veth" type veth peer name eth0 netns "$ns"
  ip link set "$veth" master "$BRIDGE" up
  ip -n "$ns" addr add "$addr/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  # Per-namespace TCP settings a busy server and a load generator need (one new connection per request).
  ip netns exec "$ns" sysctl -q -w net.ipv4.ip_local_port_range="1024 65000" net.core.somaxconn=4096 \
    net.ipv4.tcp_tw_reuse=1 net.ipv4.tcp_max_syn_backlog=4096
}
entry() { printf '{"name": "%s", "namespace": "%s", "address": "%s"}' "$1" "$NS_PREFIX-$1" "$SUBNET_PREFIX.$2"; }

# Called directly, not inside $(...), where a failing command would not stop the script.
add_host delay 10
add_host thread 11
for ((i = 0; i < injectors; i++)); do add_host "injector-$i" $((20 + i)); done
{
  printf '{"bridge": "%s", "subnet": "%s.0/24",\n' "$BRIDGE" "$SUBNET_PREFIX"
  printf ' "delay": %s,\n "thread": %s,\n "injectors": [' "$(entry delay 10)" "$(entry thread 11)"
  for ((i = 0; i < injectors; i++)); do
    [ "$i" -gt 0 ] && printf ', '
    entry "injector-$i" $((20 + i))
  done
  printf ']}\n'
} > "$inventory.tmp"

# Check what the comment at the top promises before anything runs on these hosts.
via=$(ip -4 route get "$SUBNET_PREFIX.254" 2>&1 || true)
[[ "$via" == *" dev $BRIDGE "* ]] || { echo "loadlab: $SUBNET_PREFIX.254 would not stay on $BRIDGE: $via" >&2; exit 1; }
for ns in $(ip netns list | awk '{print $1}' | grep "^$NS_PREFIX-"); do
  [ -z "$(ip -n "$ns" -4 route show default)" ] || { echo "loadlab: $ns has a default route" >&2; exit 1; }
done
mv "$inventory.tmp" "$inventory"
echo "netns hosts up: delay $SUBNET_PREFIX.10, thread $SUBNET_PREFIX.11, injectors $SUBNET_PREFIX.20..$((20 + injectors - 1)) on bridge $BRIDGE"

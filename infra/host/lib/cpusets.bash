# shellcheck shell=bash
# --- SERVICE_CPUS: the service on cores of its own, every other role on the rest ----------------------------------
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}" "${here:?}"  # loadlab-host's, set before it sources this file

# The harness decides the split (harness/loadlab/core/servicecpus.py) and hands it to every host of a local or netns
# run as LOADLAB_CPU_SPLIT="service=1 others=0 quota_us=50000 period_us=100000" (quota -1: the cpuset is the limit).
# The service under test joins a cpuset of the service's cores (and, for a share of a core, a CFS quota) beside its
# pids and memory cgroups; every other process `start` starts joins a cpuset of the other cores, so the JVMs see the
# cores of their side only, as on hosts of their own. `stop` removes each process's cgroups, like the service's.
split_field() { local w; for w in ${LOADLAB_CPU_SPLIT:-}; do [ "${w%%=*}" != "$1" ] || echo "${w#*=}"; done; }

# split_mounts: the cpuset and cpu hierarchies (v1), mounted where `ip netns exec` hid them (cgroup_fs did pids and
# memory); a kernel that mounts cpu with cpuacct takes them together.
split_mounts() {
  local c
  [ "$(cgroup_fs)" = v1 ] || die "SERVICE_CPUS needs cgroup v1's cpuset and cpu controllers; this host has v2 only"
  for c in cpuset cpu; do
    [ -f "/sys/fs/cgroup/$c/cgroup.procs" ] && continue
    mkdir -p "/sys/fs/cgroup/$c"
    mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c" 2>/dev/null \
      || { [ "$c" = cpu ] && mount -t cgroup -o cpu,cpuacct cgroup /sys/fs/cgroup/cpu; } \
      || die "cannot mount the cgroup v1 $c controller (root needed)"
  done
}

# split_dirs NAME SIDE: NAME's cgroups for its side (service | others) of the split, made; one directory a line.
split_dirs() {
  local name=$1 side=$2 id base d quota
  [ -n "${LOADLAB_CPU_SPLIT:-}" ] || return 0
  split_mounts
  id="loadlab-$(basename "$state")-$name-cpus"
  base="/sys/fs/cgroup/cpuset$(own_cgroup cpuset)"; base=${base%/}; d="$base/$id"
  # A v1 cpuset takes no member before it has memory nodes and cores: the parent's nodes, this side's cores.
  { mkdir -p "$d" && cat "$base/cpuset.mems" > "$d/cpuset.mems" && split_field "$side" > "$d/cpuset.cpus"; } \
    || die "cannot set up the cpuset $d of $name (cores $(split_field "$side"); root needed)"
  echo "$d"
  quota=$(split_field quota_us)
  [ "$side" = service ] && [ -n "$quota" ] && [ "$quota" != -1 ] || return 0
  base="/sys/fs/cgroup/cpu$(own_cgroup cpu)"; base=${base%/}; d="$base/$id"
  { mkdir -p "$d" && split_field period_us > "$d/cpu.cfs_period_us" && echo "$quota" > "$d/cpu.cfs_quota_us"; } \
    || die "cannot set up the CPU quota $d of $name (root needed)"
  echo "$d"
}

# split_prefix NAME: the words that run any other role inside the other cores' cpuset (removed by `stop`).
split_prefix() {
  local lines dirs
  lines=$(split_dirs "$1" others) || exit 2
  printf '%s\n' "$lines" > "$state/$1.contained"
  mapfile -t dirs <<< "$lines"
  printf '%s\n' "$here/loadlab-host" contain-exec "${dirs[@]}" --
}

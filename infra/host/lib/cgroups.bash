# shellcheck shell=bash
# --- Containment of the service under test ------------------------------------------------------------------------
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}" "${here:?}"  # loadlab-host's, set before it sources this file

# The thread-service (or an APP jar) runs in a cgroup of its own with a pids and a memory limit, so a pool or a
# concurrency beyond what this host allows ends as a crash of that one process, named by the limit it hit (log-cause),
# never as a machine that can no longer fork: the harness, the other roles and the host stay responsive. The limits
# default to a share of the host's own (host_limits); the preflight refuses a pool that cannot fit them.
PIDS_SHARE_DIVISOR=2      # the service may take at most half of the host's pids and threads…
MAPS_RESERVED=4000        # …and fewer threads than max_map_count allows one process (2 mappings a thread stack),
                          #   less what a JVM maps besides its stacks (jars, heap, code cache, malloc arenas)
MEMORY_SHARE_DIVISOR=2    # at most half of the host's memory (or of the cgroup the host runs in)
HEAP_SHARE_DIVISOR=2      # its heap may grow to half of that (-Xmx): a waiting virtual thread's stack lives in the
                          #   heap, so a fixed small heap would end a virtual run that the memory could still hold;
                          #   the other half is for thread stacks, metaspace, code and GC structures

# cgroup_fs: makes the cgroup hierarchies visible (inside `ip netns exec`, whose private /sys has none, by mounting
# them in that private mount namespace only); prints v1 or v2.
cgroup_fs() {
  if [ -d /sys/fs/cgroup/pids ] && [ -f /sys/fs/cgroup/pids/cgroup.procs ]; then echo v1; return 0; fi
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo v2; return 0; fi
  local fs
  fs=$(awk '$3 == "cgroup2" {print "v2"; exit} $3 == "cgroup" && $4 ~ /(^|,)pids(,|$)/ {print "v1"; exit}' \
    /proc/self/mounts /proc/1/mounts 2>/dev/null | head -n 1)
  [ -n "$fs" ] || fs=$(grep -q ':pids:' /proc/self/cgroup && echo v1 || echo v2)
  mountpoint -q /sys/fs/cgroup 2>/dev/null || mount -t tmpfs cgroup-root /sys/fs/cgroup 2>/dev/null \
    || die "no cgroup file system here and none can be mounted (root needed)"
  if [ "$fs" = v2 ]; then
    mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null || die "cannot mount cgroup2 (root needed)"
  else
    local c
    for c in pids memory; do
      mkdir -p "/sys/fs/cgroup/$c"
      mountpoint -q "/sys/fs/cgroup/$c" || mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c" \
        || die "cannot mount the cgroup v1 $c controller (root needed)"
    done
  fi
  echo "$fs"
}

# own_cgroup CONTROLLER: this process's cgroup in that v1 hierarchy ("" for v2's unified one).
own_cgroup() { awk -F: -v c="$1" '$2 == c || ($2 == "" && c == "") {print $3; exit}' /proc/self/cgroup; }

# host_limits: this host's limits on threads and memory and the limits the service's cgroup gets, key=value lines.
host_limits() {
  local fs pid_max threads_max maps mem_kb cg_pids=max cg_mem=max pids mem_mb pids_by mem_by
  fs=$(cgroup_fs) || exit 2
  pid_max=$(cat /proc/sys/kernel/pid_max); threads_max=$(cat /proc/sys/kernel/threads-max)
  maps=$(cat /proc/sys/vm/max_map_count); mem_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
  if [ "$fs" = v1 ]; then
    cg_pids=$(cat "/sys/fs/cgroup/pids$(own_cgroup pids)/pids.max" 2>/dev/null || echo max)
    cg_mem=$(cat "/sys/fs/cgroup/memory$(own_cgroup memory)/memory.limit_in_bytes" 2>/dev/null || echo max)
  else
    cg_pids=$(cat "/sys/fs/cgroup$(own_cgroup "")/pids.max" 2>/dev/null || echo max)
    cg_mem=$(cat "/sys/fs/cgroup$(own_cgroup "")/memory.max" 2>/dev/null || echo max)
  fi
  # v1 says "no limit" with a huge number rather than "max".
  [ "$cg_mem" = max ] || [ "$cg_mem" -lt $((mem_kb * 1024)) ] || cg_mem=max
  pids=$(( pid_max / PIDS_SHARE_DIVISOR )) pids_by="kernel.pid_max $pid_max / $PIDS_SHARE_DIVISOR"
  if [ $(( threads_max / PIDS_SHARE_DIVISOR )) -lt "$pids" ]; then
    pids=$(( threads_max / PIDS_SHARE_DIVISOR )) pids_by="kernel.threads-max $threads_max / $PIDS_SHARE_DIVISOR"
  fi
  if [ $(( (maps - MAPS_RESERVED) / 2 )) -lt "$pids" ]; then
    pids=$(( (maps - MAPS_RESERVED) / 2 )) pids_by="(vm.max_map_count $maps - $MAPS_RESERVED) / 2 mappings a thread"
  fi
  if [ "$cg_pids" != max ] && [ $(( cg_pids / PIDS_SHARE_DIVISOR )) -lt "$pids" ]; then
    pids=$(( cg_pids / PIDS_SHARE_DIVISOR )) pids_by="the host's cgroup pids.max $cg_pids / $PIDS_SHARE_DIVISOR"
  fi
  mem_mb=$(( mem_kb / 1024 / MEMORY_SHARE_DIVISOR )) mem_by="MemTotal $(( mem_kb / 1024 )) MB / $MEMORY_SHARE_DIVISOR"
  if [ "$cg_mem" != max ] && [ $(( cg_mem / 1048576 / MEMORY_SHARE_DIVISOR )) -lt "$mem_mb" ]; then
    mem_mb=$(( cg_mem / 1048576 / MEMORY_SHARE_DIVISOR ))
    mem_by="the host's cgroup memory limit $(( cg_mem / 1048576 )) MB / $MEMORY_SHARE_DIVISOR"
  fi
  # SERVICE_MEMORY_MB (the harness's run/memorybound.py): the bound a user asked for, in place of the host's share.
  if [ -n "${LOADLAB_SERVICE_MEMORY_MB:-}" ]; then
    mem_mb=$LOADLAB_SERVICE_MEMORY_MB mem_by="SERVICE_MEMORY_MB"
  fi
  printf '%s\n' "cgroup=$fs" "pid_max=$pid_max" "threads_max=$threads_max" "max_map_count=$maps" \
    "mem_total_mb=$(( mem_kb / 1024 ))" "cgroup_pids_max=$cg_pids" \
    "cgroup_memory_max_mb=$([ "$cg_mem" = max ] && echo max || echo $(( cg_mem / 1048576 )))" \
    "service_pids_max=$pids" "service_pids_max_by=$pids_by" "service_memory_max_mb=$mem_mb" \
    "service_memory_max_by=$mem_by" "service_heap_max_mb=$(( mem_mb / HEAP_SHARE_DIVISOR ))" \
    "service_heap_max_by=the service's memory limit $mem_mb MB / $HEAP_SHARE_DIVISOR"
}

# limits [JSON_OUT]: host_limits, or the same as a JSON object in JSON_OUT (read by the summary's thread ceiling).
cmd_limits() {
  local out=${1:-} lines
  lines=$(host_limits) || exit 2
  [ -n "$out" ] || { echo "$lines"; return 0; }
  mkdir -p "$(dirname "$out")"
  local json="" key value
  while IFS='=' read -r key value; do
    [[ "$value" =~ ^[0-9]+$ ]] || value="\"$value\""
    json+="${json:+, }\"$key\": $value"
  done <<< "$lines"
  echo "{$json}" > "$out"
}

# contain_prefix NAME: makes NAME's cgroups (a child of this process's own in each v1 hierarchy, so whatever limits
# the host already puts on us still hold; a child of the root on v2, the only place controllers can be delegated to
# next to processes) with the limits of host_limits; prints the words that run a command inside them.
contain_prefix() {
  local name=$1 fs id limits pids mem_mb dirs=() d
  limits=$(host_limits) || exit 2
  fs=$(sed -n 's/^cgroup=//p' <<< "$limits")
  pids=$(sed -n 's/^service_pids_max=//p' <<< "$limits")
  mem_mb=$(sed -n 's/^service_memory_max_mb=//p' <<< "$limits")
  # Test-only: a lower pids limit than the host's share, which the preflight (reading host_limits) does not see, so
  # make test can cause the thread-limit crash of a pool the preflight let through, cheaply. A real run never sets it.
  [ -z "${LOADLAB_FAULT_PIDS_MAX:-}" ] || pids=$LOADLAB_FAULT_PIDS_MAX
  id="loadlab-$(basename "$state")-$name"
  if [ "$fs" = v1 ]; then
    dirs=("/sys/fs/cgroup/pids$(own_cgroup pids)/$id" "/sys/fs/cgroup/memory$(own_cgroup memory)/$id")
    dirs=("${dirs[@]//\/\///}")
    { mkdir -p "${dirs[@]}" && echo "$pids" > "${dirs[0]}/pids.max" \
      && echo $(( mem_mb * 1048576 )) > "${dirs[1]}/memory.limit_in_bytes"; } \
      || die "cannot set up the cgroups of $name (${dirs[*]}; root needed)"
  else
    echo "+pids +memory" > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
    dirs=("/sys/fs/cgroup/$id")
    { mkdir -p "${dirs[0]}" && echo "$pids" > "${dirs[0]}/pids.max" \
      && echo $(( mem_mb * 1048576 )) > "${dirs[0]}/memory.max"; } \
      || die "cannot set up the cgroup of $name (${dirs[0]}; root needed)"
  fi
  local split; split=$(split_dirs "$name" service) || exit 2
  [ -z "$split" ] || mapfile -t -O "${#dirs[@]}" dirs <<< "$split"
  printf '%s\n' "${dirs[@]}" > "$state/$name.contained"
  printf '%s\n' "$here/loadlab-host" contain-exec "${dirs[@]}" --
}

# contain-exec CGROUP_DIR... -- CMD...: joins the cgroups (CMD's threads and children follow), becomes CMD.
cmd_contain_exec() {
  local d
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    d=$1; shift
    echo $$ > "$d/cgroup.procs" || die "cannot join the cgroup $d"
  done
  shift
  exec "$@"
}

# contained_limit NAME: which of its cgroup's limits NAME hit ("pids limit 4096", "memory limit 12000 MB: killed by
# the kernel's OOM killer"), empty when none. The kernel counts every refusal, so this is what happened, not a guess.
contained_limit() {
  local name=$1 d hit=()
  [ -f "$state/$name.contained" ] || return 0
  cgroup_fs >/dev/null || return 0
  while read -r d; do
    [ -d "$d" ] || continue
    if [ -f "$d/pids.events" ] && [ "$(awk '$1 == "max" {print $2}' "$d/pids.events")" -gt 0 ] 2>/dev/null; then
      hit+=("pids limit $(cat "$d/pids.max")")
    fi
    local kills=0 bytes=""
    if [ -f "$d/memory.events" ]; then
      kills=$(awk '$1 == "oom_kill" {print $2}' "$d/memory.events"); bytes=$(cat "$d/memory.max")
    elif [ -f "$d/memory.oom_control" ]; then
      kills=$(awk '$1 == "oom_kill" {print $2}' "$d/memory.oom_control"); bytes=$(cat "$d/memory.limit_in_bytes")
    fi
    if [ "${kills:-0}" -gt 0 ] 2>/dev/null; then
      hit+=("memory limit $(( bytes / 1048576 )) MB: killed by the kernel's OOM killer")
    fi
  done < "$state/$name.contained"
  local IFS=';'
  echo "${hit[*]}"
}

# contain_release NAME: a JVM at its pids limit cannot start the thread that runs its shutdown (nor dump its flight
# recording): before it is stopped, a little room above the limit it hit (the load has stopped by then).
CONTAIN_RELEASE_PIDS=256
contain_release() {
  local d
  [ -f "$state/$1.contained" ] || return 0
  cgroup_fs >/dev/null || return 0
  while read -r d; do
    [ -f "$d/pids.events" ] && [ "$(awk '$1 == "max" {print $2}' "$d/pids.events")" -gt 0 ] 2>/dev/null || continue
    echo $(( $(cat "$d/pids.max") + CONTAIN_RELEASE_PIDS )) > "$d/pids.max" || true
  done < "$state/$1.contained"
}

# Removes NAME's cgroups once its processes are gone (a cgroup with members cannot be removed; a dying JVM may
# take a moment to leave).
contain_cleanup() {
  local name=$1 d
  [ -f "$state/$name.contained" ] || return 0
  cgroup_fs >/dev/null || return 0
  ! grep -q '^/sys/fs/cgroup/cpu' "$state/$name.contained" || split_mounts  # SERVICE_CPUS's, hidden by netns
  while read -r d; do
    remove_cgroup "$d" || echo "loadlab-host: could not remove the cgroup $d" >&2
  done < "$state/$name.contained"
  rm -f "$state/$name.contained"
}

# remove_cgroup DIR: removes a cgroup once its last member is gone. A process that exited stays a member until it is
# reaped, which a lazy init does seconds later (see group_alive), so the removal is retried for a while.
remove_cgroup() {
  local d=$1 i
  for ((i = 0; i < 100; i++)); do
    [ -d "$d" ] || return 0
    rmdir "$d" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

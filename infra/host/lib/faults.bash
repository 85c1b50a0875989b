# shellcheck shell=bash
# --- Fault injection, for tests only -------------------------------------------------------------------------------
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}" "${here:?}"  # loadlab-host's, set before it sources this file

# LOADLAB_FAULT_CPU_QUOTA="delay-service=2@12-45,gatling-injector-0#2=3@5" caps what `start` starts under that name
# at 2% (3%) of one core, from 12 s (5 s) after its start until 45 s after it (until it stops), through a CPU cgroup
# of its own that `stop` removes. `NAME#N=` applies to the N-th start of NAME since the last stop-all (which begins
# every run) only: the second mode's injector, say. The window lets a JVM boot, and later shut down or write its
# report, at full speed. `NAME[#N]=PERCENT@file` caps it instead while the file $LOADLAB_STATE/NAME.fault-on exists: a
# test opens and closes the window on the events it waits for (a mode's schedule begun, ended), not on a guess of
# how long a JVM takes to start. Only harness/tests/e2e/test_e2e_repeat_sweep.py and run/test_fault_hook.py set it, to starve the
# delay-service or an injector on purpose and check that the run is flagged. A real run never sets it.
FAULT_PERIOD_US=1000000  # the longest CFS period: a starved process stalls for most of every second, visibly

# fault_prefix NAME: nothing, or the words that run a command inside NAME's fault cgroup (one per line).
fault_prefix() {
  local name=$1 entry cg faults=${LOADLAB_FAULT_CPU_QUOTA:-} nth
  [ -n "$faults" ] || return 0
  nth=$(($(cat "$state/$name.starts" 2>/dev/null || echo 0) + 1))
  echo "$nth" > "$state/$name.starts"
  for entry in ${faults//,/ }; do
    [[ "$entry" == "$name="* || "$entry" == "$name#$nth="* ]] || continue
    [[ "${entry#*=}" =~ ^([0-9]+)(@([0-9]+)(-([0-9]+))?|@(file))?$ && ${BASH_REMATCH[1]} -ge 1 ]] \
      || die "LOADLAB_FAULT_CPU_QUOTA: '$entry' is not NAME[#N]=PERCENT[@FROM_S[-UNTIL_S]] or NAME[#N]=PERCENT@file"
    local window=("${BASH_REMATCH[3]:-0}" "${BASH_REMATCH[5]:-}")
    [ -z "${BASH_REMATCH[6]}" ] || window=(file "$state/$name.fault-on")
    cg=$(fault_cgroup "$name") || exit 2
    echo "$cg" > "$state/$name.cgroup"
    printf '%s\n' "$here/loadlab-host" fault-exec "$cg" "$((BASH_REMATCH[1] * FAULT_PERIOD_US / 100))" \
      "${window[@]}" --
  done
}

# fault_cgroup NAME: creates (or resets) NAME's CPU cgroup, v1 (cpu controller) or v2 (cpu.max); prints its path.
fault_cgroup() {
  local id cg root
  id="loadlab-fault-$(basename "$state")-$1"
  if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    cg=/sys/fs/cgroup/cpu/$id
    { mkdir -p "$cg" && echo "$FAULT_PERIOD_US" > "$cg/cpu.cfs_period_us" && echo -1 > "$cg/cpu.cfs_quota_us"; } \
      || die "cannot set up the CPU cgroup $cg (root needed)"
  else
    for root in /sys/fs/cgroup /sys/fs/cgroup/unified; do
      grep -qw cpu "$root/cgroup.controllers" 2>/dev/null && break
      root=""
    done
    [ -n "$root" ] || die "LOADLAB_FAULT_CPU_QUOTA needs a CPU cgroup controller (v1 cpu or v2 cpu.max); none found"
    echo +cpu > "$root/cgroup.subtree_control" 2>/dev/null || true
    cg=$root/$id
    { mkdir -p "$cg" && echo "max $FAULT_PERIOD_US" > "$cg/cpu.max"; } \
      || die "cannot set up the CPU cgroup $cg (root needed)"
  fi
  echo "$cg"
}

# fault-exec CGROUP QUOTA_US FROM_S UNTIL_S -- CMD...: times the quota, joins the cgroup (children follow),
# becomes CMD. FROM_S `file`: the quota holds while the file UNTIL_S names exists.
cmd_fault_exec() {
  local cg=$1 quota=$2 from=$3 until=$4; shift 4; [ "${1:-}" = "--" ] && shift
  # Forked before joining the cgroup, so it is not starved itself; in CMD's process group, so `stop` also ends a
  # quota not yet armed; forked twice, so CMD (which never reaps it) is not left with a zombie child.
  [ "$from" != file ] || ( fault_on_file "$cg" "$quota" "$until" )
  [ "$from" = file ] || ( ( sleep "$from"
      fault_set_quota "$cg" "$quota"
      echo "loadlab-host: test fault: CPU quota $((quota * 100 / FAULT_PERIOD_US))% of one core applied" >&2
      [ -n "$until" ] || exit 0
      sleep $((until - from))
      fault_set_quota "$cg" -1
      echo "loadlab-host: test fault: CPU quota lifted" >&2 ) & )
  echo $$ > "$cg/cgroup.procs"
  exec "$@"
}

# fault_on_file CGROUP QUOTA_US FILE: the quota while FILE exists, once (forked twice, like the timed window).
fault_on_file() {
  ( while [ ! -e "$3" ]; do sleep 0.2; done
    fault_set_quota "$1" "$2"
    echo "loadlab-host: test fault: CPU quota $(($2 * 100 / FAULT_PERIOD_US))% of one core applied ($3)" >&2
    while [ -e "$3" ]; do sleep 0.2; done
    fault_set_quota "$1" -1
    echo "loadlab-host: test fault: CPU quota lifted ($3 removed)" >&2 ) &
}

# fault_set_quota CGROUP QUOTA_US (-1: none)
fault_set_quota() {
  if [ -f "$1/cpu.max" ]; then
    echo "$([ "$2" = -1 ] && echo max || echo "$2") $FAULT_PERIOD_US" > "$1/cpu.max"
  else
    echo "$2" > "$1/cpu.cfs_quota_us"
  fi
}

# Removes NAME's fault cgroup once its processes are gone (a cgroup with members cannot be removed).
fault_cleanup() {
  local cg
  cg=$(cat "$state/$1.cgroup" 2>/dev/null) || return 0
  remove_cgroup "$cg" || echo "loadlab-host: could not remove the fault cgroup $cg" >&2
  rm -f "$state/$1.cgroup"
}

# shellcheck shell=bash
# A started process's life: start, wait, stop, stop-all, status, and why it died (log-cause).
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}"  # loadlab-host's, set before it sources this file

# A started command runs as the leader of its own process group; it is alive while any process of the group is
# (the JVM outlives its bash wrapper by seconds during a graceful shutdown). A process that has exited stays a
# zombie until its parent reaps it, and the setsid wrapper's parent is the host's init: where init reaps lazily (the
# test machines' reaps every ~2 s) `kill -0` would call a dead group alive, delay every stop and hide a death from the
# watcher. So: alive while a member of the group (or the process itself) is not a zombie.
group_alive() {
  ps -e -o pgid=,pid=,stat= | awk -v p="$1" '($1 == p || $2 == p) && $3 !~ /^Z/ {found = 1} END {exit !found}'
}
alive() { local pid; pid=$(pid_of "$1"); [ -n "$pid" ] && group_alive "$pid"; }

# start NAME LOG -- CMD...: runs CMD in its own session (a terminal Ctrl-C reaches only the harness, which then
# stops everything in order), records its pid, and its exit code once it ends.
cmd_start() {
  local name=$1 log=$2; shift 2; [ "${1:-}" = "--" ] && shift
  if alive "$name"; then die "$name is already running (pid $(pid_of "$name"))"; fi
  rm -f "$state/$name.rc"
  mkdir -p "$(dirname "$log")"
  local fault=() contain=() words
  words=$(fault_prefix "$name") || exit 2
  [ -z "$words" ] || mapfile -t fault <<< "$words"
  if [ -n "${contained:-}" ]; then
    words=$(contain_prefix "$name") || exit 2
    mapfile -t contain <<< "$words"
  elif [ -n "${LOADLAB_CPU_SPLIT:-}" ]; then
    words=$(split_prefix "$name") || exit 2
    mapfile -t contain <<< "$words"
  fi
  setsid bash -c '"$@" ; echo $? > "'"$state/$name.rc"'"' _ "${fault[@]}" "${contain[@]}" "$@" >"$log" 2>&1 \
    < /dev/null &
  echo $! > "$state/$name.pid"
  echo $!
}

# wait NAME TIMEOUT_S: waits for NAME to end; prints its exit code (124 when it outlived the timeout).
cmd_wait() {
  local name=$1 timeout=${2:-86400} waited=0
  while alive "$name"; do
    if [ "$waited" -ge $((timeout * 10)) ]; then echo 124; return 0; fi
    sleep 0.1; waited=$((waited + 1))
  done
  cat "$state/$name.rc" 2>/dev/null || echo 143
}

# stop NAME [GRACE_S]: SIGTERM to the whole session, SIGKILL after the grace period; returns once it is gone, so
# its ports are free for the next start.
cmd_stop() {
  local name=$1 grace=${2:-20} pid i sig
  pid=$(pid_of "$name")
  [ -n "$pid" ] || { fault_cleanup "$name"; contain_cleanup "$name"; scratch_cleanup "$name"; return 0; }
  # A process may ask for another signal than TERM (PostgreSQL: INT is its fast shutdown, TERM waits for clients).
  sig=$(cat "$state/$name.stopsig" 2>/dev/null || echo TERM)
  if group_alive "$pid"; then
    contain_release "$name"
    kill "-$sig" -- "-$pid" 2>/dev/null || kill "-$sig" "$pid" 2>/dev/null || true
    for ((i = 0; i < grace * 10; i++)); do
      group_alive "$pid" || break
      sleep 0.1
    done
    if group_alive "$pid"; then
      echo "loadlab-host: $name did not stop within ${grace}s, killing it" >&2
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    fi
  fi
  rm -f "$state/$name.pid" "$state/$name.stopsig"
  fault_cleanup "$name"
  contain_cleanup "$name"
  scratch_cleanup "$name"
}

cmd_stop_all() {
  local f
  # A run begins with stop-all: `NAME#N` test faults count the starts of this run, and no window is left open.
  rm -f "$state"/*.starts "$state"/*.fault-on
  # Load generators and samplers first, so the services are not stopped under load; within each group all at once
  # (each stop waits for its own process: a graceful shutdown, PostgreSQL's, takes a second or so).
  stop_together "${1:-20}" "$state"/sampler-*.pid "$state"/gatling-*.pid
  stop_together "${1:-20}" "$state"/*.pid
}

# stop_together GRACE PID_FILE...: cmd_stop for each name at once, back when every one has stopped. SERVICE_CPUS's
# controllers are mounted first, once: concurrent cleanups must not race to mount them.
stop_together() {
  local grace=$1 f; shift
  ! grep -qs '^/sys/fs/cgroup/cpu' "$state"/*.contained || split_mounts
  for f in "$@"; do
    [ -e "$f" ] || continue
    cmd_stop "$(basename "$f" .pid)" "$grace" &
  done
  wait
}

# status [--health NAME=URL]... [--fresh NAME=FILE]... NAME...: one line per NAME, `NAME running`, `NAME limit`
# (alive, but it hit a limit of its cgroup), `NAME exited RC` (RC `?` when the process group died without its wrapper
# writing the code: killed as a whole), or `NAME absent` (never started here); per --health one line
# `health NAME ok|fail` (a GET of URL within HEALTH_TIMEOUT_S); per --fresh one line `fresh NAME SECONDS` since FILE
# was last written (`fresh NAME none` without FILE): a sampler that runs but writes nothing is frozen. One call per
# host and second watches every role on it (one SSH round trip on aws).
HEALTH_TIMEOUT_S=1.5
cmd_status() {
  local health=() fresh=() name pid entry written
  while [ $# -gt 0 ]; do
    case "$1" in
      --health) health+=("$2"); shift 2 ;;
      --fresh) fresh+=("$2"); shift 2 ;;
      *) break ;;
    esac
  done
  for name in "$@"; do
    pid=$(pid_of "$name")
    if [ -z "$pid" ]; then echo "$name absent"
    elif group_alive "$pid"; then
      # A JVM refused a thread does not exit (no JVM flag makes it): it limps on without the thread that failed (a
      # poller, a pool worker). The kernel's count of refusals says it is broken: the watcher makes it a crash.
      if [ -f "$state/$name.contained" ] && [ -n "$(contained_limit "$name")" ]; then echo "$name limit"
      else echo "$name running"
      fi
    else echo "$name exited $(cat "$state/$name.rc" 2>/dev/null || echo '?')"
    fi
  done
  for entry in "${health[@]}"; do
    if curl -fsS -o /dev/null --max-time "$HEALTH_TIMEOUT_S" "${entry#*=}" 2>/dev/null; then
      echo "health ${entry%%=*} ok"
    else
      echo "health ${entry%%=*} fail"
    fi
  done
  for entry in "${fresh[@]}"; do
    if written=$(stat -c %Y "${entry#*=}" 2>/dev/null); then
      echo "fresh ${entry%%=*} $(($(date +%s) - written))"
    else
      echo "fresh ${entry%%=*} none"
    fi
  done
}

# log-cause LOG [NAME]: why a JVM died: the limit of NAME's cgroup it hit, first (the kernel's own count, so a
# crash names its limit: "unable to create native thread: pids limit 4096"), then the last line of its log that
# names a cause; empty when neither does. The wrapper's own "line 1: <pid> Killed" only repeats the exit code's
# signal, so it is left out.
cmd_log_cause() {
  local line="" limit=""
  [ -z "${2:-}" ] || limit=$(contained_limit "$2")
  [ ! -f "$1" ] || line=$(grep -a -E 'OutOfMemoryError|unable to create native thread|Too many open files|StackOverflowError|A fatal error has been detected|SIGSEGV|SIGBUS|Cannot allocate memory|Killed|Aborted' \
    "$1" | grep -a -v -E '^_: line [0-9]+: +[0-9]+ ' | tail -n 1 | cut -c1-300 || true)
  if [ -n "$limit" ] && [[ "$limit" == pids* ]]; then
    echo "unable to create native thread: $limit${line:+ ($line)}"
  elif [ -n "$limit" ]; then
    echo "$limit${line:+ ($line)}"
  else
    echo "$line"
  fi
}

# shellcheck shell=bash
# The instruments: Gatling (the load), the sampler (loadlab-sample) and the reading of the service's flight recording.
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}" "${here:?}"  # loadlab-host's, set before it sources this file

# gatling_classpath: the simulation's classpath, the compiled simulation packed into a jar once per build (CDS does
# not archive classes from a directory; with the archive Gatling is up ~1 s sooner) with its flags first; the
# directory itself when packing fails. Python's zipfile packs it: a host may have a JRE without the jar tool.
gatling_classpath() {
  local classes out
  classes="$(app)/gatling/test-classes"; out="$state/boot/simulation.jar"
  mkdir -p "$state/boot"
  if [ ! -f "$out" ] || [ -n "$(find "$classes" -newer "$out" -print -quit)" ]; then
    rm -f "$out"
    if ! (cd "$classes" && python3 -m zipfile -c "$out.tmp" ./* > /dev/null 2>&1 && mv "$out.tmp" "$out"); then
      rm -f "$out.tmp"
      printf '%s\n' -cp "$classes:$(app)/gatling/lib/*"
      return 0
    fi
  fi
  auto_archive_args gatling
  printf '%s\n' -cp "$out:$(app)/gatling/lib/*"
}

# gatling NAME LOG RESULTS_DIR DESCRIPTION [-Dloadlab.x=y ...]: the simulation as a plain java command (no Maven
# on hosts), with the JVM flags gatling-maven-plugin would use (gatling/jvm.options).
cmd_gatling() {
  local name=$1 log=$2 results=$3 description=$4; shift 4
  mkdir -p "$results"
  # Gatling base64-decodes the run description whenever it can, so it must be given encoded.
  local classpath; mapfile -t classpath < <(gatling_classpath)
  cmd_start "$name" "$log" -- "$(java_bin)" "@$(app)/gatling/jvm.options" "$@" "${classpath[@]}" io.gatling.app.Gatling \
    -s loadlab.gatling.simulation.ForwardSimulation -rf "$results" -rd "$(printf %s "$description" | base64 -w0)"
}

# sampler NAME OUT_CSV WATCHED_NAME [--jvm-fields=A,B,...] [JVM_URL JVM_CSV] [--probe-url=URL]: once a second, CPU
# of a process and of the host (and the named JVM metrics from the thread-service's management port, and the latency
# of one GET of URL, when given). Options starting with -- go to loadlab-sample as they are.
cmd_sampler() {
  local name=$1 out=$2 watched=$3; shift 3
  local args=(--pid-file "$state/$watched.pid" --out "$out")
  while [ $# -gt 0 ] && [[ "$1" == --* ]]; do args+=("$1"); shift; done
  [ $# -ge 2 ] && args+=(--jvm-url "$1" --jvm-out "$2") && shift 2
  while [ $# -gt 0 ] && [[ "$1" == --* ]]; do args+=("$1"); shift; done
  cmd_start "$name" "${out%.csv}.sampler.log" -- python3 "$here/loadlab-sample" "${args[@]}"
}

# pinned JFR_FILE OUT_JSON: counts jdk.VirtualThreadPinned events of the service's recording and every event type it
# holds at least once (`jfr summary`: virtual threads started, monitor waits), with the GCs' total and longest pause,
# into OUT_JSON; and writes its per-second cost events as `jfr print --json` beside OUT_JSON, in flight.json, for
# harness/loadlab/summary/reading/flight.py. The JSON files are the raw files: `make report` rebuilds from them
# without a JDK.
# Events of service.jfc recorded per occurrence: counted (`pinned`), not exported per second into flight.json.
COUNTED_ONLY='VirtualThreadPinned|VirtualThreadStart|JavaMonitorEnter'
cmd_pinned() {
  local jfr=$1 out=$2 jfr_tool n events summary counts gc flight gc_rows flight_pid gc_pid
  # /usr/bin/java is a link on Amazon Linux; jfr sits next to the real binary.
  jfr_tool="$(dirname "$(readlink -f "$(java_bin)")")/jfr"
  [ -f "$jfr" ] || die "no JFR recording at $jfr"
  # Each `jfr` is a JVM start (about a second) after each mode: the three readings of the finished recording run side
  # by side. The events recorded per occurrence (one per request for a virtual thread started) are counted from the
  # summary, never exported one by one: flight.json stays the periodic rows.
  flight="$(dirname "$out")/flight.json"
  gc_rows="$out.gc.tmp"
  events=$(grep -o 'event name="[^"]*"' "$here/service.jfc" | cut -d'"' -f2 | grep -v -E "$COUNTED_ONLY" | paste -sd,)
  "$jfr_tool" print --json --events "$events" "$jfr" > "$flight.tmp" &
  flight_pid=$!
  "$jfr_tool" print --events jdk.GarbageCollection "$jfr" > "$gc_rows" &
  gc_pid=$!
  # Rows of `jfr summary` look like ` jdk.VirtualThreadStart   1234   56789` (type, count, bytes): the pinning count
  # and every type's count.
  summary=$("$jfr_tool" summary "$jfr")
  n=$(awk '$1 == "jdk.VirtualThreadPinned" && $2 ~ /^[0-9]+$/ {n = $2} END {print n + 0}' <<<"$summary")
  counts=$(awk '$1 ~ /^jdk\./ && $2 ~ /^[0-9]+$/ && $2 > 0 {printf "%s\"%s\": %s", sep, $1, $2; sep=", "}' <<<"$summary")
  wait "$gc_pid"
  # Pauses as jfr prints them (`sumOfPauses = 3.21 ms`), in ms whatever the unit.
  gc=$(awk '
    $1 == "sumOfPauses" { v = $3; u = $4; ms = (u == "s") ? v * 1000 : (u == "us") ? v / 1000 : (u == "ns") ? v / 1e6 : v
                          total += ms; if (ms > longest) longest = ms }
    END { printf "\"gc_pause_total_ms\": %.1f, \"gc_pause_max_ms\": %.1f", total, longest }' "$gc_rows")
  rm -f "$gc_rows"
  echo "{\"virtual_thread_pinned_events\": ${n:-0}, \"event_counts\": {${counts}}, ${gc}}" > "$out"
  wait "$flight_pid" && mv "$flight.tmp" "$flight"
}

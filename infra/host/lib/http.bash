# shellcheck shell=bash
# What a host asks its services over HTTP: are they up, warm, answering.
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin.

# wait-http URL TIMEOUT_S [NAME]: until URL answers 2xx; fails early when the process NAME has died.
cmd_wait_http() {
  local url=$1 timeout=$2 name=${3:-} i
  for ((i = 0; i < timeout * 5; i++)); do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then return 0; fi
    if [ -n "$name" ] && ! alive "$name"; then die "$name exited before $url answered (see its log)"; fi
    sleep 0.2
  done
  die "$url did not answer within ${timeout}s"
}

# warm-http URL EXPECTED_MS MARGIN_MS MAX_S: rounds of 48 GETs, 16 at a time, until a round's 90th percentile is
# within EXPECTED_MS + MARGIN_MS (at least 3 rounds: a service's lazy initialisation and first compilations are
# behind it) or MAX_S have passed. One line per round, `round <k> <median_ms> <p90_ms> <failed>`, then
# `steady 0|1`. A cold service answers its first requests far slower than it will (the delay-service's first probe:
# 309 ms against 201): the first measured level must not meet it cold.
cmd_warm_http() {
  local url=$1 expected=$2 margin=$3 max_s=$4 k=0 start args i times median p90 failed
  start=$(date +%s)
  args=()
  for ((i = 0; i < 48; i++)); do args+=(-o /dev/null "$url"); done
  while :; do
    k=$((k + 1))
    times=$(curl -s --parallel --parallel-immediate --parallel-max 16 --max-time 10 -w '%{http_code} %{time_total}\n' "${args[@]}" 2>/dev/null || true)
    failed=$(awk '$1 !~ /^2/' <<<"$times" | wc -l)
    read -r median p90 < <(awk '$1 ~ /^2/ {print $2 * 1000}' <<<"$times" | sort -n \
      | awk '{v[NR] = $1} END {if (NR) printf "%.0f %.0f\n", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)]; else print "0 0"}')
    echo "round $k $median $p90 $failed"
    if [ "$k" -ge 3 ] && [ "$failed" -eq 0 ] && [ "$p90" -le $((expected + margin)) ]; then echo "steady 1"; return 0; fi
    if [ $(($(date +%s) - start)) -ge "$max_s" ]; then echo "steady 0"; return 0; fi
  done
}

# wait-answer URL TIMEOUT_S NAME: until URL answers at all (any HTTP status: an app need not have a health
# endpoint); fails early when the process NAME has died.
cmd_wait_answer() {
  local url=$1 timeout=$2 name=$3 i code
  for ((i = 0; i < timeout * 5; i++)); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 2>/dev/null || true)
    if [ -n "$code" ] && [ "$code" != 000 ]; then return 0; fi
    if ! alive "$name"; then die "$name exited before it answered on $url"; fi
    sleep 0.2
  done
  die "$name did not answer on $url within ${timeout}s"
}

# http-status URL MAX_TIME_S [METHOD [BODY CONTENT_TYPE]]: one request (a GET by default; BODY is the text sent,
# through stdin so a body starting with @ is never read as a file name); prints `<status> <seconds>` (status 000: no
# answer within MAX_TIME_S).
cmd_http_status() {
  local method=${3:-GET}
  if [ $# -ge 5 ]; then
    printf '%s' "$4" | curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time "$2" -X "$method" \
      -H "Content-Type: $5" --data-binary @- "$1" 2>/dev/null || true
  else
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' --max-time "$2" -X "$method" "$1" 2>/dev/null || true
  fi
}

#!/usr/bin/env bash
# A/B of two builds of the server under the same tracking load at the same time, so a change worth a few
# percent shows through a noisy machine (CPU steal, frequency changes) that moves separate runs by ±30%.
#
#   BENCH_DATABASE_URL=postgres://… bash bench/ab.sh ROUNDS DIR_A DIR_B
#   BENCH_DATABASE_URL=pglite bash bench/ab.sh ROUNDS DIR_A DIR_B    # the embedded database, one DATA_DIR each
#
# DIR_A and DIR_B are checkouts of the project (e.g. `git worktree add /tmp/a <commit>`; copy static/assets
# from a build into each). Both servers run at once, each in its own PostgreSQL schema, each loaded by its
# own wrk (Debian's package) with 32 connections sending POST /api/tracking/visit from 20,000 addresses.
# After a warm-up round, each round prints events answered and CPU per event (the server process, and its
# main JavaScript thread alone) for both; the last line sums the rounds. An A/A run (same DIR twice) shows
# the noise left, and the last line each server's peak resident memory (VmHWM). Extra server environment:
# EA / EB (e.g. EB="X=1"); seconds per round: SECS (default 5). PUBLIC=1 sends from public addresses
# (177.32.x.x, a Brazilian operator's range) instead of private 10.x ones, so each visit's country is looked up
# in the IP database (20,000 addresses cycle through its cache of 1,000: every lookup is a real one).
set -euo pipefail
rounds=$1 A=$2 B=$3
url=${BENCH_DATABASE_URL:?set BENCH_DATABASE_URL to a PostgreSQL URL, or to pglite}
command -v wrk > /dev/null || { echo "wrk is needed: apt-get install -y wrk" >&2; exit 1; }
secs=${SECS:-5}
work=$(mktemp -d)
first_octets="10.%d"
[ "${PUBLIC:-}" = 1 ] && first_octets="177.%d"
cat > "$work/visit.lua" << EOF
local n = 0
wrk.method = "POST"
wrk.body = '{"source":"/pt-br","sessionId":"bench-session-0001","utmSource":"bench","utmCampaign":"speed","utmMedium":"cpc"}'
wrk.headers["content-type"] = "application/json"
wrk.headers["origin"] = "http://127.0.0.1:8399"
wrk.headers["user-agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
request = function()
  n = n + 1
  local i = 1 + (n % 20000)
  wrk.headers["x-forwarded-for"] = string.format("$first_octets.%d.%d", 32 + math.floor(i / 65536) % 64, math.floor(i / 256) % 256, i % 256)
  return wrk.format()
end
EOF

pids=()
start() { # dir port schema env
  local db=""
  if [ "$url" != pglite ]; then
    psql "$url" -qc "drop schema if exists $3 cascade; create schema $3" > /dev/null 2>&1
    db="$url?search_path=$3"
  fi
  env $4 PORT="$2" HOST=127.0.0.1 PUBLIC_ORIGIN=http://127.0.0.1:8399 TRUST_PROXY=1 LOG_LEVEL=warn \
    DATA_DIR="$work/data-$2" DATABASE_URL="$db" \
    deno run -A --v8-flags=--max-semi-space-size=8,--max-old-space-size=1024 "$1/src/main.ts" > "$work/$2.log" 2>&1 &
  pids+=($!)
}
cleanup() {
  kill "${pids[@]}" 2> /dev/null || true
  wait 2> /dev/null || true
  if [ "$url" != pglite ]; then
    for s in ab_a ab_b; do psql "$url" -qc "drop schema if exists $s cascade" > /dev/null 2>&1 || true; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
start "$A" 8399 ab_a "${EA:-}"
start "$B" 8398 ab_b "${EB:-}"
for port in 8399 8398; do
  # Up to 2 minutes: a first PGlite start runs initdb, which takes tens of seconds on a loaded machine.
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.2; done
done
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
main() { awk '{print $14 + $15}' "/proc/$1/task/$1/stat"; }
pa=${pids[0]} pb=${pids[1]}
sa=0 sb=0 ma=0 mb=0 na=0 nb=0
for r in $(seq 0 "$rounds"); do
  a0=$(cpu "$pa") b0=$(cpu "$pb") am0=$(main "$pa") bm0=$(main "$pb")
  wrk -t1 -c32 -d"${secs}s" -s "$work/visit.lua" http://127.0.0.1:8399/api/tracking/visit > "$work/a.txt" &
  w1=$!
  wrk -t1 -c32 -d"${secs}s" -s "$work/visit.lua" http://127.0.0.1:8398/api/tracking/visit > "$work/b.txt" &
  w2=$!
  wait $w1 $w2
  a1=$(cpu "$pa") b1=$(cpu "$pb") am1=$(main "$pa") bm1=$(main "$pb")
  ra=$(awk '/requests in/{print $1}' "$work/a.txt") rb=$(awk '/requests in/{print $1}' "$work/b.txt")
  if grep -q Non-2xx "$work/a.txt" "$work/b.txt"; then echo "non-2xx answers: see the server logs" >&2; exit 1; fi
  [ "$r" = 0 ] && continue # warm-up
  # /proc counts CPU in 1/100 s: × 10,000 gives µs.
  printf "round %d  A: %6d events, main %4d µs/event, server %4d | B: %6d events, main %4d µs/event, server %4d\n" \
    "$r" "$ra" $(((am1 - am0) * 10000 / ra)) $(((a1 - a0) * 10000 / ra)) \
    "$rb" $(((bm1 - bm0) * 10000 / rb)) $(((b1 - b0) * 10000 / rb))
  sa=$((sa + a1 - a0)) sb=$((sb + b1 - b0)) ma=$((ma + am1 - am0)) mb=$((mb + bm1 - bm0))
  na=$((na + ra)) nb=$((nb + rb))
done
echo "total  A ($A): $na events, main $((ma * 10000 / na)) µs/event, server $((sa * 10000 / na))" \
  "| B ($B): $nb events, main $((mb * 10000 / nb)) µs/event, server $((sb * 10000 / nb))"
hwm() { awk '/VmHWM/{printf "%d MB", $2 / 1024}' "/proc/$1/status"; }
echo "peak RSS  A: $(hwm "$pa") | B: $(hwm "$pb")"

#!/usr/bin/env bash
# BullMQ timing baselines from ../shared/peers, run in the same sitting as our trigger bench.
# Copies the read-only peers folder to /tmp/peers, installs it (npm ci, once), then runs
#   node bullmq-delayed.js    --n <each of --delayed-n> --runs <runs>
#   node bullmq-schedulers.js --schedulers <S> --duration <s> --runs <runs>
# and writes a summary JSON (p50/p95/p99/max per case) to --out (default: stdout, last line).
# Touches neither Redis settings (hz stays as it is; it is recorded) nor MariaDB (BullMQ needs none).
#
# Usage: bash bench/peers-trigger.sh [--delayed-n 1000,10000] [--schedulers 1000] [--duration 30]
#          [--runs 1] [--out FILE] [--skip-schedulers]
# Env: QUIET_MAX_WAIT_S (default here 15: the peers scripts otherwise wait up to 180 s for a quiet
#      machine before each run), REDIS_HOST/REDIS_PORT as in the peers README.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DELAYED_N=1000,10000
SCHEDULERS=1000
DURATION=30
RUNS=1
OUT=
SKIP_SCHED=0
while [ $# -gt 0 ]; do
  case $1 in
    --delayed-n) DELAYED_N=$2; shift 2 ;;
    --schedulers) SCHEDULERS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --skip-schedulers) SKIP_SCHED=1; shift ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

# Copy (refresh the scripts, keep node_modules), install once per package-lock, cd /tmp/peers.
source "$HERE/lib/peers-prepare.sh"

FILES=()
IFS=, read -ra NS <<<"$DELAYED_N"
for n in "${NS[@]}"; do
  echo "=== peers: node bullmq-delayed.js --n $n --runs $RUNS" >&2
  before=$(newest bullmq-delayed || true)
  node bullmq-delayed.js --n "$n" --runs "$RUNS" >&2
  after=$(newest bullmq-delayed)
  [ "$after" != "$before" ] && FILES+=("delayed:$n:$DEST/$after")
done
if [ "$SKIP_SCHED" = 0 ]; then
  echo "=== peers: node bullmq-schedulers.js --schedulers $SCHEDULERS --duration $DURATION --runs $RUNS" >&2
  before=$(newest bullmq-schedulers || true)
  node bullmq-schedulers.js --schedulers "$SCHEDULERS" --duration "$DURATION" --runs "$RUNS" >&2
  after=$(newest bullmq-schedulers)
  [ "$after" != "$before" ] && FILES+=("schedulers:$SCHEDULERS:$DEST/$after")
fi

SUMMARY=$(HZ="$HZ" LOAD="$(cat /proc/loadavg)" node -e '
const fs = require("fs");
const out = { redisHz: Number(process.env.HZ), loadavg: process.env.LOAD.trim(), delayed: [], schedulers: [] };
for (const spec of process.argv.slice(1)) {
  const [kind, n, ...p] = spec.split(":");
  const j = JSON.parse(fs.readFileSync(p.join(":"), "utf8"));
  if (kind === "delayed") {
    const runs = j.runs;
    out.delayed.push({ n: Number(n), rate: Number(n) / ((j.args.maxDelay - j.args.minDelay) / 1000),
      p50: j.summary.p50.median, p95: j.summary.p95.median, p99: j.summary.p99.median, max: j.summary.max.median,
      disturbed: runs.some((r) => r.disturbed), foreignCores: Math.max(...runs.map((r) => r.foreignCores)), file: p.join(":") });
  } else {
    for (const r of j.results) out.schedulers.push({ S: r.S, p50: r.summary.p50.median, p95: r.summary.p95.median,
      p99: r.summary.p99.median, max: r.summary.max.median, processedPct: r.summary.processedPct.median,
      rssMaxMB: r.summary.rssMaxMB.median, disturbed: r.runs.some((x) => x.disturbed),
      foreignCores: Math.max(...r.runs.map((x) => x.foreignCores)), file: p.join(":") });
  }
}
console.log(JSON.stringify(out));
' "${FILES[@]}")
if [ -n "$OUT" ]; then echo "$SUMMARY" >"$OUT"; else echo "$SUMMARY"; fi

#!/usr/bin/env bash
# Throughput baselines from ../shared/peers, run in the same sitting as our dispatch bench (issue 4 point 8).
# Copies the read-only peers folder to /tmp/peers, installs it (npm ci, once), then runs
#   node bullmq-throughput.js --n N --runs R --modes single,bulk --concurrency C --topologies T --batch 1000
#   node pgboss-throughput.js --n N --runs R --modes bulk   --styles batch --concurrency 100 --topologies inproc,2proc
#   node pgboss-throughput.js --n N --runs R --modes single --styles batch --concurrency 100 --topologies inproc
# (pg-boss only when PostgreSQL answers at PG_URL, default postgres://bench:bench@127.0.0.1:5432/bench; see
# ../shared/peers/setup.sh) and writes a summary JSON (median e2e and add-phase jobs/s per case) to --out
# (default: stdout, last line). Touches neither Redis settings nor MariaDB.
#
# Usage: bash bench/peers-dispatch.sh [--n 20000] [--runs 1] [--concurrency 10,100] [--topologies inproc,2proc]
#          [--pgboss true|false] [--out FILE]
# Env: QUIET_MAX_WAIT_S (default here 15: the peers scripts otherwise wait up to 180 s for a quiet machine
#      before each run), REDIS_HOST/REDIS_PORT, PG_URL as in the peers README.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
N=20000
RUNS=1
CONC=10,100
TOPO=inproc,2proc
PGBOSS=true
OUT=
while [ $# -gt 0 ]; do
  case $1 in
    --n) N=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --concurrency) CONC=$2; shift 2 ;;
    --topologies) TOPO=$2; shift 2 ;;
    --pgboss) PGBOSS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) sed -n 2,15p "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

source "$HERE/lib/peers-prepare.sh"

FILES=()
run() { # run <result-name> <script> <args...>: runs it, remembers the result file it wrote
  local name=$1; shift
  echo "=== peers: node $*" >&2
  local before after
  before=$(newest "$name" || true)
  node "$@" >&2
  after=$(newest "$name")
  if [ "$after" != "$before" ]; then FILES+=("$name:$DEST/$after"); fi
}

run bullmq-throughput bullmq-throughput.js --n "$N" --runs "$RUNS" --modes single,bulk --concurrency "$CONC" --topologies "$TOPO" --batch 1000
PG_SKIP=
if [ "$PGBOSS" = true ]; then
  if PG_ERR=$(node -e '
    const { Client } = require("pg");
    const c = new Client({ connectionString: process.env.PG_URL || "postgres://bench:bench@127.0.0.1:5432/bench", connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.end(), (e) => { console.log(e.message); process.exit(1); });' 2>&1); then
    run pgboss-throughput pgboss-throughput.js --n "$N" --runs "$RUNS" --modes bulk --styles batch --concurrency 100 --topologies inproc,2proc --batch 1000
    run pgboss-throughput pgboss-throughput.js --n "$N" --runs "$RUNS" --modes single --styles batch --concurrency 100 --topologies inproc --batch 1000
  else
    PG_SKIP="PostgreSQL not reachable (${PG_ERR//$'\n'/ }); run ../shared/peers/setup.sh as root to start it and create role/db bench"
    echo "peers: pg-boss skipped: $PG_SKIP" >&2
  fi
else
  PG_SKIP="--pgboss false"
fi

SUMMARY=$(HZ="$HZ" LOAD="$(cat /proc/loadavg)" N="$N" RUNS="$RUNS" PG_SKIP="$PG_SKIP" node -e '
const fs = require("fs");
const out = { n: Number(process.env.N), runs: Number(process.env.RUNS), redisHz: Number(process.env.HZ), loadavg: process.env.LOAD.trim(),
  bullmq: [], pgboss: [], pgbossSkipped: process.env.PG_SKIP || null, files: [] };
for (const spec of process.argv.slice(1)) {
  const [name, ...p] = spec.split(":");
  const file = p.join(":");
  const j = JSON.parse(fs.readFileSync(file, "utf8"));
  out.files.push(file);
  for (const r of j.results) {
    (name === "bullmq-throughput" ? out.bullmq : out.pgboss).push({
      topology: r.topology, mode: r.mode, style: r.style, concurrency: r.concurrency, batch: j.args.batch,
      e2e: r.e2e.median, e2eMin: r.e2e.min, e2eMax: r.e2e.max, add: r.add.median,
      foreignCores: Math.max(...r.runs.map((x) => x.foreignCores)), disturbed: r.runs.some((x) => x.disturbed),
    });
  }
}
console.log(JSON.stringify(out));
' "${FILES[@]}")
if [ -n "$OUT" ]; then echo "$SUMMARY" >"$OUT"; else echo "$SUMMARY"; fi

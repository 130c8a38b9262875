# Sourced by bench/peers-*.sh: copies the read-only ../shared/peers to /tmp/peers (refreshing the scripts,
# keeping node_modules), runs `npm ci` there once per package-lock, and cd's into it; records Redis hz
# (never changed) and defines `newest <name>` (the latest results/<name>-*.json).
# Expects HERE (the bench/ directory) to be set; sets SRC, DEST and HZ. PEERS_SRC names another peers folder
# (a git worktree has no ../shared beside it).
SRC="$(cd "${PEERS_SRC:-$HERE/../../shared/peers}" && pwd)"
DEST=/tmp/peers
mkdir -p "$DEST"
for f in "$SRC"/* "$SRC"/.gitignore; do cp -r "$f" "$DEST/"; done
chmod -R u+w "$DEST"
if ! cmp -s "$SRC/package-lock.json" "$DEST/node_modules/.bench-lock" 2>/dev/null; then
  echo "peers: npm ci in $DEST ..." >&2
  (cd "$DEST" && npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$SRC/package-lock.json" "$DEST/node_modules/.bench-lock"
fi
cd "$DEST"
mkdir -p results
export QUIET_MAX_WAIT_S="${QUIET_MAX_WAIT_S:-15}"
HZ=$(redis-cli -h "${REDIS_HOST:-127.0.0.1}" -p "${REDIS_PORT:-6379}" config get hz | tail -1)
echo "peers: Redis hz=$HZ (left unchanged); load: $(uptime)" >&2
newest() { ls -t results/"$1"-*.json 2>/dev/null | head -1; }

#!/usr/bin/env bash
# Records the Portkey AI gateway (@portkey-ai/gateway 1.15.2, from npm) with the harness as its
# upstream (run --upstream-port, issue 33): every phase on svc-v4-flash, the gateway.* checks and the
# load phase (--load 16, issue 40) included, both sides of every exchange (upstream.json).
#
#   scripts/third-party/portkey.sh [openai]   # its openai provider   -> fixtures/portkey-gateway
#   scripts/third-party/portkey.sh deepseek   # its deepseek provider -> fixtures/portkey-deepseek-gateway
#   scripts/third-party/portkey.sh stop       # ends the gateway it started
#
# The gateway is installed from npm into $PORTKEY_HOME (default ../thirdparty/portkey, beside the
# checkout), never into the repository, and started with the preload portkey-fix-headers.mjs (its
# streams are 500 on Node without it). It listens on all interfaces: only --port=N is read. It is
# told where its upstream is per request, by headers (x-portkey-provider: openai or deepseek,
# x-portkey-custom-host), which the harness sends with --header: a custom host replaces any
# provider's base URL (getFullURL: `customHost || getBaseURL()`), and each provider appends its own
# path (openai /chat/completions, deepseek /v1/chat/completions; the emulator serves both). The
# client's key goes upstream as it came, so the upstream requires that same key
# (--upstream-key-env SVC_API_KEY). The gateway is reused across providers: the provider is a header.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PORTKEY_HOME=${PORTKEY_HOME:-$REPO/../thirdparty/portkey}
PORTKEY_VERSION=1.15.2
GW_PORT=18787
UP_PORT=18932
KEY=${PORTKEY_CLIENT_KEY:-sk-portkey-client}

answers() { curl -s -o /dev/null -m 2 "$1"; }
detached() { local pidfile=$1; shift; setsid sh -c 'echo $$ >"$0"; exec nohup "$@"' "$pidfile" "$@" </dev/null & }
stop_pid() { local f=$1; if [ -f "$f" ]; then local pid; pid=$(cat "$f"); if kill -0 "$pid" 2>/dev/null; then kill -- "-$pid" 2>/dev/null || kill "$pid"; fi; rm -f "$f"; fi; }

mkdir -p "$PORTKEY_HOME"
case ${1:-openai} in
  stop) stop_pid "$PORTKEY_HOME/gateway.pid"; exit 0 ;;
  openai) PROVIDER=openai; NAME=portkey-gateway ;;
  deepseek) PROVIDER=deepseek; NAME=portkey-deepseek-gateway ;;
  *) echo "usage: $0 [openai|deepseek] | stop" >&2; exit 2 ;;
esac

# 1. The gateway, exactly 1.15.2, from npm.
PKG=$PORTKEY_HOME/node_modules/@portkey-ai/gateway
have=$(node -p "require('$PKG/package.json').version" 2>/dev/null || true)
if [ "$have" != "$PORTKEY_VERSION" ]; then
  ( cd "$PORTKEY_HOME" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install "@portkey-ai/gateway@$PORTKEY_VERSION" --no-audit --no-fund >/dev/null )
fi

# 2. Started with the preload, unless it already answers.
if ! answers "http://127.0.0.1:$GW_PORT/"; then
  ( cd "$PORTKEY_HOME" && detached "$PORTKEY_HOME/gateway.pid" node --import "$HERE/portkey-fix-headers.mjs" "$PKG/build/start-server.js" "--port=$GW_PORT" --headless >"$PORTKEY_HOME/gateway.log" 2>&1 )
  for _ in $(seq 50); do answers "http://127.0.0.1:$GW_PORT/" && break; sleep 0.2; done
  answers "http://127.0.0.1:$GW_PORT/" || { echo "$0: the gateway did not start: $PORTKEY_HOME/gateway.log" >&2; exit 1; }
fi

# 3. Record through it, the harness serving its upstream on UP_PORT.
#    Every phase on svc-v4-flash, then 16 in flight (--load 16); a replay runs the same model.
OUT=$REPO/fixtures/$NAME
start=$(date +%s)
set +e
( cd "$REPO" && SVC_API_KEY=$KEY node bin/svc-conformance.js record --base-url "http://127.0.0.1:$GW_PORT/v1" --out "$OUT" \
    --header "x-portkey-provider: $PROVIDER" --header "x-portkey-custom-host: http://127.0.0.1:$UP_PORT" \
    --upstream-port "$UP_PORT" --upstream-key-env SVC_API_KEY --model svc-v4-flash --load 16 \
    --report-dir "$PORTKEY_HOME/reports-$NAME" --json "$PORTKEY_HOME/report-$NAME.json" --quiet )
code=$?
set -e
echo "$NAME: record exit $code in $(( $(date +%s) - start )) s; recording $OUT; reports $PORTKEY_HOME/reports-$NAME"
exit $code

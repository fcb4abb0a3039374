#!/usr/bin/env bash
# Records claude-code-router (@musistudio/claude-code-router 1.0.73 from npm, a fastify server that
# serves the messages format and translates it to a chat-completions upstream) in front of the
# harness's own emulator:
#
#   scripts/third-party/claude-code-router.sh [endpoint]  # as an endpoint -> fixtures/claude-code-router{,-messages}
#   scripts/third-party/claude-code-router.sh gateway     # the harness as its upstream -> fixtures/claude-code-router{,-messages}-gateway
#   scripts/third-party/claude-code-router.sh by-hand     # router -> logging proxy -> emulator, left running for curl
#   scripts/third-party/claude-code-router.sh stop        # ends every router, emulator and proxy it started
#
# The router serves its messages route (POST /v1/messages: the Anthropic transformer, messages in,
# chat completions to the provider, messages back) and the OpenAI transformer's chat route (POST
# /v1/chat/completions: passed on as sent, but for the model). Both read the model as
# `provider,model` (the llms server's preHandler splits it at the first comma and looks the provider
# up by name); a messages request whose model holds no comma is routed to Router.default, whatever it
# names (getUseModel). So every spec model is sent as `emu,<spec id>` (--model-map, issue 49), the
# provider `emu` being the emulator. Each route is recorded on its own (step 6 says why): the chat
# route at base URL http://127.0.0.1:PORT/v1, the messages route at the bare host.
#
# `gateway`: the router's provider calls the harness itself (run --upstream-port, issue 33), every
# phase on the spec's default model, both sides of every exchange in the recording's upstream.json,
# the messages route's translated traffic included. `by-hand`: the same router in front of a
# logging proxy (its log: $CCR_HOME/run/by-hand-upstream.jsonl, one line per upstream exchange, keys
# redacted) in front of the emulator, for the FINDINGS' curl; it prints the curl to start from.
#
# The package is installed with npm into $CCR_HOME (default ../thirdparty/ccr, beside the checkout),
# never into the repository; its dist/cli.js bundles what it runs (the llms server 1.0.51, fastify
# 5.6.1), so the installed dependency versions do not change what is served. Each router reads
# $HOME/.claude-code-router/config.json, so each mode has a HOME of its own under $CCR_HOME
# (home-endpoint, home-gateway, home-by-hand), its config written there (rewritten only when it
# changed, and the router then restarted). Ports 18740-18759 only: endpoint emulator 18740, router
# 18741; gateway router 18742, the harness's upstream 18743; by-hand emulator 18744, proxy 18745,
# router 18746. Idempotent: a server already answering on its port is reused; the recording replaces
# the old one whole (record --out). Servers keep running afterwards (pids and logs in
# $CCR_HOME/run) until `stop`. Measured from a clean clone on 2 cores (2026-12-02): the install 11 s,
# `endpoint` 27 s in all (the chat route's recording 7 s, the messages route's 5 s), `gateway` 16 s.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CCR_HOME=${CCR_HOME:-$REPO/../thirdparty/ccr}
mkdir -p "$CCR_HOME" && CCR_HOME=$(cd "$CCR_HOME" && pwd) && export CCR_HOME
RUN=$CCR_HOME/run
CCR_VERSION=1.0.73
CLIENT_KEY=${CCR_CLIENT_KEY:-sk-ccr-client}         # the router's APIKEY, sent by the harness (SVC_API_KEY)
UPSTREAM_KEY=${SVC_UPSTREAM_KEY:-sk-emu-upstream}   # the provider's api_key: the one key the emulator takes

usage() { echo "usage: $0 [endpoint|gateway|by-hand|stop]" >&2; exit 2; }
answers() { curl -s -o /dev/null -m 2 "$1"; }
# detached PIDFILE COMMAND...: COMMAND in a session of its own, left running; PIDFILE gets its pid,
# which is its process group's too (stop_pid ends the group), written by the process itself.
detached() { local pidfile=$1; shift; setsid sh -c 'echo $$ >"$0"; exec nohup "$@"' "$pidfile" "$@" </dev/null & }
stop_pid() { local f=$1; if [ -f "$f" ]; then local pid; pid=$(cat "$f"); if kill -0 "$pid" 2>/dev/null; then kill -- "-$pid" 2>/dev/null || kill "$pid"; fi; rm -f "$f"; fi; }
wait_for() { local url=$1 what=$2 log=$3; for _ in $(seq 100); do answers "$url" && return 0; sleep 0.2; done; echo "$0: $what did not start: $log" >&2; exit 1; }

MODE=${1:-endpoint}
mkdir -p "$RUN"
if [ "$MODE" = stop ]; then
  for p in router-endpoint router-gateway router-by-hand proxy-by-hand emu-endpoint emu-by-hand; do stop_pid "$RUN/$p.pid"; done
  exit 0
fi
case $MODE in
  endpoint) EMU_PORT=18740; ROUTER_PORT=18741; PROVIDER_BASE=http://127.0.0.1:18740 ;;
  gateway) UP_PORT=18743; ROUTER_PORT=18742; PROVIDER_BASE=http://127.0.0.1:$UP_PORT ;;
  by-hand) EMU_PORT=18744; PROXY_PORT=18745; ROUTER_PORT=18746; PROVIDER_BASE=http://127.0.0.1:$PROXY_PORT ;;
  *) usage ;;
esac
start=$(date +%s)

# 1. The router, exactly 1.0.73, from npm (install scripts not run: dist/cli.js is all it needs).
PKG=$CCR_HOME/node_modules/@musistudio/claude-code-router
have=$(node -p "require('$PKG/package.json').version" 2>/dev/null || true)
if [ "$have" != "$CCR_VERSION" ]; then
  ( cd "$CCR_HOME" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install "@musistudio/claude-code-router@$CCR_VERSION" --ignore-scripts --no-audit --no-fund >/dev/null )
  echo "claude-code-router $CCR_VERSION installed in $CCR_HOME in $(( $(date +%s) - start )) s"
fi

# 2. The spec's models (spec/models.yaml: current and legacy), each a model of the provider `emu`;
#    the default one is what the recordings cover and Router.default names.
MODELS_JSON=$(cd "$REPO" && node -e 'const m=require("yaml").parse(require("fs").readFileSync("spec/models.yaml","utf8")).models; console.log(JSON.stringify(Object.keys(m)))')
DEFAULT_MODEL=$(cd "$REPO" && node -e 'const m=require("yaml").parse(require("fs").readFileSync("spec/models.yaml","utf8")).models; console.log(Object.keys(m).find((k)=>m[k].default))')
MAP=()
for m in $(node -e "console.log(JSON.parse(process.argv[1]).join(' '))" "$MODELS_JSON"); do MAP+=(--model-map "$m=emu,$m"); done

# 3. The emulator (this checkout's), on loopback, taking one key; in gateway mode the harness
#    serves it itself on UP_PORT for the length of the recording.
if [ "$MODE" != gateway ] && ! answers "http://127.0.0.1:$EMU_PORT/models"; then
  ( cd "$REPO" && detached "$RUN/emu-$MODE.pid" node bin/svc-conformance.js emulate --host 127.0.0.1 --port "$EMU_PORT" --api-key "$UPSTREAM_KEY" >"$RUN/emu-$MODE.log" 2>&1 )
  wait_for "http://127.0.0.1:$EMU_PORT/models" "the emulator" "$RUN/emu-$MODE.log"
fi

# 4. by-hand: a logging proxy between the router and the emulator. One JSON line per exchange: the
#    request as the router sent it, the answer (a stream as its text) as the emulator gave it.
if [ "$MODE" = by-hand ] && ! answers "http://127.0.0.1:$PROXY_PORT/"; then
  PROXY_JS='
const http = require("node:http"), fs = require("node:fs");
const [port, target, log] = [Number(process.argv[1]), process.argv[2], process.argv[3]];
const secret = /^(authorization|x-api-key)$/i;
http.createServer(async (req, res) => {
  const chunks = []; for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks).toString("utf8");
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([n]) => !["host", "connection", "content-length"].includes(n)));
  const shown = Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, secret.test(n) ? "[REDACTED]" : v]));
  let parsed; try { parsed = JSON.parse(body); } catch { parsed = body; }
  const entry = { at: new Date().toISOString(), method: req.method, path: req.url, headers: shown, body: parsed };
  try {
    const answer = await fetch(target + req.url, { method: req.method, headers, ...(body ? { body } : {}) });
    const out = Object.fromEntries([...answer.headers].filter(([n]) => !["content-length", "transfer-encoding", "content-encoding"].includes(n)));
    res.writeHead(answer.status, out);
    let text = "";
    if (answer.body) for await (const c of answer.body) { text += Buffer.from(c).toString("utf8"); res.write(c); }
    res.end();
    let answered; try { answered = JSON.parse(text); } catch { answered = text; }
    fs.appendFileSync(log, JSON.stringify({ ...entry, status: answer.status, answer: answered }) + "\n");
  } catch (e) { res.writeHead(502).end(String(e)); fs.appendFileSync(log, JSON.stringify({ ...entry, error: String(e) }) + "\n"); }
}).listen(port, "127.0.0.1");'
  detached "$RUN/proxy-by-hand.pid" node -e "$PROXY_JS" "$PROXY_PORT" "http://127.0.0.1:$EMU_PORT" "$RUN/by-hand-upstream.jsonl" >"$RUN/proxy-by-hand.log" 2>&1
  wait_for "http://127.0.0.1:$PROXY_PORT/" "the logging proxy" "$RUN/proxy-by-hand.log"
fi

# 5. The router's config (README "Configuration"; the keys as its run() and the llms server read
#    them), in its own HOME: one provider, the emulator's chat route, every spec model.
ROUTER_HOME=$CCR_HOME/home-$MODE
mkdir -p "$ROUTER_HOME/.claude-code-router"
CONFIG=$ROUTER_HOME/.claude-code-router/config.json
cat >"$CONFIG.new" <<EOF
{
  "LOG": false,
  "HOST": "127.0.0.1",
  "PORT": $ROUTER_PORT,
  "APIKEY": "$CLIENT_KEY",
  "API_TIMEOUT_MS": 600000,
  "NON_INTERACTIVE_MODE": true,
  "Providers": [
    { "name": "emu", "api_base_url": "$PROVIDER_BASE/v1/chat/completions", "api_key": "$UPSTREAM_KEY", "models": $MODELS_JSON }
  ],
  "Router": { "default": "emu,$DEFAULT_MODEL" }
}
EOF
if ! cmp -s "$CONFIG.new" "$CONFIG"; then mv "$CONFIG.new" "$CONFIG"; stop_pid "$RUN/router-$MODE.pid"; sleep 1; else rm -f "$CONFIG.new"; fi
ROUTER=http://127.0.0.1:$ROUTER_PORT
if ! answers "$ROUTER/health"; then
  ( cd "$ROUTER_HOME" && HOME=$ROUTER_HOME detached "$RUN/router-$MODE.pid" node "$PKG/dist/cli.js" start >"$RUN/router-$MODE.log" 2>&1 )
  wait_for "$ROUTER/health" "the router" "$RUN/router-$MODE.log"
fi

if [ "$MODE" = by-hand ]; then
  echo "router $ROUTER -> logging proxy http://127.0.0.1:$PROXY_PORT ($RUN/by-hand-upstream.jsonl) -> emulator http://127.0.0.1:$EMU_PORT; e.g."
  echo "  curl -s $ROUTER/v1/messages -H 'x-api-key: $CLIENT_KEY' -H 'content-type: application/json' -d '{\"model\":\"emu,$DEFAULT_MODEL\",\"max_tokens\":32,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}'"
  echo "  tail -n 1 $RUN/by-hand-upstream.jsonl"
  exit 0
fi

# 6. Record through the router with its APIKEY (the harness reads it from SVC_API_KEY), every spec
#    model named emu,<id>, the default model covered. A recording keeps its paths relative to one
#    base, and the router's two routes are /v1/chat/completions and /v1/messages: no base holds both
#    as the description's {base_url}/chat/completions and a messages base under it. So each route is
#    a recording of its own, the other route's features left out (--without), never judged at a
#    path the router does not serve:
#    - the chat route: base http://127.0.0.1:PORT/v1, --without messages;
#    - the messages route: base and messages base the bare host, --without every route feature but
#      messages (chat, models, balance, fim, prefix_completion).
#    As an endpoint the chat route has the load phase of 16 in flight (issue 40). In gateway mode each
#    is a gateway run (the harness serving the provider's upstream on UP_PORT, one run after the
#    other), every phase: the messages route's upstream.json holds what the translation sent.
SUFFIX=; MODE_FLAGS=(--load 16)
[ "$MODE" = gateway ] && { SUFFIX=-gateway; MODE_FLAGS=(--upstream-port "$UP_PORT" --upstream-key-env SVC_UPSTREAM_KEY); }
worst=0
record() { # record NAME BASE_URL FLAGS...: one recording into fixtures/NAME; its exit code and time said
  local name=$1 base=$2 rec code; shift 2
  rec=$(date +%s)
  set +e
  ( cd "$REPO" && SVC_API_KEY=$CLIENT_KEY SVC_UPSTREAM_KEY=$UPSTREAM_KEY node bin/svc-conformance.js record --base-url "$base" --out "$REPO/fixtures/$name" \
      --model "$DEFAULT_MODEL" "${MAP[@]}" "$@" --report-dir "$RUN/reports-$name" --json "$RUN/report-$name.json" --quiet )
  code=$?
  set -e
  # The router's errors carry its stack traces, which name where it is installed on this machine: the
  # recording names the folder <ccr-home> instead (a tracked file names no absolute path).
  grep -rlZF "$CCR_HOME" "$REPO/fixtures/$name" | xargs -0 -r perl -pi -e 's/\Q$ENV{CCR_HOME}\E/<ccr-home>/g'
  [ "$code" -gt "$worst" ] && worst=$code
  echo "$name: record exit $code in $(( $(date +%s) - rec )) s; recording fixtures/$name; reports $RUN/reports-$name"
}
record "claude-code-router$SUFFIX" "$ROUTER/v1" --without messages "${MODE_FLAGS[@]}"
[ "$MODE" = gateway ] || MODE_FLAGS=()
record "claude-code-router-messages$SUFFIX" "$ROUTER" --messages-base-url "$ROUTER" --without chat,models,balance,fim,prefix_completion "${MODE_FLAGS[@]}"
echo "claude-code-router $MODE: $(( $(date +%s) - start )) s in all"
exit $worst

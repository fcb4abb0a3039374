#!/usr/bin/env bash
# Build llama.cpp's llama-server (CPU), make a tiny GGUF chat model, serve it on 127.0.0.1 and
# record a conformance run against it into fixtures/llama-server/ (issue 20, item 8).
#
#   scripts/third-party/llama-server.sh            # build/train what is missing, serve, record
#   LLAMA_DIR=/elsewhere scripts/third-party/llama-server.sh
#   MODE=v1 scripts/third-party/llama-server.sh    # also (or only: MODE=v1-only) a live run at .../v1, reports in $LLAMA_DIR/runs/
#   LOAD=32 scripts/third-party/llama-server.sh    # the recording's load phase at another peak (default 16 in flight)
#
# Idempotent: each step is skipped when its product exists (the npm package, the clone, the
# llama-server binary, the Python venv, the model, a server already answering on $PORT). Nothing
# it builds goes into the repository: the build, the venv and the model weights live in $LLAMA_DIR.
# The server is left running (its pid in $LLAMA_DIR/llama-server.pid, its log beside it) so the
# recording can be redone by running this script again; stop it with
#   kill "$(cat $LLAMA_DIR/llama-server.pid)"
#
# What it pins (FINDINGS.md beside the recording says what was recorded with):
#   node-llama-cpp 3.22.1 from the npm registry: it ships the llama.cpp source it binds to as a git
#     bundle (llama/gitRelease.bundle; llama/llama.cpp.info.json names release v0.5.0 of
#     ggml-org/llama.cpp's binaries, ggml 0.25.1, bundle HEAD de3ff815ea7d, one squashed commit)
#   torch from the machine's local wheel index (2.13.0+cpu when recorded), one thread
#   the model: scripts/third-party/llama-tiny-model.py (about 0.94M parameters, chatml template),
#     TRAIN_STEPS steps (724): the same torch, seed and steps make the same file, whatever the machine's speed
#
# Needs: node 20, npm (registry reachable), cmake, g++, python3 with the local wheel index
# (pip config), git. On 2 cores: the build about 20 min, the model about 7 min (724 steps on a free core), the run a few minutes.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"                     # the checkout whose harness records
LLAMA_DIR="${LLAMA_DIR:-$REPO/../thirdparty/llama}"
NODE_LLAMA_CPP_VERSION="${NODE_LLAMA_CPP_VERSION:-3.22.1}"
PORT="${PORT:-8099}"
ALIAS="${ALIAS:-tiny-chatml}"
MODEL="$LLAMA_DIR/tiny-chatml.gguf"
TRAIN_STEPS="${TRAIN_STEPS:-724}"
# The sha256 of the model the committed recording was made with (FINDINGS.md, "Model"): a model made
# again with the same torch, seed and steps is this file, so the verdicts that move are the requests'.
RECORDED_MODEL_SHA256="${RECORDED_MODEL_SHA256:-43a1f68faf1f5f159e6e58e963adf92ee960af0d8fb9a3f948cb90089ca2c26e}"
MODE="${MODE:-bare}"                                   # bare | v1 (bare, then /v1) | v1-only
OUT="${OUT:-$REPO/fixtures/llama-server}"
# The key llama-server is started with (--api-key) and the harness sends (SVC_API_KEY). Local and
# throwaway; the harness never writes it (redacted in every fixture and report).
export SVC_API_KEY="${SVC_API_KEY:-sk-llama-local-conformance}"

log() { printf '[llama-server.sh] %s\n' "$*" >&2; }
mkdir -p "$LLAMA_DIR"
cd "$LLAMA_DIR"

# 1. The llama.cpp source node-llama-cpp ships.
if [ ! -d llama.cpp/.git ]; then
  if [ ! -f "package/llama/gitRelease.bundle" ]; then
    log "npm pack node-llama-cpp@$NODE_LLAMA_CPP_VERSION"
    npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" >/dev/null
    tar xzf "node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz"
  fi
  log "cloning llama.cpp from node-llama-cpp's git bundle"
  git clone -q package/llama/gitRelease.bundle llama.cpp
fi
LLAMA_COMMIT="$(git -C llama.cpp rev-parse HEAD)"

# 2. llama-server only, CPU, no curl, no OpenSSL, no web UI (LLAMA_USE_PREBUILT_UI would download it).
SERVER_BIN="$LLAMA_DIR/llama.cpp/build/bin/llama-server"
if [ ! -x "$SERVER_BIN" ]; then
  log "building llama-server (about 20 min on 2 cores; log: $LLAMA_DIR/build.log)"
  (cd llama.cpp &&
    cmake -B build -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DGGML_NATIVE=ON \
      -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF >"$LLAMA_DIR/configure.log" 2>&1 &&
    cmake --build build --target llama-server -j"$(nproc)" >"$LLAMA_DIR/build.log" 2>&1)
fi
SERVER_VERSION="$("$SERVER_BIN" --version 2>&1 | grep -m1 version || true)"

# 3. The model: trained on the spot with torch from the local wheel index, written with llama.cpp's gguf-py.
if [ ! -f "$MODEL" ]; then
  if [ ! -x venv/bin/python ]; then
    log "python venv with torch and numpy from the local wheel index"
    python3 -m venv venv
    # the machine's local wheel index only (pip config: /opt/pypi, /opt/pypi-more, /opt/wheels); no other index is reachable.
    # pyyaml: llama.cpp's gguf-py imports yaml (gguf/__init__ loads gguf/metadata.py), so without it the model script stops as it starts
    venv/bin/pip install -q --index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple \
      --find-links /opt/wheels torch numpy pyyaml
  fi
  log "training the tiny model (${TRAIN_STEPS} steps, about 7 min on a free core; log: $LLAMA_DIR/train.log)"
  venv/bin/python "$HERE/llama-tiny-model.py" --gguf-py llama.cpp/gguf-py --out "$MODEL.tmp" --steps "$TRAIN_STEPS" >"$LLAMA_DIR/train.log" 2>&1
  mv "$MODEL.tmp" "$MODEL"
fi
TORCH_VERSION="$(venv/bin/python -c 'import torch; print(torch.__version__)' 2>/dev/null || echo unknown)"
MODEL_SHA256="$(sha256sum "$MODEL" | cut -d' ' -f1)"
if [ -n "$RECORDED_MODEL_SHA256" ] && [ "$MODEL_SHA256" != "$RECORDED_MODEL_SHA256" ]; then
  log "warning: the model ($MODEL_SHA256) is not the recorded one ($RECORDED_MODEL_SHA256; torch $TORCH_VERSION): verdicts may move with the model, not only with the requests"
fi

# 4. The server, left running.
health() { curl -fsS -m 2 "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; }
if ! health; then
  if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    log "port $PORT is taken by something that is not a healthy llama-server; set PORT=..."; exit 2
  fi
  log "starting llama-server on 127.0.0.1:$PORT (log: $LLAMA_DIR/llama-server.log)"
  nohup "$SERVER_BIN" -m "$MODEL" --alias "$ALIAS" --host 127.0.0.1 --port "$PORT" --jinja \
    -c 16384 -np 4 -t 2 --api-key "$SVC_API_KEY" >"$LLAMA_DIR/llama-server.log" 2>&1 </dev/null &
  echo $! >"$LLAMA_DIR/llama-server.pid"
  for _ in $(seq 1 120); do health && break; sleep 0.5; done
  health || { log "llama-server did not become healthy; see $LLAMA_DIR/llama-server.log"; exit 1; }
fi
log "llama-server $SERVER_VERSION (llama.cpp $LLAMA_COMMIT, node-llama-cpp $NODE_LLAMA_CPP_VERSION), model $MODEL ($MODEL_SHA256) as $ALIAS, torch $TORCH_VERSION"

# 5. Record. The harness is this checkout's (bin/svc-conformance.js beside this script).
HARNESS=(node "$REPO/bin/svc-conformance.js")
timed() { # timed WHAT COMMAND...: run it, log its exit code and run time
  local what="$1" start rc=0; shift
  start=$(date +%s)
  "$@" || rc=$?
  log "$what: exit $rc in $(($(date +%s) - start)) s"
}
MAP=(--model svc-v4-flash --model-map "svc-v4-flash=$ALIAS" --messages-base-url "http://127.0.0.1:$PORT" --quiet)
mkdir -p "$LLAMA_DIR/runs"
if [ "$MODE" != v1-only ]; then
  # The recording: the bare host, as the description's {base_url} (llama-server serves /chat/completions,
  # /models and /v1/messages there), its messages route (/v1/messages) under the same host.
  # With the load phase (issue 40): LOAD requests in flight at the peak, 16 by default, four times the
  # server's 4 slots (-np 4), so the recording shows what it does with more than it can serve at once
  # (queue, refuse, or break); its figures go to the reports under $LLAMA_DIR/runs/reports-bare.
  timed "record --base-url http://127.0.0.1:$PORT --load ${LOAD:-16} -> $OUT" \
    "${HARNESS[@]}" record --base-url "http://127.0.0.1:$PORT" --out "$OUT" --report-dir "$LLAMA_DIR/runs/reports-bare" \
      --load "${LOAD:-16}" "${MAP[@]}"
fi
if [ "$MODE" = v1 ] || [ "$MODE" = v1-only ]; then
  # The base URL llama-server's README writes (.../v1): a live run, not recorded (a recording keeps
  # paths relative to one base, and the messages base is not under .../v1).
  timed "run --base-url http://127.0.0.1:$PORT/v1" \
    "${HARNESS[@]}" run --base-url "http://127.0.0.1:$PORT/v1" --report-dir "$LLAMA_DIR/runs/reports-v1" --json "$LLAMA_DIR/runs/v1.json" "${MAP[@]}"
fi
log "llama-server left running on 127.0.0.1:$PORT (pid $(cat "$LLAMA_DIR/llama-server.pid" 2>/dev/null || echo '?'))"

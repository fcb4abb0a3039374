#!/usr/bin/env bash
# Install Hugging Face transformers (5.x, with its `serving` extras) from the machine's local wheel
# index, make a tiny Qwen2 chat model on the spot, run `transformers serve` on 127.0.0.1, offline,
# and record a conformance run against it into fixtures/transformers-serve/ (issue 49, item 1).
#
#   scripts/third-party/transformers.sh          # install/make what is missing, serve, record
#   scripts/third-party/transformers.sh stop     # stop the server this script started
#   TF_DIR=/elsewhere scripts/third-party/transformers.sh
#   LOAD=32 scripts/third-party/transformers.sh  # the load phase at another peak (default 16 in flight)
#   RECORD=0 scripts/third-party/transformers.sh # install, make and serve only
#
# Idempotent: each step is skipped when its product exists (the venv with the pinned versions, the
# model directory, a server already answering on $PORT). Nothing it makes goes into the repository:
# the venv, the model weights and the server's log live in $TF_DIR. The server is left running (its
# pid in $TF_DIR/transformers-serve.pid, its log beside it), so the recording can be redone by running
# this script again; `stop` ends it.
#
# What it pins (fixtures/transformers-serve/FINDINGS.md says what was recorded with):
#   transformers 5.18.0 with the `serving` extras, torch 2.13.0+cpu, and the versions below, all from
#     the local wheel index (pip config: /opt/pypi, /opt/pypi-more, /opt/wheels; no other is reachable)
#   the model: scripts/third-party/transformers-tiny-model.py (Qwen2ForCausalLM, 2 layers, hidden 64,
#     189k parameters, a 1024-token byte-level BPE trained here, Qwen2.5's chat template with tools),
#     TRAIN_STEPS steps (600): the same torch, seed and steps make the same files
#
# Needs: node 20, python3.11 with the local wheel index. On 2 cores: the venv about 1 min, the model
# about 3 min (600 steps on a shared core), the run a few minutes.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"                        # the checkout whose harness records
TF_DIR="${TF_DIR:-$REPO/../thirdparty/transformers}"
PORT="${PORT:-18800}"                                     # not 8099 nor 18700-18730 (other work on this machine)
MODEL_NAME="${MODEL_NAME:-tiny-qwen2}"                    # the model directory, under $TF_DIR: the server's cwd, so its id is this name
TRAIN_STEPS="${TRAIN_STEPS:-600}"
# The sha256 of the weights the committed recording was made with (FINDINGS.md, "Setup"): weights made
# again with the same torch, seed and steps are this file, so the verdicts that move are the requests'.
RECORDED_MODEL_SHA256="${RECORDED_MODEL_SHA256:-b59acdfa7ce04dabc054831371692df42c24ff53d1c160d124c584e3138a92cf}"
OUT="${OUT:-$REPO/fixtures/transformers-serve}"
PIDFILE="$TF_DIR/transformers-serve.pid"
# Every package the venv holds, pinned (the versions recorded with). transformers[serving] names fastapi,
# uvicorn, starlette, pydantic, openai, rich, torch and accelerate; the rest are their dependencies
# whose versions matter here.
PINS=(
  "transformers[serving]==5.18.0" "torch==2.13.0+cpu" "tokenizers==0.23.2" "huggingface_hub==1.33.0"
  "safetensors==0.8.0" "accelerate==1.15.0" "fastapi==0.142.2" "starlette==1.7.0" "uvicorn==0.54.0"
  "pydantic==2.13.5" "pydantic_core==2.46.5" "openai==3.22.1" "rich==15.0.0" "numpy==2.4.6"
  # The `transformers` command imports requests (cli/transformers.py -> cli/chat.py), which neither
  # transformers 5.18.0's requirements nor its `serving` extra name: without it `transformers serve`
  # stops at its first line (ModuleNotFoundError: No module named 'requests').
  "requests==2.34.2"
)
# `transformers serve` checks no key; the harness sends one all the same (SVC_API_KEY), local and throwaway.
export SVC_API_KEY="${SVC_API_KEY:-sk-transformers-local-conformance}"
# Offline: no hub. HF_HOME is the script's own (an empty hub cache: GET /v1/models lists that cache).
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME="$TF_DIR/hf-home" TOKENIZERS_PARALLELISM=false

log() { printf '[transformers.sh] %s\n' "$*" >&2; }
timed() { # timed WHAT LOG COMMAND...: run it (its output to LOG, or to stderr when LOG is -), log its exit code and run time
  local what="$1" out="$2" start rc=0; shift 2
  start=$(date +%s)
  if [ "$out" = - ]; then "$@" || rc=$?; else "$@" >"$out" 2>&1 || rc=$?; fi
  log "$what: exit $rc in $(($(date +%s) - start)) s"
  return $rc
}
health() { curl -fsS -m 2 "http://127.0.0.1:$PORT/health" >/dev/null 2>&1; }

if [ "${1:-}" = stop ]; then
  if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    pid="$(cat "$PIDFILE")"
    # uvicorn's graceful shutdown waits for the generation in progress, and an unstreamed one runs on
    # after its client is gone (a max_tokens of 384000 on a model that never ends its turn: hours).
    # A second signal is uvicorn's force quit; the last resort is SIGKILL.
    for sig in TERM INT KILL; do
      kill -s "$sig" "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
      kill -0 "$pid" 2>/dev/null || break
    done
    log "stopped transformers serve (pid $pid, SIG$sig)"
  else
    log "no transformers serve of this script is running"
  fi
  rm -f "$PIDFILE"
  exit 0
fi

SCRIPT_START=$(date +%s)
mkdir -p "$TF_DIR" "$HF_HOME/hub"
cd "$TF_DIR"

# 1. The venv, from the local wheel index only, every version pinned.
want="$(printf '%s\n' "${PINS[@]}" | sed 's/\[serving\]//' | tr 'A-Z_' 'a-z-' | sort)"
have="$( [ -x venv/bin/pip ] && venv/bin/pip freeze 2>/dev/null | tr 'A-Z_' 'a-z-' | grep -xF -f <(echo "$want") | sort || true)"
if [ "$have" != "$want" ]; then
  [ -x venv/bin/python ] || python3 -m venv venv
  timed "pip install (local wheel index; log: $TF_DIR/pip.log)" "$TF_DIR/pip.log" \
    nice -n 19 venv/bin/pip install --index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple \
      --find-links /opt/wheels "${PINS[@]}"
fi
VERSIONS="$(venv/bin/python -c 'import importlib.metadata as m; print(", ".join(f"{p} {m.version(p)}" for p in ["transformers","torch","tokenizers","huggingface_hub","safetensors","accelerate","fastapi","starlette","uvicorn","pydantic","openai","requests"]))')"
log "venv: $VERSIONS (python $(venv/bin/python -c 'import platform; print(platform.python_version())'))"

# 2. The model: random weights from the seed, trained TRAIN_STEPS steps, saved with save_pretrained.
if [ ! -f "$MODEL_NAME/model.safetensors" ]; then
  rm -rf "$MODEL_NAME.tmp"
  timed "making the tiny model ($TRAIN_STEPS steps; log: $TF_DIR/model.log)" "$TF_DIR/model.log" \
    nice -n 19 venv/bin/python "$HERE/transformers-tiny-model.py" --out "$MODEL_NAME.tmp" --steps "$TRAIN_STEPS"
  mv "$MODEL_NAME.tmp" "$MODEL_NAME"
fi
MODEL_SHA256="$(sha256sum "$MODEL_NAME/model.safetensors" | cut -d' ' -f1)"
if [ -n "$RECORDED_MODEL_SHA256" ] && [ "$MODEL_SHA256" != "$RECORDED_MODEL_SHA256" ]; then
  log "warning: the weights ($MODEL_SHA256) are not the recorded ones ($RECORDED_MODEL_SHA256): verdicts may move with the model, not only with the requests"
fi
log "model $TF_DIR/$MODEL_NAME (model.safetensors sha256 $MODEL_SHA256)"

# 3. The server, left running. `transformers serve MODEL` preloads MODEL and answers every request
# with it (a request naming another model is refused); MODEL is the directory's name, relative to the
# server's working directory ($TF_DIR), so the id the requests must name is that name.
if ! health; then
  if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    log "port $PORT is taken by something that is not a healthy transformers serve; set PORT=..."; exit 2
  fi
  start=$(date +%s)
  log "starting transformers serve $MODEL_NAME on 127.0.0.1:$PORT (log: $TF_DIR/transformers-serve.log)"
  OMP_NUM_THREADS=1 nohup venv/bin/transformers serve "$MODEL_NAME" --host 127.0.0.1 --port "$PORT" --device cpu \
    >"$TF_DIR/transformers-serve.log" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  for _ in $(seq 1 240); do health && break; kill -0 "$(cat "$PIDFILE")" 2>/dev/null || break; sleep 0.5; done
  health || { log "transformers serve did not become healthy; see $TF_DIR/transformers-serve.log"; exit 1; }
  log "transformers serve healthy after $(($(date +%s) - start)) s"
fi
log "transformers serve on 127.0.0.1:$PORT (pid $(cat "$PIDFILE" 2>/dev/null || echo '?')), model $MODEL_NAME"

# 4. Record. The harness is this checkout's (bin/svc-conformance.js). The base URL is .../v1, as
# transformers' docs write it: the server's routes are /v1/chat/completions and /v1/models only (the
# bare host answers 404 to /chat/completions). It serves no messages route (/v1/responses is OpenAI's
# Responses API), so the messages checks are left to their default base and blocked.
# With the load phase: LOAD requests in flight at the peak (16 by default) on a server that generates
# one at a time; its figures go to the reports under $TF_DIR/runs/reports.
if [ "${RECORD:-1}" != 0 ]; then
  mkdir -p "$TF_DIR/runs"
  timed "record --base-url http://127.0.0.1:$PORT/v1 --load ${LOAD:-16} -> $OUT" - \
    node "$REPO/bin/svc-conformance.js" record --base-url "http://127.0.0.1:$PORT/v1" --out "$OUT" \
      --report-dir "$TF_DIR/runs/reports" --json "$TF_DIR/runs/record.json" --load "${LOAD:-16}" \
      --model svc-v4-flash --model-map "svc-v4-flash=$MODEL_NAME" --quiet || true
fi
log "done in $(($(date +%s) - SCRIPT_START)) s; transformers serve left running on 127.0.0.1:$PORT (pid $(cat "$PIDFILE" 2>/dev/null || echo '?')); stop it with: $0 stop"

#!/usr/bin/env bash
# Records the harness through the LiteLLM proxy (Python) in front of the harness's own emulator,
# with LiteLLM's `deepseek` provider or its OpenAI-compatible one (`openai/` with api_base):
#
#   scripts/third-party/litellm.sh deepseek     # -> fixtures/litellm-deepseek
#   scripts/third-party/litellm.sh openai       # -> fixtures/litellm-openai
#   scripts/third-party/litellm.sh deepseek gateway   # -> fixtures/litellm-deepseek-gateway
#   scripts/third-party/litellm.sh openai gateway     # -> fixtures/litellm-openai-gateway
#   scripts/third-party/litellm.sh stop [deepseek|openai]   # ends the emulator and proxies it started
#
# `gateway`: the proxy calls the harness itself as its upstream (run --upstream-port, issue 33), and
# the gateway.* checks are recorded with both sides of every exchange (the recording's upstream.json).
# Without it: the full plan and a load phase of 16 in flight per model (`--load 16`, issue 40), the
# proxy limited to 6 requests in flight of its own (LITELLM_MAX_PARALLEL; litellm.config.yaml says
# which setting and why), so that it refuses part of the load itself.
#
# Versions: LiteLLM 1.81.0 (BerriAI commit 0a84120be5ef63ec28d15ffaee096beb55565725, tagged
# v1.81.0; never 1.107.0), Python 3.11, fastapi-sso 0.16.0, fastuuid replaced by the standard
# library's uuid (LiteLLM calls only uuid4() on it). LiteLLM is NOT installed by this script: the
# workplace forbids committing a recipe that builds fetched code, so it expects a virtual
# environment at $LITELLM_VENV (default ../thirdparty/litellm/venv, beside the checkout) holding exactly litellm
# 1.81.0 with its proxy's imports (fixtures/litellm-FINDINGS.md, "Setup", says what it holds).
#
# Idempotent: an emulator or proxy already answering on its port is reused (the ports are fixed per
# provider: deepseek 18710 emulator / 18711 proxy, openai 18720 / 18721), the proxy's config is
# rewritten only when it changed (and the proxy then restarted), and the recording replaces the old
# one whole (record --out). The emulator and the recording are this checkout's harness (the script's
# own ../..), so a re-record judges with whatever harness is current. Both servers keep running
# afterwards (their pids and logs are in $LITELLM_RUN), for curl and later re-records.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LITELLM_VENV=${LITELLM_VENV:-$REPO/../thirdparty/litellm/venv}
LITELLM_RUN=${LITELLM_RUN:-$REPO/../thirdparty/litellm/run}
LITELLM_VERSION=1.81.0
UPSTREAM_KEY=${SVC_UPSTREAM_KEY:-sk-emu-upstream}      # the one key the emulator accepts (loopback only)
MASTER_KEY=${LITELLM_MASTER_KEY:-sk-litellm-master}    # the proxy's master key, sent by the harness

usage() { echo "usage: $0 deepseek|openai [gateway] | stop [deepseek|openai]" >&2; exit 2; }
# The gateway mode's proxy has ports of its own (its config points at the harness's upstream port).
ports() { case $1 in deepseek) EMU_PORT=18710; PROXY_PORT=18711; UP_PORT=18712; GW_PORT=18713 ;; openai) EMU_PORT=18720; PROXY_PORT=18721; UP_PORT=18722; GW_PORT=18723 ;; *) usage ;; esac; }
answers() { curl -s -o /dev/null -m 2 "$1"; }
# detached PIDFILE COMMAND...: COMMAND in a session of its own, left running; PIDFILE gets its pid,
# which is its process group's too (stop_pid ends the group). The pid is written by the process
# itself before it execs COMMAND: `$!` would name setsid, which may fork and exit at once.
detached() { local pidfile=$1; shift; setsid sh -c 'echo $$ >"$0"; exec nohup "$@"' "$pidfile" "$@" </dev/null & }
stop_pid() { local f=$1; if [ -f "$f" ]; then local pid; pid=$(cat "$f"); if kill -0 "$pid" 2>/dev/null; then kill -- "-$pid" 2>/dev/null || kill "$pid"; fi; rm -f "$f"; fi; }

[ $# -ge 1 ] || usage
if [ "$1" = stop ]; then
  for p in ${2:-deepseek openai}; do ports "$p"; stop_pid "$LITELLM_RUN/proxy-$p.pid"; stop_pid "$LITELLM_RUN/proxy-$p-gateway.pid"; stop_pid "$LITELLM_RUN/emu-$p.pid"; done
  exit 0
fi
PROVIDER=$1; ports "$PROVIDER"
MODE=${2:-}
case $MODE in '') NAME=$PROVIDER ;; gateway) NAME=$PROVIDER-gateway; PROXY_PORT=$GW_PORT ;; *) usage ;; esac
mkdir -p "$LITELLM_RUN"

# 1. LiteLLM: exactly 1.81.0.
[ -x "$LITELLM_VENV/bin/litellm" ] || { echo "$0: no LiteLLM at $LITELLM_VENV (LITELLM_VENV): install litellm $LITELLM_VERSION there first" >&2; exit 2; }
have=$("$LITELLM_VENV/bin/python" -c 'from importlib.metadata import version; print(version("litellm"))')
[ "$have" = "$LITELLM_VERSION" ] || { echo "$0: $LITELLM_VENV holds litellm $have, not $LITELLM_VERSION" >&2; exit 2; }

# 2. The emulator (this checkout's), on loopback, accepting one key; in gateway mode the harness
#    serves it itself, on UP_PORT, for the length of the recording.
EMU=http://127.0.0.1:$EMU_PORT
[ "$MODE" = gateway ] && EMU=http://127.0.0.1:$UP_PORT
if [ "$MODE" != gateway ] && ! answers "$EMU/models"; then
  ( cd "$REPO" && detached "$LITELLM_RUN/emu-$PROVIDER.pid" node bin/svc-conformance.js emulate --host 127.0.0.1 --port "$EMU_PORT" --api-key "$UPSTREAM_KEY" \
      >"$LITELLM_RUN/emu-$PROVIDER.log" 2>&1 )
  for _ in $(seq 50); do answers "$EMU/models" && break; sleep 0.2; done
  answers "$EMU/models" || { echo "$0: the emulator did not start: $LITELLM_RUN/emu-$PROVIDER.log" >&2; exit 1; }
fi

# 3. The proxy, its config from litellm.config.yaml.
CONFIG=$LITELLM_RUN/$NAME.yaml
# The proxy's limit on requests in flight (litellm.config.yaml says why this setting): only where
# the recording has a load phase (not in gateway mode).
MAX_PARALLEL=${LITELLM_MAX_PARALLEL:-6}
LIMIT_SED=(-e "s|@MAX_PARALLEL@|$MAX_PARALLEL|g")
LEGACY_LIMITER=true
[ "$MODE" = gateway ] && { LIMIT_SED=(-e "/^  global_max_parallel_requests: @MAX_PARALLEL@/d"); LEGACY_LIMITER=false; }
sed -e "s|@PROVIDER@|$PROVIDER|g" -e "s|@API_BASE@|$EMU|g" "${LIMIT_SED[@]}" "$HERE/litellm.config.yaml" >"$CONFIG.new"
PROXY=http://127.0.0.1:$PROXY_PORT
if ! cmp -s "$CONFIG.new" "$CONFIG"; then mv "$CONFIG.new" "$CONFIG"; stop_pid "$LITELLM_RUN/proxy-$NAME.pid"; sleep 1; else rm -f "$CONFIG.new"; fi
if ! answers "$PROXY/health/liveliness"; then
  # LITELLM_LOCAL_MODEL_COST_MAP: the cost map shipped in the package, not one fetched at start.
  # LEGACY_MULTI_INSTANCE_RATE_LIMITING=true (not in gateway mode): LiteLLM 1.81.0's default
  # limiter (v3) ignores general_settings.global_max_parallel_requests; this flag puts back the
  # limiter that reads it (litellm/proxy/hooks/__init__.py).
  ( cd "$LITELLM_RUN" && SVC_UPSTREAM_KEY=$UPSTREAM_KEY LITELLM_MASTER_KEY=$MASTER_KEY LITELLM_LOCAL_MODEL_COST_MAP=True LEGACY_MULTI_INSTANCE_RATE_LIMITING=$LEGACY_LIMITER \
      detached "$LITELLM_RUN/proxy-$NAME.pid" "$LITELLM_VENV/bin/litellm" --config "$CONFIG" --host 127.0.0.1 --port "$PROXY_PORT" \
      >"$LITELLM_RUN/proxy-$NAME.log" 2>&1 )
  for _ in $(seq 120); do answers "$PROXY/health/liveliness" && break; sleep 0.5; done
  answers "$PROXY/health/liveliness" || { echo "$0: the proxy did not start: $LITELLM_RUN/proxy-$NAME.log" >&2; exit 1; }
fi

# 4. Record through the proxy with its master key (the harness reads it from SVC_API_KEY).
OUT=$REPO/fixtures/litellm-$NAME
# Without gateway: the full plan and a load phase of 16 in flight per model (run --load, issue 40),
# which the proxy's limit above refuses in part.
MODE_FLAGS=(--load 16)
[ "$MODE" = gateway ] && MODE_FLAGS=(--upstream-port "$UP_PORT" --upstream-key-env SVC_UPSTREAM_KEY --only gateway)
start=$(date +%s)
set +e
( cd "$REPO" && SVC_API_KEY=$MASTER_KEY SVC_UPSTREAM_KEY=$UPSTREAM_KEY node bin/svc-conformance.js record --base-url "$PROXY" --out "$OUT" "${MODE_FLAGS[@]}" \
    --report-dir "$LITELLM_RUN/reports-$NAME" --json "$LITELLM_RUN/report-$NAME.json" --quiet )
code=$?
set -e
echo "litellm-$NAME: record exit $code in $(( $(date +%s) - start )) s; recording $OUT; reports $LITELLM_RUN/reports-$NAME"
exit $code

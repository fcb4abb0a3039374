#!/usr/bin/env bash
# The shell steps of the svc-conformance GitHub Action (action.yml), one subcommand per step, so they
# can run (and be tested, harness/cli/action.test.ts) outside GitHub:
#
#   action-steps.sh install   npm ci in $GITHUB_ACTION_PATH (builds dist/); SVC_ACTION_SKIP_INSTALL=1 skips it
#   action-steps.sh run       runs the harness, never failing the step: appends summary.md to
#                             $GITHUB_STEP_SUMMARY, prints one ::error per failing cause, writes
#                             outcome, exit-code and report-dir to $GITHUB_OUTPUT
#   action-steps.sh finish    exits with the harness's code (SVC_EXIT_CODE)
#
# Inputs come through the environment (never interpolated into a script): SVC_INPUT_BASE_URL,
# SVC_INPUT_MODELS, SVC_INPUT_KNOWN, SVC_INPUT_EXTRA_FLAGS, SVC_INPUT_REPORT_DIR. The API key is
# SVC_API_KEY, which the harness reads by default (--api-key-env): it is never on a command line,
# and nothing here prints it.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"

# A comma or whitespace separated list, one word per line.
words() { tr ',[:space:]' '\n\n' <<<"${1:-}" | sed '/^$/d'; }

install() {
  if [ "${SVC_ACTION_SKIP_INSTALL:-}" = "1" ]; then
    echo "svc-conformance: SVC_ACTION_SKIP_INSTALL=1: using the installed tree in $action_path"
    return 0
  fi
  # The full install: prepare builds dist/ with esbuild, a dev dependency.
  (cd "$action_path" && npm ci --no-audit --no-fund)
}

run() {
  local report_dir="${SVC_INPUT_REPORT_DIR:-reports}"
  [ -n "$report_dir" ] || report_dir=reports
  local args=(run --report-dir "$report_dir")
  local word
  while IFS= read -r word; do args+=(--base-url "$word"); done < <(words "${SVC_INPUT_BASE_URL:-}")
  while IFS= read -r word; do args+=(--model "$word"); done < <(words "${SVC_INPUT_MODELS:-}")
  if [ -n "${SVC_INPUT_KNOWN:-}" ]; then args+=(--known "$SVC_INPUT_KNOWN"); fi
  # Extra flags split on whitespace, with no globbing (`--only usage.*` stays as written) and no
  # quote processing: an argument cannot contain a space.
  local extra=()
  read -r -d '' -a extra <<<"${SVC_INPUT_EXTRA_FLAGS:-}" || true
  args+=("${extra[@]}")
  # An empty key is no key: the harness then says which variable to set.
  if [ -z "${SVC_API_KEY:-}" ]; then unset SVC_API_KEY; fi

  # A summary left by an earlier run must not be read as this run's.
  rm -f "$report_dir/summary.json" "$report_dir/summary.md"
  printf 'svc-conformance'
  printf ' %q' "${args[@]}"
  printf '\n'
  local code=0
  node "$action_path/bin/svc-conformance.js" "${args[@]}" || code=$?

  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    if [ -f "$report_dir/summary.md" ]; then
      { cat "$report_dir/summary.md"; printf '\n'; } >>"$GITHUB_STEP_SUMMARY"
    else
      printf '### svc-conformance\n\nThe run exited %s before writing a summary: see the step'"'"'s log.\n' "$code" >>"$GITHUB_STEP_SUMMARY"
    fi
  fi
  node "$action_path/scripts/ci/annotate.mjs" annotations "$report_dir" "$code"
  local outcome
  outcome="$(node "$action_path/scripts/ci/annotate.mjs" outcome "$report_dir" "$code")"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    {
      echo "outcome=$outcome"
      echo "exit-code=$code"
      echo "report-dir=$report_dir"
    } >>"$GITHUB_OUTPUT"
  fi
  echo "svc-conformance: $outcome (exit $code)"
}

finish() {
  local code="${SVC_EXIT_CODE:-}"
  if ! [[ "$code" =~ ^[0-9]+$ ]]; then
    echo "::error title=svc-conformance::the harness did not run (an earlier step failed)"
    exit 1
  fi
  exit "$code"
}

case "${1:-}" in
  install) install ;;
  run) run ;;
  finish) finish ;;
  *) echo "usage: action-steps.sh install|run|finish" >&2; exit 2 ;;
esac

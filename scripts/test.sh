#!/usr/bin/env bash
# `npm test`: build, then the lint and the multi-language test tooling (`npm run tools`) run in the background
# while Jest runs every tier. The CLI tiers leave a core idle much of the time, so the two fill it instead of
# going first. The tiers that need the tooling (TOOLS_TIERS in tests/tiers.js) wait for it (tests/toolsReady.ts,
# through RUNPOD_TOOLS_STATUS). Fails when the lint, the tooling, Jest or the REST v2 traffic check fails;
# the lint's and the tooling's output are printed at the end, after Jest's.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

npm run build || exit 1

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
export RUNPOD_TOOLS_STATUS="$logs/tools.status"

(
  npm run tools >"$logs/tools.log" 2>&1
  echo $? >"$logs/tools.status.tmp"
  mv "$logs/tools.status.tmp" "$RUNPOD_TOOLS_STATUS"
) &
tools_pid=$!
npm run lint >"$logs/lint.log" 2>&1 &
lint_pid=$!

rm -rf .v2-traffic
RUNPOD_EMULATOR_V2_TRAFFIC="$PWD/.v2-traffic" npx jest "$@"
jest_rc=$?

wait "$tools_pid"
tools_rc="$(cat "$RUNPOD_TOOLS_STATUS" 2>/dev/null || echo 1)"
wait "$lint_pid"
lint_rc=$?
echo "::: npm run tools (exit $tools_rc)"
cat "$logs/tools.log"
echo "::: npm run lint (exit $lint_rc)"
cat "$logs/lint.log"

traffic_rc=0
if [ "$jest_rc" -eq 0 ]; then
  npm run test:v2-traffic
  traffic_rc=$?
fi

for rc in "$lint_rc" "$tools_rc" "$jest_rc" "$traffic_rc"; do
  [ "$rc" -eq 0 ] || exit 1
done

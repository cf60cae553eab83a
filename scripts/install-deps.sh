#!/usr/bin/env bash
# `npm ci`, skipped when node_modules already holds exactly what it would install: a stamp in
# node_modules records the lockfile, package.json and the Node.js/npm versions of the last `npm ci`, so a
# second `npm run setup` on a warm machine takes no time, and any change of them (or a missing
# node_modules) installs afresh. SETUP_FORCE_CI=1 always runs `npm ci`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

STAMP=node_modules/.npm-ci-stamp
want="$( (cat package-lock.json package.json; node --version; npm --version) | sha256sum | cut -c1-16)"

if [ "${SETUP_FORCE_CI:-0}" != 1 ] && [ -f node_modules/.package-lock.json ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$want" ]; then
  echo "[install-deps] node_modules matches package-lock.json: npm ci skipped" >&2
  exit 0
fi
npm ci
echo "$want" > "$STAMP"

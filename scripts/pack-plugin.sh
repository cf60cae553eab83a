#!/usr/bin/env bash
# Builds the provider plugin's tarball for `pulumi plugin install resource runpod <version> --file <tarball>`:
#   pulumi-resource-runpod   launcher (needs Node.js >= 20 on PATH)
#   package/                 this package as `npm pack` makes it, with its production dependencies
#                            (and @pulumi/pulumi, whose protocol stubs the plugin serves on)
# Usage: scripts/pack-plugin.sh [out dir]   (default: .pulumi/plugin); prints the tarball's path.
# Packs the current build (`npm run build` first).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/.pulumi/plugin}" && cd "${1:-$ROOT/.pulumi/plugin}" && pwd)"
[ -f "$ROOT/dist/src/plugin/main.js" ] || { echo "pack-plugin: run npm run build first" >&2; exit 1; }
VERSION="$(node -p 'require(process.argv[1]).version' "$ROOT/package.json")"
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT

(cd "$ROOT" && npm pack --silent --ignore-scripts --pack-destination "$STAGE" >/dev/null)
tar -xzf "$STAGE"/pulumi-runpod-*.tgz -C "$STAGE"
rm "$STAGE"/pulumi-runpod-*.tgz
# npm installs no peer dependency of the root package: in this copy @pulumi/pulumi becomes a dependency at the build's version.
PULUMI_VERSION="$(node -p 'require(process.argv[1]).version' "$ROOT/node_modules/@pulumi/pulumi/package.json")"
(
  cd "$STAGE/package"
  npm pkg delete devDependencies peerDependencies peerDependenciesMeta
  npm pkg set "dependencies.@pulumi/pulumi=$PULUMI_VERSION"
  npm install --omit=dev --no-audit --no-fund --ignore-scripts --silent >/dev/null
  [ -f node_modules/@pulumi/pulumi/package.json ] || { echo "pack-plugin: @pulumi/pulumi was not installed" >&2; exit 1; }
)
cat > "$STAGE/pulumi-resource-runpod" <<'LAUNCHER'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
exec node "$here/package/dist/src/plugin/main.js" "$@"
LAUNCHER
chmod +x "$STAGE/pulumi-resource-runpod"
TARBALL="$OUT/pulumi-resource-runpod-v$VERSION.tar.gz"
tar -czf "$TARBALL" -C "$STAGE" pulumi-resource-runpod package
echo "$TARBALL"

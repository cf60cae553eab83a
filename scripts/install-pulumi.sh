#!/usr/bin/env bash
# Provides the Pulumi CLI for this repository in .pulumi/bin (git-ignored):
#   pulumi                         the CLI/engine
#   pulumi-language-nodejs         the Node.js language host the engine starts for `runtime: nodejs`
#   pulumi-resource-pulumi-nodejs  the launcher the engine starts for dynamic providers
#
# Sources, in order (the first that works wins):
#   1. a previous run of this script (stamp file) -> exits in well under a second;
#   2. a `pulumi` on PATH whose version is >= the @pulumi/pulumi dependency;
#   3. the official installer, when it can be reached;
#   4. a build from the Go module proxy with this machine's Go.
#
# Step 4 needs explaining. The published pulumi modules carry `replace` directives, so
# `go install module@version` refuses them; we build from a generated wrapper module in
# .pulumi/build that requires them and copies their non-local replace directives. The
# proxy reachable here does not serve every release: the CLI is built at the
# @pulumi/pulumi version when served, else at PULUMI_CLI_FALLBACK_VERSION (an older
# 3.x release it does serve; the 3.x engine/SDK protocol is compatible across minors).
# The official `pulumi-language-nodejs` module is not served at all, so when it is
# missing we build scripts/pulumi-language-nodejs/main.go, a small host written for
# this project against the same SDK (plus its preload.js, a Node.js bug workaround).
#
# Built binaries are also kept in a cache outside the work tree (keyed by version, Go
# version and host source) so a fresh clone on the same machine only copies them.
#
# Environment knobs:
#   PULUMI_CLI_FALLBACK_VERSION  version to build when the exact one is not served (3.259.0)
#   PULUMI_CLI_BUILD_CACHE       where built binaries are cached (~/.cache/pulumi-cli-build)
#   PULUMI_INSTALL_FORCE=1       ignore the stamp and existing CLIs; reinstall
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PULUMI_DIR="$ROOT/.pulumi"
BIN="$PULUMI_DIR/bin"
BUILD="$PULUMI_DIR/build"
STAMP="$BIN/.install-stamp"
LANGHOST_DIR="$ROOT/scripts/pulumi-language-nodejs"
SDK_PKG_JSON="$ROOT/node_modules/@pulumi/pulumi/package.json"
FALLBACK_VERSION="${PULUMI_CLI_FALLBACK_VERSION:-3.259.0}"
BUILD_CACHE="${PULUMI_CLI_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cli-build}"
FORCE="${PULUMI_INSTALL_FORCE:-0}"

# Keep every `pulumi` we run here off the network and out of ~/.pulumi.
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_HOME="$PULUMI_DIR/home"

log() { echo "[install-pulumi] $*" >&2; }
die() { log "error: $*"; exit 1; }

# version_ge A B: true when A >= B (dotted numeric versions).
version_ge() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]; }

# cli_version PATH: the version a pulumi binary reports, without the leading "v"; empty on failure.
cli_version() { "$1" version 2>/dev/null | head -n1 | sed -e 's/^v//' || true; }

sha_of() { cat "$@" | sha256sum | cut -c1-16; }

[ -f "$SDK_PKG_JSON" ] || die "node_modules/@pulumi/pulumi is missing: run 'npm ci' first"
TARGET="$(node -p 'require(process.argv[1]).version' "$SDK_PKG_JSON")"
LANGHOST_HASH="$(sha_of "$LANGHOST_DIR/main.go" "$LANGHOST_DIR/preload.js")"
PRELOAD="pulumi-language-nodejs-preload.js"
mkdir -p "$BIN" "$PULUMI_HOME"

# The stamp says which source produced .pulumi/bin for which target; a matching stamp
# plus working binaries means there is nothing to do.
stamp_ok() {
  [ "$FORCE" != 1 ] && [ -f "$STAMP" ] || return 1
  local target cli langhost f
  target="$(sed -n 's/^target=//p' "$STAMP")"
  cli="$(sed -n 's/^cli=//p' "$STAMP")"
  langhost="$(sed -n 's/^langhost=//p' "$STAMP")"
  [ "$target" = "$TARGET" ] || return 1
  case "$langhost" in
    minimal:*) [ "$langhost" = "minimal:$LANGHOST_HASH" ] && [ -f "$BIN/$PRELOAD" ] || return 1 ;;
  esac
  for f in pulumi pulumi-language-nodejs pulumi-resource-pulumi-nodejs; do
    [ -x "$BIN/$f" ] || return 1
  done
  [ "$(cli_version "$BIN/pulumi")" = "$cli" ] || return 1
  # A fallback build older than the SDK gives way to a recent enough CLI that appeared on PATH.
  if ! version_ge "$cli" "$TARGET"; then
    local other
    other="$(PATH="$(path_without_bin)" command -v pulumi || true)"
    if [ -n "$other" ] && version_ge "$(cli_version "$other")" "$TARGET"; then return 1; fi
  fi
}

write_stamp() { # source cli-version langhost-kind
  printf 'target=%s\nsource=%s\ncli=%s\nlanghost=%s\n' "$TARGET" "$1" "$2" "$3" > "$STAMP"
}

# The engine starts this for `pulumi.dynamic.Resource` providers, with the program
# directory as working directory; it runs that program's own @pulumi/pulumi.
write_dynamic_provider_launcher() {
  local dest="$BIN/pulumi-resource-pulumi-nodejs"
  rm -f "$dest"
  cat > "$dest" <<'EOF'
#!/bin/sh
# Launcher for Pulumi dynamic providers (written by scripts/install-pulumi.sh).
# Finds the program's @pulumi/pulumi as Node's resolution would (node_modules of the working directory, then
# of each parent), in the shell: a `node -e require.resolve(...)` would be one more Node.js start per run.
dir=$(pwd)
while :; do
  script="$dir/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"
  [ -f "$script" ] && exec node "$script" "$@"
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
echo "pulumi-resource-pulumi-nodejs: cannot resolve @pulumi/pulumi from $(pwd); install the program's dependencies" >&2
exit 1
EOF
  chmod +x "$dest"
}

# link_from DIR: use the CLI (and its bundled plugins, when present) found in DIR.
link_from() {
  local dir="$1" f
  rm -f "$BIN/$PRELOAD" # only the minimal host uses it
  for f in pulumi pulumi-language-nodejs; do
    local src="$dir/$f"
    [ -x "$src" ] || src="$(PATH="$(path_without_bin)" command -v "$f" || true)"
    [ -n "$src" ] && [ -x "$src" ] || return 1
    ln -sfn "$src" "$BIN/$f"
  done
  if [ -x "$dir/pulumi-resource-pulumi-nodejs" ]; then
    ln -sfn "$dir/pulumi-resource-pulumi-nodejs" "$BIN/pulumi-resource-pulumi-nodejs"
  else
    write_dynamic_provider_launcher
  fi
}

path_without_bin() {
  local out="" p
  local IFS=:
  for p in $PATH; do
    [ "$p" = "$BIN" ] && continue
    out="${out:+$out:}$p"
  done
  printf '%s' "$out"
}

try_path_cli() {
  local cli ver
  cli="$(PATH="$(path_without_bin)" command -v pulumi || true)"
  [ -n "$cli" ] || return 1
  ver="$(cli_version "$cli")"
  [ -n "$ver" ] && version_ge "$ver" "$TARGET" || {
    log "pulumi on PATH ($cli, v${ver:-?}) is older than $TARGET; not using it"
    return 1
  }
  cli="$(readlink -f "$cli")"
  link_from "$(dirname "$cli")" || return 1
  write_stamp "path:$cli" "$ver" "path"
  log "using pulumi v$ver from PATH ($cli)"
}

try_official_installer() {
  command -v curl >/dev/null || return 1
  local tmp
  tmp="$(mktemp -d)"
  if ! curl -fsSL --connect-timeout 5 --max-time 30 https://get.pulumi.com -o "$tmp/install.sh" 2>/dev/null; then
    rm -rf "$tmp"
    log "official installer not reachable; building from the Go module proxy"
    return 1
  fi
  if ! timeout 300 sh "$tmp/install.sh" --version "$TARGET" --install-root "$PULUMI_DIR/official" \
      --no-edit-path --silent >&2; then
    rm -rf "$tmp"
    log "official installer failed; building from the Go module proxy"
    return 1
  fi
  rm -rf "$tmp"
  link_from "$PULUMI_DIR/official/bin" || return 1
  write_stamp "official" "$(cli_version "$BIN/pulumi")" "official"
  log "installed pulumi v$TARGET with the official installer"
}

# mod_json MODULE@VERSION: download a module and print its `go mod download -json` record.
mod_json() { go mod download -json "$1" 2>/dev/null; }

json_field() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s)[process.argv[1]];process.stdout.write(v==null?"":String(v))})' "$1"; }

# replace_flags GOMOD...: `-replace` flags for the non-local replace directives of the given go.mod files.
replace_flags() {
  local gomod
  for gomod in "$@"; do
    go mod edit -json "$gomod" | node -e '
      let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
        for (const r of JSON.parse(s).Replace || []) {
          if (!r.New.Version) continue; // local paths point inside the pulumi repo: dropped
          const old = r.Old.Version ? `${r.Old.Path}@${r.Old.Version}` : r.Old.Path;
          console.log(`-replace=${old}=${r.New.Path}@${r.New.Version}`);
        }
      });'
  done
}

build_from_proxy() {
  command -v go >/dev/null || die "no pulumi CLI found and Go is not installed: install Go (>= 1.25) or the Pulumi CLI"
  export GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false"

  local version="" pkg_json
  for v in "$TARGET" "$FALLBACK_VERSION"; do
    if pkg_json="$(mod_json "github.com/pulumi/pulumi/pkg/v3@v$v")" && [ -n "$pkg_json" ]; then
      version="$v"; break
    fi
    log "github.com/pulumi/pulumi/pkg/v3@v$v is not available from the Go module proxy"
  done
  [ -n "$version" ] || die "could not download the Pulumi CLI module; set PULUMI_CLI_FALLBACK_VERSION to a served version"

  local sdk_json lang_json="" langhost_kind
  sdk_json="$(mod_json "github.com/pulumi/pulumi/sdk/v3@v$version")" || die "github.com/pulumi/pulumi/sdk/v3@v$version is not available"
  local langmod="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
  if lang_json="$(mod_json "$langmod@v$version")" && [ -n "$lang_json" ]; then
    langhost_kind="official"
  else
    lang_json=""
    langhost_kind="minimal:$LANGHOST_HASH"
  fi

  local key="v$version-$(go env GOVERSION)-$(go env GOOS)-$(go env GOARCH)-${langhost_kind/:/-}"
  local cached="$BUILD_CACHE/$key"
  if [ "$FORCE" != 1 ] && [ -x "$cached/pulumi" ] && [ -x "$cached/pulumi-language-nodejs" ]; then
    log "reusing Pulumi CLI v$version built earlier ($cached)"
  else
    log "building Pulumi CLI v$version (@pulumi/pulumi is $TARGET) and the Node.js language host ($langhost_kind) with $(go env GOVERSION)"
    log "with empty Go caches this downloads ~300 modules and compiles for several minutes"
    local wrap="$BUILD/wrapper"
    rm -rf "$wrap"
    mkdir -p "$wrap"
    local pkg_gomod sdk_gomod go_line
    pkg_gomod="$(printf '%s' "$pkg_json" | json_field GoMod)"
    sdk_gomod="$(printf '%s' "$sdk_json" | json_field GoMod)"
    go_line="$(go mod edit -json "$pkg_gomod" | json_field Go)"
    (
      cd "$wrap"
      go mod init local/pulumi-cli-build >/dev/null 2>&1
      go mod edit -go="$go_line" \
        -require="github.com/pulumi/pulumi/pkg/v3@v$version" \
        -require="github.com/pulumi/pulumi/sdk/v3@v$version"
      local gomods=("$pkg_gomod" "$sdk_gomod")
      if [ -n "$lang_json" ]; then
        go mod edit -require="$langmod@v$version"
        gomods+=("$(printf '%s' "$lang_json" | json_field GoMod)")
      else
        mkdir -p langhost
        cp "$LANGHOST_DIR/main.go" langhost/main.go
      fi
      local flags
      mapfile -t flags < <(replace_flags "${gomods[@]}" | sort -u)
      [ "${#flags[@]}" -eq 0 ] || go mod edit "${flags[@]}"

      local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
      mkdir -p out
      go build -trimpath -ldflags "$ldflags" -o out/pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
      if [ -n "$lang_json" ]; then
        go build -trimpath -ldflags "$ldflags" -o out/pulumi-language-nodejs "$langmod"
      else
        go build -trimpath -ldflags "$ldflags" -o out/pulumi-language-nodejs ./langhost
      fi
    )
    mkdir -p "$cached"
    cp "$wrap/out/pulumi" "$wrap/out/pulumi-language-nodejs" "$cached/"
    rm -rf "$wrap/out"
  fi

  local f
  for f in pulumi pulumi-language-nodejs; do
    rm -f "$BIN/$f"
    cp "$cached/$f" "$BIN/$f.tmp"
    mv "$BIN/$f.tmp" "$BIN/$f"
  done
  rm -f "$BIN/$PRELOAD"
  [ -n "$lang_json" ] || cp "$LANGHOST_DIR/preload.js" "$BIN/$PRELOAD"
  write_dynamic_provider_launcher
  [ "$(cli_version "$BIN/pulumi")" = "$version" ] || die "built pulumi does not report v$version"
  write_stamp "go-proxy" "$version" "$langhost_kind"
  log "installed pulumi v$version in $BIN"
}

if stamp_ok; then
  log "pulumi v$(sed -n 's/^cli=//p' "$STAMP") ready in .pulumi/bin ($(sed -n 's/^source=//p' "$STAMP"))"
  exit 0
fi
rm -f "$STAMP"
if [ "$FORCE" != 1 ] && try_path_cli; then exit 0; fi
if try_official_installer; then exit 0; fi
build_from_proxy

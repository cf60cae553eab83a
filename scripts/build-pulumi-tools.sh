#!/usr/bin/env bash
# Builds the TEST TOOLING the multi-language tests (tests/multilang) need beside the Pulumi CLI of
# scripts/install-pulumi.sh, none of which this machine's package sources serve ready-made:
#   .pulumi/bin/pulumi-language-python       minimal Python language host (scripts/pulumi-language-python;
#                                            GenerateProgram by pkg/v3 codegen/python, scripts/pulumi-language-codegen)
#   .pulumi/bin/pulumi-language-python-exec  its run script
#   .pulumi/bin/pulumi-language-go           minimal Go language host (scripts/pulumi-language-go; GenerateProgram
#                                            by codegen/go): the
#                                            official one (sdk/go/pulumi-language-go/v3) is not served by
#                                            the Go module proxy here
#   .pulumi/tools/pulumi-sdkgen              the Pulumi code generator (pkg/v3 codegen/python, codegen/go)
#                                            as a CLI: schema.json -> sdk/python, sdk/go (scripts/pulumi-sdkgen)
#   .pulumi/bin/pulumi-language-yaml         the YAML host of pulumi-yaml (PULUMI_YAML_VERSION) with its
#                                            config gap closed (scripts/pulumi-language-yaml)
#   .pulumi/venv                             a virtualenv with the `pulumi` Python SDK
#   .pulumi/schemathesis                     a virtualenv with schemathesis (scripts/schemathesis-requirements.txt,
#                                            every package pinned) for tests/tooling/schemathesis.test.ts
#   <cache>/go-program-<hash>/runpod-go-test  tests/multilang/go compiled against sdk/go/runpod, once per content
#                                            (`build-pulumi-tools.sh go-program` prints its path), in the Go
#                                            build cache <cache>/go-build (`build-pulumi-tools.sh go-cache`)
# Users never need any of these: they bring the official language hosts with their Pulumi CLI.
# Only the tests (and `npm run bench`'s plugin rows, `npm run gen:plugin`) use them, so `npm test` builds them
# (`npm run tools`) and `npm run setup`, which the demo follows, does not. A warm run only re-links.
#
# Go binaries are built against github.com/pulumi/pulumi/pkg/v3 at PULUMI_TOOLS_VERSION (the CLI's
# version, whose modules the CLI build already put in the Go caches) and kept, like the virtualenv,
# in a cache outside the work tree keyed by version and source, so a second clone only links them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="${PULUMI_TOOLS_VERSION:-3.259.0}"
CACHE="${PULUMI_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-runpod-tools}"
BIN="$ROOT/.pulumi/bin"
TOOLS="$ROOT/.pulumi/tools"

log() { echo "[build-pulumi-tools] $*" >&2; }
die() { log "error: $*"; exit 1; }
sha_of() { cat "$@" | sha256sum | cut -c1-16; }

mkdir -p "$BIN" "$TOOLS" "$CACHE"

# ---- Go tools ----
build_go_tools() {
  local hash key out
  hash="$(sha_of "$ROOT/scripts/pulumi-sdkgen/main.go" "$ROOT/scripts/pulumi-language-python/main.go" "$ROOT/scripts/pulumi-language-go/main.go" "$ROOT/scripts/pulumi-language-codegen/codegen.go")"
  key="go-v$VERSION-$(go env GOVERSION)-$(go env GOOS)-$(go env GOARCH)-$hash"
  out="$CACHE/$key"
  if [ -x "$out/pulumi-sdkgen" ] && [ -x "$out/pulumi-language-python" ] && [ -x "$out/pulumi-language-go" ]; then
    log "reusing Go tools built earlier ($out)"
  else
    command -v go >/dev/null || die "Go is needed to build the test tooling (>= 1.25)"
    export GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false"
    log "building pulumi-sdkgen, pulumi-language-python and pulumi-language-go against pkg/v3 v$VERSION"
    local pkg_gomod wrap
    pkg_gomod="$(go mod download -json "github.com/pulumi/pulumi/pkg/v3@v$VERSION" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).GoMod))')"
    [ -n "$pkg_gomod" ] || die "github.com/pulumi/pulumi/pkg/v3@v$VERSION is not available from the Go module proxy"
    wrap="$(mktemp -d)"
    mkdir -p "$wrap/sdkgen" "$wrap/langpython" "$wrap/langgo" "$wrap/codegen"
    cp "$ROOT/scripts/pulumi-sdkgen/main.go" "$wrap/sdkgen/main.go"
    cp "$ROOT/scripts/pulumi-language-python/main.go" "$wrap/langpython/main.go"
    cp "$ROOT/scripts/pulumi-language-go/main.go" "$wrap/langgo/main.go"
    cp "$ROOT/scripts/pulumi-language-codegen/codegen.go" "$wrap/codegen/codegen.go"   # both hosts' GenerateProgram
    (
      cd "$wrap"
      go mod init local/pulumi-runpod-tools >/dev/null 2>&1
      go mod edit -go="$(go mod edit -json "$pkg_gomod" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).Go))')" \
        -require="github.com/pulumi/pulumi/pkg/v3@v$VERSION" -require="github.com/pulumi/pulumi/sdk/v3@v$VERSION"
      local flags
      mapfile -t flags < <(go mod edit -json "$pkg_gomod" | node -e '
        let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
          for (const r of JSON.parse(s).Replace || []) {
            if (!r.New.Version) continue;
            console.log(`-replace=${r.Old.Version ? `${r.Old.Path}@${r.Old.Version}` : r.Old.Path}=${r.New.Path}@${r.New.Version}`);
          }
        });' | sort -u)
      [ "${#flags[@]}" -eq 0 ] || go mod edit "${flags[@]}"
      local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION"
      go build -trimpath -ldflags "$ldflags" -o out/pulumi-sdkgen ./sdkgen
      go build -trimpath -ldflags "$ldflags" -o out/pulumi-language-python ./langpython
      go build -trimpath -ldflags "$ldflags" -o out/pulumi-language-go ./langgo
    )
    mkdir -p "$out"
    cp "$wrap/out/pulumi-sdkgen" "$wrap/out/pulumi-language-python" "$wrap/out/pulumi-language-go" "$out/"
    rm -rf "$wrap"
  fi
  install -m 0755 "$out/pulumi-language-python" "$BIN/pulumi-language-python"
  install -m 0755 "$out/pulumi-language-go" "$BIN/pulumi-language-go"
  install -m 0755 "$out/pulumi-sdkgen" "$TOOLS/pulumi-sdkgen"
  install -m 0644 "$ROOT/scripts/pulumi-language-python/run.py" "$BIN/pulumi-language-python-exec"
}

# ---- YAML language host: pulumi-yaml on its own pins (it does not compile against pkg/v3 v3.259) ----
YAML_VERSION="${PULUMI_YAML_VERSION:-1.19.1}"
build_yaml_host() {
  local hash out
  hash="$(sha_of "$ROOT/scripts/pulumi-language-yaml/main.go")"
  out="$CACHE/yaml-v$YAML_VERSION-$(go env GOVERSION)-$(go env GOOS)-$(go env GOARCH)-$hash"
  if [ -x "$out/pulumi-language-yaml" ]; then
    log "reusing pulumi-language-yaml built earlier ($out)"
  else
    command -v go >/dev/null || die "Go is needed to build the test tooling (>= 1.25)"
    export GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false"
    log "building pulumi-language-yaml v$YAML_VERSION (about a minute of CPU)"
    local yaml_gomod wrap
    yaml_gomod="$(go mod download -json "github.com/pulumi/pulumi-yaml@v$YAML_VERSION" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).GoMod||""))')"
    [ -n "$yaml_gomod" ] || die "github.com/pulumi/pulumi-yaml@v$YAML_VERSION is not available from the Go module proxy"
    wrap="$(mktemp -d)"
    cp "$ROOT/scripts/pulumi-language-yaml/main.go" "$wrap/main.go"
    (
      cd "$wrap"
      go mod init local/pulumi-language-yaml >/dev/null 2>&1
      # Its own go.mod (requires and replaces) pins what it compiles against.
      cp "$yaml_gomod" go.mod
      go mod edit -module=local/pulumi-language-yaml -require="github.com/pulumi/pulumi-yaml@v$YAML_VERSION"
      go build -trimpath -ldflags "-s -w" -o out/pulumi-language-yaml .
    )
    mkdir -p "$out"
    cp "$wrap/out/pulumi-language-yaml" "$out/"
    rm -rf "$wrap"
  fi
  install -m 0755 "$out/pulumi-language-yaml" "$BIN/pulumi-language-yaml"
}

# ---- Python virtualenv with the pulumi SDK ----
build_venv() {
  local py venv
  py="$(command -v python3 || true)"
  [ -n "$py" ] || { log "no python3: the Python tests of tests/multilang will be skipped"; return 0; }
  venv="$CACHE/venv-$("$py" -c 'import sys;print("%d.%d" % sys.version_info[:2])')-pulumi-$VERSION"
  # Created in place (a moved virtualenv's scripts point at its old path); `.complete` marks a finished one.
  if [ -f "$venv/.complete" ] && "$venv/bin/python" -c 'import pulumi, parver, semver' 2>/dev/null; then
    log "reusing the virtualenv $venv"
  else
    log "creating $venv with pulumi==$VERSION"
    rm -rf "$venv"
    "$py" -m venv "$venv"
    # The generated SDK needs parver and semver (its dependencies); setuptools and wheel build it offline.
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "pulumi==$VERSION" "parver>=0.2.1" "semver>=2.8.1" "setuptools>=61" wheel
    touch "$venv/.complete"
  fi
  ln -sfn "$venv" "$ROOT/.pulumi/venv"
}

# ---- schemathesis, in its own virtualenv (its dependencies stay apart from the pulumi SDK's) ----
build_schemathesis() {
  local py venv reqs
  py="$(command -v python3 || true)"
  [ -n "$py" ] || { log "no python3: the schemathesis conformance test will fail"; return 0; }
  reqs="$ROOT/scripts/schemathesis-requirements.txt"
  # Keyed by the pinned set: a changed pin makes a new one, an unchanged one is only re-linked.
  venv="$CACHE/schemathesis-$("$py" -c 'import sys;print("%d.%d" % sys.version_info[:2])')-$(sha_of "$reqs")"
  if [ -f "$venv/.complete" ] && [ -x "$venv/bin/st" ]; then
    log "reusing the schemathesis virtualenv $venv"
  else
    log "creating $venv with $(grep -i '^schemathesis==' "$reqs")"
    rm -rf "$venv"
    "$py" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps -r "$reqs"
    "$venv/bin/python" -m pip check >/dev/null || die "the pinned schemathesis set in $reqs is inconsistent: $("$venv/bin/python" -m pip check)"
    touch "$venv/.complete"
  fi
  ln -sfn "$venv" "$ROOT/.pulumi/schemathesis"
}

# ---- tests/multilang/go, built once: compiling the Pulumi Go SDK costs minutes of CPU, linking the program seconds ----
# Kept in the cache by a hash of all that goes into it (the program with its go.mod/go.sum, the generated
# SDK it replaces its module with, this recipe, the Go toolchain), so an unchanged checkout with an empty
# GOCACHE compiles nothing. go.test.ts runs it through Pulumi.yaml `runtime.options.binary`, asking
# `build-pulumi-tools.sh go-program` for its path: a changed SDK is compiled there, so the test still
# proves the generated SDK compiles. Compiled in a Go build cache kept beside it (GO_BUILD_CACHE, content-
# addressed, safe to share), which adopt.test.ts's Go program, written at test time, builds in too
# (`build-pulumi-tools.sh go-cache` prints it): no trimpath, so the host's plain `go build` finds the same entries.
GO_BUILD_CACHE="$CACHE/go-build"
GO_PROGRAM_RECIPE="go build -ldflags=-s -w; GOCACHE=\$CACHE/go-build; replace => checkout sdk/go/runpod; v2"
go_program() {
  command -v go >/dev/null || die "Go is needed to build tests/multilang/go (>= 1.25)"
  local hash out
  hash="$(
    cd "$ROOT" && export GOTOOLCHAIN=local
    { echo "$GO_PROGRAM_RECIPE"; go env GOVERSION GOOS GOARCH
      find tests/multilang/go sdk/go/runpod -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-16
  )"
  out="$CACHE/go-program-$hash"
  if [ -x "$out/runpod-go-test" ]; then
    log "reusing tests/multilang/go built earlier ($out)"
  else
    log "building tests/multilang/go against sdk/go/runpod (minutes of CPU with an empty Go build cache)"
    local wrap
    wrap="$(mktemp -d "$CACHE/.go-program-XXXXXX")"
    cp "$ROOT"/tests/multilang/go/* "$wrap/"
    (
      cd "$wrap"
      export GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false" GOCACHE="$GO_BUILD_CACHE"
      # The copy's relative replace would not resolve: point it at this checkout's SDK, as the relative one does.
      # (&&: errexit is off in a subshell tested by ||.)
      go mod edit -replace="github.com/pulumi-runpod/pulumi-runpod/sdk/go/runpod=$ROOT/sdk/go/runpod" &&
        go build -ldflags "-s -w" -o bin/runpod-go-test . >&2 &&
        mkdir -p out && mv bin/runpod-go-test out/
    ) || { rm -rf "$wrap"; die "tests/multilang/go does not compile against sdk/go/runpod"; }
    # Renamed into place whole: a concurrent build of the same inputs leaves the first one's.
    mv -T "$wrap/out" "$out" 2>/dev/null || true
    rm -rf "$wrap"
    [ -x "$out/runpod-go-test" ] || die "could not keep the built tests/multilang/go in $out"
  fi
  echo "$out/runpod-go-test"
}

# `build-pulumi-tools.sh go-program`: only that, printing the binary's path (tests/multilang/go.test.ts);
# `build-pulumi-tools.sh go-cache`: the Go build cache it compiles in (tests/multilang/adopt.test.ts).
case "${1:-}" in
  go-program) go_program; exit 0 ;;
  go-cache) echo "$GO_BUILD_CACHE"; exit 0 ;;
esac

build_go_tools
build_yaml_host
build_venv
build_schemathesis
go_program >/dev/null
log "ready: .pulumi/bin/pulumi-language-python, .pulumi/bin/pulumi-language-go, .pulumi/bin/pulumi-language-yaml, .pulumi/tools/pulumi-sdkgen, .pulumi/venv, .pulumi/schemathesis"

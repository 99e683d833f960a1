#!/usr/bin/env bash
# Fetches MovieLens ml-latest-small (100,004 ratings, 0.5-5 stars, of 9,066 movies by 671 users) as CSV
# into DEST (default: <repo>/data/movielens, git-ignored):
#   ratings-train.csv  80,004 ratings   userId,movieId,rating,genres (genres '|'-separated)
#   ratings-test.csv   20,000 ratings   the same columns; every fifth rating of the data set (a fixed split)
#
# Usage: scripts/fetch-movielens.sh [DEST]
#
# Source: Debian's package r-cran-dslabs, whose R data base holds the `movielens` data frame. The .deb is
# downloaded with `apt-get download` (nothing is installed; R is not needed) and unpacked with dpkg-deb;
# scripts/lib/RDataFrameCsv.java (run by the JDK as a single-file program) reads the data frame. The .deb's
# and both files' sha256 are checked against pinned values before the files are written. Idempotent.
#
# Environment:
#   PS_DSLABS_DEB   use this local copy of the .deb instead of apt-get download (offline machines)
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

readonly DEB_SHA256=c3f93382c44d4581de9561792a87b110cb239c70771cac5ad63fa0a259e71ef3
readonly DATA=usr/lib/R/site-library/dslabs/data
declare -A SHA256=(
    [ratings-train.csv]=91083e149cb5b9e8e54ff40f547055d23fb84fc7798647fa0ac739a71a7b136e
    [ratings-test.csv]=680155b6052298bc96cb372549a28b9bc4440f5ad6e1188c8ad2172908a6856d
)

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
[[ $# -le 1 ]] || ps_die "expected at most one argument (DEST), got $#; see --help"
dest="${1:-$PS_REPO_ROOT/data/movielens}"

verified() {
    [[ -s "$1" ]] && [[ "$(sha256sum "$1" | cut -d' ' -f1)" == "${SHA256[$(basename "$1")]}" ]]
}

if verified "$dest/ratings-train.csv" && verified "$dest/ratings-test.csv"; then
    ps_info "MovieLens already present in $dest; nothing to do"
    exit 0
fi
command -v java >/dev/null 2>&1 || ps_die "java (JDK 17 or later) is needed to read the R data base"

work="$(mktemp -d "${TMPDIR:-/tmp}/fetch-movielens.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [[ -n "${PS_DSLABS_DEB:-}" ]]; then
    [[ -f "$PS_DSLABS_DEB" ]] || ps_die "PS_DSLABS_DEB=$PS_DSLABS_DEB is not a file"
    deb="$PS_DSLABS_DEB"
else
    command -v apt-get >/dev/null 2>&1 || ps_die "apt-get is not available; set PS_DSLABS_DEB to a copy of the .deb"
    ps_info "downloading Debian's r-cran-dslabs (about 4.7 MB)"
    if ! (cd "$work" && apt-get download r-cran-dslabs >"$work/apt.out" 2>&1); then
        # a fresh machine has no package lists yet; root can read them once and try again
        if [[ $(id -u) -eq 0 ]] && apt-get update -qq >"$work/update.out" 2>&1 \
            && (cd "$work" && apt-get download r-cran-dslabs >"$work/apt.out" 2>&1); then
            :
        else
            cat "$work/apt.out" >&2
            ps_die "apt-get download r-cran-dslabs failed (run apt-get update first; is the mirror reachable?)"
        fi
    fi
    deb="$(ls "$work"/r-cran-dslabs_*.deb)"
fi
[[ "$(sha256sum "$deb" | cut -d' ' -f1)" == "$DEB_SHA256" ]] \
    || ps_die "sha256 mismatch for $deb: expected $DEB_SHA256 (version 0.7.4-1), got $(sha256sum "$deb" | cut -d' ' -f1)"
dpkg-deb -x "$deb" "$work/unpacked" || ps_die "cannot unpack $deb"

java "$PS_REPO_ROOT/scripts/lib/RDataFrameCsv.java" "$work/unpacked/$DATA" movielens "$work/ratings.csv" \
    userId movieId rating genres >/dev/null || ps_die "cannot read the movielens data frame from $deb"
awk -v train="$work/ratings-train.csv" -v test="$work/ratings-test.csv" '
    NR == 1 { print > train; print > test; next }
    (NR - 1) % 5 == 0 { print > test; next }
    { print > train }' "$work/ratings.csv"

mkdir -p "$dest"
for f in ratings-train.csv ratings-test.csv; do
    verified "$work/$f" || ps_die "sha256 mismatch for $f: expected ${SHA256[$f]}, got $(sha256sum "$work/$f" | cut -d' ' -f1)"
done
for f in ratings-train.csv ratings-test.csv; do
    cp "$work/$f" "$dest/.$f.tmp" && mv -f "$dest/.$f.tmp" "$dest/$f"
    ps_info "wrote $dest/$f ($(($(wc -l <"$dest/$f") - 1)) ratings, sha256 verified)"
done
ps_info "MovieLens ready in $dest"

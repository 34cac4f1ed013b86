#!/usr/bin/env bash
# What depending on pi-ask costs a new crate: crates compiled and wall time of a clean debug
# build, for the full crate (the `pi-ask` program's features) and for the lean core
# (`default-features = false`), measured one after the other in one run on the same machine.
# Offline, with the repository's Cargo.lock, so both builds use the same versions.
#
#   benches/lean_build.sh [runs]     (default 1 run each; the medians are printed)
#
# The crates are built from this checkout as it is: run it from a clean clone, not beside edits.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

make_crate() { # name, dependency line
    mkdir -p "$work/$1/src"
    cat >"$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.1.0"
edition = "2024"

[dependencies]
$2

[workspace]
TOML
    cat >"$work/$1/src/main.rs" <<'RS'
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let payload = r#"{"questions":[{"id":"env","prompt":"Deploy where?",
        "options":[{"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]}"#;
    let mut form = pi_ask::testing::Harness::new(payload, 60, 16)?;
    form.press("down").press("enter").press("enter");
    assert!(form.result().is_some());
    Ok(())
}
RS
    cp "$repo/Cargo.lock" "$work/$1/"
}

make_crate full "pi-ask = { path = \"$repo\" }"
make_crate lean "pi-ask = { path = \"$repo\", default-features = false }"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

for name in full lean; do
    : >"$work/$name.times"
    for _ in $(seq "$runs"); do
        rm -rf "$work/$name/target"
        start=$(date +%s.%N)
        (cd "$work/$name" && cargo build --offline) >"$work/$name.log" 2>&1 || {
            cat "$work/$name.log" >&2
            exit 1
        }
        end=$(date +%s.%N)
        crates=$(grep -c '^ *Compiling' "$work/$name.log")
        awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f\n", b - a }' >>"$work/$name.times"
    done
    echo "$name: $crates crates, median $(median <"$work/$name.times") s over $runs run(s)"
done

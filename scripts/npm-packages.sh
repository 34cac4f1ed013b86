#!/usr/bin/env bash
# Writes pi-ask's npm packages into OUTDIR (docs/pi.md, "Install"):
#   pi-ask-<version>.tgz                     the pi package (the adapter, the tool, the skill)
#   pi-ask-engine-<platform>-<version>.tgz   the engine for the machine this runs on
#   packages.json                            what was packed: names, versions, files, integrity
#   layout/<platform>/                       every platform's engine package, waiting for its
#                                            binary in bin/ (a release pipeline fills each and
#                                            runs `npm pack` there)
# The release binary is built first when it is out of date. PI_ASK_ENGINE=<binary> packs that
# binary instead (tests pack the one they built); PI_ASK_TARGET=<rust target> names its platform
# when it is not this machine's.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: scripts/npm-packages.sh OUTDIR}"
engine="${PI_ASK_ENGINE:-}"
if [ -z "$engine" ]; then
  cargo build --release --locked --manifest-path "$root/Cargo.toml" --bin pi-ask
  engine="$root/target/release/pi-ask"
fi
target="${PI_ASK_TARGET:-$(rustc -vV | sed -n 's/^host: //p')}"
mkdir -p "$out"
exec node "$root/scripts/npm-packages.mjs" "$root" "$(cd "$out" && pwd)" "$engine" "$target"

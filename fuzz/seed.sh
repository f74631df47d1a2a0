#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the test fixtures and from
# `spx example` (encode::example) outputs. Corpora are gitignored; run this
# once before `cargo fuzz run`. Safe to re-run (it only adds files).
#
#   bash fuzz/seed.sh            # from anywhere; builds the `spx` CLI
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$root/target}"

(cd "$root" && cargo build --quiet -p spx-cli)
spx="$target_dir/debug/spx"

corpus="$here/corpus"
mkdir -p "$corpus/reader" "$corpus/decode" "$corpus/generated" "$corpus/admit"

# reader: every .spx fixture.
find "$root/tests/fixtures" -name '*.spx' -print0 |
    while IFS= read -r -d '' f; do
        name="$(echo "${f#"$root"/}" | tr '/' '_')"
        cp "$f" "$corpus/reader/$name"
    done

# The roots of fuzz/src/lib.rs ROOTS (decode, admit) and of the generated
# target (the two roots of tests/fixtures/fuzz/fuzz.spx).
roots=(
    "tests/fixtures/fuzz/fuzz.spx fz.root.é"
    "tests/fixtures/fuzz/fuzz.spx fz.event"
    "tests/fixtures/macro/planner.spx planner.proposal"
    "tests/fixtures/spx/diamond.spx dia.top"
    "tests/fixtures/spx/scalars.spx sc.variant"
)
i=0
for entry in "${roots[@]}"; do
    src="${entry%% *}"
    id="${entry#* }"
    doc="$corpus/decode/example_$i.json"
    (cd "$root" && "$spx" example "$src" "$id") >"$doc"
    case "$src" in
        *fuzz.spx) cp "$doc" "$corpus/generated/example_$i.json" ;;
    esac
    # The <VALUE> part, as a provider returns it; and wrapped as
    # {"value": …} for the dialects that wrap a variant root.
    value="$(sed -e 's/^.*,"value"://' -e 's/}$//' "$doc")"
    printf '%s' "$value" >"$corpus/admit/value_$i.json"
    printf '{"value":%s}' "$value" >"$corpus/admit/wrapped_$i.json"
    printf '{\n  "value": %s\n}\n' "$value" >"$corpus/admit/pretty_$i.json"
    i=$((i + 1))
done

# A few hand-written edge cases for every value target.
for t in decode generated; do
    printf '{}\n' >"$corpus/$t/empty_object.json"
    printf '\n' >"$corpus/$t/lf.json"
done
printf '{"fields":{}}' >"$corpus/admit/empty_fields.json"
printf '{"case":"fz.event.none","fields":{}}' >"$corpus/admit/case_none.json"

for t in reader decode generated admit; do
    echo "$t: $(find "$corpus/$t" -type f | wc -l) seeds"
done

#!/usr/bin/env bash
# The group simulator's benchmarks, in one run: `steady-eight` (8 participants, 2 hours, latency
# 50 ms ± 20 ms, 1% loss, clocks drifting ±100 ppm) against its skew and correction goals, and
# `hundred` (100 participants, 2 hours) against its CPU goal. Nothing touches the network: the
# simulation is in-process, on virtual time.
#
#   Benchmarks/run-simulate.sh
#
# Progress goes to stderr; the table goes to stdout. Exit status 1 when a goal is missed.
set -euo pipefail

benchmarks="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$benchmarks")"
say() { printf '%s\n' "$*" >&2; }

say "== building interlude (release)"
swift build -c release --package-path "$root" --product interlude >&2
interlude="$(swift build -c release --package-path "$root" --show-bin-path)/interlude"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # name -> JSON report in $work/name.json, "user sys maxKB" in $work/name.time
    say "== simulating $1"
    /usr/bin/time -f "%U %S %M" -o "$work/$1.time" "$interlude" simulate --format json "$root/Examples/Scenarios/$1.json" > "$work/$1.json"
}
run steady-eight
run hundred

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def load(name):
    report = json.load(open(f"{work}/{name}.json"))
    user, system, kb = open(f"{work}/{name}.time").read().split()
    return report, float(user) + float(system), int(kb) / 1024
ok = True
def row(label, value, goal, passed):
    global ok
    ok = ok and passed
    print(f"{label:<52} {value:>12}   {goal:<12} {'ok' if passed else 'MISSED'}")
eight, eight_cpu, eight_mb = load("steady-eight")
hundred, hundred_cpu, hundred_mb = load("hundred")
steady = eight["skewMilliseconds"]["steady"]
after = eight["skewMilliseconds"]["afterTransitions"]
minutes = eight["durationSeconds"] / 60
worst = max(p["corrections"] for p in eight["participants"])
print(f"{'measure':<52} {'value':>12}   {'goal':<12} result")
row("8 participants, 2 h: steady skew p95", f"{steady['p95']:.1f} ms", "<= 40 ms", steady["p95"] <= 40)
row("8 participants, 2 h: steady skew p99", f"{steady['p99']:.1f} ms", "<= 80 ms", steady["p99"] <= 80)
row(f"8 participants, 2 h: skew 1 s after start/resume/seek p95 ({after['count']})", f"{after['p95']:.1f} ms", "<= 50 ms", after["p95"] <= 50)
row("8 participants, 2 h: corrections, worst participant per 10 min", f"{worst / (minutes / 10):.2f}", "<= 1", worst / (minutes / 10) <= 1)
row("8 participants, 2 h: CPU", f"{eight_cpu:.2f} s", "-", True)
row("100 participants, 2 h: CPU", f"{hundred_cpu:.2f} s", "< 10 s", hundred_cpu < 10)
row("100 participants, 2 h: max RSS", f"{hundred_mb:.0f} MB", "-", True)
sys.exit(0 if ok else 1)
PY

#!/usr/bin/env python3
"""Skew of a watch-together group against ground truth, from `interlude join --trace` files.

    Benchmarks/group-skew.py alice.jsonl bob.jsonl charlie.jsonl [--server-log serve.jsonl]
        [--partition CUT_NS HEAL_NS --partitioned bob.jsonl] [--keep-alive 2] [--format text|json]

Every participant runs on the same host clock, so the ground truth is simple: at real time t
(CLOCK_REALTIME, the traces' `t`), the skew between two participants is the difference of their
primary positions at t. Each trace has ten samples a second; a participant's position at t is
interpolated between the two samples around it, and only inside a *stretch*: consecutive samples
in primary content, playing (`status` playing, rate above zero), at most 300 ms apart, whose
positions advance as time does at the sampled rate (within 20 ms). A jump, a pause or a break
ends a stretch.

Anchors: where a participant's stretch begins. The first is its *start*; one after a pause is a
*resume*; one after a break a *break exit*; one whose position does not follow from where it
stopped (or a jump inside playing) a *jump*. Anchors of two or more participants within 1.5 s
of each other are one *group event* (start, resume or seek: the group's command reaching
everyone); an anchor nobody else shares is the participant's own (a late start, a stall's end,
a correction).

Figures, on a 100 ms grid over all pairs:
- steady skew p50 / p95 / p99 / max: both in a stretch, outside the 5 s after each group event
  and after each of the pair's own starts, resumes and break exits (a lone jump, which is a
  correction, is not excluded: the skew that made it is counted);
- after start / resume / seek p95: the pairs' skew 1 to 2 s after each group event;
- the participants' own reported skew (`skew_ms`, against where their coordinator expects them),
  over the same steady samples, for comparison.

With --partition CUT HEAL (CLOCK_REALTIME ns) and --partitioned TRACE it also reports, from the
server log (`interlude serve` stdout) and the traces: time from the cut to the server's
`participant.lost`, whether the others kept playing, time from the heal to the partitioned
participant's `resumed` event, and the others' largest position discontinuity around the heal.

Exit status 0, 1 when the traces hold too little to measure, 64 on bad usage. The script only
reports: targets missed are printed as MISSED, not turned into a failure.
"""

import argparse
import bisect
import itertools
import json
import math
import os
import sys

GRID_NS = 100_000_000
MAX_GAP_NS = 300_000_000
JUMP_S = 0.020
CLUSTER_NS = 1_500_000_000
STEADY_EXCLUSION_NS = 5_000_000_000
WINDOW = (1_000_000_000, 2_000_000_000)


class Trace:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.participant = None
        self.samples = []  # (t, position or None, playing, rate, in_break, skew_ms, waiting_for)
        self.events = []  # (t, dict)
        with open(path, encoding="utf-8") as handle:
            for number, text in enumerate(handle, 1):
                text = text.strip()
                if not text:
                    continue
                try:
                    line = json.loads(text)
                except json.JSONDecodeError:
                    # A participant stopped mid-line; everything before it counts.
                    print(f"group-skew: {path}:{number}: not JSON, ignored", file=sys.stderr)
                    continue
                t = line.get("t")
                if not isinstance(t, int):
                    continue
                if "sample" in line:
                    s = line["sample"]
                    position = s.get("primary")
                    rate = float(s.get("rate", 0))
                    playing = position is not None and s.get("status") == "playing" and rate > 0
                    self.samples.append((t, position, playing, rate, "break" in s, s.get("skew_ms"), s.get("waitingFor", [])))
                    self.participant = self.participant or s.get("participant")
                elif "event" in line:
                    self.events.append((t, line))
                    if line["event"] == "welcomed":
                        self.participant = line.get("participant")
        self.samples.sort(key=lambda s: s[0])
        self.events.sort(key=lambda e: e[0])
        self.stretches = self._stretches()
        self.anchors = self._anchors()

    def _stretches(self):
        """Lists of sample indices that may be interpolated between."""
        stretches, current = [], []
        for index, (t, position, playing, rate, *_rest) in enumerate(self.samples):
            if not playing:
                if current:
                    stretches.append(current)
                current = []
                continue
            if current:
                pt, pp, _, pr, *_ = self.samples[current[-1]]
                dt = (t - pt) / 1e9
                if t - pt > MAX_GAP_NS or abs((position - pp) - dt * (pr + rate) / 2) > JUMP_S:
                    stretches.append(current)
                    current = []
            current.append(index)
        if current:
            stretches.append(current)
        return stretches

    def _anchors(self):
        """(t, kind) where each stretch begins."""
        anchors = []
        for number, stretch in enumerate(self.stretches):
            first = stretch[0]
            t, position, *_ = self.samples[first]
            if number == 0:
                anchors.append((t, "start"))
                continue
            last = self.stretches[number - 1][-1]
            between = self.samples[last + 1:first]
            last_position = self.samples[last][1]
            if any(s[4] for s in between):
                anchors.append((t, "break-exit"))
            elif between and abs(position - last_position) <= 0.5:
                # Stood still (a pause, a stall) and went on from about where it stopped.
                anchors.append((t, "resume"))
            else:
                anchors.append((t, "jump"))
        return anchors

    def position(self, t):
        """The interpolated primary position at t, or None outside every stretch."""
        index = bisect.bisect_right(self._times, t) - 1
        if index < 0 or index + 1 >= len(self.samples):
            return None
        stretch = self._stretch_of[index]
        if stretch is None or self._stretch_of[index + 1] != stretch:
            return None
        t0, p0 = self.samples[index][0], self.samples[index][1]
        t1, p1 = self.samples[index + 1][0], self.samples[index + 1][1]
        return p0 + (p1 - p0) * (t - t0) / (t1 - t0)

    def prepare(self):
        self._times = [s[0] for s in self.samples]
        self._stretch_of = [None] * len(self.samples)
        for number, stretch in enumerate(self.stretches):
            for index in stretch:
                self._stretch_of[index] = number


def percentile(values, p):
    """Nearest-rank percentile, as wsload computes it."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def group_events(traces):
    """Anchors shared by two or more participants within CLUSTER_NS: (t, kind, members)."""
    anchors = sorted((t, kind, trace.name) for trace in traces for t, kind in trace.anchors if kind in ("start", "resume", "jump"))
    events, cluster = [], []
    for anchor in anchors:
        if cluster and anchor[0] - cluster[0][0] > CLUSTER_NS:
            events.append(cluster)
            cluster = []
        cluster.append(anchor)
    if cluster:
        events.append(cluster)
    shared, lone = [], []
    for cluster in events:
        members = {name for _, _, name in cluster}
        if len(members) >= 2:
            kinds = [kind for _, kind, _ in cluster]
            if "start" in kinds and not shared:
                kind = "start"
            elif kinds.count("jump") > kinds.count("resume"):
                kind = "seek"
            else:
                kind = "resume"
            shared.append((cluster[0][0], kind, sorted(members)))
        else:
            lone.extend(cluster)
    return shared, lone


def measure(traces, exclude_windows=()):
    for trace in traces:
        trace.prepare()
    shared, lone = group_events(traces)
    begin = min(t.samples[0][0] for t in traces if t.samples)
    end = max(t.samples[-1][0] for t in traces if t.samples)
    own_exclusions = {
        trace.name: [t for t, kind in trace.anchors if kind in ("start", "resume", "break-exit")] for trace in traces
    }
    shared_times = [t for t, _, _ in shared]

    def excluded(t, names):
        for e in shared_times:
            if e <= t < e + STEADY_EXCLUSION_NS:
                return True
        for name in names:
            for e in own_exclusions[name]:
                if e <= t < e + STEADY_EXCLUSION_NS:
                    return True
        return any(a <= t < b for a, b in exclude_windows)

    steady = []
    per_pair = {}
    own = []
    grid = range(begin - begin % GRID_NS + GRID_NS, end, GRID_NS)
    positions = {}
    for t in grid:
        positions[t] = {trace.name: trace.position(t) for trace in traces}
    for t, at in positions.items():
        for a, b in itertools.combinations(traces, 2):
            pa, pb = at[a.name], at[b.name]
            if pa is None or pb is None or excluded(t, (a.name, b.name)):
                continue
            skew = abs(pa - pb) * 1000
            steady.append(skew)
            per_pair.setdefault(f"{a.name}-{b.name}", []).append(skew)
    for trace in traces:
        for s in trace.samples:
            if s[2] and s[5] is not None and not excluded(s[0], (trace.name,)):
                own.append(abs(s[5]))

    windows = []
    for e, kind, members in shared:
        samples = []
        for t in range(e - e % GRID_NS + GRID_NS, e + WINDOW[1], GRID_NS):
            if t < e + WINDOW[0] or t not in positions:
                continue
            at = positions[t]
            for a, b in itertools.combinations(traces, 2):
                pa, pb = at[a.name], at[b.name]
                if pa is not None and pb is not None:
                    samples.append(abs(pa - pb) * 1000)
        windows.append({"t": e, "kind": kind, "members": members, "samples": len(samples),
                        "p95_ms": percentile(samples, 95), "max_ms": max(samples) if samples else math.nan, "_values": samples})
    after = [v for w in windows for v in w["_values"]]
    for w in windows:
        del w["_values"]

    def summary(values):
        return {"samples": len(values), "p50_ms": percentile(values, 50), "p95_ms": percentile(values, 95),
                "p99_ms": percentile(values, 99), "max_ms": max(values) if values else math.nan}

    return {
        "seconds": (end - begin) / 1e9,
        "participants": [{"trace": t.name, "participant": t.participant, "samples": len(t.samples),
                          "anchors": {k: sum(1 for _, kind in t.anchors if kind == k) for k in ("start", "resume", "break-exit", "jump")}}
                         for t in traces],
        "group_events": [{"t": t, "kind": k, "members": m} for t, k, m in shared],
        "lone_anchors": [{"t": t, "kind": k, "trace": n} for t, k, n in lone],
        "steady": summary(steady),
        "steady_by_pair": {pair: summary(values) for pair, values in sorted(per_pair.items())},
        "after_events": {"events": len(windows), **summary(after), "by_event": windows},
        "self_reported": summary(own),
    }


def partition_report(traces, partitioned, cut, heal, server_log, keep_alive):
    target = next((t for t in traces if t.path == partitioned or t.name == partitioned), None)
    if target is None:
        raise SystemExit(f"group-skew: --partitioned {partitioned} is none of the traces")
    report = {"cut": cut, "heal": heal, "trace": target.name, "participant": target.participant, "keep_alive_s": keep_alive}
    log = []
    if server_log:
        with open(server_log, encoding="utf-8") as handle:
            for text in handle:
                text = text.strip()
                if text.startswith("{"):
                    try:
                        log.append(json.loads(text))
                    except json.JSONDecodeError:
                        pass
    lost = [e for e in log if e.get("event") == "participant.lost" and e.get("participant") == target.participant
            and e.get("time_ms", 0) * 1_000_000 >= cut]
    report["lost_after_s"] = (lost[0]["time_ms"] * 1_000_000 - cut) / 1e9 if lost else None
    report["lost_reason"] = lost[0].get("reason") if lost else None
    resumed_log = [e for e in log if e.get("event") == "participant.resumed" and e.get("participant") == target.participant
                   and e.get("time_ms", 0) * 1_000_000 >= heal]
    report["server_resumed_after_heal_s"] = (resumed_log[0]["time_ms"] * 1_000_000 - heal) / 1e9 if resumed_log else None
    resumed = [t for t, e in target.events if e.get("event") == "resumed" and t >= heal]
    report["resumed_after_heal_s"] = (resumed[0] - heal) / 1e9 if resumed else None
    report["disconnected_events"] = sum(1 for t, e in target.events if e.get("event") == "disconnected" and cut <= t <= heal + 10_000_000_000)
    end_of_check = (resumed[0] if resumed else heal) + 5_000_000_000
    others = []
    for trace in traces:
        if trace is target:
            continue
        window = [s for s in trace.samples if cut <= s[0] <= end_of_check]
        playing = sum(1 for s in window if s[2])
        longest, run_start = 0, None
        for s in window:
            if s[2]:
                run_start = None
            else:
                run_start = s[0] if run_start is None else run_start
                longest = max(longest, s[0] - run_start)
        waited = sum(1 for s in window if target.participant in (s[6] or []))
        around = [s for s in trace.samples if heal - 2_000_000_000 <= s[0] <= end_of_check]
        jump = 0.0
        for p, q in zip(around, around[1:]):
            if p[2] and q[2]:
                jump = max(jump, abs((q[1] - p[1]) - (q[0] - p[0]) / 1e9 * (p[3] + q[3]) / 2))
        others.append({"trace": trace.name, "samples": len(window), "playing_fraction": playing / len(window) if window else math.nan,
                       "longest_not_playing_s": longest / 1e9, "samples_waiting_for_it": waited,
                       "max_discontinuity_ms": jump * 1000, "breaks_in_playing": sum(1 for p, q in zip(around, around[1:]) if p[2] and not q[2])})
    report["others"] = others
    return report


def without_nan(value):
    """JSON has no NaN: a figure without samples becomes null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: without_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nan(v) for v in value]
    return value


def fmt(value, digits=1):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{digits}f}"


def verdict(ok):
    return "MET" if ok else "MISSED"


def print_text(result, partition):
    steady, after, own = result["steady"], result["after_events"], result["self_reported"]
    print(f"traces: {', '.join(p['trace'] + ' (' + str(p['participant']) + ', ' + str(p['samples']) + ' samples)' for p in result['participants'])}; {fmt(result['seconds'], 0)} s")
    print(f"group events: {', '.join(e['kind'] for e in result['group_events']) or 'none'}; "
          f"own anchors: {', '.join(a['trace'] + ' ' + a['kind'] for a in result['lone_anchors']) or 'none'}")
    print(f"steady pairwise skew ms: p50 {fmt(steady['p50_ms'])}  p95 {fmt(steady['p95_ms'])}  p99 {fmt(steady['p99_ms'])}  "
          f"max {fmt(steady['max_ms'])}  ({steady['samples']} pair samples)  "
          f"p95 <= 20: {verdict(steady['p95_ms'] <= 20)}, p99 <= 40: {verdict(steady['p99_ms'] <= 40)}")
    for pair, s in result["steady_by_pair"].items():
        print(f"  {pair}: p50 {fmt(s['p50_ms'])}  p95 {fmt(s['p95_ms'])}  p99 {fmt(s['p99_ms'])}  max {fmt(s['max_ms'])}")
    print(f"skew 1-2 s after each start/resume/seek ms: p95 {fmt(after['p95_ms'])}  max {fmt(after['max_ms'])}  "
          f"({after['events']} events, {after['samples']} pair samples)  p95 <= 50: {verdict(after['p95_ms'] <= 50)}")
    for w in after["by_event"]:
        print(f"  {w['kind']:6} at {w['t']}: p95 {fmt(w['p95_ms'])}  max {fmt(w['max_ms'])}  ({w['samples']} samples)")
    print(f"participants' own reported skew |skew_ms|: p50 {fmt(own['p50_ms'])}  p95 {fmt(own['p95_ms'])}  p99 {fmt(own['p99_ms'])}  max {fmt(own['max_ms'])}")
    if partition:
        p = partition
        limit = 2 * p["keep_alive_s"]
        lost = p["lost_after_s"]
        print(f"partition of {p['trace']} ({p['participant']}) for {fmt((p['heal'] - p['cut']) / 1e9)} s:")
        print(f"  lost after the cut: {fmt(lost, 2)} s ({p['lost_reason']}); <= {fmt(limit, 0)} s (two keep-alives): {verdict(lost is not None and lost <= limit)}")
        kept = all(o["longest_not_playing_s"] < 1 for o in p["others"])
        for o in p["others"]:
            print(f"  {o['trace']}: playing {fmt(o['playing_fraction'] * 100, 0)} % of the partition, longest not playing {fmt(o['longest_not_playing_s'], 2)} s, "
                  f"{o['samples_waiting_for_it']} samples waiting for it; around the heal max discontinuity {fmt(o['max_discontinuity_ms'], 1)} ms")
        print(f"  the others kept playing: {verdict(kept)}")
        rejoin = p["resumed_after_heal_s"]
        print(f"  rejoined after the heal: {fmt(rejoin, 2)} s (server: {fmt(p['server_resumed_after_heal_s'], 2)} s; "
              f"{p['disconnected_events']} disconnections seen); <= 2 s: {verdict(rejoin is not None and rejoin <= 2)}")
        moved = max((o["max_discontinuity_ms"] for o in p["others"]), default=0)
        print(f"  nobody else moved (discontinuity < {JUMP_S * 1000:.0f} ms): {verdict(moved < JUMP_S * 1000)}")


def main():
    parser = argparse.ArgumentParser(description="Skew of a group against ground truth, from join traces.")
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--server-log")
    parser.add_argument("--partition", nargs=2, type=int, metavar=("CUT_NS", "HEAL_NS"))
    parser.add_argument("--partitioned")
    parser.add_argument("--keep-alive", type=float, default=2.0)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    try:
        args = parser.parse_args()
    except SystemExit as exit:
        sys.exit(0 if exit.code == 0 else 64)
    if len(args.traces) < 2:
        print("group-skew: at least two traces", file=sys.stderr)
        sys.exit(64)
    if (args.partition is None) != (args.partitioned is None):
        print("group-skew: --partition and --partitioned go together", file=sys.stderr)
        sys.exit(64)
    traces = [Trace(path) for path in args.traces]
    if any(len(t.samples) < 20 for t in traces):
        print("group-skew: a trace has fewer than 20 samples: " + ", ".join(f"{t.name} {len(t.samples)}" for t in traces), file=sys.stderr)
        sys.exit(1)
    result = measure(traces)
    partition = None
    if args.partition:
        partition = partition_report(traces, args.partitioned, args.partition[0], args.partition[1], args.server_log, args.keep_alive)
    if args.format == "json":
        print(json.dumps(without_nan({**result, "partition": partition}), allow_nan=False))
    else:
        print_text(result, partition)
    if result["steady"]["samples"] == 0:
        sys.exit(1)


if __name__ == "__main__":
    main()

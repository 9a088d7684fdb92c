#!/usr/bin/env python3
"""Summarises an Autobahn|Testsuite fuzzingclient report (index.json).

    summarize.py INDEX_JSON [--allow-failed "2.10 2.11"]

Prints, for each agent, one line per behaviour (OK, NON-STRICT, INFORMATIONAL, UNIMPLEMENTED,
FAILED) with its count and, for FAILED, the case ids; then the cases whose closing handshake
failed. Exits 1 when a case FAILED that is not allowed, 2 when the report cannot be read.

2.10 and 2.11 are allowed by default: they send ten pings and expect ten pongs, and libwebsockets
answers only the latest ping of a burst, which RFC 6455 section 5.5.3 allows.
"""

import argparse
import json
import sys

BEHAVIOURS = ("OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED")


def case_key(case_id):
    """Sorts "9.10.2" after "9.2.1": numerically, part by part."""
    return tuple(int(part) if part.isdigit() else part for part in case_id.split("."))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index")
    parser.add_argument("--allow-failed", default="2.10 2.11",
                        help="case ids whose FAILED does not fail the run (space-separated)")
    arguments = parser.parse_args()
    allowed = set(arguments.allow_failed.split())

    try:
        with open(arguments.index, encoding="utf-8") as file:
            report = json.load(file)
    except (OSError, ValueError) as error:
        print(f"summarize: cannot read {arguments.index}: {error}", file=sys.stderr)
        return 2
    if not isinstance(report, dict) or not report:
        print(f"summarize: {arguments.index} holds no agent", file=sys.stderr)
        return 2

    failing = False
    for agent, cases in sorted(report.items()):
        by_behaviour = {name: [] for name in BEHAVIOURS}
        close_failed = []
        for case_id, result in cases.items():
            by_behaviour.setdefault(result.get("behavior", "?"), []).append(case_id)
            if result.get("behaviorClose") == "FAILED":
                close_failed.append(case_id)
        print(f"{agent}: {len(cases)} cases")
        for name, ids in by_behaviour.items():
            line = f"  {name:<14}{len(ids):>4}"
            if name not in ("OK", "INFORMATIONAL") and ids:
                line += "  " + " ".join(sorted(ids, key=case_key))
            print(line)
        if close_failed:
            print(f"  closing handshake FAILED in {len(close_failed)}: " + " ".join(sorted(close_failed, key=case_key)))
        unexpected = sorted(set(by_behaviour["FAILED"]) - allowed, key=case_key)
        if unexpected:
            failing = True
            print(f"  FAILED beyond the allowed ({' '.join(sorted(allowed, key=case_key))}): " + " ".join(unexpected))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())

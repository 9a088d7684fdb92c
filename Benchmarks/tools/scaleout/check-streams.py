#!/usr/bin/env python3
"""Checks a scale-out run's acknowledged commands against the sessions' logs in Redis: every
command a participant saw acknowledged is in its session's stream exactly once, at the version
the acknowledgement gave, and the stream's versions have no gap.

    check-streams.py REDIS_PORT RECORD.jsonl SESSIONS.jsonl [PREFIX]

RECORD.jsonl: groupload's -record output (one JSON object per participant with its session's
index, its participant id and the commands it sent with their acknowledged versions);
SESSIONS.jsonl: `interlude session create --json`'s lines, in the order of groupload's -tokens
(line i is session i). Prints one summary line and exits 1 when anything is missing, repeated or
misplaced.
"""
import json
import socket
import sys


class Redis:
    """Just enough RESP for XRANGE over one connection."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.file = self.sock.makefile("rb")

    def call(self, *args: bytes):
        out = b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)
        self.sock.sendall(out)
        return self.read()

    def read(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            data = self.file.read(n + 2)[:-2]
            return data
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError(f"unexpected reply {line!r}")


def main() -> int:
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    redis = Redis(int(sys.argv[1]))
    prefix = (sys.argv[4] if len(sys.argv) == 5 else "interlude").encode()
    ids = [json.loads(line)["session"] for line in open(sys.argv[3])]
    acked: dict = {}
    for line in open(sys.argv[2]):
        record = json.loads(line)
        for command in record.get("commands", []):
            if command.get("version") and not command.get("refused"):
                acked.setdefault(ids[record["session"]], []).append((record["participant"], command["id"], command["version"]))
    sessions = sorted(acked)
    missing = repeated = misplaced = gaps = commands = 0
    for session in sessions:
        key = prefix + b":{" + session.encode() + b"}:log"
        entries = redis.call(b"XRANGE", key, b"-", b"+")
        versions = []
        seen: dict = {}
        for entry_id, fields in entries:
            version = int(entry_id.split(b"-")[1])
            versions.append(version)
            pairs = dict(zip(fields[0::2], fields[1::2]))
            if b"c" in pairs:
                seen.setdefault(pairs[b"c"], []).append(version)
        gaps += sum(1 for a, b in zip(versions, versions[1:]) if b != a + 1)
        for participant, command_id, version in acked[session]:
            commands += 1
            found = seen.get(participant.encode() + b"\x1f" + command_id.encode(), [])
            if not found:
                missing += 1
            elif len(found) > 1:
                repeated += 1
            elif found[0] != version:
                misplaced += 1
    print(f"streams: {len(sessions)} sessions, {commands} acknowledged commands: {missing} missing, {repeated} repeated, "
          f"{misplaced} at another version, {gaps} gaps in the logs")
    return 1 if missing or repeated or misplaced or gaps else 0


if __name__ == "__main__":
    sys.exit(main())

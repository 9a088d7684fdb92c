#!/usr/bin/env bash
# Runs Autobahn|Testsuite's fuzzing client against a WebSocket server and summarises the result.
#
#   Benchmarks/tools/autobahn/run.sh ws://HOST:PORT/PATH [options]
#     --cases 'LIST'         case patterns, space-separated (default '*')
#     --exclude 'LIST'       excluded patterns (default '12.* 13.*': permessage-deflate)
#     --allow-failed 'LIST'  FAILED cases that do not fail the run (default '2.10 2.11')
#     --timeout SECONDS      stop wstest after this long (default 600)
#     --agent NAME           the server's name in the report (default interlude)
#     --reports DIR          where the reports go (default Benchmarks/.build/autobahn/NAME)
#
# The server must already be listening; this script starts nothing else. Needs
# `scripts/bootstrap --autobahn` (wstest under pyenv's Python 2.7.18) and python3 for the summary.
# Exit status: 0 when no case FAILED beyond the allowed ones, 1 when one did or wstest failed or
# timed out, 64 on bad usage.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
usage_error() {
    echo "autobahn: $*" >&2
    usage >&2
    exit 64
}

url=""
cases="*"
exclude="12.* 13.*"
allow_failed="2.10 2.11"
timeout_seconds=600
agent=interlude
reports=""
while (($#)); do
    case $1 in
        -h | --help) usage; exit 0 ;;
        --cases | --exclude | --allow-failed | --timeout | --agent | --reports)
            (($# >= 2)) || usage_error "$1 needs a value"
            case $1 in
                --cases) cases=$2 ;;
                --exclude) exclude=$2 ;;
                --allow-failed) allow_failed=$2 ;;
                --timeout) timeout_seconds=$2 ;;
                --agent) agent=$2 ;;
                --reports) reports=$2 ;;
            esac
            shift 2
            ;;
        ws://* | wss://*) [[ -z $url ]] || usage_error "one URL only"; url=$1; shift ;;
        *) usage_error "unexpected argument '$1'" ;;
    esac
done
[[ -n $url ]] || usage_error "a ws:// URL is required"
[[ $timeout_seconds =~ ^[1-9][0-9]*$ ]] || usage_error "--timeout must be a whole number of seconds"
[[ $agent =~ ^[A-Za-z0-9._-]{1,64}$ ]] || usage_error "--agent must be letters, digits, '.', '_' or '-'"
reports=${reports:-$root/Benchmarks/.build/autobahn/$agent}

if command -v pyenv >/dev/null 2>&1; then
    pyenv_root=$(pyenv root)
else
    pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
fi
python2="$pyenv_root/versions/2.7.18/bin/python"
[[ -x $python2 ]] || { echo "autobahn: no Python 2.7.18 at $python2 (see scripts/bootstrap --autobahn)" >&2; exit 1; }

rm -rf "$reports"
mkdir -p "$reports"
spec="$reports/fuzzingclient.json"
# The template's @NAME@ placeholders become JSON values (lists split on spaces).
python3 - "$here/fuzzingclient.json.in" "$spec" "$reports" "$agent" "$url" "$cases" "$exclude" <<'PY'
import json, sys
template, spec, outdir, agent, url, cases, exclude = sys.argv[1:]
values = {"@OUTDIR@": outdir, "@AGENT@": agent, "@URL@": url,
          "@CASES@": cases.split(), "@EXCLUDE@": exclude.split()}
text = open(template, encoding="utf-8").read()
for placeholder, value in values.items():
    text = text.replace(placeholder, json.dumps(value))
json.loads(text)  # the result must be JSON
open(spec, "w", encoding="utf-8").write(text)
PY

echo "autobahn: $url, cases '$cases' except '$exclude', at most ${timeout_seconds} s; log in $reports/wstest.log" >&2
started=$(date +%s)
status=0
# wstest runs in the foreground of this script, so `timeout` ends it (and, 10 s later, kills it).
(cd "$reports" && timeout --kill-after=10 "$timeout_seconds" "$python2" "$here/wstest.py" -m fuzzingclient -s "$spec") \
    >"$reports/wstest.log" 2>&1 || status=$?
elapsed=$(($(date +%s) - started))
if ((status == 124 || status == 137)); then
    echo "autobahn: wstest timed out after ${timeout_seconds} s" >&2
    exit 1
fi
if ((status != 0)) || [[ ! -s $reports/index.json ]]; then
    echo "autobahn: wstest failed (status $status); the end of its log:" >&2
    tail -n 20 "$reports/wstest.log" >&2
    exit 1
fi
echo "autobahn: wstest took ${elapsed} s; reports in $reports (index.html)" >&2
summary_status=0
python3 "$here/summarize.py" "$reports/index.json" --allow-failed "$allow_failed" || summary_status=$?
if ((summary_status == 2)); then
    # An empty report: wstest could not reach the server, and says why in its log.
    echo "autobahn: no results; the end of wstest's log:" >&2
    tail -n 3 "$reports/wstest.log" >&2
fi
((summary_status == 0)) || exit 1

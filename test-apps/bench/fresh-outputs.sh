#!/usr/bin/env bash
# Times Commons Math's ebeAdd shape (FreshOutputsTiming: clone, update in place, return; 4M doubles) in plain
# JVMs and under the agent with default options, in alternating pairs, and prints plain/agent ratios of the
# median per-call times (above 1: the agent is faster) and whether the checksums agree. Run from the project's
# root after building:  test-apps/bench/fresh-outputs.sh [agent options]
# ROUNDS (default 6) sets the number of pairs; BUSY=1 keeps one core busy with another process meanwhile.
set -euo pipefail
root=$(pwd)
jar="$root/agent/target/looplift-agent.jar"
classes="$root/test-apps/target/classes"
[ -f "$jar" ] && [ -d "$classes" ] || { echo "build first (mvn -B -DskipTests install)"; exit 1; }
agentarg="-javaagent:$jar${1:+=$1}"
work=$(mktemp -d)
busy=
trap '[ -n "$busy" ] && kill "$busy"; rm -rf "$work"' EXIT
if [ "${BUSY:-0}" = 1 ]; then (while :; do :; done) & busy=$!; fi
for round in $(seq 1 "${ROUNDS:-6}"); do
  java -cp "$classes" io.looplift.bench.FreshOutputsTiming > "$work/plain.$round"
  java "$agentarg" -cp "$classes" io.looplift.bench.FreshOutputsTiming > "$work/agent.$round"
done
python3 - "$work" <<'PY'
import sys, glob, os, statistics
w = sys.argv[1]
def medians(kind):
    times, sums = {}, set()
    for f in glob.glob(os.path.join(w, kind + ".*")):
        for line in open(f):
            name, val = line.split()
            if name == "checksum": sums.add(val)
            else: times.setdefault(name, []).append(float(val))
    return {k: statistics.median(v) for k, v in times.items()}, sums
(p, ps), (a, asum) = medians("plain"), medians("agent")
print("%-12s %10s %10s %8s" % ("operation", "plain ms", "agent ms", "ratio"))
for k in p:
    print("%-12s %10.2f %10.2f %8.2f" % (k, p[k], a[k], p[k] / a[k]))
print("checksum " + ("same as plain" if ps == asum else "DIFFERS: %s vs %s" % (sorted(asum), sorted(ps))))
PY

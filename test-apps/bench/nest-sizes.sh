#!/usr/bin/env bash
# Times NestSizes (loop nests at GPU sizes) in plain JVMs and under the agent with each option set given, in
# alternating rounds, and prints plain/agent ratios of the median best times (above 1: the agent is faster)
# and whether each option set printed the same checksum as plain Java. Run from the project's root after
# building:  test-apps/bench/nest-sizes.sh [OPTIONS...]   (default: "executor=opencl" "default"; the word
# "default" stands for no options).  ROUNDS (default 2) sets the number of rounds.
set -euo pipefail
root=$(pwd)
jar="$root/agent/target/looplift-agent.jar"
[ -f "$jar" ] || { echo "no agent jar at $jar: build first (mvn -B -DskipTests package)"; exit 1; }
[ $# -gt 0 ] || set -- "executor=opencl" "default"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
javac -d "$work" "$(dirname "$0")/nests/NestSizes.java"
for round in $(seq 1 "${ROUNDS:-2}"); do
  java -Xmx8g -cp "$work" NestSizes > "$work/plain.$round"
  c=0
  for opts in "$@"; do
    c=$((c + 1))
    if [ "$opts" = default ]; then arg="-javaagent:$jar"; else arg="-javaagent:$jar=$opts"; fi
    java -Xmx8g "$arg" -cp "$work" NestSizes > "$work/agent$c.$round"
  done
done
python3 - "$work" "$@" <<'PY'
import sys, glob, os, statistics
w, configs = sys.argv[1], sys.argv[2:]
def medians(kind):
    b, sums = {}, set()
    for f in glob.glob(os.path.join(w, kind + ".*")):
        for line in open(f):
            name, val = line.split()[0], line.split()[1]
            if name == "checksum": sums.add(val)
            else: b.setdefault(name, []).append(float(val))
    return {k: statistics.median(v) for k, v in b.items()}, sums
p, psum = medians("plain")
runs = [medians("agent%d" % (i + 1)) for i in range(len(configs))]
print("%-12s %10s" % ("kernel", "plain ms") + "".join(" %22s" % c[:22] for c in configs))
for k in p:
    print("%-12s %10.2f" % (k, p[k]) + "".join(" %12.2f (%6.2fx)" % (a[k], p[k] / a[k]) for a, _ in runs))
for c, (_, s) in zip(configs, runs):
    print("checksum %-22s %s" % (c, "same as plain" if s == psum else "DIFFERS: %s vs %s" % (sorted(s), sorted(psum))))
PY

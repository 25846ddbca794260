#!/usr/bin/env bash
# Measures what the agent costs the start of a large program: SparkJob, a Spark 3.5 job in local mode (an
# aggregation over 8 partitions) that loads about 11,000 classes of Spark, Scala, Jackson, Netty, log4j...
# from the application class path. Runs PAIRS pairs of JVMs, one without and one with
# -javaagent:looplift-agent.jar[=OPTIONS], alternating which of the two goes first, and prints the medians
# of wall time, CPU time (user + sys) and peak RSS (/usr/bin/time's maximum resident set size), the ratio
# (or difference) of the medians, the range of the per-pair ratios as a measure of noise, and the agent's
# "transform" figures from its report. Both JVMs must print the same rows.
#
# The agent keeps which methods of each class file were worth analyzing under cache.dir (README, "The program
# cache"), so that from its second run on it analyzes at load only those: COLD=1 gives each agent JVM an empty
# cache.dir of its own, to measure a first run.
#
# Usage, from the project root:  [REPORT=0] [COLD=1] test-apps/bench/startup.sh [PAIRS (default 5)] [agent options]
# Needs the agent jar (mvn -B -DskipTests package), or the jar AGENT_JAR names (to compare two builds). The
# first run builds test-apps/bench/startup, which is not part of the reactor: Maven downloads Spark and its
# dependencies (about 300 MiB) into ~/.m2 then.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
jar=${AGENT_JAR:-$root/agent/target/looplift-agent.jar}
bench=$root/test-apps/bench/startup
pairs=${1:-5}
opts=${2:-}
[[ -f $jar ]] || { echo "no $jar: build the agent first (mvn -B -DskipTests package)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (GNU time) for the peak RSS" >&2; exit 1; }
if [[ ! -f $bench/target/classpath || ! -d $bench/target/classes ]]; then
  mvn -q -B -f "$bench/pom.xml" -DskipTests package
fi
cp="$bench/target/classes:$(cat "$bench/target/classpath")"
# What Spark's own launcher passes to a JDK 17 (JavaModuleOptions); the same for both JVMs.
jvm=(-XX:+IgnoreUnrecognizedVMOptions -Djdk.reflect.useDirectMethodHandle=false)
for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
  jvm+=("--add-opens=java.base/$p=ALL-UNNAMED")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() { # run KIND INDEX [java options...]: one JVM; its figures go to $work/KIND.INDEX.time
  local kind=$1 k=$2
  shift 2
  /usr/bin/time -f "%e %U %S %M" -o "$work/$kind.$k.time" \
    java "${jvm[@]}" "$@" -cp "$cp" io.looplift.bench.startup.SparkJob > "$work/$kind.$k.out" 2> "$work/$kind.$k.err" \
    || { echo "$kind run $k failed; its stderr:" >&2; tail -20 "$work/$kind.$k.err" >&2; exit 1; }
}

# REPORT=0 measures the agent as users run it, without a report (which analyzes the rejected loops at exit).
if [ "${COLD:-0}" = 1 ]; then opts="cache.dir=$work/cache${opts:+,$opts}"; fi
if [ "${REPORT:-1}" = 0 ]; then
  agentarg="-javaagent:$jar${opts:+=$opts}"
else
  agentarg="-javaagent:$jar=report=$work/report.json${opts:+,$opts}"
fi
for k in $(seq 1 "$pairs"); do
  rm -rf "$work/cache"
  if (( k % 2 )); then
    run plain "$k"; run agent "$k" "$agentarg"
  else
    run agent "$k" "$agentarg"; run plain "$k"
  fi
  cmp -s "$work/plain.$k.out" "$work/agent.$k.out" || { echo "pair $k: the two JVMs printed different rows" >&2; exit 1; }
  echo "pair $k: plain $(cat "$work/plain.$k.time"), agent $(cat "$work/agent.$k.time") (wall s, user s, sys s, RSS KiB)"
done

python3 - "$work" "$pairs" <<'PY'
import json, statistics, sys
work, pairs = sys.argv[1], int(sys.argv[2])
def figures(kind):
    rows = []
    for k in range(1, pairs + 1):
        wall, user, sys_, rss = open(f"{work}/{kind}.{k}.time").read().split()
        rows.append((float(wall), float(user) + float(sys_), int(rss) / 1024))
    return rows
plain, agent = figures("plain"), figures("agent")
med = lambda rows, i: statistics.median(r[i] for r in rows)
print(f"{pairs} pairs, medians:        without agent   with agent")
for i, name, unit in ((0, "wall", "s"), (1, "cpu (user+sys)", "s")):
    ratios = [a[i] / p[i] for p, a in zip(plain, agent)]
    print(f"  {name:<18} {med(plain, i):10.2f} {unit} {med(agent, i):10.2f} {unit}   ratio {med(agent, i) / med(plain, i):.3f}"
          f"  (pairs {min(ratios):.3f} .. {max(ratios):.3f})")
diffs = [a[2] - p[2] for p, a in zip(plain, agent)]
print(f"  {'peak RSS':<18} {med(plain, 2):10.1f} MiB {med(agent, 2):8.1f} MiB   +{med(agent, 2) - med(plain, 2):.1f} MiB"
      f"  (pairs {min(diffs):+.1f} .. {max(diffs):+.1f})")
try:
    report = json.load(open(f"{work}/report.json"))
except FileNotFoundError:
    sys.exit(0)  # REPORT=0
t = report.get("transform", {})
loops = report["loops"]
print(f"  agent (last run): transform {t.get('classes')} classes in {t.get('nanos', 0) / 1e6:.0f} ms; "
      f"{len(loops)} loops reported, {sum(l['status'] == 'offloaded' for l in loops)} accepted, "
      f"{sum(l['runs']['offloaded'] > 0 for l in loops)} ran offloaded")
PY

#!/usr/bin/env bash
# Measures the agent's per-loop dispatch overhead with JMH: DispatchOverheadBench without and with
# -javaagent:looplift-agent.jar=min.length=0, then a table of both. Run from the project root; builds the
# tree first if the agent jar, the benchmarks or their classpath file are missing.
# Arguments go to io.looplift.bench.OverheadRunner, e.g.
#   test-apps/bench/dispatch-overhead.sh --sizes 16,65536 --options log=info
set -euo pipefail

cd "$(dirname "$0")/../.."
jar=agent/target/looplift-agent.jar
classes=test-apps/target/classes
cpfile=test-apps/target/bench.classpath

if [[ ! -f $jar || ! -f $cpfile || ! -f $classes/META-INF/BenchmarkList ]]; then
  mvn -q -B -DskipTests package
fi

exec java -cp "$classes:$(cat "$cpfile")" io.looplift.bench.OverheadRunner "$@" "$jar"

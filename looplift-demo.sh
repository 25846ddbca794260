#!/usr/bin/env bash
# Runs the Demo program without and with the LoopLift agent, checks that stdout is identical, and prints
# the offload report. Needs only a JDK: it uses the agent jar already built (mvn -B -DskipTests package) and
# compiles the example programs with javac if they have not been built.
#   ./looplift-demo.sh [ProgramName] [extra agent options]     e.g. ./looplift-demo.sh OptionPricing executor=reference
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
jar="$root/agent/target/looplift-agent.jar"
classes="$root/test-apps/target/classes"
program="io.looplift.apps.${1:-Demo}"
extra="${2:-}"
if [ ! -f "$jar" ]; then
  echo "no agent jar at $jar; build it first: mvn -B -DskipTests package" >&2
  exit 1
fi
if [ ! -f "$classes/io/looplift/apps/Demo.class" ]; then
  mkdir -p "$classes"
  javac -g --release 17 -d "$classes" "$root"/test-apps/src/main/java/io/looplift/apps/*.java
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
java -cp "$classes" "$program" > "$work/plain.txt"
java "-javaagent:$jar=log=info,min.length=0,report=$work/report.json${extra:+,$extra}" -cp "$classes" "$program" > "$work/agent.txt"
cat "$work/agent.txt"
echo
if cmp -s "$work/plain.txt" "$work/agent.txt"; then
  echo "stdout is identical with and without the agent"
else
  echo "stdout DIFFERS with the agent:"
  diff "$work/plain.txt" "$work/agent.txt" | head -20
  exit 1
fi
echo "report:"
cat "$work/report.json"
echo

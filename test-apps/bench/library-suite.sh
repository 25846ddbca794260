#!/usr/bin/env bash
# Runs Apache Commons Math 3.6.1's own test suite (6,408 JUnit 4 tests, from its published test jar) without
# the agent and with it, and compares which tests fail: the agent must change none. The default agent options
# force every loop LoopLift recognizes through the pipeline (min.length=0,executor=jvm), the harshest setting
# for results; pass others as the first argument. Prints both runs' failures, a verdict, the seconds each
# took, how many loops ran offloaded and how often, and any loop where LoopLift faulted (a failure too). Takes
# about 3 minutes plain and 25 with the default options on 2 cores. From the project root, after
# mvn -B -DskipTests package:
#   test-apps/bench/library-suite.sh ['min.length=0,executor=jvm'] [test-class filter]
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${AGENT_JAR:-$PWD/agent/target/looplift-agent.jar}
options=${1:-min.length=0,executor=jvm}
filter=${2:-}
[ -f "$jar" ] || { echo "no agent jar at $jar: run mvn -B -DskipTests package first" >&2; exit 1; }
m2=$HOME/.m2/repository
for a in org.apache.commons:commons-math3:3.6.1 org.apache.commons:commons-math3:3.6.1:jar:tests junit:junit:4.13.2; do
  mvn -q -B dependency:get -Dartifact=$a >/dev/null
done
tests=$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1-tests.jar
cp=$tests:$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar:$m2/junit/junit/4.13.2/junit-4.13.2.jar
cp=$cp:$m2/org/hamcrest/hamcrest-core/1.3/hamcrest-core-1.3.jar
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
runner=test-apps/bench/suite/JUnit4Suite.java
# The tests read resources relative to their working directory; both runs start in the same empty one.
(cd "$work" && start=$SECONDS && java -cp "$cp" "$OLDPWD/$runner" "$tests" "$filter" > plain.out 2> plain.err \
  && echo $((SECONDS - start)) > plain.secs)
(cd "$work" && start=$SECONDS && java "-javaagent:$jar=$options,report=$work/report.json" -cp "$cp" \
  "$OLDPWD/$runner" "$tests" "$filter" > agent.out 2> agent.err && echo $((SECONDS - start)) > agent.secs)
echo "plain: $(tail -1 "$work/plain.out") in $(cat "$work/plain.secs") s"; grep '^FAIL' "$work/plain.out" || true
echo "agent ($options): $(tail -1 "$work/agent.out") in $(cat "$work/agent.secs") s"; grep '^FAIL' "$work/agent.out" || true
python3 - "$work/report.json" <<'PY'
import json, sys
loops = json.load(open(sys.argv[1]))["loops"]
ran = [l for l in loops if l["runs"]["offloaded"] > 0]
print("%d loops recognized, %d ran offloaded, %d offloaded launches" % (
    sum(1 for l in loops if l["status"] == "offloaded"), len(ran), sum(l["runs"]["offloaded"] for l in ran)))
faulted = [l for l in loops if l.get("internalError")]
for l in faulted:
    print("FAIL: internal error at %s.%s:%d: %s" % (l["class"], l["method"], l["line"], l["internalError"]))
sys.exit(1 if faulted else 0)
PY
if cmp -s <(grep '^FAIL' "$work/plain.out") <(grep '^FAIL' "$work/agent.out"); then
  echo "ok: the same tests fail with and without the agent, and LoopLift had no internal error"
else
  echo "FAIL: the agent changed which tests fail"; exit 1
fi

#!/usr/bin/env bash
# On a machine with a GPU (and no JDK, Maven or network), from the project's root with the kit of make-kit.sh
# carried: sets up the JDK and NVIDIA's OpenCL driver, then runs the steps named in STEPS (default: all; they
# run in this order) and writes a summary and an archive of their logs and reports under OUT:
#   probe   the demo with executor=opencl: which OpenCL devices the agent finds
#   nests   NestSizes (1024x1024 matmul, n-body, 16M convolution): plain against executor=opencl and default
#   bench   ../shared/checks/bench-ratio.sh with default options (ROUNDS, default 2), report of the last round
#   benchcl the same with executor=opencl (1 round)
#   short   the kernels that gained least, one kernel a JVM, plain and default in turn (3 each)
#   tests   EndToEndTest (default, opencl and reference executors), MeasuredSelectionTest, RealLibraryTest and
#           the executors module's tests, with OPENCL_DEVICE_REQUIRED set
set -uo pipefail
root=$(pwd)
kit="$root/.devkit"
OUT=${OUT:-/tmp/looplift-gpu}
logs=$(mktemp -d)  # every log and report; OUT gets summary.txt and logs.tgz (refreshed after each step)
mkdir -p "$OUT"
steps=${STEPS:-probe nests bench benchcl short tests}
say() { echo "== $(date +%T) $*" | tee -a "$OUT/summary.txt"; tar -C "$logs" -czf "$OUT/logs.tgz" .; }
step() { case " $steps " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if [ ! -x /tmp/looplift-jdk/bin/java ]; then
  mkdir -p /tmp/looplift-jdk && tar -C /tmp/looplift-jdk --strip-components=1 -xJf "$kit/jdk.tar.xz"
fi
export JAVA_HOME=/tmp/looplift-jdk PATH=/tmp/looplift-jdk/bin:$PATH
cp_of() { sed "s#@M2@#$kit/m2#g" "$kit/classpath-$1"; }
if ! ldconfig -p | grep -q 'libOpenCL\.so\.1 '; then
  mkdir -p /tmp/looplift-ocl && cp "$kit/libOpenCL.so.1" /tmp/looplift-ocl/ && export LD_LIBRARY_PATH=/tmp/looplift-ocl
fi
if [ -z "$(ls /etc/OpenCL/vendors/ 2>/dev/null)" ]; then
  nv=$( (ldconfig -p | awk '/libnvidia-opencl\.so\.1/{print $NF}'; find /usr/local/nvidia /usr/lib/x86_64-linux-gnu /usr/lib64 -name 'libnvidia-opencl.so.1' 2>/dev/null) | head -1)
  [ -n "$nv" ] && mkdir -p /etc/OpenCL/vendors && echo "$nv" > /etc/OpenCL/vendors/nvidia.icd
fi
say "$(nproc) cores; $(nvidia-smi -L 2>/dev/null | head -1); ICDs: $(cat /etc/OpenCL/vendors/* 2>/dev/null | tr '\n' ' ')OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}"
java -version 2>&1 | head -1 | tee -a "$OUT/summary.txt"
agent="-javaagent:$root/agent/target/looplift-agent.jar"

if step probe; then
  java "$agent=executor=opencl,min.length=0,log=info,report=$logs/demo-opencl.json" -cp test-apps/target/classes io.looplift.apps.Demo > "$logs/demo.out" 2> "$logs/demo.err"
  java -cp test-apps/target/classes io.looplift.apps.Demo | cmp -s - "$logs/demo.out" && say "probe: demo output identical" || say "probe: demo output DIFFERS"
  say "probe: $(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('devices', r['devices'], '; loops run on opencl:', sum(1 for l in r['loops'] if l.get('executor')=='opencl'))" "$logs/demo-opencl.json" 2>&1)"
fi
if step nests; then
  ROUNDS=1 timeout 200 test-apps/bench/nest-sizes.sh "executor=opencl" "report=$logs/nests-auto.json" > "$logs/nests.txt" 2>&1
  say "nests (rc $?):"; cat "$logs/nests.txt" | tee -a "$OUT/summary.txt"
fi
if step bench; then
  SKIP_BUILD=1 ROUNDS=${ROUNDS:-2} timeout 200 "$kit/checks/bench-ratio.sh" "report=$logs/bench-auto.json" > "$logs/bench.txt" 2>&1
  say "bench default (rc $?):"; cat "$logs/bench.txt" | tee -a "$OUT/summary.txt"
  python3 - "$logs/bench-auto.json" <<'PY' | tee -a "$OUT/summary.txt"
import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    s = k.get("selection") or {}
    print("  %-22s %-9s %-9s launches %-3s moved %-10s %s %s" % (k["id"].split(".")[-1], s.get("executor"), s.get("source"),
          k.get("launches"), k.get("transferBytes"), s.get("candidates"), s.get("transfers", "")))
PY
fi
if step benchcl; then
  SKIP_BUILD=1 ROUNDS=1 timeout 100 "$kit/checks/bench-ratio.sh" "executor=opencl" > "$logs/bench-opencl.txt" 2>&1
  say "bench executor=opencl (rc $?):"; cat "$logs/bench-opencl.txt" | tee -a "$OUT/summary.txt"
fi
if step short; then
  work=$(mktemp -d) && javac -d "$work" "$kit/checks/Bench.java"
  for k in short-inner small-saxpy dot variance; do
    p="" a=""
    for i in 1 2 3; do
      p="$p $(java -Xmx8g -cp "$work" Bench $k | awk '$1 != "checksum" {print $2}')"
      a="$a $(java -Xmx8g "$agent" -cp "$work" Bench $k | awk '$1 != "checksum" {print $2}')"
    done
    say "short $k: plain$p | agent$a (ms, one JVM each)"
  done
fi
if step tests; then
  # The tests go on the JVM's own class path: some fork JVMs with it.
  console=$(sed "s#@M2@#$kit/m2#g" "$kit/console-jar")
  junit() { # module, selector, seconds
    (cd "$1" && OPENCL_DEVICE_REQUIRED=1 timeout "$3" java -Dlooplift.agent.jar="$root/agent/target/looplift-agent.jar" \
      -Dlooplift.apps.classes="$root/test-apps/target/classes" \
      -cp "target/test-classes:target/classes:$(cp_of "$1"):$console" org.junit.platform.console.ConsoleLauncher \
      --disable-banner --details=summary --details-theme=ascii $2) > "$logs/tests-$1.txt" 2>&1
    say "tests $1 (rc $?): $(grep -E 'tests (successful|failed|skipped|aborted)' "$logs/tests-$1.txt" | tr -s ' []' | tr '\n' ';')"
  }
  junit test-apps "--select-class io.looplift.apps.EndToEndTest --select-class io.looplift.apps.MeasuredSelectionTest --select-class io.looplift.apps.RealLibraryTest" 200
  junit executors "--select-package io.looplift.executors" 120
fi
say done

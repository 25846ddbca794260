#!/usr/bin/env bash
# Packs what gpu-run.sh needs on a machine that has a GPU but no network, no JDK and no Maven into .devkit/
# (git ignores it locally: add "/.devkit/" to .git/info/exclude). Run from the project's root after
# `mvn -B -DskipTests install`; ../shared/checks must be beside the project. Carry .devkit, agent/target,
# test-apps/target and executors/target to the machine, and run test-apps/bench/device/gpu-run.sh there.
set -euo pipefail
root=$(pwd)
kit="$root/.devkit"
jdk=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
m2=${M2_REPO:-$HOME/.m2/repository}
console=org/junit/platform/junit-platform-console-standalone/1.11.4/junit-platform-console-standalone-1.11.4.jar
rm -rf "$kit" && mkdir -p "$kit/m2" "$kit/checks"
[ -f "$m2/$console" ] || mvn -B -q dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4
# A runtime with javac (bench-ratio.sh compiles Bench.java) and the modules the agent and its tests use.
"$jdk/bin/jlink" --module-path "$jdk/jmods" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --add-modules java.base,java.instrument,java.management,jdk.management,jdk.management.jfr,jdk.attach,jdk.unsupported,jdk.jfr,java.logging,java.xml,java.compiler,jdk.compiler,jdk.zipfs,java.naming,jdk.jcmd,java.net.http,jdk.crypto.ec \
  --output "$kit/jdk"
tar -C "$kit" -cJf "$kit/jdk.tar.xz" jdk && rm -rf "$kit/jdk"
# The test classpaths, with the local repository's path replaced by @M2@, and the jars they name.
for module in test-apps executors; do
  mvn -B -o -q dependency:build-classpath -pl "$module" -Dmdep.includeScope=test -Dmdep.outputFile="$kit/cp.raw"
  sed "s#$m2#@M2@#g" "$kit/cp.raw" > "$kit/classpath-$module"
  tr ':' '\n' < "$kit/cp.raw" | sed "s#^$m2/##" | (cd "$m2" && xargs -I{} cp --parents {} "$kit/m2/")
done
rm "$kit/cp.raw"
(cd "$m2" && cp --parents "$console" "$kit/m2/")
echo "@M2@/$console" > "$kit/console-jar"
# The OpenCL ICD loader, in case the machine has only the vendor's driver.
cp -L "$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/{print $NF; exit}')" "$kit/libOpenCL.so.1"
cp "$root/../shared/checks/bench-ratio.sh" "$root/../shared/checks/Bench.java" "$kit/checks/"
du -sh "$kit" "$root/agent/target" "$root/test-apps/target" "$root/executors/target"

package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.apps.realcode.CommonsMathVectors;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.math3.util.FastMath;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Commons Math 3.6.1, a library nobody here wrote, under the agent: its vector loops, which call
 * {@code FastMath.abs}/{@code max} (inlined once Java has initialized FastMath) and methods of vectors whose
 * arrays are private, print the same bits with and without the agent, and run offloaded.
 */
class RealLibraryTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "options: [{0}]")
  @ValueSource(strings = {"", "executor=opencl,"})
  void commonsMathVectorsPrintTheSameAndTheirLoopsRunOffloaded(String options) throws Exception {
    String classpath = location(CommonsMathVectors.class) + File.pathSeparator + location(FastMath.class);
    String main = CommonsMathVectors.class.getName();
    ForkedJvm.Result plain = ForkedJvm.runOn(classpath, List.of(), main);
    assertEquals(0, plain.exitCode(), plain::describe);
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.runOn(classpath,
        List.of(ForkedJvm.agentArg(options + "min.length=0,report=" + report)), main);
    assertEquals(0, agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    Set<String> ran = new TreeSet<>();
    for (LoopReport.Loop l : LoopReport.read(report).loops()) {
      if (l.offloadedRuns() > 0) ran.add(l.className().substring(l.className().lastIndexOf('.') + 1) + "." + l.method());
    }
    for (String expected : List.of("ArrayRealVector.getL1Norm", "ArrayRealVector.getLInfNorm", "ArrayRealVector.dotProduct",
        "ArrayRealVector.getL1Distance", "MathArrays.ebeAdd", "MathArrays.safeNorm")) {
      assertTrue(ran.contains(expected), expected + " never ran offloaded; those that did: " + ran);
    }
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}

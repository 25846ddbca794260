package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import Jama.Matrix;
import cern.colt.matrix.impl.DenseDoubleMatrix1D;
import io.looplift.apps.realcode.ColtAbstractCalls;
import io.looplift.apps.realcode.ColtVectors;
import io.looplift.apps.realcode.CommonsMathVectors;
import io.looplift.apps.realcode.EjmlMatrices;
import io.looplift.apps.realcode.JamaMatrices;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.math3.util.FastMath;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Libraries nobody here wrote, as they are on Maven Central, under the agent: programs using them print the
 * same bits with and without it, and named loops of the libraries run offloaded. Commons Math 3.6.1: vector
 * loops that call {@code FastMath.abs}/{@code max} (inlined once Java has initialized FastMath) and methods of
 * vectors whose arrays are private. EJML 0.46.1: element-wise loops calling accessors of an abstract matrix
 * class, one matrix being of a subclass that overrides one of them, and products whose running indices move
 * through their inner loops. Colt 1.2.0: count-down loops whose element
 * index moves by the vector's stride, on views with strides 2 and -1. Jama 1.0.3: nests over rows of
 * {@code double[][]}, an LU solve's launched once per pivot with the pivot's row as an argument of its own, and
 * a matrix whose rows are one array twice.
 */
class RealLibraryTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "options: [{0}]")
  @ValueSource(strings = {"", "executor=opencl,"})
  void commonsMathVectorsPrintTheSameAndTheirLoopsRunOffloaded(String options) throws Exception {
    assertSameAndOffloaded(CommonsMathVectors.class, List.of(FastMath.class), options, List.of("ArrayRealVector.getL1Norm",
        "ArrayRealVector.getLInfNorm", "ArrayRealVector.dotProduct", "ArrayRealVector.getL1Distance",
        "MathArrays.ebeAdd", "MathArrays.safeNorm"));
  }

  @ParameterizedTest(name = "options: [{0}]")
  @ValueSource(strings = {"", "executor=opencl,"})
  void ejmlMatricesPrintTheSameAndTheirElementWiseLoopsRunOffloaded(String options) throws Exception {
    assertSameAndOffloaded(EjmlMatrices.class, List.of(DMatrixRMaj.class, CommonOps_DDRM.class), options,
        List.of("ImplCommonOps_DDRM.elementMult", "ImplCommonOps_DDRM.elementDiv", "ImplCommonOps_DDRM.elementSum",
            "CommonOps_DDRM.add", "MatrixVectorMult_DDRM.mult", "VectorVectorMult_DDRM.outerProd",
            "MatrixMatrixMult_DDRM.multTransB"));
  }

  @ParameterizedTest(name = "options: [{0}]")
  @ValueSource(strings = {"", "executor=opencl,"})
  void coltVectorsPrintTheSameAndTheirStridedLoopsRunOffloaded(String options) throws Exception {
    assertSameAndOffloaded(ColtVectors.class, List.of(DenseDoubleMatrix1D.class), options,
        List.of("DenseDoubleMatrix1D.assign", "DenseDoubleMatrix1D.zSum", "DenseDoubleMatrix2D.assign"));
  }

  @ParameterizedTest(name = "options: [{0}]")
  @ValueSource(strings = {"", "executor=opencl,"})
  void jamaMatricesPrintTheSameAndTheirRowNestsRunOffloaded(String options) throws Exception {
    LoopReport report = assertSameAndOffloaded(JamaMatrices.class, List.of(Matrix.class), options,
        List.of("LUDecomposition.solve", "Matrix.plus", "Matrix.transpose", "Matrix.norm1"));
    List<LoopReport.Loop> scaled = report.loops().stream().filter(l -> l.method().equals("timesEquals")).toList();
    assertEquals(1, scaled.size(), scaled::toString);
    assertEquals(0, scaled.get(0).offloadedRuns(), "rows that are one array ran in parallel: " + scaled);
    assertTrue(scaled.get(0).fallbackRuns() > 0, scaled::toString);
  }

  /**
   * Loops calling Colt's abstract {@code getQuick}: rejected while their classes load, before any matrix class,
   * and offloaded with {@code DenseDoubleMatrix2D}'s and {@code DenseDoubleMatrix1D}'s once those have loaded
   * and their class is idle between two rounds.
   */
  @Test
  void loopsCallingColtsAbstractAccessorsRunOffloadedOnceADenseMatrixHasLoaded() throws Exception {
    assertSameAndOffloaded(ColtAbstractCalls.class, List.of(DenseDoubleMatrix1D.class), "",
        List.of("ColtAbstractCalls$Kernels.column", "ColtAbstractCalls$Kernels.weighted"));
  }

  /**
   * Runs {@code program} with the jars of {@code libraries} without and with the agent ({@code options}
   * before {@code min.length=0}): the same stdout, and each of {@code expected} (simple class name, method)
   * ran offloaded; returns the agent's report.
   */
  private LoopReport assertSameAndOffloaded(Class<?> program, List<Class<?>> libraries, String options,
      List<String> expected) throws Exception {
    StringBuilder classpath = new StringBuilder(location(program));
    for (Class<?> c : libraries) classpath.append(File.pathSeparator).append(location(c));
    String main = program.getName();
    ForkedJvm.Result plain = ForkedJvm.runOn(classpath.toString(), List.of(), main);
    assertEquals(0, plain.exitCode(), plain::describe);
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.runOn(classpath.toString(),
        List.of(ForkedJvm.agentArg(options + "min.length=0,report=" + report)), main);
    assertEquals(0, agent.exitCode(), agent::describe);
    assertEquals(plain.stdout(), agent.stdout(), agent::describe);
    Set<String> ran = new TreeSet<>();
    LoopReport loops = LoopReport.read(report);
    for (LoopReport.Loop l : loops.loops()) {
      if (l.offloadedRuns() > 0) ran.add(l.className().substring(l.className().lastIndexOf('.') + 1) + "." + l.method());
    }
    for (String e : expected) assertTrue(ran.contains(e), e + " never ran offloaded; those that did: " + ran);
    return loops;
  }

  private static String location(Class<?> c) throws Exception {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}

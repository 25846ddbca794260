package io.looplift.executors.opencl;

import static io.looplift.executors.opencl.OpenClTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Launch;
import io.looplift.ir.Call;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.OpenClFunctions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleBinaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** OpenCL transcendentals under precision=ulp stay within the bounds {@link OpenClFunctions} documents. */
class OpenClTranscendentalTest {
  private static final ExecutionOptions ULP = new ExecutionOptions(false, true);
  private static final int N = 20_000;

  @TempDir Path cacheDir;

  /** Inputs: function, arity, low, high end of the random range (specials are added to every range). */
  @ParameterizedTest
  @CsvSource({
      "sin,1,-100,100", "cos,1,-100,100", "tan,1,-10,10", "asin,1,-1,1", "acos,1,-1,1", "atan,1,-1e6,1e6",
      "atan2,2,-100,100", "sinh,1,-700,700", "cosh,1,-700,700", "tanh,1,-20,20", "exp,1,-740,709", "log,1,0,1e300",
      "log10,1,0,1e300", "expm1,1,-40,709", "log1p,1,-1,1e10", "cbrt,1,-1e300,1e300", "hypot,2,-1e200,1e200",
      "pow,2,0,40", "floor,1,-1e17,1e17", "ceil,1,-1e17,1e17", "rint,1,-1e16,1e16", "sqrt,1,0,1e300"})
  void withinDocumentedUlpBound(String name, int arity, double lo, double hi) throws ExecutionException {
    String desc = arity == 1 ? "(D)D" : "(DD)D";
    OpenClFunctions.Function f = OpenClFunctions.of("java/lang/Math", name, desc).orElseThrow();
    Random rnd = new Random(name.hashCode());
    double[] x = new double[N];
    double[] y = new double[N];
    double[] specials = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0, 0.5, Double.MIN_VALUE};
    for (int j = 0; j < N; j++) {
      x[j] = j < specials.length ? specials[j] : lo + (hi - lo) * rnd.nextDouble();
      y[j] = j < specials.length ? specials[(j + 3) % specials.length] : name.equals("pow") ? rnd.nextDouble() * 40 - 20 : lo + (hi - lo) * rnd.nextDouble();
    }
    List<Node> args = new ArrayList<>(List.of(load(0, Type.DOUBLE)));
    if (arity == 2) args.add(load(1, Type.DOUBLE));
    Call call = new Call("java/lang/Math", name, desc, args);
    LoopTemplate t = map(List.of(Type.DOUBLE, Type.DOUBLE, Type.DOUBLE), List.of(), List.of(store(2, Type.DOUBLE, call)));
    try (OpenClExecutor ocl = executor(cacheDir)) {
      assertEquals(f.exact(), ocl.supports(t, ExecutionOptions.EXACT), name + " allowed without precision=ulp");
      double[] out = new double[N];
      ocl.execute(new Launch(t, new Object[] {x, y, out}, new long[0], new long[0], 0, 1, N), ULP);
      DoubleBinaryOperator java = javaFunction(name);
      double worst = 0;
      for (int j = 0; j < N; j++) {
        double expected = java.applyAsDouble(x[j], y[j]);
        double ulps = ulpDistance(expected, out[j]);
        if (ulps > worst) worst = ulps;
        assertTrue(ulps <= f.ulpBound(), name + "(" + x[j] + (arity == 2 ? ", " + y[j] : "") + "): Java " + expected
            + ", OpenCL " + out[j] + " (" + ulps + " ulp > " + f.ulpBound() + ")");
      }
      System.out.printf("ulp %-6s measured %.1f, documented bound %d%n", name, worst, f.ulpBound());
    }
  }

  @Test
  void fmaIsExactForFloatsAndDoubles() throws ExecutionException {
    Random rnd = new Random(5);
    try (OpenClExecutor ocl = executor(cacheDir)) {
      for (Type t : List.of(Type.FLOAT, Type.DOUBLE)) {
        String desc = t == Type.FLOAT ? "(FFF)F" : "(DDD)D";
        Call fma = new Call("java/lang/Math", "fma", desc, List.of(load(0, t), load(1, t), load(2, t)));
        LoopTemplate template = map(List.of(t, t, t, t), List.of(), List.of(store(3, t, fma)));
        assertTrue(ocl.supports(template, ExecutionOptions.EXACT));
        Object[] data = {array(t, rnd, 3000), array(t, rnd, 3000), array(t, rnd, 3000), array(t, rnd, 3000)};
        assertSameAsReference(ocl, template, data, new long[0], 3000);
      }
    }
  }

  /** How many ulps of {@code expected} lie between the two; 0 when both are the same NaN, infinity or zero. */
  static double ulpDistance(double expected, double actual) {
    if (Double.doubleToLongBits(expected) == Double.doubleToLongBits(actual)) return 0;
    if (Double.isNaN(expected) || Double.isNaN(actual) || Double.isInfinite(expected) || Double.isInfinite(actual)) {
      return Double.POSITIVE_INFINITY;
    }
    if (expected == 0 && actual == 0) return Double.POSITIVE_INFINITY; // signs of zero differ
    return Math.abs(expected - actual) / Math.ulp(expected);
  }

  private static DoubleBinaryOperator javaFunction(String name) {
    return switch (name) {
      case "sin" -> (a, b) -> Math.sin(a);
      case "cos" -> (a, b) -> Math.cos(a);
      case "tan" -> (a, b) -> Math.tan(a);
      case "asin" -> (a, b) -> Math.asin(a);
      case "acos" -> (a, b) -> Math.acos(a);
      case "atan" -> (a, b) -> Math.atan(a);
      case "atan2" -> Math::atan2;
      case "sinh" -> (a, b) -> Math.sinh(a);
      case "cosh" -> (a, b) -> Math.cosh(a);
      case "tanh" -> (a, b) -> Math.tanh(a);
      case "exp" -> (a, b) -> Math.exp(a);
      case "log" -> (a, b) -> Math.log(a);
      case "log10" -> (a, b) -> Math.log10(a);
      case "expm1" -> (a, b) -> Math.expm1(a);
      case "log1p" -> (a, b) -> Math.log1p(a);
      case "cbrt" -> (a, b) -> Math.cbrt(a);
      case "hypot" -> Math::hypot;
      case "pow" -> Math::pow;
      case "floor" -> (a, b) -> Math.floor(a);
      case "ceil" -> (a, b) -> Math.ceil(a);
      case "rint" -> (a, b) -> Math.rint(a);
      case "sqrt" -> (a, b) -> Math.sqrt(a);
      default -> throw new IllegalArgumentException(name);
    };
  }
}

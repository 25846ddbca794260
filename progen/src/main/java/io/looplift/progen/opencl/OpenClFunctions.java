package io.looplift.progen.opencl;

import io.looplift.ir.Call;
import java.util.Map;
import java.util.Optional;

/**
 * The JDK math methods ({@code java/lang/Math} and {@code java/lang/StrictMath}) that kernels may call,
 * each mapped to its OpenCL built-in with the error bound of the OpenCL result against Java's.
 *
 * <p>Java specifies its methods as within {@code j} ulps of the exact result and OpenCL (full profile,
 * "Relative error as ULPs" table of the OpenCL C specification, double precision) within {@code c} ulps,
 * so the two differ by at most {@code c + j} ulps, rounded up:
 *
 * <table>
 *   <caption>Transcendental methods, allowed only with {@code precision=ulp}</caption>
 *   <tr><th>method</th><th>OpenCL</th><th>c</th><th>j (Java)</th><th>bound vs Java</th></tr>
 *   <tr><td>sin, cos</td><td>sin, cos</td><td>4</td><td>1</td><td>5</td></tr>
 *   <tr><td>tan</td><td>tan</td><td>5</td><td>1</td><td>6</td></tr>
 *   <tr><td>asin, acos</td><td>asin, acos</td><td>4</td><td>1</td><td>5</td></tr>
 *   <tr><td>atan</td><td>atan</td><td>5</td><td>1</td><td>6</td></tr>
 *   <tr><td>atan2</td><td>atan2</td><td>6</td><td>2</td><td>8</td></tr>
 *   <tr><td>sinh, cosh</td><td>sinh, cosh</td><td>4</td><td>2.5</td><td>7</td></tr>
 *   <tr><td>tanh</td><td>tanh</td><td>5</td><td>2.5</td><td>8</td></tr>
 *   <tr><td>exp, log, log10, expm1</td><td>exp, log, log10, expm1</td><td>3</td><td>1</td><td>4</td></tr>
 *   <tr><td>log1p, cbrt</td><td>log1p, cbrt</td><td>2</td><td>1</td><td>3</td></tr>
 *   <tr><td>hypot</td><td>hypot</td><td>4</td><td>1</td><td>5</td></tr>
 *   <tr><td>pow</td><td>pow</td><td>16</td><td>1</td><td>17</td></tr>
 * </table>
 *
 * <p>Correctly rounded on both sides, hence bit-exact and allowed under {@code precision=exact}:
 * {@code floor}, {@code ceil}, {@code rint}, {@code sqrt} (doubles) and {@code fma} (floats and doubles).
 * Special values (NaN, infinities, signed zeros) follow IEEE 754 on both sides for every listed function.
 */
public final class OpenClFunctions {

  /**
   * One mapped method.
   *
   * @param opencl the OpenCL built-in's name
   * @param ulpBound the most the OpenCL result may differ from Java's, in ulps of Java's result; 0 for
   *     bit-exact functions
   */
  public record Function(String opencl, int ulpBound) {
    /** True when the OpenCL result is always bit-identical to Java's. */
    public boolean exact() { return ulpBound == 0; }
  }

  private static final Map<String, Function> FUNCTIONS = Map.ofEntries(
      Map.entry("sin(D)D", new Function("sin", 5)),
      Map.entry("cos(D)D", new Function("cos", 5)),
      Map.entry("tan(D)D", new Function("tan", 6)),
      Map.entry("asin(D)D", new Function("asin", 5)),
      Map.entry("acos(D)D", new Function("acos", 5)),
      Map.entry("atan(D)D", new Function("atan", 6)),
      Map.entry("atan2(DD)D", new Function("atan2", 8)),
      Map.entry("sinh(D)D", new Function("sinh", 7)),
      Map.entry("cosh(D)D", new Function("cosh", 7)),
      Map.entry("tanh(D)D", new Function("tanh", 8)),
      Map.entry("exp(D)D", new Function("exp", 4)),
      Map.entry("log(D)D", new Function("log", 4)),
      Map.entry("log10(D)D", new Function("log10", 4)),
      Map.entry("expm1(D)D", new Function("expm1", 4)),
      Map.entry("log1p(D)D", new Function("log1p", 3)),
      Map.entry("cbrt(D)D", new Function("cbrt", 3)),
      Map.entry("hypot(DD)D", new Function("hypot", 5)),
      Map.entry("pow(DD)D", new Function("pow", 17)),
      Map.entry("floor(D)D", new Function("floor", 0)),
      Map.entry("ceil(D)D", new Function("ceil", 0)),
      Map.entry("rint(D)D", new Function("rint", 0)),
      Map.entry("sqrt(D)D", new Function("sqrt", 0)),
      Map.entry("fma(DDD)D", new Function("fma", 0)),
      Map.entry("fma(FFF)F", new Function("fma", 0)));

  private OpenClFunctions() {}

  /** The OpenCL counterpart of {@code call}, or empty when the method has none here. */
  public static Optional<Function> of(Call call) {
    return of(call.owner(), call.name(), call.desc());
  }

  /** The OpenCL counterpart of method {@code owner.name desc}, or empty when it has none here. */
  public static Optional<Function> of(String owner, String name, String desc) {
    if (!owner.equals("java/lang/Math") && !owner.equals("java/lang/StrictMath")) return Optional.empty();
    return Optional.ofNullable(FUNCTIONS.get(name + desc));
  }
}

package io.looplift.progen.opencl;

import io.looplift.ir.Call;
import io.looplift.ir.Carried;
import io.looplift.ir.Convert;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Generates the OpenCL C kernel of a {@link LoopTemplate} with Java's semantics, and decides which templates
 * a device can run that way.
 *
 * <p>How Java's rules map to OpenCL C:
 * <ul>
 *   <li>{@code #pragma OPENCL FP_CONTRACT OFF} and no fast-math options, so no multiply-add is fused;
 *       float kernels are built with {@code -cl-fp32-correctly-rounded-divide-sqrt} and only run on devices
 *       with correctly rounded float division and square root and with float denormals.
 *   <li>{@code int}/{@code long} {@code + - *} and negation go through the unsigned types, where overflow
 *       wraps (signed overflow is undefined in C); {@code MIN_VALUE / -1} and {@code % -1} are spelled out.
 *   <li>shift counts are masked ({@code & 31}, {@code & 63}); {@code >>>} shifts the unsigned type.
 *   <li>{@code Math.min/max} on floats follow Java (NaN wins, {@code -0.0 < 0.0}), not {@code fmin/fmax}.
 *   <li>float-to-integer conversions saturate and map NaN to 0; integer-to-float conversions round to
 *       nearest even ({@code convert_*_rte}).
 *   <li>{@code byte short char} elements load sign- or zero-extended and store truncated; {@code boolean}
 *       elements are {@code uchar} 0/1 and store {@code value & 1}.
 *   <li>conditions are {@code int} 0/1; {@code fcmpl/fcmpg} and {@code lcmp} are written out as the JVM
 *       defines them.
 * </ul>
 *
 * <p>A loop nest keeps Java's order inside each work item (see {@link KernelWriter}): inner loops are C loops,
 * and the values they carry, a dot product's sum say, are computed sequentially as Java computes them, so
 * they are exact whatever their type. Only the loops that {@link KernelLayout} makes NDRange dimensions run
 * at once, and only reductions across the outermost loop are split into partials.
 *
 * <p>Stateless and thread-safe.
 */
public final class OpenClGenerator {
  /** The kernel function's name in every generated program. */
  public static final String KERNEL_NAME = "looplift";

  /** Build option of every kernel that computes with floats. */
  public static final String FP32_OPTIONS = "-cl-fp32-correctly-rounded-divide-sqrt";

  private OpenClGenerator() {}

  /**
   * True when {@code template} can run on a device with {@code device}'s features with results identical to
   * Java's, or within the documented bounds where the user opted in.
   *
   * @param reassociate floating-point sums and products may be split into per-work-group partials
   * @param ulp calls of transcendental methods may use OpenCL built-ins (see {@link OpenClFunctions})
   */
  public static boolean supports(LoopTemplate template, boolean reassociate, boolean ulp, DeviceFeatures device) {
    return rejection(template, reassociate, ulp, device).isEmpty();
  }

  /** Why {@link #supports} is false, in words a user can read; empty when it is true. */
  public static Optional<String> rejection(LoopTemplate template, boolean reassociate, boolean ulp,
      DeviceFeatures device) {
    Optional<String> order = orderRejection(template, reassociate);
    if (order.isPresent()) return order;
    boolean usesFloat = template.arrays().contains(Type.FLOAT) || template.params().contains(Type.FLOAT);
    boolean usesDouble = template.arrays().contains(Type.DOUBLE) || template.params().contains(Type.DOUBLE);
    for (Reduction r : template.reductions()) {
      usesFloat |= r.type() == Type.FLOAT;
      usesDouble |= r.type() == Type.DOUBLE;
    }
    for (Node n : Nodes.postOrder(template.partialRoots())) {
      usesFloat |= n.type() == Type.FLOAT;
      usesDouble |= n.type() == Type.DOUBLE;
      if (n instanceof Call c) {
        Optional<OpenClFunctions.Function> f = OpenClFunctions.of(c);
        if (f.isEmpty()) return Optional.of("no OpenCL counterpart for " + c.owner() + "." + c.name() + c.desc());
        if (!f.get().exact() && !ulp) {
          return Optional.of(c.name() + " differs from Java by up to " + f.get().ulpBound() + " ulp on OpenCL: needs precision=ulp");
        }
      } else if (n instanceof Convert c && c.x().type().isFloating() && c.to().stackType() == Type.INT && c.to() != Type.INT) {
        return Optional.of("conversion from " + c.x().type() + " to " + c.to());
      } else if (n instanceof Load l) {
        Optional<String> rows = rowUse(template, l.array(), l.row() != null);
        if (rows.isPresent()) return rows;
        if (template.isFlat() && template.writes(l.array())) {
          for (Store s : template.stores()) {
            if (s.array() == l.array() && !s.index().equals(l.index())) {
              return Optional.of("array " + l.array() + " is read at another index than it is written");
            }
          }
        }
      } else if (n instanceof Length l && !template.isRows(l.array())) {
        return rowUse(template, l.array(), true);
      }
    }
    for (Store s : template.allStores()) {
      Optional<String> rows = rowUse(template, s.array(), s.row() != null);
      if (rows.isPresent()) return rows;
    }
    if (usesDouble && !device.fp64()) return Optional.of("the device has no double precision");
    if (usesDouble && !device.fp64Denormals()) return Optional.of("the device flushes subnormal doubles");
    if (usesFloat && !device.fp32CorrectlyRoundedDivideSqrt()) {
      return Optional.of("the device has no correctly rounded float division and square root");
    }
    if (usesFloat && !device.fp32Denormals()) return Optional.of("the device flushes subnormal floats");
    return Optional.empty();
  }

  /**
   * Why the template's iterations cannot run as its {@link KernelLayout} runs them (partly at once, its
   * reductions split), if they cannot.
   */
  private static Optional<String> orderRejection(LoopTemplate template, boolean reassociate) {
    for (Store s : template.allStores()) {
      List<Node> roots = new ArrayList<>(List.of(s.value(), s.predicate(), s.index()));
      if (s.row() != null) roots.add(s.row());
      if (roots.stream().anyMatch(Nodes::readsAccumulator)) {
        return Optional.of("a store into array " + s.array() + " reads an accumulator, so iterations run in order");
      }
    }
    for (Loop l : template.loops()) {
      List<Node> roots = new ArrayList<>(List.of(l.start(), l.limit(), l.predicate()));
      for (Carried c : l.carried()) {
        roots.add(c.init());
        roots.add(c.update());
      }
      if (roots.stream().anyMatch(Nodes::readsAccumulator)) {
        return Optional.of("inner loop " + l.id() + " reads an accumulator, so iterations run in order");
      }
    }
    for (Reduction r : template.reductions()) {
      if (!r.isSplittable()) return Optional.of("accumulator " + r.acc() + " is an ordered reduction");
      if (r.op().reassociates(r.type()) && !reassociate) {
        return Optional.of("accumulator " + r.acc() + " is a " + r.type().name().toLowerCase() + " "
            + r.op().name().toLowerCase() + " reduction: needs reductions=reassociate");
      }
    }
    if (template.ordered()) {
      // The outer loop runs inside each work item of the parallel loop, which leaves no work-group of
      // outer iterations to reduce over, and needs the parallel loop's range before the launch.
      if (!template.reductions().isEmpty()) return Optional.of("an outer loop that runs in order has accumulators");
      if (!KernelLayout.isBand((Loop) template.body().get(0))) {
        return Optional.of("the parallel loop inside an outer loop that runs in order has a condition or bounds that change");
      }
    }
    return Optional.empty();
  }

  /** Why argument {@code array}, accessed by rows or not as {@code rows} says, cannot be accessed so, if it cannot. */
  private static Optional<String> rowUse(LoopTemplate template, int array, boolean rows) {
    if (template.isRows(array) == rows) return Optional.empty();
    return Optional.of("argument " + array + (rows ? " is used by rows but is not an array of arrays"
        : " is an array of arrays used as an array of elements"));
  }

  /**
   * The kernel for {@code template}; see {@link OpenClKernel} for its arguments and {@link KernelLayout} for
   * its launch geometry.
   *
   * @param workGroupSize a power of two: the local size a one-dimensional kernel over the outermost loop
   *     requires, and the most work items a launch of another layout puts in a work-group
   * @throws IllegalArgumentException when the template is not supported on a fully featured device
   */
  public static OpenClKernel generate(LoopTemplate template, int workGroupSize) {
    if (workGroupSize < 1 || Integer.bitCount(workGroupSize) != 1) {
      throw new IllegalArgumentException("work-group size " + workGroupSize + " is not a power of two");
    }
    Optional<String> why = rejection(template, true, true, DeviceFeatures.FULL);
    if (why.isPresent()) throw new IllegalArgumentException(why.get());
    return new KernelWriter(template, KernelLayout.of(template), workGroupSize).write();
  }

  /** The OpenCL C type of an array with Java element type {@code t} ({@code boolean} is {@code uchar}). */
  public static String elementType(Type t) {
    return switch (t) {
      case BOOLEAN -> "uchar";
      case BYTE -> "char";
      case CHAR -> "ushort";
      case SHORT -> "short";
      case INT -> "int";
      case LONG -> "long";
      case FLOAT -> "float";
      case DOUBLE -> "double";
    };
  }

}

package io.looplift.progen.opencl;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    for (Store s : template.stores()) {
      if (Nodes.readsAccumulator(s.value()) || Nodes.readsAccumulator(s.predicate()) || Nodes.readsAccumulator(s.index())) {
        return Optional.of("a store into array " + s.array() + " reads an accumulator, so iterations run in order");
      }
    }
    for (Reduction r : template.reductions()) {
      if (!r.isSplittable()) return Optional.of("accumulator " + r.acc() + " is an ordered reduction");
      if (r.op().reassociates(r.type()) && !reassociate) {
        return Optional.of("accumulator " + r.acc() + " is a " + r.type().name().toLowerCase() + " "
            + r.op().name().toLowerCase() + " reduction: needs reductions=reassociate");
      }
    }
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
      } else if (n instanceof Load l && template.writes(l.array())) {
        for (Store s : template.stores()) {
          if (s.array() == l.array() && !s.index().equals(l.index())) {
            return Optional.of("array " + l.array() + " is read at another index than it is written");
          }
        }
      }
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
   * The kernel for {@code template}; see {@link OpenClKernel} for its arguments and launch geometry.
   *
   * @param workGroupSize a power of two, the local size the kernel requires
   * @throws IllegalArgumentException when the template is not supported on a fully featured device
   */
  public static OpenClKernel generate(LoopTemplate template, int workGroupSize) {
    if (workGroupSize < 1 || Integer.bitCount(workGroupSize) != 1) {
      throw new IllegalArgumentException("work-group size " + workGroupSize + " is not a power of two");
    }
    Optional<String> why = rejection(template, true, true, DeviceFeatures.FULL);
    if (why.isPresent()) throw new IllegalArgumentException(why.get());
    return new Writer(template, workGroupSize).write();
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

  /** The OpenCL C type of a value of computational type {@code t} (conditions are {@code int} 0/1). */
  static String valueType(Type t) {
    return switch (t) {
      case LONG -> "long";
      case FLOAT -> "float";
      case DOUBLE -> "double";
      default -> "int";
    };
  }

  /** An exact literal of {@code type} with raw bits {@code bits}. */
  static String literal(Type type, long bits) {
    return switch (type) {
      case LONG -> bits == Long.MIN_VALUE ? "(-9223372036854775807L-1L)" : bits + "L";
      case FLOAT -> String.format("as_float(0x%08xu)", (int) bits);
      case DOUBLE -> String.format("as_double(0x%016xUL)", bits);
      default -> (int) bits == Integer.MIN_VALUE ? "(-2147483647-1)" : Integer.toString((int) bits);
    };
  }

  /** Writes one kernel; one instance per generation. */
  private static final class Writer {
    private final LoopTemplate template;
    private final int wg;
    private final StringBuilder out = new StringBuilder();
    private final Map<Node, String> names = new HashMap<>();
    private boolean usesFloat;
    private boolean usesDouble;

    Writer(LoopTemplate template, int wg) {
      this.template = template;
      this.wg = wg;
    }

    OpenClKernel write() {
      List<Node> nodes = Nodes.postOrder(template.partialRoots());
      scanTypes(nodes);
      out.append("// Generated by LoopLift.\n#pragma OPENCL FP_CONTRACT OFF\n");
      if (usesDouble) out.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
      helpers();
      signature();
      out.append("  const int lid = (int) get_local_id(0);\n");
      out.append("  const long first = (long) get_global_id(0) * chunk;\n");
      out.append("  const long last = min(first + chunk, (long) trips);\n");
      List<Reduction> reductions = template.reductions();
      for (int r = 0; r < reductions.size(); r++) {
        Reduction red = reductions.get(r);
        out.append("  __local ").append(valueType(red.type())).append(" l").append(r).append('[').append(wg).append("];\n");
        out.append("  ").append(valueType(red.type())).append(" r").append(r).append(" = ")
            .append(literal(red.type(), red.op().identity(red.type()))).append(";\n");
      }
      out.append("  for (long k = first; k < last; k++) {\n");
      out.append("    const int i = as_int(as_uint(start) + as_uint((int) k) * as_uint(step));\n");
      for (Node n : nodes) {
        String name = "v" + names.size();
        out.append("    const ").append(valueType(n.type())).append(' ').append(name).append(" = ").append(expr(n)).append(";\n");
        names.put(n, name);
      }
      for (Store s : template.stores()) {
        String target = "a" + s.array() + "[" + names.get(s.index()) + "] = " + storeValue(s.elementType(), names.get(s.value())) + ";";
        if (s.predicate().equals(Const.TRUE)) {
          out.append("    ").append(target).append('\n');
        } else {
          out.append("    if (").append(names.get(s.predicate())).append(") ").append(target).append('\n');
        }
      }
      for (int r = 0; r < reductions.size(); r++) {
        out.append("    r").append(r).append(" = comb").append(r).append("(r").append(r).append(", ")
            .append(names.get(reductions.get(r).element())).append(");\n");
      }
      out.append("  }\n");
      if (!reductions.isEmpty()) reductionTail(reductions.size());
      out.append("}\n");
      String options = usesFloat ? FP32_OPTIONS : "";
      return new OpenClKernel(out.toString(), KERNEL_NAME, options, wg);
    }

    private void scanTypes(List<Node> nodes) {
      List<Type> types = new ArrayList<>(template.arrays());
      types.addAll(template.params());
      for (Reduction r : template.reductions()) types.add(r.type());
      for (Node n : nodes) types.add(n.type());
      usesFloat = types.contains(Type.FLOAT);
      usesDouble = types.contains(Type.DOUBLE);
    }

    private void helpers() {
      if (usesFloat) javaMinMax("float", "f", "uint", "0x80000000u");
      if (usesDouble) javaMinMax("double", "d", "ulong", "0x8000000000000000UL");
      List<Reduction> reductions = template.reductions();
      for (int r = 0; r < reductions.size(); r++) {
        Reduction red = reductions.get(r);
        String t = valueType(red.type());
        out.append(t).append(" comb").append(r).append('(').append(t).append(" acc, ").append(t).append(" e) { return ")
            .append(combine(red.op(), red.type())).append("; }\n");
      }
    }

    /** Java's Math.min/max: NaN wins, and -0.0 is below 0.0 (OpenCL's fmin/fmax return the other operand). */
    private void javaMinMax(String t, String suffix, String bitsType, String negativeZero) {
      out.append(t).append(" jmin_").append(suffix).append('(').append(t).append(" a, ").append(t).append(" b) {\n")
          .append("  if (isnan(a)) return a;\n")
          .append("  if (a == 0 && b == 0 && as_").append(bitsType).append("(b) == ").append(negativeZero).append(") return b;\n")
          .append("  return a <= b ? a : b;\n}\n");
      out.append(t).append(" jmax_").append(suffix).append('(').append(t).append(" a, ").append(t).append(" b) {\n")
          .append("  if (isnan(a)) return a;\n")
          .append("  if (a == 0 && b == 0 && as_").append(bitsType).append("(a) == ").append(negativeZero).append(") return b;\n")
          .append("  return a >= b ? a : b;\n}\n");
    }

    private String combine(ReduceOp op, Type t) {
      return switch (op) {
        case ADD -> arith(BinaryOp.ADD, t, "acc", "e");
        case MUL -> arith(BinaryOp.MUL, t, "acc", "e");
        case AND -> "acc & e";
        case OR -> "acc | e";
        case XOR -> "acc ^ e";
        case MIN -> arith(BinaryOp.MIN, t, "acc", "e");
        case MAX -> arith(BinaryOp.MAX, t, "acc", "e");
        case SELECT_LT -> "e < acc ? e : acc";
        case SELECT_LE -> "e <= acc ? e : acc";
        case SELECT_GT -> "e > acc ? e : acc";
        case SELECT_GE -> "e >= acc ? e : acc";
      };
    }

    private void signature() {
      out.append("__kernel __attribute__((reqd_work_group_size(").append(wg).append(", 1, 1)))\nvoid ")
          .append(KERNEL_NAME).append('(');
      List<String> args = new ArrayList<>();
      for (int a = 0; a < template.arrays().size(); a++) {
        String constness = template.writes(a) ? "" : "const ";
        args.add("__global " + constness + elementType(template.arrays().get(a)) + "* a" + a);
      }
      for (int p = 0; p < template.params().size(); p++) args.add("const " + valueType(template.params().get(p)) + " p" + p);
      for (int r = 0; r < template.reductions().size(); r++) {
        args.add("__global " + valueType(template.reductions().get(r).type()) + "* part" + r);
      }
      args.add("const int start");
      args.add("const int step");
      args.add("const int trips");
      args.add("const int chunk");
      out.append(String.join(",\n    ", args)).append(") {\n");
    }

    /**
     * Combines the work-items' values pairwise, lower index first, so that the group's value is the
     * in-order combination (SELECT_* keep the first or last extreme element, which needs the order).
     */
    private void reductionTail(int count) {
      for (int r = 0; r < count; r++) out.append("  l").append(r).append("[lid] = r").append(r).append(";\n");
      out.append("  barrier(CLK_LOCAL_MEM_FENCE);\n");
      out.append("  for (int s = 1; s < ").append(wg).append("; s <<= 1) {\n");
      out.append("    if ((lid & (2 * s - 1)) == 0) {\n");
      for (int r = 0; r < count; r++) {
        out.append("      l").append(r).append("[lid] = comb").append(r).append("(l").append(r).append("[lid], l")
            .append(r).append("[lid + s]);\n");
      }
      out.append("    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n");
      out.append("  if (lid == 0) {\n");
      for (int r = 0; r < count; r++) out.append("    part").append(r).append("[get_group_id(0)] = l").append(r).append("[0];\n");
      out.append("  }\n");
    }

    private String n(Node node) {
      return names.get(node);
    }

    private String expr(Node node) {
      if (node instanceof Const c) return literal(c.type(), c.bits());
      if (node instanceof Param p) return "p" + p.index();
      if (node instanceof Index) return "i";
      if (node instanceof Load l) {
        String access = "a" + l.array() + "[" + n(l.index()) + "]";
        return l.elementType().stackType() == l.elementType() ? access : "(int) " + access;
      }
      if (node instanceof Unary u) return unary(u);
      if (node instanceof Binary b) return arith(b.op(), b.x().type(), n(b.x()), n(b.y()));
      if (node instanceof Compare c) {
        String op = switch (c.cond()) {
          case EQ -> "=="; case NE -> "!="; case LT -> "<"; case GE -> ">="; case GT -> ">"; case LE -> "<=";
        };
        return n(c.x()) + " " + op + " " + n(c.y());
      }
      if (node instanceof Select s) return n(s.cond()) + " ? " + n(s.ifTrue()) + " : " + n(s.ifFalse());
      if (node instanceof Convert c) return convert(c.x().type(), c.to(), n(c.x()));
      if (node instanceof Call c) {
        List<String> args = new ArrayList<>();
        for (Node a : c.args()) args.add(n(a));
        return OpenClFunctions.of(c).orElseThrow().opencl() + "(" + String.join(", ", args) + ")";
      }
      throw new IllegalArgumentException("cannot generate " + node + " (" + (node instanceof Acc ? "accumulator" : "node") + ")");
    }

    private String unary(Unary u) {
      String x = n(u.x());
      Type t = u.x().type();
      return switch (u.op()) {
        case NOT -> "!" + x;
        case NEG -> t == Type.INT ? "as_int(0u - as_uint(" + x + "))"
            : t == Type.LONG ? "as_long(0UL - as_ulong(" + x + "))" : "-" + x;
        case ABS -> t == Type.INT ? x + " < 0 ? as_int(0u - as_uint(" + x + ")) : " + x
            : t == Type.LONG ? x + " < 0 ? as_long(0UL - as_ulong(" + x + ")) : " + x : "fabs(" + x + ")";
        case SQRT -> "sqrt(" + x + ")";
      };
    }

    /** {@code x op y} on operands of type {@code t}, as a complete expression. */
    private static String arith(BinaryOp op, Type t, String x, String y) {
      if (t == Type.INT || t == Type.LONG) {
        boolean isInt = t == Type.INT;
        String s = isInt ? "int" : "long";
        String u = isInt ? "uint" : "ulong";
        String minusOne = isInt ? "-1" : "-1L";
        String zero = isInt ? "0" : "0L";
        String one = isInt ? "1" : "1L";
        return switch (op) {
          case ADD -> "as_" + s + "(as_" + u + "(" + x + ") + as_" + u + "(" + y + "))";
          case SUB -> "as_" + s + "(as_" + u + "(" + x + ") - as_" + u + "(" + y + "))";
          case MUL -> "as_" + s + "(as_" + u + "(" + x + ") * as_" + u + "(" + y + "))";
          // The analyzer never offloads a zero divisor; the substitute 1 only keeps a broken invariant from
          // trapping the device (an integer division by zero kills the process on CPU devices).
          case DIV -> "(" + y + " == " + minusOne + " ? as_" + s + "((" + u + ") 0 - as_" + u + "(" + x + ")) : "
              + x + " / (" + y + " == " + zero + " ? " + one + " : " + y + "))";
          case REM -> "(" + y + " == " + minusOne + " ? " + zero + " : " + x + " % (" + y + " == " + zero + " ? " + one + " : " + y + "))";
          case AND -> "(" + x + " & " + y + ")";
          case OR -> "(" + x + " | " + y + ")";
          case XOR -> "(" + x + " ^ " + y + ")";
          case SHL -> "as_" + s + "(as_" + u + "(" + x + ") << (" + y + " & " + (isInt ? 31 : 63) + "))";
          case SHR -> "(" + x + " >> (" + y + " & " + (isInt ? 31 : 63) + "))";
          case USHR -> "as_" + s + "(as_" + u + "(" + x + ") >> (" + y + " & " + (isInt ? 31 : 63) + "))";
          case MIN -> "min(" + x + ", " + y + ")";
          case MAX -> "max(" + x + ", " + y + ")";
          case CMPL, CMPG -> "((" + x + " > " + y + ") - (" + x + " < " + y + "))";
        };
      }
      if (t.isFloating()) {
        String suffix = t == Type.FLOAT ? "f" : "d";
        return switch (op) {
          case ADD -> "(" + x + " + " + y + ")";
          case SUB -> "(" + x + " - " + y + ")";
          case MUL -> "(" + x + " * " + y + ")";
          case DIV -> "(" + x + " / " + y + ")";
          case REM -> "fmod(" + x + ", " + y + ")";
          case MIN -> "jmin_" + suffix + "(" + x + ", " + y + ")";
          case MAX -> "jmax_" + suffix + "(" + x + ", " + y + ")";
          case CMPL -> "(" + x + " > " + y + " ? 1 : " + x + " == " + y + " ? 0 : -1)";
          case CMPG -> "(" + x + " < " + y + " ? -1 : " + x + " == " + y + " ? 0 : 1)";
          default -> throw new IllegalArgumentException(op + " of " + t);
        };
      }
      return switch (op) { // BOOLEAN conditions, 0 or 1
        case AND -> "(" + x + " & " + y + ")";
        case OR -> "(" + x + " | " + y + ")";
        case XOR -> "(" + x + " ^ " + y + ")";
        default -> throw new IllegalArgumentException(op + " of " + t);
      };
    }

    private static String convert(Type from, Type to, String x) {
      if (from == to) return x;
      if (from.isFloating()) {
        return switch (to) {
          case INT -> "isnan(" + x + ") ? 0 : convert_int_sat_rtz(" + x + ")";
          case LONG -> "isnan(" + x + ") ? 0L : convert_long_sat_rtz(" + x + ")";
          case FLOAT -> "convert_float_rte(" + x + ")";
          case DOUBLE -> "convert_double(" + x + ")";
          default -> throw new IllegalArgumentException("convert " + from + " to " + to);
        };
      }
      return switch (to) {
        case BYTE -> "(int) convert_char(" + x + ")";
        case SHORT -> "(int) convert_short(" + x + ")";
        case CHAR -> "(int) convert_ushort(" + x + ")";
        case INT -> "convert_int(" + x + ")";
        case LONG -> "convert_long(" + x + ")";
        case FLOAT -> "convert_float_rte(" + x + ")";
        case DOUBLE -> "convert_double_rte(" + x + ")";
        default -> throw new IllegalArgumentException("convert " + from + " to " + to);
      };
    }

    private static String storeValue(Type element, String v) {
      return switch (element) {
        case BOOLEAN -> "(uchar) (" + v + " & 1)";
        case BYTE -> "convert_char(" + v + ")";
        case SHORT -> "convert_short(" + v + ")";
        case CHAR -> "convert_ushort(" + v + ")";
        default -> v;
      };
    }
  }
}

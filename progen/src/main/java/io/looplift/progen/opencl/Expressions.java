package io.looplift.progen.opencl;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Param;
import io.looplift.ir.Select;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * OpenCL C for IR nodes with Java's semantics (the rules {@link OpenClGenerator} lists), and the C names a
 * kernel gives the values nodes read: {@code i} for the outermost loop's variable, {@code j<id>} for inner
 * loop {@code id}'s, {@code c<id>_<slot>} and {@code out<id>_<slot>} for a loop's carried values during and
 * after it, {@code p<k>} for parameters, {@code a<k>} for array arguments and {@code off<k>} for the row
 * offsets of an array of arrays. Stateless.
 */
final class Expressions {
  private Expressions() {}

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

  /** The C variable that holds {@code node}'s value, for the nodes a kernel keeps in variables; else null. */
  static String variable(Node node) {
    if (node instanceof Param p) return "p" + p.index();
    if (node instanceof Index) return "i";
    if (node instanceof LoopVar v) return loopVar(v.loop());
    if (node instanceof CarriedVar c) return carried(c.loop(), c.slot());
    if (node instanceof LoopOut o) return loopOut(o.loop(), o.slot());
    return null;
  }

  static String loopVar(int loop) {
    return "j" + loop;
  }

  static String carried(int loop, int slot) {
    return "c" + loop + "_" + slot;
  }

  static String loopOut(int loop, int slot) {
    return "out" + loop + "_" + slot;
  }

  /** Element {@code index} of argument {@code array}, or of its row {@code row} when that is not null. */
  static String element(int array, String row, String index) {
    return row == null ? "a" + array + "[" + index + "]" : "a" + array + "[off" + array + "[" + row + "] + " + index + "]";
  }

  /**
   * A C expression for {@code node}, whose operands' values are in the C variables {@code operand} names.
   *
   * @throws IllegalArgumentException for an accumulator, which only reductions read
   */
  static String of(Node node, Function<Node, String> operand) {
    String variable = variable(node);
    if (variable != null) return variable;
    if (node instanceof Const c) return literal(c.type(), c.bits());
    if (node instanceof Load l) {
      String access = element(l.array(), l.row() == null ? null : operand.apply(l.row()), operand.apply(l.index()));
      return l.elementType().stackType() == l.elementType() ? access : "(int) " + access;
    }
    if (node instanceof Length l) {
      String row = operand.apply(l.row());
      return "(int) (off" + l.array() + "[" + row + " + 1] - off" + l.array() + "[" + row + "])";
    }
    if (node instanceof Unary u) return unary(u, operand.apply(u.x()));
    if (node instanceof Binary b) return arith(b.op(), b.x().type(), operand.apply(b.x()), operand.apply(b.y()));
    if (node instanceof Compare c) {
      String op = switch (c.cond()) {
        case EQ -> "=="; case NE -> "!="; case LT -> "<"; case GE -> ">="; case GT -> ">"; case LE -> "<=";
      };
      return operand.apply(c.x()) + " " + op + " " + operand.apply(c.y());
    }
    if (node instanceof Select s) {
      return operand.apply(s.cond()) + " ? " + operand.apply(s.ifTrue()) + " : " + operand.apply(s.ifFalse());
    }
    if (node instanceof Convert c) return convert(c.x().type(), c.to(), operand.apply(c.x()));
    if (node instanceof Call c) {
      List<String> args = new ArrayList<>();
      for (Node a : c.args()) args.add(operand.apply(a));
      return OpenClFunctions.of(c).orElseThrow().opencl() + "(" + String.join(", ", args) + ")";
    }
    throw new IllegalArgumentException("cannot generate " + node + " (" + (node instanceof Acc ? "accumulator" : "node") + ")");
  }

  private static String unary(Unary u, String x) {
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
  static String arith(BinaryOp op, Type t, String x, String y) {
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

  /** {@code v} as stored into an array of {@code element}s: truncated to sub-int types, booleans to their low bit. */
  static String storeValue(Type element, String v) {
    return switch (element) {
      case BOOLEAN -> "(uchar) (" + v + " & 1)";
      case BYTE -> "convert_char(" + v + ")";
      case SHORT -> "convert_short(" + v + ")";
      case CHAR -> "convert_ushort(" + v + ")";
      default -> v;
    };
  }
}

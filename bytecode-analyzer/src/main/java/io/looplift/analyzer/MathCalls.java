package io.looplift.analyzer;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Node;
import io.looplift.ir.Unary;
import io.looplift.ir.UnaryOp;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * The JDK static methods a loop body may call: pure, non-throwing functions of primitives. Those with an
 * IR operator become that operator; the rest stay calls of the very same method.
 */
final class MathCalls {
  private static final Set<String> MATH = Set.of("sin", "cos", "tan", "asin", "acos", "atan", "exp", "log",
      "log10", "cbrt", "pow", "atan2", "hypot", "expm1", "log1p", "sinh", "cosh", "tanh", "floor", "ceil", "rint",
      "signum", "ulp", "toRadians", "toDegrees", "fma", "copySign", "nextUp", "nextDown", "nextAfter", "scalb",
      "getExponent", "IEEEremainder", "round");
  private static final Set<String> BOXES = Set.of("floatToRawIntBits", "intBitsToFloat", "doubleToRawLongBits",
      "longBitsToDouble", "floatToIntBits", "doubleToLongBits", "isNaN", "isInfinite", "isFinite", "bitCount",
      "numberOfLeadingZeros", "numberOfTrailingZeros", "rotateLeft", "rotateRight", "reverse", "reverseBytes",
      "highestOneBit", "lowestOneBit", "signum", "compare", "min", "max", "sum", "toUnsignedLong");
  private static final Set<String> BOX_OWNERS = Set.of("java/lang/Float", "java/lang/Double", "java/lang/Integer",
      "java/lang/Long", "java/lang/Short", "java/lang/Character", "java/lang/Byte");

  private MathCalls() {}

  /** The IR for a call to a known pure JDK method, or null when {@code mi} is not one. */
  static Node translate(SymInterpreter sym, MethodInsnNode mi, List<? extends SymValue> args) {
    if (!mi.desc.matches("\\([IJFDZBSC]*\\)[IJFDZBSC]")) return null;
    boolean math = mi.owner.equals("java/lang/Math") || mi.owner.equals("java/lang/StrictMath");
    if (math) {
      switch (mi.name) {
        case "abs":
          return sym.n(Unary.of(UnaryOp.ABS, sym.node(args.get(0))));
        case "sqrt":
          return sym.n(Unary.of(UnaryOp.SQRT, sym.node(args.get(0))));
        case "min":
          return sym.n(Binary.of(BinaryOp.MIN, sym.node(args.get(0)), sym.node(args.get(1))));
        case "max":
          return sym.n(Binary.of(BinaryOp.MAX, sym.node(args.get(0)), sym.node(args.get(1))));
        default:
          return MATH.contains(mi.name) ? sym.call(mi, args) : null;
      }
    }
    if (BOX_OWNERS.contains(mi.owner) && BOXES.contains(mi.name)) return sym.call(mi, args);
    return null;
  }
}

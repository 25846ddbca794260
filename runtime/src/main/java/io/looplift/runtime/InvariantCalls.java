package io.looplift.runtime;

import io.looplift.ir.Call;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * {@link Call} nodes among a guard's invariants (an offset such as {@code Math.floorMod(k, n)}) as steps of
 * {@link InvariantCode}: each invokes the very JDK method the node names, as the {@code Interpreter} does,
 * through a method handle adapted once to take and return raw bits, so that a launch boxes nothing.
 */
final class InvariantCalls {
  /** The most arguments a compiled call takes: the JDK's pure math methods take at most three. */
  private static final int MAX_ARGS = 3;

  private InvariantCalls() {}

  /**
   * A step computing {@code c} from the slots {@code args} of its arguments.
   *
   * @throws IllegalArgumentException when the method cannot be found or takes too many arguments
   */
  static InvariantCode.Step step(Call c, int[] args) {
    if (args.length > MAX_ARGS) throw new IllegalArgumentException("a call of " + args.length + " arguments: " + c);
    try {
      return new CallStep(rawBits(c), args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("cannot call " + c, e);
    }
  }

  /** Invokes an adapted method handle on the slots of its arguments. */
  private static final class CallStep implements InvariantCode.Step {
    private final MethodHandle mh;
    private final int[] args;

    CallStep(MethodHandle mh, int[] args) {
      this.mh = mh;
      this.args = args;
    }

    @Override
    public long eval(long[] s, long[] p) {
      try {
        return switch (args.length) {
          case 0 -> (long) mh.invokeExact();
          case 1 -> (long) mh.invokeExact(s[args[0]]);
          case 2 -> (long) mh.invokeExact(s[args[0]], s[args[1]]);
          default -> (long) mh.invokeExact(s[args[0]], s[args[1]], s[args[2]]);
        };
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        // The JDK's math methods throw no checked exception; this only satisfies the compiler.
        throw new IllegalStateException(t);
      }
    }
  }

  /** The static method {@code c} names, adapted to take and return raw bits (see {@code Const}) as longs. */
  private static MethodHandle rawBits(Call c) throws ReflectiveOperationException {
    Class<?> owner = Class.forName(c.owner().replace('/', '.'));
    MethodType type = MethodType.fromMethodDescriptorString(c.desc(), null);
    MethodHandle mh = MethodHandles.publicLookup().findStatic(owner, c.name(), type);
    for (int k = 0; k < type.parameterCount(); k++) mh = MethodHandles.filterArguments(mh, k, fromBits(type.parameterType(k)));
    return MethodHandles.filterReturnValue(mh, toBits(type.returnType()));
  }

  /** {@code (long) t}: raw bits to a value of primitive type {@code t}. */
  private static MethodHandle fromBits(Class<?> t) throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    MethodHandle m;
    if (t == float.class) m = l.findStatic(Float.class, "intBitsToFloat", MethodType.methodType(float.class, int.class));
    else if (t == double.class) m = l.findStatic(Double.class, "longBitsToDouble", MethodType.methodType(double.class, long.class));
    else m = MethodHandles.identity(t); // integral and boolean values are their bits, narrowed as the JVM narrows
    return MethodHandles.explicitCastArguments(m, MethodType.methodType(t, long.class));
  }

  /** {@code (t) long}: a value of primitive type {@code t} to raw bits. */
  private static MethodHandle toBits(Class<?> t) throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    MethodHandle m;
    if (t == float.class) m = l.findStatic(Float.class, "floatToRawIntBits", MethodType.methodType(int.class, float.class));
    else if (t == double.class) m = l.findStatic(Double.class, "doubleToRawLongBits", MethodType.methodType(long.class, double.class));
    else m = MethodHandles.identity(t); // ints sign-extend, chars zero-extend, booleans become 0 or 1
    return MethodHandles.explicitCastArguments(m, MethodType.methodType(long.class, t));
  }
}

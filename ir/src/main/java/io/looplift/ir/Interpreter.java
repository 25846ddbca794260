package io.looplift.ir;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluates IR nodes one iteration at a time with Java's semantics ({@link Evaluator}); {@link Call} nodes
 * invoke the very JDK method named. Slow and obviously right: the ground truth for tests, the reference
 * executor, and the run-time guards that evaluate invariant offsets.
 */
public final class Interpreter {
  private static final Map<String, MethodHandle> CALLS = new ConcurrentHashMap<>();

  private final Object[] arrays;
  private final long[] params;
  private final long[] accs;

  /** An interpreter over one launch's bindings; {@code accs} holds the accumulators' current values. */
  public Interpreter(Object[] arrays, long[] params, long[] accs) {
    this.arrays = arrays;
    this.params = params;
    this.accs = accs;
  }

  /**
   * Runs a whole launch of {@code t} in order: iterations {@code k = 0 .. trips-1} with induction value
   * {@code i = start + k * step} (int arithmetic). Each iteration of a flat template computes every node,
   * then performs the stores in template order (where their predicate holds) and assigns every reduction
   * update at once; a nest runs its statements segment by segment as {@link Stmt} describes.
   * {@code accs} holds the initial values (raw bits) on entry and the results on return; it is written
   * only after the last iteration, so an exception mid-launch leaves it untouched.
   */
  public static void run(LoopTemplate t, Object[] arrays, long[] params, long[] accs, int start, int step, int trips) {
    if (!t.isFlat()) {
      new NestInterpreter(t, arrays, params, accs).run(start, step, trips);
      return;
    }
    List<Node> roots = t.roots();
    long[] current = accs.clone();
    Interpreter interpreter = new Interpreter(arrays, params, current);
    for (int k = 0; k < trips; k++) {
      Map<Node, Long> v = interpreter.evaluate(roots, start + k * step);
      for (Store s : t.stores()) {
        if (v.get(s.predicate()) != 0) {
          Evaluator.store(arrays[s.array()], s.elementType(), (int) (long) v.get(s.index()), v.get(s.value()));
        }
      }
      for (Reduction r : t.reductions()) current[r.acc()] = v.get(r.update());
    }
    System.arraycopy(current, 0, accs, 0, accs.length);
  }

  /** Evaluates every node of {@code roots} for iteration {@code i}; returns raw bits per node. */
  public Map<Node, Long> evaluate(List<Node> roots, int i) {
    Map<Node, Long> values = new HashMap<>();
    for (Node n : Nodes.postOrder(roots)) values.put(n, eval(n, i, values));
    return values;
  }

  /** Evaluates one node (and what it needs) for iteration {@code i}. */
  public long evaluate(Node n, int i) {
    return evaluate(List.of(n), i).get(n);
  }

  private long eval(Node n, int i, Map<Node, Long> v) {
    if (n instanceof Index) return i;
    return evalOperation(n, v, arrays, params, accs);
  }

  /**
   * The value of {@code n} from the values {@code v} of its operands, for the nodes whose value does not
   * depend on where in a nest it is computed (constants, parameters, accumulators, loads and operators).
   */
  static long evalOperation(Node n, Map<Node, Long> v, Object[] arrays, long[] params, long[] accs) {
    if (n instanceof Const c) return c.bits();
    if (n instanceof Param p) return params[p.index()];
    if (n instanceof Acc a) return accs[a.index()];
    if (n instanceof Load l) {
      Object array = l.row() == null ? arrays[l.array()] : ((Object[]) arrays[l.array()])[(int) (long) v.get(l.row())];
      return Evaluator.load(array, l.elementType(), (int) (long) v.get(l.index()));
    }
    if (n instanceof Length l) {
      return java.lang.reflect.Array.getLength(((Object[]) arrays[l.array()])[(int) (long) v.get(l.row())]);
    }
    if (n instanceof Unary u) return Evaluator.unary(u.op(), u.x().type(), v.get(u.x()));
    if (n instanceof Binary b) return Evaluator.binary(b.op(), b.x().type(), v.get(b.x()), v.get(b.y()));
    if (n instanceof Compare c) return c.cond().test(Long.compare(v.get(c.x()), v.get(c.y()))) ? 1 : 0;
    if (n instanceof Select s) return v.get(s.cond()) != 0 ? v.get(s.ifTrue()) : v.get(s.ifFalse());
    if (n instanceof Convert c) return Evaluator.convert(c.x().type(), c.to(), v.get(c.x()));
    if (n instanceof Call c) return call(c, v);
    throw new IllegalArgumentException("not computable here: " + n);
  }

  private static long call(Call c, Map<Node, Long> v) {
    MethodHandle mh = CALLS.computeIfAbsent(c.owner() + '.' + c.name() + c.desc(), k -> resolve(c));
    MethodType mt = mh.type();
    Object[] args = new Object[c.args().size()];
    for (int k = 0; k < args.length; k++) args[k] = box(mt.parameterType(k), v.get(c.args().get(k)));
    try {
      return unbox(mh.invokeWithArguments(args));
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  private static MethodHandle resolve(Call c) {
    try {
      Class<?> owner = Class.forName(c.owner().replace('/', '.'));
      MethodType mt = MethodType.fromMethodDescriptorString(c.desc(), null);
      return MethodHandles.publicLookup().findStatic(owner, c.name(), mt);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("cannot call " + c, e);
    }
  }

  private static Object box(Class<?> t, long bits) {
    if (t == int.class) return (int) bits;
    if (t == long.class) return bits;
    if (t == float.class) return Float.intBitsToFloat((int) bits);
    if (t == double.class) return Double.longBitsToDouble(bits);
    if (t == boolean.class) return bits != 0;
    if (t == byte.class) return (byte) bits;
    if (t == short.class) return (short) bits;
    if (t == char.class) return (char) bits;
    throw new IllegalArgumentException("parameter type " + t);
  }

  private static long unbox(Object o) {
    if (o instanceof Integer x) return x;
    if (o instanceof Long x) return x;
    if (o instanceof Float x) return Float.floatToRawIntBits(x);
    if (o instanceof Double x) return Double.doubleToRawLongBits(x);
    if (o instanceof Boolean x) return x ? 1 : 0;
    if (o instanceof Byte x) return x;
    if (o instanceof Short x) return x;
    if (o instanceof Character x) return x;
    throw new IllegalArgumentException("result " + o);
  }
}

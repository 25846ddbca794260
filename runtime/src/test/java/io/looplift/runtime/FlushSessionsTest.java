package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.FlushSession;
import io.looplift.executors.Launch;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Offload;
import io.looplift.executors.select.Selector;
import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Flush sessions at the kernel runner: launches a session holds reach the program's arrays when the work
 * ends or before anything else runs, and a session that fails to give them back has them run again
 * elsewhere, so that the program gets the same results.
 */
class FlushSessionsTest {
  private static final int N = 1000;
  private final List<String> lines = new ArrayList<>();
  private final Profiler profiler = new Profiler();
  private final Log log = new Log(Log.Level.QUIET, lines::add);
  private final SiteTable sites = new SiteTable(profiler, log);
  private final Deferring deferring = new Deferring();
  private final Counting fallback = new Counting("counting");

  private KernelRunner runner() {
    List<Offload> offloads = List.of(Offload.named(deferring), Offload.named(fallback));
    Selector forced = Selector.builder("test", 2).forced("executor=test").build();
    Selections selections = new Selections(forced, offloads, LateDevices.none(), false, ExecutionOptions.EXACT, profiler);
    return new KernelRunner(selections, ExecutionOptions.EXACT, profiler, log, System::nanoTime, null);
  }

  private boolean run(KernelRunner runner, String kernel, Launch launch, FlushSessions sessions) {
    int id = sites.register(new LoopSite("com.acme.Foo", "bar", "([D[D)V", 42, "map", launch.template(),
        new LoopShape(Cond.LT, 1), null));
    return runner.run(launch, kernel, List.of(new PendingLoop(id, sites.get(id), launch, null)), sessions);
  }

  /** {@code out[i] = in[i] + c} over doubles. */
  private static Launch plus(double[] in, double[] out, double c) {
    Node v = Binary.of(BinaryOp.ADD, new Load(0, Type.DOUBLE, Index.I), Const.ofDouble(c));
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(new Store(1, Type.DOUBLE, Index.I, v, Const.TRUE)), List.of());
    return new Launch(t, new Object[] {in, out}, new long[0], new long[0], 0, 1, in.length);
  }

  /** {@code s += a[i]} over doubles. */
  private static Launch sum(double[] a) {
    Node e = new Load(0, Type.DOUBLE, Index.I);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE), List.of(), List.of(Type.DOUBLE), List.of(),
        List.of(new Reduction(0, Type.DOUBLE, Binary.of(BinaryOp.ADD, new Acc(0, Type.DOUBLE), e), ReduceOp.ADD, e)));
    return new Launch(t, new Object[] {a}, new long[0], new long[] {Double.doubleToRawLongBits(0)}, 0, 1, a.length);
  }

  private static double[] ramp() {
    double[] a = new double[N];
    for (int k = 0; k < N; k++) a[k] = k * 0.5;
    return a;
  }

  private static double[] plus(double[] a, double c) {
    double[] out = new double[a.length];
    for (int k = 0; k < a.length; k++) out[k] = a[k] + c;
    return out;
  }

  /** Runs {@code b = a + 1} and {@code c = b + 2} on {@code runner} with {@code sessions}; returns a, b, c. */
  private double[][] twoSteps(KernelRunner runner, FlushSessions sessions) {
    double[] a = ramp();
    double[] b = new double[N];
    double[] c = new double[N];
    assertTrue(run(runner, "k1", plus(a, b, 1), sessions));
    assertTrue(run(runner, "k2", plus(b, c, 2), sessions));
    return new double[][] {a, b, c};
  }

  @Test
  void resultsHeldBySessionReachTheProgramWhenTheWorkEnds() {
    KernelRunner runner = runner();
    FlushSessions sessions = runner.sessions(2);
    double[][] abc = twoSteps(runner, sessions);
    assertEquals(2, deferring.sessionLaunches, "both ran in the session");
    assertArrayEquals(new double[N], abc[2], "held by the session until the work ends");
    runner.finish(sessions);
    assertArrayEquals(plus(abc[0], 1), abc[1]);
    assertArrayEquals(plus(plus(abc[0], 1), 2), abc[2]);
  }

  @Test
  void launchesStillInFlightAreRecordedAtTheCommit() {
    deferring.inFlight = true;
    KernelRunner runner = runner();
    FlushSessions sessions = runner.sessions(2);
    double[][] abc = twoSteps(runner, sessions);
    assertFalse(report().contains("\"k1\""), "not recorded before the commit: " + report());
    runner.finish(sessions);
    assertTrue(report().contains("\"k1\"") && report().contains("\"k2\""), report());
    assertArrayEquals(plus(plus(abc[0], 1), 2), abc[2]);
  }

  private String report() {
    return profiler.reportJson();
  }

  /**
   * Runs {@code b = a + 1}, then the sum of {@code b}, on {@code runner} with a session, to the end of the
   * work; returns the sum's launch.
   */
  private Launch stepAndSum(KernelRunner runner) {
    FlushSessions sessions = runner.sessions(2);
    double[] a = ramp();
    double[] b = new double[N];
    assertTrue(run(runner, "k1", plus(a, b, 1), sessions));
    Launch total = sum(b);
    assertTrue(run(runner, "k2", total, sessions));
    runner.finish(sessions);
    double expected = 0;
    for (double v : plus(a, 1)) expected += v;
    assertEquals(expected, Double.longBitsToDouble(total.accumulators()[0]), "summed b once, as the step left it");
    return total;
  }

  @Test
  void aLaunchTheSessionDoesNotTakeRunsAfterACommit() {
    stepAndSum(runner());
    assertEquals(1, deferring.sessionLaunches, "the step in the session");
    assertEquals(1, deferring.launches, "the sum outside it");
  }

  @Test
  void aReductionRunAgainAfterAFailedCommitStartsFromItsAccumulatorsBeforeItRan() {
    deferring.failCommit = true;
    deferring.takesReductions = true;
    stepAndSum(runner());
    assertEquals(2, fallback.launches, "both ran again");
  }

  @Test
  void launchesOfASessionThatFailsToCommitRunAgainElsewhere() {
    deferring.failCommit = true;
    KernelRunner runner = runner();
    FlushSessions sessions = runner.sessions(3);
    double[][] abc = twoSteps(runner, sessions);
    double[] c = abc[2];
    assertTrue(run(runner, "k3", plus(c, c, 3), sessions)); // in place: running twice would add 3 twice
    runner.finish(sessions);
    assertArrayEquals(plus(abc[0], 1), abc[1]);
    assertArrayEquals(plus(plus(plus(abc[0], 1), 2), 3), c);
    assertEquals(3, fallback.launches, "the next executor ran them again");
  }

  @Test
  void noSessionsForASingleLaunch() {
    assertEquals(null, runner().sessions(1));
  }

  /** The reference executor under another name, counting the launches it runs outside sessions. */
  private static class Counting implements Executor {
    final ReferenceExecutor reference = new ReferenceExecutor();
    private final String name;
    int launches;

    Counting(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public boolean supports(LoopTemplate template, ExecutionOptions options) {
      return reference.supports(template, options);
    }

    @Override
    public void execute(Launch launch, ExecutionOptions options) throws ExecutionException {
      reference.execute(launch, options);
      launches++;
    }

    @Override
    public void close() {}
  }

  /**
   * Runs launches as the reference executor does; its sessions compute on copies of the arrays and copy
   * them back at commit, or fail to when told to.
   */
  private static final class Deferring extends Counting {
    int sessionLaunches;
    boolean failCommit;
    boolean takesReductions;
    /** Launches run in a session report themselves as still in flight. */
    boolean inFlight;

    Deferring() {
      super("deferring");
    }

    @Override
    public FlushSession session() {
      return new FlushSession() {
        private final Map<Object, double[]> copies = new IdentityHashMap<>();

        @Override
        public boolean takes(Launch launch) {
          return takesReductions || launch.template().reductions().isEmpty();
        }

        @Override
        public boolean execute(Launch launch, ExecutionOptions options) throws ExecutionException {
          Object[] own = new Object[launch.arrays().length];
          for (int k = 0; k < own.length; k++) {
            own[k] = copies.computeIfAbsent(launch.arrays()[k], x -> ((double[]) x).clone());
          }
          reference.execute(new Launch(launch.template(), own, launch.params(), launch.accumulators(), launch.start(),
              launch.step(), launch.trips()), options);
          sessionLaunches++;
          return !inFlight;
        }

        @Override
        public Transfer commit() throws ExecutionException {
          if (failCommit) {
            copies.clear();
            throw new ExecutionException("the device went away");
          }
          long bytes = 0;
          for (Map.Entry<Object, double[]> e : copies.entrySet()) {
            System.arraycopy(e.getValue(), 0, e.getKey(), 0, e.getValue().length);
            bytes += e.getValue().length * 8L;
          }
          return new Transfer(1, bytes);
        }

        @Override
        public void unread(Object array) {}

        @Override
        public void changed(Object[] arrays) {
          for (Object a : arrays) copies.remove(a);
        }

        @Override
        public void close() {
          copies.clear();
        }
      };
    }
  }
}

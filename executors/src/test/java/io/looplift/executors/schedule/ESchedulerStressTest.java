package io.looplift.executors.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Program threads submit works on arrays of their own, whose contents depend on the order of the works'
 * writes and reads, and on arrays shared by all, whose contents would show lost updates and torn reads.
 */
// A broken scheduler leaves threads waiting uninterruptibly: time the test out from a separate thread.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ESchedulerStressTest {
  private static final int THREADS = 8;
  private static final int WORKS = 500;
  private static final int OWN_LENGTH = 4;
  private static final long BYTES_PER_WORK = 64;
  private static final int MAX_BY_BYTES = 10;

  /** What one work does. */
  private enum Kind {
    /** Updates its thread's own array. */
    UPDATE,
    /** Only reads its thread's own array, into a result of its own. */
    OBSERVE,
    /** Updates its thread's own array and increments the shared counters. */
    INCREMENT_SHARED,
    /** Updates its thread's own array and checks that the shared counters are equal. */
    CHECK_SHARED
  }

  /** The plan of one program thread's works, drawn from a seed so that the expected results can be computed. */
  private record Plan(Kind[] kinds, boolean[] inline, boolean[] awaitAfter) {
    static Plan draw(long seed) {
      Random random = new Random(seed);
      Kind[] kinds = new Kind[WORKS];
      boolean[] inline = new boolean[WORKS];
      boolean[] awaitAfter = new boolean[WORKS];
      for (int j = 0; j < WORKS; j++) {
        kinds[j] = Kind.values()[random.nextInt(Kind.values().length)];
        inline[j] = random.nextInt(10) < 3;
        awaitAfter[j] = random.nextInt(20) == 0;
      }
      return new Plan(kinds, inline, awaitAfter);
    }

    long count(Kind kind) {
      return Arrays.stream(kinds).filter(k -> k == kind).count();
    }

    long inlineCount() {
      long n = 0;
      for (boolean b : inline) if (b) n++;
      return n;
    }
  }

  private final long[] coefficients = {5, 7, 11, 13, 17};
  /** Two counters that every INCREMENT_SHARED work bumps one after the other: equal whenever no work is writing them. */
  private final long[] shared = new long[2];

  @Test
  void concurrentProgramThreadsSeeTheirWorksInSubmissionOrder() throws Exception {
    Plan[] plans = new Plan[THREADS];
    long[][] own = new long[THREADS][OWN_LENGTH];
    long[][] observed = new long[THREADS][WORKS];
    for (int t = 0; t < THREADS; t++) plans[t] = Plan.draw(1234 + t);

    List<Ticket> tickets;
    EScheduler.Stats stats;
    try (SchedulerFixture fixture = new SchedulerFixture(4, 16, MAX_BY_BYTES * BYTES_PER_WORK)) {
      tickets = runProgramThreads(fixture.scheduler, plans, own, observed);
      stats = fixture.scheduler.stats();
    }

    for (Ticket ticket : tickets) {
      assertTrue(ticket.isDone());
      assertNull(ticket.failure());
    }
    long increments = 0;
    long inline = 0;
    for (int t = 0; t < THREADS; t++) {
      long[] expectedObserved = new long[WORKS];
      assertArrayEquals(sequentially(plans[t], expectedObserved), own[t], "thread " + t);
      assertArrayEquals(expectedObserved, observed[t], "thread " + t);
      increments += plans[t].count(Kind.INCREMENT_SHARED);
      inline += plans[t].inlineCount();
    }
    assertArrayEquals(new long[] {increments, increments}, shared);
    long all = (long) THREADS * WORKS;
    assertEquals(all - inline, stats.submitted());
    assertEquals(inline, stats.inline());
    assertEquals(all, stats.completed());
    assertEquals(0, stats.failed());
    assertTrue(stats.maxOutstandingSeen() >= 1 && stats.maxOutstandingSeen() <= MAX_BY_BYTES, "" + stats);
  }

  private List<Ticket> runProgramThreads(EScheduler scheduler, Plan[] plans, long[][] own, long[][] observed)
      throws Exception {
    // Daemons, so that program threads stuck on a broken scheduler cannot keep the test JVM alive.
    ExecutorService programThreads = Executors.newFixedThreadPool(THREADS, body -> {
      Thread t = new Thread(body, "es-stress-program");
      t.setDaemon(true);
      return t;
    });
    try {
      CyclicBarrier start = new CyclicBarrier(THREADS);
      List<Future<List<Ticket>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Plan plan = plans[t];
        long[] mine = own[t];
        long[] results = observed[t];
        futures.add(programThreads.submit(() -> {
          start.await();
          return program(scheduler, plan, mine, results);
        }));
      }
      List<Ticket> tickets = new ArrayList<>();
      for (Future<List<Ticket>> f : futures) tickets.addAll(f.get(50, TimeUnit.SECONDS));
      return tickets;
    } finally {
      programThreads.shutdownNow();
    }
  }

  /** One program thread: submits its works as planned, awaiting now and then and all at the end. */
  private List<Ticket> program(EScheduler scheduler, Plan plan, long[] mine, long[] observed) {
    List<Ticket> tickets = new ArrayList<>();
    for (int j = 0; j < WORKS; j++) {
      ScheduledWork work = plan.kinds()[j] == Kind.OBSERVE ? observation(mine, observed, j) : work(plan.kinds()[j], mine, j);
      Ticket ticket = plan.inline()[j] ? scheduler.runInline(work) : scheduler.submit(work);
      tickets.add(ticket);
      if (plan.awaitAfter()[j]) ticket.await();
    }
    tickets.forEach(Ticket::await);
    return tickets;
  }

  /**
   * Reads the thread's own array into {@code observed[j]}. It names no array as written: no other work
   * touches that element, and naming {@code observed} would order the observations among themselves.
   */
  private ScheduledWork observation(long[] mine, long[] observed, int j) {
    return new TestWork(new Object[] {mine}, new Object[] {}, BYTES_PER_WORK, () -> observed[j] = Arrays.hashCode(mine));
  }

  private ScheduledWork work(Kind kind, long[] mine, int j) {
    Object[] reads;
    Object[] writes;
    switch (kind) {
      case INCREMENT_SHARED:
        reads = new Object[] {mine, coefficients, shared};
        writes = new Object[] {mine, shared};
        break;
      case CHECK_SHARED:
        reads = new Object[] {mine, coefficients, shared};
        writes = new Object[] {mine};
        break;
      default: // UPDATE
        reads = new Object[] {mine, coefficients};
        writes = new Object[] {mine};
    }
    return new TestWork(reads, writes, BYTES_PER_WORK, () -> {
      update(mine, j);
      if (kind == Kind.INCREMENT_SHARED) incrementShared();
      if (kind == Kind.CHECK_SHARED && shared[0] != shared[1]) {
        throw new IllegalStateException("read shared while it was written: " + shared[0] + " " + shared[1]);
      }
    });
  }

  /** Not atomic on purpose: two works running at once would lose increments or be seen half done. */
  private void incrementShared() {
    long first = shared[0];
    spin();
    shared[0] = first + 1;
    spin();
    shared[1] = shared[1] + 1;
  }

  /** Widens the window in which a work running at the same time would see or break the counters. */
  private static void spin() {
    for (int i = 0; i < 1_000; i++) Thread.onSpinWait();
  }

  /** x = 3x + k: the result depends on the order of the updates. */
  private void update(long[] mine, int j) {
    int i = j % OWN_LENGTH;
    mine[i] = mine[i] * 3 + coefficients[j % coefficients.length] + j;
  }

  /** The thread's own array after its works run one by one, filling in what its observations see. */
  private long[] sequentially(Plan plan, long[] observed) {
    long[] expected = new long[OWN_LENGTH];
    for (int j = 0; j < WORKS; j++) {
      if (plan.kinds()[j] == Kind.OBSERVE) {
        observed[j] = Arrays.hashCode(expected);
      } else {
        update(expected, j);
      }
    }
    return expected;
  }
}

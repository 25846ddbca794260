package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Program threads launching the same kernel at once: no measuring run more than the rule asks for. */
class ConcurrencyTest {
  private static long cost(String candidate, long n) {
    return switch (candidate) {
      case "bytecode" -> n;
      case "jvm" -> 20_000 + n / 5;
      default -> 200_000 + n / 20;
    };
  }

  @Test
  void threadsLaunchingOneKernelShareItsMeasurements() throws Exception {
    // Each launch seen apart from the others (the clock jumps a second at every reading): this test is about
    // the measurements the threads share; OverlapTest is about launches that overlap.
    AtomicLong clock = new AtomicLong();
    Selector selector = Selector.builder("1.0", 8).warmUp(0).clock(() -> clock.addAndGet(1_000_000_000L)).build();
    List<Candidate> candidates = List.of(BYTECODE, JVM, OPENCL);
    SelectedKernel k = selector.kernel(KEY, candidates);
    assertSame(k, selector.kernel(KEY, List.copyOf(candidates)));
    long[] sizes = {1 << 10, 1 << 16, 1 << 22, 1 << 28};
    Map<String, AtomicInteger> measuring = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(pool.submit((Callable<Void>) () -> {
          for (int i = 0; i < 2_000; i++) {
            long n = sizes[(i + seed) % sizes.length];
            Choice c = selector.kernel(KEY, candidates).choose(n, 1, 0).orElseThrow();
            if (c.measuring()) {
              String at = (c.recheck() ? "re-check of " : "") + c.candidate() + " at " + n;
              measuring.computeIfAbsent(at, x -> new AtomicInteger()).incrementAndGet();
            }
            k.record(c, cost(c.candidate(), n), 0);
          }
          return null;
        }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdownNow();
    }
    // Which sizes are measured depends on the order the threads got there (one measured early may make another
    // one's estimate clear), but no candidate runs more than its 3 measuring runs at a size, and the re-checks of
    // the 2,000 launches at a size are those of its 2nd, 8th, 32nd, 128th, 512th and 2048th launch at most, in
    // blocks of 1, 2, 4, 8, 16 and 32 runs for a candidate within twice the winner's time.
    measuring.forEach((at, runs) -> assertTrue(runs.get() <= (at.startsWith("re-check") ? 63 : 3), at + ": " + runs));
    assertEquals(measuring.values().stream().mapToInt(AtomicInteger::get).sum(), k.report().measuringRuns());
    String[] best = {"bytecode", "jvm", "opencl:0", "opencl:0"};
    for (int s = 0; s < sizes.length; s++) assertEquals(best[s], k.choose(sizes[s], 1, 0).orElseThrow().candidate());
  }
}

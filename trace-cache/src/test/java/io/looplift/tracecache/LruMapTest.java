package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class LruMapTest {
  private final List<String> removals = new ArrayList<>();
  private final LruMap<Integer, String> map = new LruMap<>(3, (k, v, evicted) -> removals.add(k + "=" + v + (evicted ? " evicted" : " removed")));

  @Test
  void theLeastRecentlyUsedEntryIsEvictedFirst() {
    map.put(1, "a");
    map.put(2, "b");
    map.put(3, "c");
    assertEquals("a", map.getIfPresent(1)); // 2 is now the least recently used
    map.put(4, "d");
    assertEquals(List.of("2=b evicted"), removals);
    assertNull(map.getIfPresent(2));
    assertEquals(3, map.size());
    assertEquals(new LruMap.Counts(1, 1, 1), map.counts());
  }

  @Test
  void replacedAndClearedEntriesAreToldAsRemovedNotEvicted() {
    map.put(1, "a");
    map.put(1, "b");
    map.put(2, "c");
    map.clear();
    assertEquals(List.of("1=a removed", "1=b removed", "2=c removed"), removals);
    assertEquals(0, map.size());
    assertEquals(0, map.counts().evictions());
  }

  @Test
  void threadsMissingOneKeyTogetherComputeItOnce() throws Exception {
    AtomicInteger computations = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Future<String> first = computingUntilReleased(pool, 7, release, k -> {
        computations.incrementAndGet();
        return "seven";
      });
      List<Future<String>> others = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        others.add(pool.submit(() -> map.get(7, k -> "computed again #" + computations.incrementAndGet())));
      }
      Thread.sleep(50); // let them reach the wait
      release.countDown();
      assertEquals("seven", first.get(10, TimeUnit.SECONDS));
      for (Future<String> f : others) assertEquals("seven", f.get(10, TimeUnit.SECONDS));
      assertEquals(1, computations.get());
      assertEquals(new LruMap.Counts(3, 1, 0), map.counts());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedComputationCachesNothingAndAWaiterComputesItself() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<String> failing = computingUntilReleased(pool, 5, release, k -> {
        throw new IllegalStateException("no value for " + k);
      });
      Future<String> waiter = pool.submit(() -> map.get(5, k -> "five"));
      Thread.sleep(50);
      release.countDown();
      Exception e = assertThrows(Exception.class, () -> failing.get(10, TimeUnit.SECONDS));
      assertEquals("no value for 5", e.getCause().getMessage());
      assertEquals("five", waiter.get(10, TimeUnit.SECONDS));
      assertEquals("five", map.getIfPresent(5));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aNullValueIsRefused() {
    assertThrows(NullPointerException.class, () -> map.get(1, k -> null));
    assertNull(map.getIfPresent(1));
  }

  /**
   * Has a thread of {@code pool} miss {@code key} and compute it, by {@code compute} once {@code release}
   * opens; returns once that computation has begun.
   */
  private Future<String> computingUntilReleased(ExecutorService pool, int key, CountDownLatch release,
      Function<Integer, String> compute) throws InterruptedException {
    CountDownLatch computing = new CountDownLatch(1);
    Future<String> f = pool.submit(() -> map.get(key, k -> {
      computing.countDown();
      await(release);
      return compute.apply(k);
    }));
    assertTrue(computing.await(10, TimeUnit.SECONDS));
    return f;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

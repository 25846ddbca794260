package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class TraceCacheTest {

  /** A queue of one launch per site id, each on a new array of length 16. */
  private static KeyAccumulator queue(int... sites) {
    KeyAccumulator acc = new KeyAccumulator();
    for (int site : sites) {
      acc.beginEntry(site);
      acc.identity(new float[16]);
      acc.value(16);
    }
    return acc;
  }

  @Test
  void missThenPutThenHit() {
    TraceCache<String> cache = new TraceCache<>(8, 4);
    KeyAccumulator first = queue(1, 2);
    assertNull(cache.longestMatch(first));
    cache.put(first.key(), "p12");

    assertEquals(new TraceCache.Match<>("p12", 2), cache.longestMatch(queue(1, 2)));
    assertEquals(new CacheStats(1, 1, 0, 1), cache.stats());
  }

  @Test
  void theLongestCachedPrefixIsChosen() {
    TraceCache<String> cache = new TraceCache<>(8, 4);
    KeyAccumulator five = queue(1, 2, 3, 4, 5);
    cache.put(five.key(1), "one");
    cache.put(five.key(5), "five");
    cache.put(five.key(3), "three");

    assertEquals(new TraceCache.Match<>("three", 3), cache.longestMatch(queue(1, 2, 3, 4)));
    assertEquals(new TraceCache.Match<>("five", 5), cache.longestMatch(queue(1, 2, 3, 4, 5, 6)));
    assertEquals(new TraceCache.Match<>("three", 3), cache.longestMatch(queue(1, 2, 3, 9, 5)));
    assertEquals(new TraceCache.Match<>("one", 1), cache.longestMatch(queue(1, 9, 3)));
    assertEquals(new CacheStats(4, 0, 0, 3), cache.stats());
  }

  @Test
  void aDifferentFirstEntryOrAShorterQueueMisses() {
    TraceCache<String> cache = new TraceCache<>(8, 4);
    cache.put(queue(1, 2).key(), "p12");
    assertNull(cache.longestMatch(queue(2, 2)));
    assertNull(cache.longestMatch(queue(1)));
    assertNull(cache.longestMatch(new KeyAccumulator()));
    assertEquals(new CacheStats(0, 3, 0, 1), cache.stats());
  }

  @Test
  void collidingHashesDoNotMatch() {
    KeyAccumulator[] queues = KeyAccumulatorTest.collidingQueues();
    TraceCache<String> cache = new TraceCache<>(8, 4);
    cache.put(queues[0].key(), "first");
    assertEquals(queues[0].key().hashCode(), queues[1].key().hashCode());
    assertNull(cache.longestMatch(queues[1]));
    assertEquals(new TraceCache.Match<>("first", 2), cache.longestMatch(queues[0]));
  }

  @Test
  void aFullBucketEvictsItsLeastRecentlyUsedSequence() {
    TraceCache<String> cache = new TraceCache<>(8, 2);
    KeyAccumulator three = queue(1, 2, 3);
    cache.put(three.key(1), "one");
    cache.put(three.key(2), "two");
    // "one" was put first, but this makes "two" the least recently used.
    assertEquals(new TraceCache.Match<>("one", 1), cache.longestMatch(queue(1)));
    cache.put(three.key(3), "three");

    assertEquals(new TraceCache.Match<>("one", 1), cache.longestMatch(queue(1, 2)));
    assertEquals(new TraceCache.Match<>("three", 3), cache.longestMatch(queue(1, 2, 3)));
    assertEquals(1, cache.stats().evictions());
    assertEquals(2, cache.stats().size());

    cache.put(three.key(3), "three again"); // a replacement evicts nothing
    assertEquals(new TraceCache.Match<>("three again", 3), cache.longestMatch(queue(1, 2, 3)));
    assertEquals(1, cache.stats().evictions());
    assertEquals(2, cache.stats().size());
  }

  @Test
  void theNumberOfBucketsIsBoundedAndTheirSequencesCountAsEvicted() {
    TraceCache<String> cache = new TraceCache<>(4, 2);
    for (int site = 0; site < 20; site++) {
      KeyAccumulator two = queue(site, 100);
      cache.put(two.key(1), "short " + site);
      cache.put(two.key(2), "long " + site);
    }
    CacheStats stats = cache.stats();
    assertEquals(8, stats.size());
    assertEquals(32, stats.evictions());
  }

  @Test
  void concurrentLookupsAndPutsKeepCountersConsistent() throws Exception {
    int threads = 8;
    int lookupsPerThread = 5_000;
    TraceCache<String> cache = new TraceCache<>(6, 3);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          start.await();
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < lookupsPerThread; i++) {
            KeyAccumulator acc = queue(random.nextInt(10), random.nextInt(3), random.nextInt(3));
            TraceCache.Match<String> match = cache.longestMatch(acc);
            if (match == null || match.entries() < acc.entries()) {
              cache.put(acc.key(), "p" + acc.key());
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) f.get(); // rethrows what a thread threw
    } finally {
      pool.shutdownNow();
    }
    CacheStats stats = cache.stats();
    assertEquals((long) threads * lookupsPerThread, stats.hits() + stats.misses());
    assertTrue(stats.hits() > 0, stats.toString());
    assertTrue(stats.evictions() > 0, stats.toString());
    assertTrue(stats.size() >= 1 && stats.size() <= 6 * 3, stats.toString());
  }
}

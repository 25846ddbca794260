package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedCacheTest {
  @Test
  void aValueIsComputedOnceAndTheCacheStaysBounded() {
    AtomicInteger loads = new AtomicInteger();
    BoundedCache<Integer, String> cache = new BoundedCache<>(4);
    String first = cache.get(1, k -> "v" + k + "#" + loads.incrementAndGet());
    assertSame(first, cache.get(1, k -> "v" + k + "#" + loads.incrementAndGet()));
    assertEquals(1, loads.get());
    for (int k = 2; k < 50; k++) cache.get(k, String::valueOf);
    assertEquals(4, cache.size());
  }

  @Test
  void aLoaderFailureReachesTheCallerAsThrownAndCachesNothing() {
    BoundedCache<String, String> cache = new BoundedCache<>(4);
    IOException thrown = assertThrows(IOException.class, () -> cache.get("k", k -> {
      throw new IOException("no kernel for " + k);
    }));
    assertEquals("no kernel for k", thrown.getMessage());
    assertThrows(IllegalStateException.class, () -> cache.get("k", k -> {
      throw new IllegalStateException("still not");
    }));
    assertEquals("ok", cache.get("k", k -> "ok"));
  }
}

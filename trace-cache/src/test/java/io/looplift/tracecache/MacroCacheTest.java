package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class MacroCacheTest {

  /** The shape of one launch at site 1 over {@code arrays}, each of length 8. */
  private static TraceKey shape(Object... arrays) {
    KeyAccumulator acc = new KeyAccumulator();
    acc.beginEntry(1);
    for (Object a : arrays) {
      acc.identity(a);
      acc.value(8);
    }
    return acc.key();
  }

  @Test
  void valuesAreKeyedByRegionAndShape() {
    MacroCache<String> cache = new MacroCache<>(16);
    float[] a = new float[8];
    TraceKey inPlace = shape(a, a);
    TraceKey outOfPlace = shape(a, new float[8]);
    cache.put(7, inPlace, "region 7 in place");

    float[] b = new float[8];
    assertEquals("region 7 in place", cache.get(7, shape(b, b)));
    assertNull(cache.get(8, inPlace));
    assertNull(cache.get(7, outOfPlace));

    cache.put(7, outOfPlace, "region 7 out of place");
    assertEquals("region 7 out of place", cache.get(7, outOfPlace));
    assertEquals("region 7 in place", cache.get(7, inPlace));
    assertEquals(new CacheStats(3, 2, 0, 2), cache.stats());
  }

  @Test
  void theNumberOfEntriesIsBounded() {
    MacroCache<String> cache = new MacroCache<>(3);
    TraceKey shape = shape(new float[8]);
    for (int region = 0; region < 10; region++) cache.put(region, shape, "region " + region);
    CacheStats stats = cache.stats();
    assertEquals(3, stats.size());
    assertEquals(7, stats.evictions());
  }
}

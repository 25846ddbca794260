package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With {@link RewriteOptions#rejectsSequential()}, a loop no executor could split (a floating-point reduction
 * in Java's order, a polynomial hash) is rejected with a reason that says how to have it offloaded; loops that can be split,
 * integer and min/max reductions among them, are taken as before, and without the option so is every loop.
 */
class SequentialRejectionTest {
  private static List<LoopSite> sites(boolean rejectsSequential) throws Exception {
    return sites(ReductionShapes.class, rejectsSequential);
  }

  private static List<LoopSite> sites(Class<?> c, boolean rejectsSequential) throws Exception {
    byte[] bytes;
    try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
      bytes = in.readAllBytes();
    }
    RecordingRegistry registry = new RecordingRegistry();
    new ClassRewriter(new RewriteOptions(0, rejectsSequential), registry)
        .rewrite(bytes, c.getClassLoader());
    return registry.sites;
  }

  private static LoopSite of(List<LoopSite> sites, String method) {
    return sites.stream().filter(s -> s.method().equals(method)).findFirst().orElseThrow();
  }

  @Test
  void aFloatingPointSumInJavasOrderIsRejectedAndSplittableReductionsAreNot() throws Exception {
    List<LoopSite> sites = sites(true);
    LoopSite sum = of(sites, "floatSum");
    assertNull(sum.template(), sum::toString);
    assertTrue(sum.reason().contains("reductions=reassociate"), sum::reason);
    assertEquals("reduce", sum.kind(), "the report still says what the loop is");
    for (String method : List.of("intSum", "longSumOfSquares", "floatMin", "floatIfLess")) {
      assertTrue(of(sites, method).accepted(), method);
    }
  }

  @Test
  void aPolynomialHashIsRejectedForWhatItIs() throws Exception {
    // Shapes.reversed: a map, then s = s * 31 + out[i], which needs the s the iteration before left.
    List<LoopSite> sites = sites(Shapes.class, true).stream().filter(s -> s.method().equals("reversed")).toList();
    assertEquals(2, sites.size(), sites::toString);
    assertTrue(sites.get(0).accepted(), "the map");
    assertTrue(sites.get(1).reason().contains("each iteration needs what the one before left"), sites.get(1)::reason);
    assertTrue(sites(Shapes.class, false).stream().filter(s -> s.method().equals("reversed")).allMatch(LoopSite::accepted));
  }

  @Test
  void withoutTheOptionTheSumIsTaken() throws Exception {
    List<LoopSite> sites = sites(false);
    assertTrue(of(sites, "floatSum").accepted());
    assertEquals(sites.size(), sites(true).size(), "the same loops are registered either way");
  }
}

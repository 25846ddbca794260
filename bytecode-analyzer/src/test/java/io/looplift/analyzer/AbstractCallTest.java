package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.io.InputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A loop calling an abstract method ({@link HelperShapes#thirds}, {@code Halver.third}): rejected while no loaded
 * class is known to implement it, and inlined from the implementation {@link Implementors} learnt from a class
 * loading, under the guard that the object's class runs that implementation.
 */
class AbstractCallTest {
  private static final String HALVER = "io/looplift/analyzer/HelperShapes$Halver";
  private static final String PLAIN = "io/looplift/analyzer/HelperShapes$PlainHalver";

  /** Declares methods named like the awaited {@code third(D)D} but none implementing it. */
  abstract static class OtherThirds extends HelperShapes.Halver {
    public float third(float v) {
      return v / 3;
    }

    static double third(double v, double by) {
      return v / by;
    }
  }

  private static byte[] bytes(Class<?> c) throws Exception {
    try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
      return in.readAllBytes();
    }
  }

  private static double[] doubles(Random r, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = r.nextGaussian();
    return d;
  }

  @Test
  void withoutAKnownImplementationTheLoopWaitsForOne() throws Exception {
    Implementors implementors = new Implementors();
    Rewritten shapes = new Rewritten(HelperShapes.class, 0, implementors);
    LoopSite site = shapes.site("thirds", null);
    assertFalse(site.accepted());
    assertTrue(site.awaitsImplementation(), site.reason());

    ClassLoader loader = HelperShapes.class.getClassLoader();
    assertEquals(List.of(), implementors.classLoaded(bytes(HelperShapes.Vec.class), loader), "not a Halver");
    assertEquals(List.of(), implementors.classLoaded(bytes(HelperShapes.Halver.class), loader), "declares it abstract");
    assertEquals(List.of(), implementors.classLoaded(bytes(OtherThirds.class), loader),
        "a Halver whose methods named third take other arguments, or are static");
    List<Implementors.Caller> again = implementors.classLoaded(bytes(HelperShapes.PlainHalver.class), loader);
    assertEquals(List.of("io/looplift/analyzer/HelperShapes"), again.stream().map(Implementors.Caller::className).toList());
    assertEquals(loader, again.get(0).loader().get());
    assertEquals(PLAIN, implementors.of(HALVER, "third(D)D"));
    assertEquals(List.of(), implementors.classLoaded(bytes(HelperShapes.CeilingHalver.class), loader),
        "the first implementation to load is kept, and its callers were told once");
    assertEquals(PLAIN, implementors.of(HALVER, "third(D)D"));
  }

  @Test
  void withAKnownImplementationTheLoopInlinesItForObjectsThatRunIt() throws Exception {
    Implementors implementors = new Implementors();
    implementors.wanted(HALVER, "third(D)D", "io/looplift/analyzer/HelperShapes", null);
    implementors.classLoaded(bytes(HelperShapes.PlainHalver.class), HelperShapes.class.getClassLoader());
    Rewritten shapes = new Rewritten(HelperShapes.class, 0, implementors);
    LoopSite site = shapes.site("thirds", null);
    assertTrue(site.accepted(), site.reason());

    Random r = new Random(31);
    double[] x = doubles(r, 30);
    for (HelperShapes.Halver h : List.of(new HelperShapes.PlainHalver(), new HelperShapes.NamedHalver(),
        new HelperShapes.RoundingHalver())) {
      int before = InterpretingDispatcher.submitted;
      shapes.assertSameResults("thirds", new Object[] {h, x, new double[30]});
      assertTrue(InterpretingDispatcher.submitted > before, "never offloaded for a " + h.getClass().getSimpleName());
    }
    int before = InterpretingDispatcher.submitted;
    shapes.assertSameResults("thirds", new Object[] {new HelperShapes.CeilingHalver(), x, new double[30]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with PlainHalver.third for a CeilingHalver");
    shapes.assertSameResults("thirds", new Object[] {null, x, new double[30]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with a null Halver");
  }

  /**
   * A loop calling an interface's method ({@link HelperShapes#scaled}) waits for a class implementing it, and
   * then inlines it for objects of that class only; one calling a default method is rejected.
   */
  @Test
  void anInterfaceMethodIsInlinedFromTheClassImplementingItOnceOneLoaded() throws Exception {
    String scaler = "io/looplift/analyzer/HelperShapes$Scaler";
    Implementors implementors = new Implementors();
    assertTrue(new Rewritten(HelperShapes.class, 0, implementors).site("scaled", null).awaitsImplementation());
    ClassLoader loader = HelperShapes.class.getClassLoader();
    assertEquals(1, implementors.classLoaded(bytes(HelperShapes.Tripler.class), loader).size());
    assertEquals("io/looplift/analyzer/HelperShapes$Tripler", implementors.of(scaler, "scale(D)D"));

    Rewritten shapes = new Rewritten(HelperShapes.class, 0, implementors);
    assertTrue(shapes.site("scaled", null).accepted(), shapes.site("scaled", null).reason());
    Random r = new Random(37);
    double[] x = doubles(r, 30);
    int before = InterpretingDispatcher.submitted;
    shapes.assertSameResults("scaled", new Object[] {new HelperShapes.Tripler(), x, new double[30]});
    assertTrue(InterpretingDispatcher.submitted > before, "never offloaded for a Tripler");
    before = InterpretingDispatcher.submitted;
    shapes.assertSameResults("scaled", new Object[] {new HelperShapes.Negator(), x, new double[30]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with Tripler.scale for a Negator");

    LoopSite doubled = shapes.site("doubled", null);
    assertFalse(doubled.accepted());
    assertTrue(doubled.reason().contains("default method"), doubled.reason());
    shapes.assertSameResults("doubled", new Object[] {new HelperShapes.Tripler(), x, new double[30]});
  }
}

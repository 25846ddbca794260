package io.looplift.analyzer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopSite;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rewrites {@link HelperShapes} as the agent would and runs each loop in the original and the rewritten class
 * on the same inputs (the rewritten one through the reference interpreter): loops that call a static helper
 * of another class, or a method of an object that does not change inside the loop, are offloaded with Java's
 * results (a helper of a class with a static initializer only once Java has initialized it; a method of an
 * object only while the object is exactly of the class analyzed); calls the analyzer cannot bind, or whose
 * inlining could change what the program does, are rejected with a reason.
 */
class HelperInliningTest {
  private static Rewritten shapes;

  @BeforeAll
  static void rewrite() throws Exception {
    shapes = new Rewritten(HelperShapes.class);
  }

  private static double[] doubles(Random r, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = r.nextGaussian();
    return d;
  }

  static Stream<Object[]> inlined() {
    Random r = new Random(11);
    double[][] rows = new double[9][];
    for (int i = 0; i < rows.length; i++) rows[i] = doubles(r, 7);
    return Stream.of(
        new Object[] {"clampAll", "clampAll", new Object[] {doubles(r, 40), new double[40]}},
        new Object[] {"rowDots", "rowDots", new Object[] {rows, doubles(r, 7), new double[9]}},
        new Object[] {"squares", "squares", new Object[] {doubles(r, 30), new double[30]}},
        new Object[] {"scaledAll", "scaledAll", new Object[] {doubles(r, 30), new double[30]}},
        new Object[] {"weighAll", "weighted", new Object[] {1.5, doubles(r, 25), doubles(r, 25), new double[25]}},
        new Object[] {"shiftAll", "finalHelper", new Object[] {0.25, doubles(r, 25), new double[25]}},
        new Object[] {"applyAll", "overridable", new Object[] {2.0, doubles(r, 10), new double[10]}},
        new Object[] {"otherAll", "onAnother", new Object[] {2.0, doubles(r, 10), new double[10]}},
        new Object[] {"upToSize", "upToSize", new Object[] {new HelperShapes.Filled(17), doubles(r, 20), new double[20]}},
        new Object[] {"upToAccessor", "upToAccessor",
            new Object[] {new HelperShapes.Filled(20), doubles(r, 20), new double[20]}});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inlined")
  void aLoopCallingABoundHelperIsOffloadedWithJavasResults(String loop, String entry, Object[] args) throws Exception {
    LoopSite site = shapes.site(loop, null);
    assertNotNull(site, loop + " not seen");
    assertTrue(site.accepted(), loop + " rejected: " + site.reason());
    int before = InterpretingDispatcher.submitted;
    assertSameResults(entry, args);
    assertTrue(InterpretingDispatcher.submitted > before, loop + " never offloaded");
  }

  static Stream<Object[]> rejected() {
    Random r = new Random(13);
    return Stream.of(
        new Object[] {"shiftedAll", "shiftedAll", "reads its static field offset", new Object[] {doubles(r, 10), new double[10]}},
        new Object[] {"thirds", "thirds", "abstract method",
            new Object[] {new HelperShapes.PlainHalver(), doubles(r, 10), new double[10]}},
        new Object[] {"scaledByCell", "scaledByCell", "library class",
            new Object[] {new scala.looplifttest.Cell(3), doubles(r, 10), new double[10]}},
        new Object[] {"firsts", "firsts", "reads an object array",
            new Object[] {new HelperShapes.Vec[] {new HelperShapes.Vec(doubles(r, 2))}, new double[1]}},
        new Object[] {"rowLengths", "rowLengths", "reads an object array (java.lang.String[][])",
            new Object[] {new String[][] {{"a"}, {}, {"b", "c"}}, new int[3]}});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejected")
  void aCallThatCannotBeInlinedSafelyIsRejectedWithItsReason(String loop, String entry, String reason, Object[] args)
      throws Exception {
    LoopSite site = shapes.site(loop, null);
    assertNotNull(site, loop + " not seen");
    assertFalse(site.accepted(), loop + " accepted");
    assertTrue(site.reason().contains(reason), loop + ": " + site.reason());
    assertSameResults(entry, args);
  }

  @Test
  void aLoopInliningAHelperOfAClassWithAStaticInitializerRunsAsBytecodeUntilThatClassIsInitialized() throws Exception {
    LoopSite site = shapes.site("tabled", null);
    assertTrue(site.accepted(), "tabled rejected: " + site.reason());
    Random r = new Random(17);
    Object[] args = {doubles(r, 50), new double[50]};
    InterpretingDispatcher.INITIALIZED.remove(HelperTables.class);
    int before = InterpretingDispatcher.submitted;
    assertSameResults("tabled", args);
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded before the bridge said HelperTables was initialized");
    InterpretingDispatcher.INITIALIZED.add(HelperTables.class);
    assertSameResults("tabled", args);
    assertTrue(InterpretingDispatcher.submitted > before, "never offloaded once HelperTables was initialized");
  }

  @Test
  void aHelperWithAnExceptionHandlerRunsOffloadedOnlyWhereItsHandlerCannotRun() throws Exception {
    assertTrue(shapes.site("differences", null).accepted(), shapes.site("differences", null).reason());
    Random r = new Random(29);
    int before = InterpretingDispatcher.submitted;
    assertSameResults("differences", new Object[] {doubles(r, 30), new double[29], 1});
    assertTrue(InterpretingDispatcher.submitted > before, "never offloaded with every index in range");
    before = InterpretingDispatcher.submitted;
    assertSameResults("differences", new Object[] {doubles(r, 30), new double[30], 1});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded although the handler runs in the last iteration");
  }

  @Test
  void aMethodOfAnotherObjectIsInlinedUnderAGuardOnThatObjectsClass() throws Exception {
    assertTrue(shapes.site("gather", null).accepted(), shapes.site("gather", null).reason());
    Random r = new Random(19);
    double[] data = doubles(r, 40);
    int before = InterpretingDispatcher.submitted;
    assertSameResults("gather", new Object[] {new HelperShapes.Vec(data), new double[40]});
    assertTrue(InterpretingDispatcher.submitted > before, "a Vec's get never offloaded");
    before = InterpretingDispatcher.submitted;
    assertSameResults("gather", new Object[] {new HelperShapes.NegatedVec(data), new double[40]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with Vec.get for a NegatedVec, which overrides it");
    assertSameResults("gather", new Object[] {null, new double[40]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with a null Vec");
  }

  @Test
  void aMethodDeclaredInAnAbstractClassIsInlinedForEverySubclassThatInheritsIt() throws Exception {
    assertTrue(shapes.site("halves", null).accepted(), shapes.site("halves", null).reason());
    Random r = new Random(23);
    double[] x = doubles(r, 30);
    for (HelperShapes.Halver h : List.of(new HelperShapes.PlainHalver(), new HelperShapes.NamedHalver())) {
      int before = InterpretingDispatcher.submitted;
      assertSameResults("halves", new Object[] {h, x, new double[30]});
      assertTrue(InterpretingDispatcher.submitted > before, "never offloaded for a " + h.getClass().getSimpleName());
    }
    int before = InterpretingDispatcher.submitted;
    assertSameResults("halves", new Object[] {new HelperShapes.RoundingHalver(), x, new double[30]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with Halver.half for a class that overrides it");
    assertSameResults("halves", new Object[] {null, x, new double[30]});
    assertEquals(before, InterpretingDispatcher.submitted, "offloaded with a null Halver");
  }

  @Test
  void privateFieldsOfAnInlinedMethodsObjectAreReadThroughTheBridge() throws Exception {
    assertTrue(shapes.site("gatherSealed", null).accepted(), shapes.site("gatherSealed", null).reason());
    int before = InterpretingDispatcher.submitted;
    assertSameResults("gatherSealed", new Object[] {new HelperShapes.SealedVec(doubles(new Random(31), 20), 1.5),
        new double[20]});
    assertTrue(InterpretingDispatcher.submitted > before, "never offloaded");
    assertSameResults("gatherSealed", new Object[] {null, new double[20]});
  }

  /** A limit read through a getter of a null object: the loop throws where Java's does, before any iteration. */
  @Test
  void aLimitReadThroughAGetterOfNullThrowsAsJavaDoes() throws Exception {
    for (String loop : new String[] {"upToSize", "upToAccessor"}) {
      Object[] args = {null, doubles(new Random(29), 8), new double[8]};
      assertEquals(NullPointerException.class.getName(), Rewritten.invoke(shapes.lifted, loop, RewriteRoundTripTest.deepCopy(args)));
      assertSameResults(loop, args);
    }
  }

  @Test
  void aCallOnNullThrowsAsJavaDoesEvenWhenTheInlinedMethodReadsNothingOfIt() throws Exception {
    assertTrue(shapes.site("twiceAll", null).accepted(), shapes.site("twiceAll", null).reason());
    Object[] args = {null, doubles(new Random(23), 12), new double[12]};
    Object[] lifted = RewriteRoundTripTest.deepCopy(args);
    assertEquals(NullPointerException.class.getName(), Rewritten.invoke(shapes.lifted, "twiceAll", lifted));
    assertSameResults("twiceAll", new Object[] {new HelperShapes.Vec(new double[0]), doubles(new Random(23), 12),
        new double[12]});
  }

  private static void assertSameResults(String name, Object[] args) throws Exception {
    shapes.assertSameResults(name, args);
  }
}

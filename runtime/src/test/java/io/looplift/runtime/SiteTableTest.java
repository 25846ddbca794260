package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Cond;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SiteTableTest {
  private final List<String> lines = new ArrayList<>();
  private final Profiler profiler = new Profiler();
  private final SiteTable sites = new SiteTable(profiler, new Log(Log.Level.INFO, lines::add));

  private static LoopSite accepted(int line) {
    LoopTemplate t = new LoopTemplate(List.of(Type.INT), List.of(), List.of(),
        List.of(new Store(0, Type.INT, Index.I, Const.ofInt(1), Const.TRUE)), List.of());
    return new LoopSite("com.acme.Foo", "bar", "([I)V", line, "map", t, new LoopShape(Cond.LT, 1), null);
  }

  private static LoopSite awaiting(int line) {
    return new LoopSite("com.acme.Foo", "bar", "([I)V", line, "loop", null, null,
        "calls com.acme.Shape.area, an abstract method" + LoopSite.AWAITS_IMPLEMENTATION);
  }

  /**
   * A loop rejected for want of an implementation, whose class is rewritten again once one loaded, is in the
   * report once, as it is now; before that, an accepted loop at the same place (another loop on its line) does
   * not replace it.
   */
  @Test
  void aLoopWaitingForAnImplementationIsReplacedWhenItsClassIsRewrittenAgain() {
    int waiting = sites.register(awaiting(42));
    int neighbour = sites.register(accepted(42));
    assertTrue(profiler.reportJson().contains("\"id\":" + waiting + ","), "not replaced by another loop on its line");
    sites.rewritingAgain("com.acme.Foo");
    // Retransformation hands over bytes the JVM rebuilt: the class file's hash differs.
    int now = sites.register(new LoopSite("com.acme.Foo", "bar", "([I)V", 42, "reduce", accepted(42).template(),
        new LoopShape(Cond.LT, 1), null).inClassFile("rebuilt"));
    assertEquals(neighbour, sites.register(accepted(42)), "unchanged loops keep their ids");
    String report = profiler.reportJson();
    assertFalse(report.contains("\"id\":" + waiting + ","), report);
    assertTrue(report.contains("\"id\":" + now + ","), report);
    assertTrue(report.contains("\"id\":" + neighbour + ","), report);
  }

  /**
   * A loop waiting for an implementation says in the report that one loaded and its class waits to be rewritten
   * again, then, if it is not, why, and is still replaced if its class is rewritten again later; another
   * class's waiting loop goes on waiting.
   */
  @Test
  void aLoopWhoseClassIsNotRewrittenAgainSaysWhy() {
    int waiting = sites.register(awaiting(42));
    sites.register(new LoopSite("com.acme.Other", "bar", "([I)V", 7, "loop", null, null,
        "calls com.acme.Shape.area, an abstract method" + LoopSite.AWAITS_IMPLEMENTATION));
    String start = "\"id\":" + waiting + ",";
    String because = "\"reason\":\"calls com.acme.Shape.area, an abstract method that no loaded class implemented"
        + " when its class loaded (a class implementing a method its class's loops ";
    sites.implementationLoaded("com.acme.Foo");
    String report = profiler.reportJson();
    assertTrue(report.contains(start) && report.contains(because + "wait for has loaded since: its class is"
        + " rewritten again at the first moment none of its methods runs)\""), report);
    sites.notRewrittenAgain("com.acme.Foo", "a method of its class ran at every look for 10 s");
    report = profiler.reportJson();
    assertTrue(report.contains(start) && report.contains(because + "waited for loaded later, but its class was not"
        + " rewritten again: a method of its class ran at every look for 10 s)\""), report);
    assertTrue(report.contains(LoopSite.AWAITS_IMPLEMENTATION), "the other class's loop still waits: " + report);
    // Another implementation may still get the class rewritten again: the loop found there then replaces it.
    sites.rewritingAgain("com.acme.Foo");
    int now = sites.register(new LoopSite("com.acme.Foo", "bar", "([I)V", 42, "reduce", accepted(42).template(),
        new LoopShape(Cond.LT, 1), null).inClassFile("rebuilt"));
    report = profiler.reportJson();
    assertFalse(report.contains(start), report);
    assertTrue(report.contains("\"id\":" + now + ","), report);
  }

  /** A loop that still waits once its class was rewritten again (for another method, say) says so again. */
  @Test
  void aLoopStillWaitingAfterItsClassWasRewrittenAgainSaysItWaits() {
    int waiting = sites.register(awaiting(42));
    sites.implementationLoaded("com.acme.Foo");
    assertFalse(profiler.reportJson().contains(LoopSite.AWAITS_IMPLEMENTATION));
    sites.rewritingAgain("com.acme.Foo");
    assertEquals(waiting, sites.register(awaiting(42)));
    String report = profiler.reportJson();
    assertTrue(report.contains("\"reason\":\"calls com.acme.Shape.area, an abstract method"
        + LoopSite.AWAITS_IMPLEMENTATION + "\""), report);
  }

  @Test
  void eachSiteIsReportedAndPrintedOnce() {
    int a = sites.register(accepted(42));
    int b = sites.register(new LoopSite("com.acme.Foo", "baz", "()V", 57, "loop", null, null, "early exit"));
    int again = sites.register(accepted(42));
    assertEquals(a, again, "a retransformed class reports its loops once");
    assertNotEquals(a, b);
    assertEquals(List.of("looplift: offloaded com.acme.Foo.bar:42 map",
        "looplift: rejected com.acme.Foo.baz:57 (early exit)"), lines);
    String report = profiler.reportJson();
    assertTrue(report.contains("\"status\":\"offloaded\""), report);
    assertTrue(report.contains("\"reason\":\"early exit\""), report);
    assertEquals(42, sites.get(a).site().line());
    assertNull(sites.get(99));
    assertNull(sites.get(-1));
  }

  @Test
  void aDiscardedSiteBecomesRejected() {
    int a = sites.register(accepted(7));
    sites.discard(a, "the class could not be rewritten");
    assertFalse(sites.get(a).site().accepted());
    assertEquals("looplift: rejected com.acme.Foo.bar:7 (the class could not be rewritten)", lines.get(1));
    assertTrue(profiler.reportJson().contains("\"reason\":\"the class could not be rewritten\""));
    assertNotEquals(a, sites.register(accepted(7)), "seen again later, it registers afresh");
  }

  @Test
  void manySitesGrowTheTable() {
    for (int k = 0; k < 200; k++) assertEquals(k, sites.register(accepted(k)));
    assertEquals(199, sites.get(199).site().line());
  }
}

package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Cond;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopShape;
import io.looplift.ir.LoopSite;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.profiler.Profiler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A loop told to have run too short to offload often enough is put back as it was (its preamble's switch
 * turned off, or where it has none its class rewritten again, the rewriter told to keep it) only when it
 * never ran offloaded, and only for the class it is in.
 */
class ShortLoopsTest {
  private final List<String> lines = new ArrayList<>();
  private final Log log = new Log(Log.Level.INFO, lines::add);
  private final Profiler profiler = new Profiler();
  private final SiteTable sites = new SiteTable(profiler, log);
  private final List<Class<?>> rewritten = new ArrayList<>();
  private final List<Consumer<String>> pending = new ArrayList<>();
  /** The sites whose preamble has a switch (the others' class files are too old), and those switched off. */
  private final Set<Integer> switches = new HashSet<>();
  private final List<Integer> switchedOff = new ArrayList<>();
  private final ShortLoops shortLoops = new ShortLoops(sites, profiler, (c, before, done) -> {
    rewritten.add(c);
    pending.add(done);
  }, id -> switches.contains(id) && switchedOff.add(id), log);

  /** {@code b[i] = a[i] + a[i]} over doubles, in this test's class. */
  private int site(int line) {
    Node i = Index.I;
    Node a = new Load(0, Type.DOUBLE, i);
    LoopTemplate t = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(new Store(1, Type.DOUBLE, i, Binary.of(BinaryOp.ADD, a, a), Const.TRUE)), List.of());
    return sites.register(new LoopSite(ShortLoopsTest.class.getName(), "twice", "([D[D)V", line, "map", t,
        new LoopShape(Cond.LT, 1), null));
  }

  @Test
  void aLoopThatNeverRanOffloadedIsPutBackOnceItsClassIsRewrittenAgain() {
    int id = site(10);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    assertEquals(List.of(ShortLoopsTest.class), rewritten, "rewritten again once");
    assertTrue(sites.keepsOriginal(id), "the rewriter, running now, keeps the loop as it was");
    assertFalse(profiler.reportJson().contains(ShortLoops.REASON), "not reported before the class is rewritten");

    pending.get(0).accept(null);
    String report = profiler.reportJson();
    assertTrue(report.contains("\"status\":\"rejected\",\"reason\":\"" + ShortLoops.REASON + "\""), report);
    assertTrue(lines.stream().anyMatch(l -> l.contains("put back " + ShortLoopsTest.class.getName() + ".twice:10")),
        lines::toString);
  }

  @Test
  void aLoopWithASwitchIsPutBackByTurningItOffWithoutRewritingItsClass() {
    int id = site(50);
    switches.add(id);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    assertEquals(List.of(id), switchedOff, "switched off once");
    assertEquals(List.of(), rewritten);
    assertTrue(sites.keepsOriginal(id), "a class rewritten again later keeps it as it was too");
    assertTrue(profiler.reportJson().contains("\"status\":\"rejected\",\"reason\":\"" + ShortLoops.REASON + "\""));
  }

  @Test
  void aLoopThatRanOffloadedKeepsItsRewrite() {
    int id = site(20);
    switches.add(id);
    profiler.offloaded(id, "jvm", 1_000);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    assertEquals(List.of(), rewritten);
    assertEquals(List.of(), switchedOff);
    assertFalse(sites.keepsOriginal(id));
  }

  @Test
  void onlyTheLoopsOwnClassIsRewrittenAndNotAnUnknownSite() {
    int id = site(30);
    shortLoops.tooShort(id, String.class);
    shortLoops.tooShort(id + 1, ShortLoopsTest.class);
    shortLoops.tooShort(-1, ShortLoopsTest.class);
    assertEquals(List.of(), rewritten);
    assertFalse(sites.keepsOriginal(id));
  }

  @Test
  void whenTheClassCannotBeRewrittenTheLoopKeepsItsRewriteAndItsStatus() {
    int id = site(40);
    shortLoops.tooShort(id, ShortLoopsTest.class);
    pending.get(0).accept("the JVM refused its rewritten class");
    assertFalse(sites.keepsOriginal(id), "a class loading later takes the loop again");
    assertTrue(profiler.reportJson().contains("\"status\":\"offloaded\""));
    assertFalse(profiler.reportJson().contains(ShortLoops.REASON));
  }
}

package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.analyzer.ClassRewriter;
import io.looplift.analyzer.RewriteOptions;
import io.looplift.bridge.LoopBridge;
import io.looplift.ir.LoopSite;
import io.looplift.ir.RegionSite;
import io.looplift.ir.SiteRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nest whose site rests ({@link LoopBridge#rest}) is compiled by C2 without the calls of the path that offers
 * its runs ({@code submit}): with every run offered and declined, ojAlgo's matrix product ran a third slower.
 * {@code ColumnProducts}, rewritten as the agent would, runs in forked JVMs that compile with C2 alone, under a
 * pipeline that declines every run ({@link RestingDispatcher}), once resting each site at its first run and once
 * not; HotSpot's log, apart from the program's stdout, shows the last compilation of the nest's method. When
 * the real pipeline rests a site is {@code SettledBytecode}'s and {@code LoopDispatcher}'s, tested there.
 */
class RestedNestCompiledTest {
  private static final String PROGRAM = "io.looplift.apps.ColumnProducts";
  private static final String METHOD = PROGRAM + "::addMxC";
  private static final List<String> ARGS = List.of("200", "60");
  private static final Pattern SUBMIT = Pattern.compile("io\\.looplift\\.bridge\\.LoopBridge::submit");
  private static final Pattern OFFERED = Pattern.compile("offered (\\d+)");

  @TempDir Path tmp;

  @Test
  void aRestingNestIsCompiledWithoutTheCallsThatOfferItsRuns() throws Exception {
    Path rewritten = rewrite(PROGRAM);
    ForkedJvm.Result plain;
    try (ForkedJvm.Running p = ForkedJvm.start(List.of(), List.of(), PROGRAM, ARGS, Map.of())) {
      plain = p.await();
    }
    ForkedJvm.Result resting = run(rewritten, "resting", true);
    ForkedJvm.Result offered = run(rewritten, "offered", false);
    assertEquals(0, plain.exitCode(), plain::describe);
    assertEquals(plain.stdout(), resting.stdout(), resting::describe);
    assertEquals(plain.stdout(), offered.stdout(), offered::describe);
    // Two threads launch the nest each round: 120 long runs, all offered unless the site rests.
    assertEquals(120, offeredRuns(offered), offered::describe);
    assertTrue(offeredRuns(resting) <= 2, resting::describe);

    List<String> offeredLast = C2InliningLog.lastCompilation(log("offered"), METHOD);
    assertFalse(offeredLast.isEmpty(), () -> METHOD + " not compiled:\n" + String.join("\n", log("offered")));
    assertTrue(offeredLast.stream().anyMatch(l -> SUBMIT.matcher(l).find()),
        () -> "C2 compiled no submit into a nest whose every run was offered:\n" + String.join("\n", offeredLast));
    List<String> restingLast = C2InliningLog.lastCompilation(log("resting"), METHOD);
    assertFalse(restingLast.isEmpty(), () -> METHOD + " not compiled:\n" + String.join("\n", log("resting")));
    assertFalse(restingLast.stream().anyMatch(l -> SUBMIT.matcher(l).find()),
        () -> "C2 compiled submit into the resting nest:\n" + String.join("\n", restingLast));
  }

  /** {@code className} of the programs rewritten with the default {@code min.length}, in a folder of its own. */
  private Path rewrite(String className) throws IOException {
    String file = className.replace('.', '/') + ".class";
    Path dir = tmp.resolve("rewritten");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {ForkedJvm.appClasses().toUri().toURL()}, null);
        InputStream in = loader.getResourceAsStream(file)) {
      byte[] original = in.readAllBytes();
      byte[] bytes = new ClassRewriter(new RewriteOptions(65_536, true), new Sites()).rewrite(original, loader);
      assertTrue(bytes != null, "nothing rewritten in " + className);
      Path out = dir.resolve(file);
      Files.createDirectories(out.getParent());
      Files.write(out, bytes);
    }
    return dir;
  }

  /**
   * {@link RestingDispatcher} running {@link #PROGRAM} from {@code rewritten}, the bridge on the boot class
   * path, C2 alone, and {@code -XX:+PrintInlining} of {@link #METHOD} with {@code -XX:+PrintCompilation}
   * written to {@code <name>.log}.
   */
  private ForkedJvm.Result run(Path rewritten, String name, boolean rest) throws URISyntaxException {
    Path bridge = Path.of(LoopBridge.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path tests = Path.of(RestingDispatcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> options = new ArrayList<>(List.of("-Xbootclasspath/a:" + bridge));
    options.addAll(C2InliningLog.options(tmp.resolve(name + ".log"), METHOD));
    List<String> args = new ArrayList<>(List.of(String.valueOf(rest), PROGRAM));
    args.addAll(ARGS);
    try (ForkedJvm.Running r = ForkedJvm.start(List.of(), options, List.of(rewritten, ForkedJvm.appClasses(), tests),
        RestingDispatcher.class.getName(), args, Map.of())) {
      return r.await();
    }
  }

  private static int offeredRuns(ForkedJvm.Result r) {
    Matcher m = OFFERED.matcher(r.stderr());
    if (!m.find()) throw new AssertionError("no count of offered runs:\n" + r.describe());
    return Integer.parseInt(m.group(1));
  }

  private List<String> log(String name) {
    return C2InliningLog.read(tmp.resolve(name + ".log"));
  }

  /** Numbers the sites as the agent's pipeline would; this test needs nothing else of them. */
  private static final class Sites implements SiteRegistry {
    private int next;

    @Override
    public int register(LoopSite site) {
      return next++;
    }

    @Override
    public void discard(int siteId, String reason) {}

    @Override
    public int registerRegion(RegionSite region) {
      return next++;
    }
  }
}

package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.executors.ExecutorProvider;
import io.looplift.runtime.Log;
import io.looplift.runtime.VerifyPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoopLiftConfigTest {
  /** The executors this build provides, as the agent finds them. */
  private static final List<String> EXECUTORS = ExecutorProvider.load(LoopLiftConfigTest.class.getClassLoader())
      .stream().map(ExecutorProvider::name).toList();
  private final List<String> warnings = new ArrayList<>();

  private LoopLiftConfig load(String args, Map<String, String> sys, Map<String, String> env) {
    return LoopLiftConfig.load(LoopLiftConfig.parseArgs(args, warnings::add), sys, env, EXECUTORS, warnings::add);
  }

  @Test
  void defaults() {
    LoopLiftConfig c = load(null, Map.of(), Map.of());
    assertEquals("auto", c.executor());
    assertEquals(LoopLiftConfig.DEFAULT_MIN_LENGTH, c.minLength());
    assertTrue(c.measured());
    assertEquals(LoopLiftConfig.Precision.EXACT, c.precision());
    assertEquals(LoopLiftConfig.Reductions.ORDERED, c.reductions());
    assertEquals(VerifyPolicy.OFF, c.verify());
    assertEquals(Log.Level.QUIET, c.log());
    assertNull(c.report());
    assertNull(c.config());
    assertNull(c.openclDevice());
    assertNull(c.cacheDir());
    assertEquals(List.of(), c.include());
    assertTrue(c.accepts("com.acme.Foo"));
    assertEquals(List.of(), warnings);
  }

  @Test
  void everyKeyFromTheAgentArguments() {
    LoopLiftConfig c = load("include=com.acme.*;org.x.Y,exclude=com.acme.gen.*,executor=reference,"
        + "min.length=0,precision=ulp,reductions=reassociate,verify=sample,verify.every=7,report=/tmp/r.json,log=debug,"
        + "opencl.device=1,cache.dir=/tmp/cache", Map.of(), Map.of());
    assertEquals(List.of("com.acme.*", "org.x.Y"), c.include());
    assertEquals(List.of("com.acme.gen.*"), c.exclude());
    assertEquals("reference", c.executor());
    assertEquals(0, c.minLength());
    assertEquals(LoopLiftConfig.Precision.ULP, c.precision());
    assertEquals(LoopLiftConfig.Reductions.REASSOCIATE, c.reductions());
    assertEquals(new VerifyPolicy(VerifyPolicy.Mode.SAMPLE, 7), c.verify());
    assertEquals(Path.of("/tmp/r.json"), c.report());
    assertEquals(Log.Level.DEBUG, c.log());
    assertTrue(c.debug());
    assertEquals("1", c.openclDevice());
    assertEquals(Path.of("/tmp/cache"), c.cacheDir());
    assertEquals(List.of(), warnings);
  }

  @Test
  void precedenceIsArgsThenSystemPropertiesThenEnvironmentThenFileThenDefault(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("looplift.properties");
    Files.writeString(file, "executor=reference\nprecision=ulp\nverify=all\nlog=info\nmin.length=7\nverify.every=9\n");
    Map<String, String> env = Map.of("LOOPLIFT_CONFIG", file.toString(), "LOOPLIFT_EXECUTOR", "opencl",
        "LOOPLIFT_PRECISION", "exact", "LOOPLIFT_VERIFY", "sample", "LOOPLIFT_VERIFY_EVERY", "5");
    Map<String, String> sys = Map.of("looplift.executor", "jvm", "looplift.precision", "ulp", "looplift.verify.every", "3",
        "unrelated", "x");
    LoopLiftConfig c = load("executor=reference", sys, env);
    assertEquals("reference", c.executor()); // agent argument
    assertEquals(LoopLiftConfig.Precision.ULP, c.precision()); // system property over environment
    assertEquals(VerifyPolicy.Mode.SAMPLE, c.verify().mode()); // environment over file
    assertEquals(3, c.verify().every()); // system property over environment and file
    assertEquals(Log.Level.INFO, c.log()); // file over default
    assertEquals(7, c.minLength());
    assertEquals(LoopLiftConfig.Reductions.ORDERED, c.reductions()); // default
    assertEquals(file, c.config());
    assertEquals(List.of(), warnings);
  }

  @Test
  void environmentNamesAreUpperCasedWithUnderscores() {
    assertEquals("LOOPLIFT_MIN_LENGTH", LoopLiftConfig.envName("min.length"));
    assertEquals("LOOPLIFT_OPENCL_DEVICE", LoopLiftConfig.envName("opencl.device"));
    assertEquals("LOOPLIFT_A_B", LoopLiftConfig.envName("a-b"));
    LoopLiftConfig c = load(null, Map.of(), Map.of("LOOPLIFT_MIN_LENGTH", "100", "LOOPLIFT_CACHE_DIR", "/c",
        "PATH", "/bin"));
    assertEquals(100, c.minLength());
    assertEquals(Path.of("/c"), c.cacheDir());
    assertEquals(List.of(), warnings);
  }

  @Test
  void aBadValuePrintsOneLineAndTheDefaultApplies() {
    LoopLiftConfig c = load("executor=gpu", Map.of(), Map.of());
    assertEquals("auto", c.executor());
    assertEquals(List.of("looplift: bad value 'gpu' for executor; accepted: auto, jvm, opencl, reference — using auto"),
        warnings);
  }

  @Test
  void aBadValueLetsTheNextSourceDecide() {
    LoopLiftConfig c = load("executor=gpu", Map.of("looplift.executor", "reference"), Map.of());
    assertEquals("reference", c.executor());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).endsWith("— using reference"), warnings.get(0));
  }

  @Test
  void minLengthMustBeANonNegativeInteger() {
    assertEquals(LoopLiftConfig.DEFAULT_MIN_LENGTH, load("min.length=-1", Map.of(), Map.of()).minLength());
    assertEquals(LoopLiftConfig.DEFAULT_MIN_LENGTH, load("min.length=lots", Map.of(), Map.of()).minLength());
    assertEquals(2, warnings.size());
    assertEquals("looplift: bad value '-1' for min.length; accepted: an integer from 0 to 2147483647 — using the"
        + " default", warnings.get(0));
  }

  @Test
  void anExplicitMinLengthOrAForcedExecutorMeasuresNothing() {
    LoopLiftConfig explicit = load("min.length=0", Map.of(), Map.of());
    assertEquals(0, explicit.minLength());
    assertFalse(explicit.measured());
    LoopLiftConfig forced = load("executor=jvm", Map.of(), Map.of());
    assertEquals(LoopLiftConfig.DEFAULT_MIN_LENGTH, forced.minLength());
    assertFalse(forced.measured());
    LoopLiftConfig both = load("executor=jvm,min.length=100", Map.of(), Map.of());
    assertEquals(100, both.minLength());
    assertFalse(both.measured());
  }

  @Test
  void verifyEveryMustBeAPositiveInteger() {
    assertEquals(VerifyPolicy.DEFAULT_EVERY, load("verify=sample,verify.every=0", Map.of(), Map.of()).verify().every());
    assertEquals(VerifyPolicy.DEFAULT_EVERY, load("verify.every=often", Map.of(), Map.of()).verify().every());
    assertEquals(List.of(
        "looplift: bad value '0' for verify.every; accepted: an integer from 1 to 2147483647 — using 1000",
        "looplift: bad value 'often' for verify.every; accepted: an integer from 1 to 2147483647 — using 1000"), warnings);
    assertEquals(10_000, load("verify.every=10_000", Map.of(), Map.of()).verify().every());
    assertEquals(new VerifyPolicy(VerifyPolicy.Mode.ALL, 12),
        load(null, Map.of(), Map.of("LOOPLIFT_VERIFY", "ALL", "LOOPLIFT_VERIFY_EVERY", "12")).verify());
  }

  @Test
  void valuesAreCaseInsensitiveAndTrimmed() {
    LoopLiftConfig c = load(" executor = JVM , log=Info", Map.of(), Map.of());
    assertEquals("jvm", c.executor());
    assertEquals(Log.Level.INFO, c.log());
    assertEquals(List.of(), warnings);
  }

  @Test
  void unknownKeysAreNamedAndIgnored() {
    LoopLiftConfig c = load("exector=jvm", Map.of("looplift.colour", "red"), Map.of("LOOPLIFT_SPEED", "11"));
    assertEquals("auto", c.executor());
    assertEquals(3, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).startsWith("looplift: unknown key 'exector' in the agent arguments; accepted: include,"));
    assertTrue(warnings.get(1).startsWith("looplift: unknown key 'colour' in system property looplift.colour"));
    assertTrue(warnings.get(2).startsWith("looplift: unknown environment variable LOOPLIFT_SPEED"));
  }

  @Test
  void malformedArgumentPartsAreReported() {
    var args = LoopLiftConfig.parseArgs("log=info,,verbose,=x,log=debug", warnings::add);
    assertEquals(Map.of("log", "debug"), args);
    assertEquals(List.of("looplift: ignoring 'verbose' in the agent arguments; expected key=value",
        "looplift: ignoring '=x' in the agent arguments; expected key=value"), warnings);
  }

  @Test
  void anUnreadableConfigFileIsReportedAndSkipped(@TempDir Path dir) {
    Path missing = dir.resolve("nope.properties");
    LoopLiftConfig c = load("config=" + missing, Map.of(), Map.of());
    assertEquals("auto", c.executor());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).startsWith("looplift: cannot read config file '" + missing + "'"), warnings.get(0));
  }

  @Test
  void unknownKeysInTheConfigFileAreNamed(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("c.properties");
    Files.writeString(file, "executor=jvm\nthreads=4\n");
    LoopLiftConfig c = load(null, Map.of("looplift.config", file.toString()), Map.of());
    assertEquals("jvm", c.executor());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).startsWith("looplift: unknown key 'threads' in " + file), warnings.get(0));
  }

  @Test
  void includeAndExcludeGlobs() {
    LoopLiftConfig c = load("include=com.acme.*;org.example.Main,exclude=com.acme.gen.*;*Test", Map.of(), Map.of());
    assertTrue(c.accepts("com.acme.Foo"));
    assertTrue(c.accepts("com.acme.sub.Foo$Inner"));
    assertTrue(c.accepts("org.example.Main"));
    assertFalse(c.accepts("org.example.Main2"));
    assertFalse(c.accepts("com.acmex.Foo"));
    assertFalse(c.accepts("com.acme.gen.Foo"));
    assertFalse(c.accepts("com.acme.FooTest"));
    assertFalse(c.accepts("net.Other"));
  }

  @Test
  void globCharactersOtherThanStarAreLiteral() {
    LoopLiftConfig c = load("include=a.b$C", Map.of(), Map.of());
    assertTrue(c.accepts("a.b$C"));
    assertFalse(c.accepts("aXb$C"));
  }
}

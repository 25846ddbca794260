package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static io.looplift.executors.select.Simulated.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Measuring at the sizes that need it, and deciding the others from the measurements, driven by a fake clock. */
class CrossoverTest {
  private final Simulated sim = new Simulated();

  /**
   * Bytecode costs 1 ns an element; the thread pool {@code overhead} plus 0.2 ns an element. Both kernels pick
   * bytecode at 10^4 and the pool at 10^7; at 10^5 the first pool is ahead (40 µs against 100 µs) and the
   * second behind (170 µs), and interpolating between 10^4 and 10^7 tells them apart without measuring.
   */
  @ParameterizedTest
  @CsvSource({"20000, jvm", "150000, bytecode"})
  void measuredAt10e4And10e7PicksTheRightSideAt10e5WithoutMeasuring(long overhead, String at10e5) {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, overhead, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 10_000).candidate());
    assertEquals("jvm", sim.settle(k, 10_000_000).candidate());
    long measured = sim.measuringRuns();
    assertEquals(11, measured, "3 runs of each candidate at each size, but 2 of the bytecode's 10 ms at 10^7");
    for (int i = 0; i < 20; i++) {
      Choice c = sim.launch(k, 100_000);
      assertEquals(at10e5, c.candidate());
      assertFalse(c.measuring());
      assertEquals(Source.MEASURED, c.source());
      assertMentions(c.why(), "interpolated");
    }
    assertEquals(measured, sim.measuringRuns());
    assertEquals(11, k.report().measuringRuns());
  }

  /** Each candidate's next run comes once every one has had as many; among those, the fastest goes first. */
  @Test
  void candidatesTakeTurnsWhileASizeIsMeasured() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2).cost(OPENCL, 50_000, 0.05);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    sim.settle(k, 1 << 20);
    assertEquals(List.of("bytecode*", "jvm*", "opencl:0*", "opencl:0*", "jvm*", "bytecode*", "opencl:0*", "jvm*",
        "bytecode*", "opencl:0"), sim.ran);
  }

  /**
   * The GPU's first run cold (ten times its warm time, still the fastest), the pool's three times slower: the
   * first second run goes to the GPU, so a program that ends there ran its last launch on it, not on the pool.
   */
  @Test
  void theFirstSecondRunGoesToTheFastestSoFar() {
    sim.cost(BYTECODE, 0, 1000).cost(JVM, 0, 30).warming(OPENCL, 10, 1, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    for (int i = 0; i < 3; i++) sim.launch(k, 1 << 20);
    assertEquals(List.of("bytecode*", "jvm*", "opencl:0*"), sim.ran);
    assertTrue(sim.launch(k, 1 << 20).measuring());
    assertEquals("opencl:0*", sim.ran.get(3));
  }

  /**
   * A device 20 times behind the bytecode at 2^20 (its launch alone takes 20 ms) is not measured at the smaller
   * sizes a triangular solve's later launches have: only the bytecode and the pool are, and the choice there is
   * what measuring all three would make.
   */
  @Test
  void anOffloadFarBehindTheBytecodeIsNotMeasuredOnLessWork() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 100_000, 0.3).cost(OPENCL, 20_000_000, 0.05);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    int before = sim.ran.size();
    assertEquals("bytecode", sim.settle(k, 1 << 16).candidate());
    assertEquals("jvm", sim.settle(k, 1 << 18).candidate());
    List<String> after = sim.ran.subList(before, sim.ran.size());
    assertFalse(after.contains("opencl:0*"), after::toString);
    assertTrue(after.contains("jvm*") && after.contains("bytecode*"), after::toString);
    assertTrue(sim.launch(k, 1 << 22).measuring(), "on more work the device is measured");
  }

  /**
   * The bytecode 17 times behind an offload at 2^16 is not measured on more work, where it only falls further
   * behind.
   */
  @Test
  void theBytecodeFarBehindAnOffloadIsNotMeasuredOnMoreWork() {
    sim.cost(BYTECODE, 0, 2.0).cost(JVM, 1_000, 0.1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 16).candidate());
    int before = sim.ran.size();
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    List<String> after = sim.ran.subList(before, sim.ran.size());
    assertFalse(after.contains("bytecode*"), after::toString);
    assertTrue(sim.launch(k, 1 << 12).measuring(), "on less work the bytecode is measured");
  }

  /**
   * An offload five times as slow as the bytecode (a point of the pool taken while its kernel was still cold
   * can be) is not far enough behind: on less work it is measured as before.
   */
  @Test
  void anOffloadOutOfReachButNotFarBehindIsStillMeasuredOnLessWork() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 0, 5.0);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, 1 << 20);
    int before = sim.ran.size();
    sim.settle(k, 1 << 16);
    assertTrue(sim.ran.subList(before, sim.ran.size()).contains("jvm*"));
  }

  @Test
  void nearACrossoverTheSizeIsMeasuredInsteadOfInterpolated() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, 10_000);
    sim.settle(k, 10_000_000);
    // At 25,000 both take 25 µs: an estimate could be on either side.
    assertTrue(sim.launch(k, 25_000).measuring());
    Choice c = sim.settle(k, 25_000);
    assertMentions(c.why(), "fastest measured at 2^14");
  }

  @Test
  void aSizeBeyondEveryMeasuredOneIsMeasured() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, 1 << 20);
    assertTrue(sim.launch(k, 1 << 26).measuring(), "extrapolating a single measured size is no evidence");
    assertTrue(sim.launch(k, 1 << 12).measuring());
  }

  @Test
  void theFastestOfTheRunsCountsSoWarmUpDoesNotDecide() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    Choice bytecode = k.choose(1 << 20, 1, 0).orElseThrow();
    assertEquals("bytecode", bytecode.candidate());
    k.record(bytecode, 1 << 20, 0);
    Choice first = k.choose(1 << 20, 1, 0).orElseThrow();
    assertEquals("jvm", first.candidate());
    k.record(first, 50_000_000, 0); // a cold first run, 20 times its speed once compiled
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
  }

  /**
   * The pool's times halve run after run (the JIT at work) until they settle at 0.25 ns an element: it is
   * measured until they stop falling, and then wins against the bytecode's 0.5, which its third run (1 ns)
   * would not have.
   */
  @Test
  void aCandidateIsMeasuredUntilItsTimesStopFalling() {
    sim.cost(BYTECODE, 0, 0.5).warming(JVM, 4, 2, 1, 0.5, 0.25, 0.25);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    assertEquals(9, sim.measuringRuns(), "3 of the bytecode, 6 of the pool");
  }

  @Test
  void aCandidateThatKeepsGettingFasterIsMeasuredAtMostThreeTimesTheSamples() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 3.9, 3, 2.5, 2, 1.7, 1.5, 1.3, 1.15, 1, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    assertEquals(3 + 3 * Measurements.WARMING_FACTOR, sim.measuringRuns());
  }

  /** Two pool runs of 42 and 21 ms, 40 and 20 times the bytecode's, settle it: not run again to warm up. */
  @Test
  void aCandidateFarBehindIsNotMeasuredLongerForWarmingUp() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 40, 20, 10, 5, 2.5, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    assertEquals(5, sim.measuringRuns());
  }

  /**
   * The bytecode's first runs are slow (the JIT has not compiled the method yet), so the pool wins; the 2nd
   * launch after the decision runs the bytecode again, now fast, and the kernel goes back to it.
   */
  @Test
  void aLoserTimedWhileColdIsCheckedAgainAndWinsOnceWarm() {
    sim.warming(BYTECODE, 3, 3, 3, 0.5).cost(JVM, 0, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    sim.launch(k, 1 << 20);
    sim.launch(k, 1 << 20);
    assertEquals("bytecode", sim.launch(k, 1 << 20).candidate());
    assertEquals(List.of("jvm", "jvm", "bytecode*", "bytecode"), sim.ran.subList(sim.ran.size() - 4, sim.ran.size()));
    assertEquals(0.5, k.report().candidates().get("bytecode"), 1e-9, "the re-check's time replaced the cold one");
  }

  /**
   * The pool is checked again after losing while cold (its first runs 3 ns an element, then 0.5), and wins
   * once the median of its last three runs there is fast: after its second re-check, at the 8th launch.
   */
  @Test
  void anOffloadTimedWhileColdWinsAfterTwoFastRechecks() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 3, 3, 3, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    for (int i = 0; i < 8; i++) sim.launch(k, 1 << 20);
    assertEquals("jvm", sim.launch(k, 1 << 20).candidate());
    assertEquals(List.of("bytecode", "bytecode", "jvm*", "bytecode", "bytecode", "bytecode", "bytecode", "bytecode",
        "jvm*", "jvm"), sim.ran.subList(sim.ran.size() - 10, sim.ran.size()));
    assertEquals(0.5, k.report().candidates().get("jvm"), 1e-9, "the re-checks' times replaced the cold ones");
  }

  /**
   * The original loop is credited with its best run (1 ns an element; its others 1.3, the JIT's and the
   * collector's early work), the pool, at 1 in every run, with its median: the pool does not win.
   */
  @Test
  void theOriginalLoopIsCreditedWithItsBestRun() {
    sim.warming(BYTECODE, 1.3, 1, 1.3).cost(JVM, 0, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    assertEquals(1, k.report().candidates().get("bytecode"), 1e-6);
  }

  /**
   * The pool's first run is its luckiest (0.7 ns an element), its others 1.2, the bytecode's all 1: its typical
   * run loses, so the bytecode is chosen, as it would not be by the fastest run of each.
   */
  @Test
  void aCandidateIsChosenByItsMedianRunNotItsLuckiest() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 0.7, 1.2, 1.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    assertEquals(1.2, k.report().candidates().get("jvm"), 1e-6);
  }

  /**
   * One lucky re-check of the losing pool (0.5 ns an element against its usual 1.2) leaves the bytecode chosen;
   * the pool's point moves only when two of its last three runs are that fast. Within twice the bytecode's
   * time, its re-checks come in blocks: one run at the 2nd launch, two at the 8th, four at the 32nd.
   */
  @Test
  void oneLuckyRecheckDoesNotChangeTheChoice() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 1.2, 1.2, 1.2, 0.5, 1.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    List<String> after = launchMore(k, 40);
    assertEquals(List.of(2, 8, 9, 32, 33, 34, 35), poolRechecks(after), after::toString);
    assertEquals(33, after.stream().filter(r -> r.equals("bytecode")).count(), after::toString);
    assertEquals(1.2, k.report().candidates().get("jvm"), 1e-6);
  }

  /**
   * A pool measured 1.3 ns an element against the bytecode's 1, whose kernel the JIT compiles once it has run
   * six launches (0.5 from then on): single re-checks at the 2nd, 8th, 32nd and 128th launch would reach its
   * seventh and eighth runs at the 128th and 512th; in blocks, its fourth re-check run, at the 33rd launch,
   * makes two of its last three fast, and it is chosen.
   */
  @Test
  void aNearTieWhoseCodeWarmsUpWinsInABlockOfRechecks() {
    sim.cost(BYTECODE, 0, 1).compiledAfter(JVM, 6L << 20, 1.3, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    List<String> after = launchMore(k, 40);
    assertEquals(List.of(2, 8, 9, 32, 33), poolRechecks(after), after::toString);
    assertEquals(List.of("jvm", "jvm"), after.subList(after.size() - 2, after.size()), after::toString);
  }

  /**
   * A pool measured in its first runs at 5 ns an element, five times the bytecode's 1, out of reach, whose code
   * is compiled 50 ms later (0.5 from then on): re-checked from the 128th launch all the same, it wins at the
   * second such re-check, the 512th, two of its last three runs being fast.
   */
  @Test
  void anOffloadMeasuredColdOutOfReachIsRecheckedOnceTheChoiceRanLong() {
    sim.cost(BYTECODE, 0, 1).compiledAt(JVM, sim.now + 50_000_000, 5, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    List<String> after = launchMore(k, 600);
    assertEquals(List.of(128, 512), poolRechecks(after), after::toString);
    assertEquals(List.of("jvm", "jvm"), after.subList(after.size() - 2, after.size()), after::toString);
  }

  /**
   * A pool steadily five times the bytecode's time, measured in its first runs, is re-checked at the 128th and
   * 512th launch only; one ten times slower, never.
   */
  @ParameterizedTest
  @CsvSource({"5, '128, 512'", "10, ''"})
  void anOffloadSteadilyOutOfReachIsRecheckedRarely(double nanosPerElement, String rechecks) {
    sim.cost(BYTECODE, 0, 1).cost(JVM, 0, nanosPerElement);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    List<String> after = launchMore(k, 600);
    assertEquals(rechecks, poolRechecks(after).stream().map(String::valueOf).collect(Collectors.joining(", ")),
        after::toString);
  }

  /** A candidate three times the winner's time is re-checked one run at a time, as before. */
  @Test
  void aCandidateFarFromTheWinnerIsRecheckedOneRunAtATime() {
    sim.cost(BYTECODE, 0, 1).cost(JVM, 0, 3);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("bytecode", sim.settle(k, 1 << 20).candidate());
    List<String> after = launchMore(k, 40);
    assertEquals(List.of(2, 8, 32), poolRechecks(after), after::toString);
  }

  /**
   * The pool wins at 0.9 ns an element against the bytecode's 1 and then runs at 0.4: its point follows its
   * runs, so the bytecode's re-checks cannot win back a choice made on the pool's first, colder runs.
   */
  @Test
  void aChosenOffloadsPointFollowsItsFasterRuns() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 0.9, 0.9, 0.9, 0.4);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    assertEquals(0.9, k.report().candidates().get("jvm"), 1e-6);
    launchMore(k, 3);
    assertEquals(0.4, k.report().candidates().get("jvm"), 1e-6);
  }

  /**
   * The pool's point follows its runs at 0.4 ns an element; back at the 0.9 it was measured at, more than twice
   * the point followed, it does not drift: drift is judged against what was measured.
   */
  @Test
  void runsBackAtTheMeasuredTimeAfterFollowingAreNoDrift() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 0.9, 0.9, 0.9, 0.4, 0.4, 0.4, 0.9);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    launchMore(k, 3);
    assertEquals(0.4, k.report().candidates().get("jvm"), 1e-6);
    launchMore(k, 100);
    assertEquals(0, k.report().drifts());
  }

  /** Slower runs of the chosen pool leave its point alone: drift judges them. */
  @Test
  void aChosenOffloadsSlowerRunsLeaveItsPoint() {
    sim.cost(BYTECODE, 0, 1).warming(JVM, 0.5, 0.5, 0.5, 0.7);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    launchMore(k, 6);
    assertEquals(0.5, k.report().candidates().get("jvm"), 1e-6);
  }

  /** A bytecode run of 1.05 s, 1,000 times slower than the pool's: the bytecode is not run a second time. */
  @Test
  void aLongRunFarBehindTheOthersIsNotRepeated() {
    sim.cost(BYTECODE, 0, 1000).cost(JVM, 0, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    assertEquals(List.of("bytecode*", "jvm*", "jvm*", "jvm*", "jvm"), sim.ran);
  }

  /**
   * Two bytecode runs far behind the pool's (31, 210 and 12.6 ms, 60, 400 and 24 times slower) settle it: not
   * a third. Two of 8.4 ms (16 times slower), which a third costs little, do not.
   */
  @ParameterizedTest
  @CsvSource({"30, 2", "200, 2", "12, 2", "8, 3"})
  void twoRunsOfAtLeast10MillisecondsFarBehindAreNotRepeated(double nanosPerElement, long bytecodeRuns) {
    sim.cost(BYTECODE, 0, nanosPerElement).cost(JVM, 0, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
    assertEquals(bytecodeRuns, sim.ran.stream().filter(r -> r.equals("bytecode*")).count(), sim.ran::toString);
  }

  /**
   * Two steady runs of at least 10 ms, 5 times the pool's, settle the bytecode; runs still getting faster, or
   * shorter, or closer, do not.
   */
  @ParameterizedTest
  @CsvSource({"5, 5, 4194304, 2", "10, 5, 4194304, 3", "5, 5, 1048576, 3", "3.5, 3.5, 4194304, 3"})
  void twoSteadyRunsOutOfReachSettleACandidate(double first, double second, long work, long bytecodeRuns) {
    sim.warming(BYTECODE, first, second).cost(JVM, 0, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, work).candidate());
    assertEquals(bytecodeRuns, sim.ran.stream().filter(r -> r.equals("bytecode*")).count(), sim.ran::toString);
  }

  /**
   * The pool's first run, cold, takes 190 ms, 19 times the bytecode's best; that one run does not settle it,
   * and warm it wins.
   */
  @Test
  void aColdFirstRunFarBehindIsRunAgain() {
    sim.cost(BYTECODE, 0, 10).warming(JVM, 180, 0.5, 0.5, 0.5, 0.5);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, 1 << 20).candidate());
  }

  /** A loser four times slower than the winner is not run again: its first runs being cold would not explain it. */
  @Test
  void aLoserFarBehindIsNotCheckedAgain() {
    sim.cost(BYTECODE, 0, 4).cost(JVM, 0, 1);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, 1 << 20);
    long measured = sim.measuringRuns();
    launchMore(k, 40);
    assertEquals(measured, sim.measuringRuns());
  }

  @Test
  void measuringStopsAtTheBudgetAndEstimatesDecideFromThen() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2).cost(OPENCL, 200_000, 0.05);
    SelectedKernel k = sim.selector().budget(20).build().kernel(KEY, List.of(BYTECODE, JVM, OPENCL));
    for (int size = 8; size <= 30; size++) {
      for (int i = 0; i < 10; i++) sim.launch(k, 1L << size);
    }
    assertEquals(20, sim.measuringRuns());
    assertEquals(20, k.report().measuringRuns());
    Choice small = sim.launch(k, 1 << 8);
    Choice large = sim.launch(k, 1 << 30);
    assertEquals("bytecode", small.candidate());
    assertEquals("opencl:0", large.candidate());
    assertFalse(small.measuring() || large.measuring());
  }

  @Test
  void aKernelWithASingleCandidateMeasuresNothing() {
    sim.cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(JVM));
    Choice c = sim.launch(k, 1 << 20);
    assertFalse(c.measuring());
    assertEquals("the only candidate", c.why());
    assertEquals(Source.FORCED, c.source(), "nothing measured, nothing loaded from a record");
    assertEquals(0, k.report().measuringRuns());
  }

  @Test
  void workPerIterationMovesANestToItsSizeClass() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 20_000, 0.2);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    sim.settle(k, 1 << 24);
    // 256 rows of 65,536 inner iterations each is the same work: no new measurement.
    Choice c = k.choose(256, 1 << 16, 0).orElseThrow();
    assertFalse(c.measuring());
    assertEquals("jvm", c.candidate());
  }

  @Test
  void anOffloadMustBeClearlyFasterThanTheBytecodeToBeChosen() {
    sim.cost(BYTECODE, 0, 1.0).cost(JVM, 0, 0.97);
    assertEquals("bytecode", sim.settle(sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM)), 1_000_000)
        .candidate(), "3% faster is within what the measurement leaves out");
    Simulated faster = new Simulated().cost(BYTECODE, 0, 1.0).cost(JVM, 0, 0.9);
    assertEquals("jvm", faster.settle(faster.selector().build().kernel(KEY, List.of(BYTECODE, JVM)), 1_000_000)
        .candidate());
    Simulated devices = new Simulated().cost(JVM, 0, 1.0).cost(OPENCL, 0, 0.95);
    assertEquals("opencl:0", devices.settle(devices.selector().build().kernel(KEY, List.of(JVM, OPENCL)), 1_000_000)
        .candidate(), "between offloads, the fastest wins by any margin");
  }

  /** Runs {@code launches} more launches of 2^20 elements; returns what ran, in order. */
  private List<String> launchMore(SelectedKernel k, int launches) {
    int before = sim.ran.size();
    for (int i = 0; i < launches; i++) sim.launch(k, 1 << 20);
    return List.copyOf(sim.ran.subList(before, sim.ran.size()));
  }

  /** Which of {@code ran} (counted from 1) were measuring runs of the pool. */
  private static List<Integer> poolRechecks(List<String> ran) {
    return IntStream.range(0, ran.size()).filter(i -> ran.get(i).equals("jvm*")).map(i -> i + 1).boxed().toList();
  }
}

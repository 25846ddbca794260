package io.looplift.executors.select;

import static io.looplift.executors.select.Simulated.BYTECODE;
import static io.looplift.executors.select.Simulated.JVM;
import static io.looplift.executors.select.Simulated.KEY;
import static io.looplift.executors.select.Simulated.OPENCL;
import static io.looplift.executors.select.Simulated.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel that the program's threads launch at once: the original bytecode runs in each of them, an offload
 * takes the processors for one launch after another, so the pool measured twice as fast as one thread gains
 * nothing on two (ojAlgo's matrix product, its columns split between two threads).
 */
class OverlapTest {
  private static final long N = 1 << 20;

  /** {@code launch} on a thread of its own, waited for. */
  private static Choice onAnotherThread(Simulated sim, SelectedKernel k) throws InterruptedException {
    AtomicReference<Choice> choice = new AtomicReference<>();
    Thread t = new Thread(() -> choice.set(sim.launch(k, N)));
    t.start();
    t.join();
    return choice.get();
  }

  @Test
  void launchesOfTwoThreadsAtOnceCountAnOffloadTwiceAgainstTheBytecode() throws InterruptedException {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 40.0).cost(JVM, 0, 22.0);
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    assertEquals("jvm", sim.settle(k, N).candidate(), "one thread: 22 ms against 40");
    // The other thread launches 22 ms after this one, within the bytecode's 40 ms: the two overlap.
    sim.launch(k, N);
    Choice other = onAnotherThread(sim, k);
    assertEquals("bytecode", other.candidate(), other::toString);
    assertMentions(other.why(), "2 launches at once");
    for (int round = 0; round < 4; round++) {
      assertBytecodeOrRecheck(sim.launch(k, N));
      assertBytecodeOrRecheck(onAnotherThread(sim, k));
    }
    // One thread alone again: once the launches that overlapped are out of the latest ones, the pool wins.
    Choice last = null;
    for (int i = 0; i < 40; i++) last = sim.launch(k, N);
    assertEquals("jvm", last.candidate(), last::toString);
  }

  /** The choice, unless the launch was a re-check of the runner-up, is the bytecode. */
  private static void assertBytecodeOrRecheck(Choice c) {
    if (!c.recheck()) assertEquals("bytecode", c.candidate(), c::toString);
  }

  @Test
  void oneThreadLaunchingAgainAndAgainOverlapsNothing() {
    LaunchOverlap overlap = new LaunchOverlap(1);
    for (int i = 0; i < 20; i++) assertEquals(1, overlap.launch(7, i, 1_000));
  }

  @Test
  void aLaunchOverlapsTheOtherThreadsLaunchesStartedWithinTheWindow() {
    LaunchOverlap overlap = new LaunchOverlap(1);
    assertEquals(1, overlap.launch(1, 0, 100));
    assertEquals(1, overlap.launch(2, 0, 0), "no window yet: nothing known of a launch's time");
    assertEquals(2, overlap.launch(2, 50, 100));
    assertEquals(3, overlap.launch(3, 60, 100), "threads 1 and 2, each counted once");
    assertEquals(3, overlap.launch(1, 500, 100), "alone, but the latest launches overlapped three at once");
    for (int i = 0; i < 16; i++) overlap.launch(1, 1_000 + i * 1_000, 100);
    assertEquals(1, overlap.launch(1, 50_000, 100), "the overlapping launches are no longer among the latest");
  }

  @Test
  void whatAnEarlierRunSawCountsUntilAsManyLaunchesShowedOtherwise() {
    LaunchOverlap overlap = new LaunchOverlap(2);
    assertEquals(2, overlap.launch(1, 0, Long.MAX_VALUE), "an earlier run's launches overlap none of this one's");
    for (int i = 1; i < 15; i++) overlap.launch(1, i, 100);
    assertEquals(1, overlap.launch(1, 15, 100));
  }

  /**
   * An offload whose measuring runs ran beside the other thread's launches has the sharing in its times
   * already (PoCL on ojAlgo's product: 39 ms a half measured so, 33-36 a product once chosen): it is not counted
   * twice.
   */
  @Test
  void anOffloadMeasuredBesideTheOtherLaunchesIsNotCountedAgain() throws InterruptedException {
    Simulated sim = new Simulated();
    SelectedKernel k = sim.selector().build().kernel(KEY, List.of(BYTECODE, JVM));
    for (int round = 0; round < 12; round++) {
      // This thread's launch starts; the other thread's starts and ends 1 ms later; then this one ends.
      Choice mine = k.choose(N, 1, 0).orElseThrow();
      AtomicReference<Choice> other = new AtomicReference<>();
      Thread t = new Thread(() -> {
        other.set(k.choose(N, 1, 0).orElseThrow());
        sim.now += 1_000_000;
        k.record(other.get(), cost(other.get()), 0);
      });
      t.start();
      t.join();
      sim.now += cost(mine);
      k.record(mine, cost(mine), 0);
    }
    Choice last = k.choose(N, 1, 0).orElseThrow();
    while (last.recheck()) {
      sim.now += cost(last);
      k.record(last, cost(last), 0);
      last = k.choose(N, 1, 0).orElseThrow();
    }
    assertEquals("jvm", last.candidate(), last::toString);
    assertFalse(last.why().contains("launches at once"), last::why);
  }

  /** 40 ns a unit on the original bytecode, 30 on the pool (as measured beside the other thread's launch). */
  private static long cost(Choice c) {
    return (long) ((c.bytecode() ? 40.0 : 30.0) * N);
  }

  /**
   * A device faster than the original loop alone but slower with two launches at once lost, as far as the next
   * run goes: opening it again would cost its start-up for nothing.
   */
  @Test
  void aDeviceThatLostOnceLaunchesOverlapIsNotWorthOpeningAgain(@TempDir Path dir) throws InterruptedException {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 40.0).cost(JVM, 0, 60.0).cost(OPENCL, 0, 25.0);
    SelectedKernel k = sim.selector().store(dir, w -> {}).writer(Runnable::run).build().kernel(KEY,
        List.of(BYTECODE, JVM, OPENCL));
    assertEquals("opencl:0", sim.settle(k, N).candidate(), "one thread: 25 ms against 40");
    sim.launch(k, N);
    onAnotherThread(sim, k);
    Selector next = sim.selector().store(dir, w -> {}).writer(Runnable::run).build();
    assertTrue(next.kernel(KEY, List.of(BYTECODE, JVM)).othersLostBefore(), "50 ms against 40 at two at once");
  }

  /** The overlap a run saw is kept with the kernel's measurements: the next run's first launch counts it. */
  @Test
  void theOverlapIsKeptForTheNextRun(@TempDir Path dir) throws InterruptedException {
    Simulated sim = new Simulated().cost(BYTECODE, 0, 40.0).cost(JVM, 0, 22.0);
    SelectedKernel k = sim.selector().store(dir, w -> {}).writer(Runnable::run).build().kernel(KEY,
        List.of(BYTECODE, JVM));
    sim.settle(k, N);
    sim.launch(k, N);
    onAnotherThread(sim, k);
    SelectedKernel next = sim.selector().store(dir, w -> {}).writer(Runnable::run).build().kernel(KEY,
        List.of(BYTECODE, JVM));
    Choice first = sim.launch(next, N);
    assertEquals("bytecode", first.candidate(), first::toString);
    assertMentions(first.why(), "2 launches at once");
  }
}

package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The clocks the selection reads: this JVM's compilation time and the calling thread's processor time. */
class ManagementClocksTest {
  @Test
  void countsTheCompilationsOfThisJvmInNanoseconds() {
    LongSupplier compiling = ManagementClocks.compilation();
    long before = compiling.getAsLong();
    // A JVM that has run JUnit has compiled for well over a millisecond.
    assertTrue(before >= 1_000_000, "compilation time so far: " + before + " ns");
    assertTrue(before % 1_000_000 == 0, "whole milliseconds: " + before);
    long sum = 0;
    for (int i = 0; i < 200_000; i++) sum += Integer.toString(i).hashCode();
    long after = compiling.getAsLong();
    assertTrue(after >= before, before + " then " + after + " (" + sum + ")");
  }

  /** Busy, the thread gets processor time; asleep, it gets next to none. */
  @Test
  void theThreadsProcessorTimeGrowsWhileItWorksAndNotWhileItSleeps() throws InterruptedException {
    LongSupplier cpu = ManagementClocks.threadCpu();
    long start = cpu.getAsLong();
    assertTrue(start > 0, "this thread's processor time: " + start);
    long until = System.nanoTime() + 50_000_000;
    long sum = 0;
    while (System.nanoTime() < until) sum += Long.toString(sum).length();
    long busy = cpu.getAsLong() - start;
    assertTrue(busy >= 10_000_000, "50 ms busy gave " + busy + " ns of processor time (" + sum + ")");
    long before = cpu.getAsLong();
    Thread.sleep(50);
    long asleep = cpu.getAsLong() - before;
    assertTrue(asleep < 10_000_000, "50 ms asleep gave " + asleep + " ns");
  }
}

package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The times the selection reads from this JVM's management beans: never falling. */
class ManagementTimesTest {
  @Test
  void countsTheCompilationsOfThisJvmInNanoseconds() {
    LongSupplier compiling = ManagementTimes.compiling();
    long before = compiling.getAsLong();
    // A JVM that has run JUnit has compiled for well over a millisecond.
    assertTrue(before >= 1_000_000, "compilation time so far: " + before + " ns");
    assertTrue(before % 1_000_000 == 0, "whole milliseconds: " + before);
    long sum = 0;
    for (int i = 0; i < 200_000; i++) sum += Integer.toString(i).hashCode();
    long after = compiling.getAsLong();
    assertTrue(after >= before, before + " then " + after + " (" + sum + ")");
  }

  @Test
  void countsTheProcessorTimeOfTheCallingThreadAndNotTheTimeItSlept() throws InterruptedException {
    LongSupplier cpu = ManagementTimes.threadCpu();
    long start = cpu.getAsLong();
    long wall = System.nanoTime();
    Thread.sleep(200);
    long slept = cpu.getAsLong() - start;
    long sum = 0;
    while (System.nanoTime() - wall < 400_000_000L) sum += Long.toString(sum).length();
    long ran = cpu.getAsLong() - start;
    assertTrue(start > 0, "this thread has run: " + start);
    assertTrue(slept < 100_000_000L, "200 ms asleep counted " + slept + " ns");
    assertTrue(ran > slept + 100_000_000L, "200 ms of work counted " + (ran - slept) + " ns (" + sum + ")");
  }
}

package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The JIT's compilation time as the selection reads it: from this JVM's compilation bean, never falling. */
class CompilationTimeTest {
  @Test
  void countsTheCompilationsOfThisJvmInNanoseconds() {
    LongSupplier compiling = CompilationTime.supplier();
    long before = compiling.getAsLong();
    // A JVM that has run JUnit has compiled for well over a millisecond.
    assertTrue(before >= 1_000_000, "compilation time so far: " + before + " ns");
    assertTrue(before % 1_000_000 == 0, "whole milliseconds: " + before);
    long sum = 0;
    for (int i = 0; i < 200_000; i++) sum += Integer.toString(i).hashCode();
    long after = compiling.getAsLong();
    assertTrue(after >= before, before + " then " + after + " (" + sum + ")");
  }
}

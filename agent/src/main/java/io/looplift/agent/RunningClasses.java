package io.looplift.agent;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Which classes have a method running on some thread, by name (of any loader: a rare false alarm only
 * delays a retransformation). The threads' stacks are looked at once per {@link #FRESH_NANOS} at most, not
 * once per class: a batch of retransformations asks for many classes in a row. Not thread-safe: each thread
 * that asks has one of its own.
 */
final class RunningClasses {
  /** How long one look at the stacks stands for the moment. */
  static final long FRESH_NANOS = 5_000_000;

  private final Supplier<Map<Thread, StackTraceElement[]>> stacks;
  private final LongSupplier clock;
  private Set<String> running; // null until the first look
  private long lookedAt;

  /** Over every live thread's stack, on {@link System#nanoTime}. */
  RunningClasses() {
    this(Thread::getAllStackTraces, System::nanoTime);
  }

  RunningClasses(Supplier<Map<Thread, StackTraceElement[]>> stacks, LongSupplier clock) {
    this.stacks = stacks;
    this.clock = clock;
  }

  /** Whether some thread runs a method of a class named {@code className}. */
  boolean contains(String className) {
    long now = clock.getAsLong();
    if (running == null || now - lookedAt > FRESH_NANOS) {
      Set<String> names = new HashSet<>();
      for (StackTraceElement[] stack : stacks.get().values()) {
        for (StackTraceElement frame : stack) names.add(frame.getClassName());
      }
      running = names;
      lookedAt = clock.getAsLong();
    }
    return running.contains(className);
  }
}

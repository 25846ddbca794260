package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Splitting a copy between threads: every element once, small copies on the caller, failures passed on. */
class ParallelCopyTest {
  @Test
  void everyElementIsCopiedOnceAndLargeCopiesUseSeveralThreads() {
    int n = (int) (2 * ParallelCopy.PARALLEL_BYTES) + 3; // bytes
    AtomicIntegerArray copied = new AtomicIntegerArray(n);
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    ParallelCopy.run(n, 1, (from, to) -> {
      threads.add(Thread.currentThread());
      for (int j = from; j < to; j++) copied.incrementAndGet(j);
    });
    for (int j = 0; j < n; j++) assertEquals(1, copied.get(j), "element " + j);
    assertTrue(threads.contains(Thread.currentThread()), "the caller copies a part");
    // A pool thread done with its part before the next part is handed out may take that one too.
    int most = Math.min(8, Runtime.getRuntime().availableProcessors());
    assertTrue(threads.size() <= most && threads.size() >= Math.min(2, most), "threads that copied: " + threads.size());
  }

  @Test
  void aSmallCopyRunsOnTheCallerInOnePiece() {
    int n = (int) (ParallelCopy.PARALLEL_BYTES / 8) - 1;
    Thread caller = Thread.currentThread();
    int[] calls = new int[1];
    ParallelCopy.run(n, 8, (from, to) -> {
      assertSame(caller, Thread.currentThread());
      assertEquals(0, from);
      assertEquals(n, to);
      calls[0]++;
    });
    assertEquals(1, calls[0]);
  }

  @Test
  void theCallersFailureIsThrownOnlyAfterEveryOtherPartEndedAndAnInterruptIsKept() {
    int n = (int) (4 * ParallelCopy.PARALLEL_BYTES);
    AtomicInteger parts = new AtomicInteger();
    AtomicInteger ended = new AtomicInteger();
    Thread.currentThread().interrupt();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ParallelCopy.run(n, 1, (from, to) -> {
      parts.incrementAndGet();
      if (from == 0) throw new IllegalStateException("the caller's part");
      LockSupport.parkNanos(50_000_000);
      ended.incrementAndGet();
    }));
    assertEquals("the caller's part", e.getMessage());
    assertEquals(parts.get() - 1, ended.get(), "parts that had ended when run returned");
    assertTrue(Thread.interrupted(), "the caller's interrupt is still set");
  }

  @Test
  void anotherPartsFailureIsThrownAsItself() {
    int n = (int) (4 * ParallelCopy.PARALLEL_BYTES);
    if (Runtime.getRuntime().availableProcessors() < 2) return; // one thread: there is no other part
    IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> ParallelCopy.run(n, 1, (from, to) -> {
      if (from > 0) throw new IndexOutOfBoundsException("part at " + from);
    }));
    assertTrue(e.getMessage().startsWith("part at "), e.getMessage());
  }
}

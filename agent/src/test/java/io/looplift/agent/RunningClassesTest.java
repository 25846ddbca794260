package io.looplift.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A class is running while a thread is in one of its methods; the stacks are looked at again only when stale. */
class RunningClassesTest {
  /** Holds a thread inside its method until released. */
  static final class Parked {
    static void park(CountDownLatch inside, CountDownLatch release) throws InterruptedException {
      inside.countDown();
      release.await();
    }
  }

  @Test
  void aClassIsRunningWhileAThreadIsInOneOfItsMethods() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      try {
        Parked.park(inside, release);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    t.start();
    inside.await();
    assertTrue(new RunningClasses().contains(Parked.class.getName()));
    release.countDown();
    t.join();
    assertFalse(new RunningClasses().contains(Parked.class.getName()), "its thread has left it");
    assertFalse(new RunningClasses().contains("no.such.Class"));
  }

  @Test
  void theStacksAreLookedAtOnTheFirstAskAndAgainOnlyOnceStale() {
    AtomicLong now = new AtomicLong(123_456_789_000L);
    AtomicInteger looks = new AtomicInteger();
    RunningClasses running = new RunningClasses(() -> {
      looks.incrementAndGet();
      return Map.of(Thread.currentThread(), new StackTraceElement[] {new StackTraceElement("a.B", "m", null, 1)});
    }, now::get);
    assertTrue(running.contains("a.B"));
    assertFalse(running.contains("a.C"));
    assertEquals(1, looks.get());
    now.addAndGet(RunningClasses.FRESH_NANOS + 1);
    assertTrue(running.contains("a.B"));
    assertEquals(2, looks.get());
  }
}

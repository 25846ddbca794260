package io.looplift.executors.schedule;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A broken scheduler leaves threads waiting uninterruptibly: time the test out from a separate thread.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ESchedulerOrderingTest {
  private final SchedulerFixture fixture = new SchedulerFixture(2);
  private final EScheduler scheduler = fixture.scheduler;

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void aReadWaitsForTheWriteBeforeIt() {
    long[] a = new long[1];
    long[] seen = {-1};
    Probe writer = fixture.held();
    Probe reader = Probe.free();
    Ticket write = scheduler.submit(TestWork.writing(a, () -> {
      writer.run();
      a[0] = 42;
    }));
    await().until(writer::started);
    Ticket read = scheduler.submit(TestWork.reading(a, () -> {
      reader.run();
      seen[0] = a[0];
    }));

    assertNotStartedWhileAWorkerIsFree(reader);
    writer.release();
    await().until(read::isDone);

    assertTrue(write.isDone());
    assertEquals(42, seen[0]);
    assertNull(read.failure());
  }

  @Test
  void aWriteWaitsForTheReadBeforeIt() {
    long[] a = new long[1];
    long[] seen = {-1};
    Probe reader = fixture.held();
    Probe writer = Probe.free();
    Ticket read = scheduler.submit(TestWork.reading(a, () -> {
      reader.run();
      seen[0] = a[0];
    }));
    await().until(reader::started);
    Ticket write = scheduler.submit(TestWork.writing(a, () -> {
      writer.run();
      a[0] = 42;
    }));

    assertNotStartedWhileAWorkerIsFree(writer);
    reader.release();
    await().until(write::isDone);

    assertTrue(read.isDone());
    assertEquals(0, seen[0]);
    assertEquals(42, a[0]);
  }

  @Test
  void aWriteWaitsForTheWriteBeforeIt() {
    long[] a = new long[1];
    Probe first = fixture.held();
    Probe second = Probe.free();
    scheduler.submit(TestWork.writing(a, () -> {
      first.run();
      a[0] = 1;
    }));
    await().until(first::started);
    Ticket last = scheduler.submit(TestWork.writing(a, () -> {
      second.run();
      a[0] = 2;
    }));

    assertNotStartedWhileAWorkerIsFree(second);
    first.release();
    await().until(last::isDone);

    assertEquals(2, a[0]);
  }

  @Test
  void aCompletedWorkNoLongerHoldsBackLaterOnes() {
    long[] a = new long[1];
    Ticket write = scheduler.submit(TestWork.writing(a, () -> a[0] = 1));
    await().until(write::isDone);

    Ticket read = scheduler.submit(TestWork.reading(a, () -> {}));
    Ticket rewrite = scheduler.submit(TestWork.writing(a, () -> a[0] = 2));

    await().until(() -> read.isDone() && rewrite.isDone());
    assertEquals(2, a[0]);
  }

  @Test
  void readersRunTogetherAndTheNextWriterWaitsForAllOfThem() {
    try (SchedulerFixture three = new SchedulerFixture(3)) {
      EScheduler s = three.scheduler;
      long[] a = new long[1];
      Probe writer = three.held();
      Probe reader1 = three.held();
      Probe reader2 = three.held();
      Probe nextWriter = Probe.free();
      s.submit(TestWork.writing(a, writer));
      Ticket read1 = s.submit(TestWork.reading(a, reader1));
      s.submit(TestWork.reading(a, reader2));
      Ticket next = s.submit(TestWork.writing(a, nextWriter));

      writer.release();
      await().until(() -> reader1.started() && reader2.started());
      reader1.release();
      await().until(read1::isDone);
      // Two workers are free now; the next writer, older than this probe work, would have gone first.
      Ticket independent = s.submit(TestWork.writing(new long[1], () -> {}));
      await().until(independent::isDone);
      assertFalse(nextWriter.started(), "the writer ran while a reader before it was running");

      reader2.release();
      await().until(next::isDone);
    }
  }

  @Test
  void independentWorksRunAtOnceOnDaemonWorkersWithoutAContextClassLoader() {
    Probe first = fixture.held();
    Probe second = fixture.held();
    scheduler.submit(TestWork.writing(new long[1], first));
    scheduler.submit(TestWork.writing(new long[1], second));

    await().until(() -> first.started() && second.started());

    Set<String> names = new HashSet<>();
    for (Probe p : new Probe[] {first, second}) {
      Thread t = p.thread();
      names.add(t.getName());
      assertTrue(t.isDaemon(), t.getName());
      assertNull(t.getContextClassLoader(), t.getName());
    }
    assertEquals(Set.of(fixture.threadNamePrefix + 1, fixture.threadNamePrefix + 2), names);
  }

  @Test
  void aFailedWorkCompletesWithItsFailureAndItsDependentsStillRun() {
    long[] a = new long[1];
    Probe failing = fixture.held();
    Probe dependent = Probe.free();
    Ticket failed = scheduler.submit(TestWork.writing(a, () -> {
      failing.run();
      throw new IllegalStateException("boom");
    }));
    Ticket erred = scheduler.submit(TestWork.writing(a, () -> {
      throw new AssertionError("an error");
    }));
    Ticket after = scheduler.submit(TestWork.reading(a, dependent));

    failing.release();
    await().until(after::isDone);

    assertInstanceOf(IllegalStateException.class, failed.failure());
    assertInstanceOf(AssertionError.class, erred.failure());
    assertTrue(dependent.started());
    assertNull(after.failure());
    EScheduler.Stats stats = scheduler.stats();
    assertEquals(3, stats.completed());
    assertEquals(2, stats.failed());
  }

  @Test
  void awaitingATicketKeepsAnInterrupt() {
    Probe held = fixture.held();
    Ticket ticket = scheduler.submit(TestWork.writing(new long[1], held));
    boolean[] doneAfter = {false};
    boolean[] interruptedAfter = {false};
    Thread waiter = Threads.start("waiter", () -> {
      ticket.await();
      doneAfter[0] = ticket.isDone();
      interruptedAfter[0] = Thread.currentThread().isInterrupted();
    });
    await().until(() -> waiter.getState() == Thread.State.WAITING);

    waiter.interrupt();
    // The interrupt is taken once the flag is clear again, and the waiter waits on.
    await().until(() -> !waiter.isInterrupted() && waiter.getState() == Thread.State.WAITING);
    held.release();
    await().until(() -> !waiter.isAlive());

    assertTrue(doneAfter[0], "await returned before the work completed");
    assertTrue(interruptedAfter[0]);
  }

  /**
   * Asserts that the probed work has not started although it could have: a second worker is free, and it
   * takes ready works oldest first, so had the probed work been ready it would have started before an
   * independent work submitted later has finished.
   */
  private void assertNotStartedWhileAWorkerIsFree(Probe probe) {
    Ticket independent = scheduler.submit(TestWork.writing(new long[1], () -> {}));
    await().until(independent::isDone);
    assertFalse(probe.started(), "the work ran before the work it depends on");
  }
}

package io.looplift.executors.schedule;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A broken scheduler leaves threads waiting uninterruptibly: time the test out from a separate thread.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ESchedulerInlineTest {
  private final SchedulerFixture fixture = new SchedulerFixture(2);
  private final EScheduler scheduler = fixture.scheduler;

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void runsOnTheCallingThreadAndReturnsDone() {
    Probe probe = Probe.free();
    Ticket ticket = scheduler.runInline(TestWork.writing(new long[1], probe));

    assertTrue(ticket.isDone());
    assertSame(Thread.currentThread(), probe.thread());
    EScheduler.Stats stats = scheduler.stats();
    assertEquals(0, stats.submitted());
    assertEquals(1, stats.inline());
    assertEquals(1, stats.completed());
  }

  @Test
  void waitsForAConflictingWorkInFlightFirst() {
    long[] a = new long[1];
    long[] seen = {-1};
    Probe writer = fixture.held();
    Probe reader = Probe.free();
    scheduler.submit(TestWork.writing(a, () -> {
      writer.run();
      a[0] = 42;
    }));
    await().until(writer::started);
    AtomicReference<Ticket> ticket = new AtomicReference<>();
    Thread program = Threads.start("program", () -> ticket.set(scheduler.runInline(TestWork.reading(a, () -> {
      reader.run();
      seen[0] = a[0];
    }))));

    await().until(() -> program.getState() == Thread.State.WAITING);
    assertFalse(reader.started(), "the inline work ran before the work it depends on");
    writer.release();
    await().until(() -> !program.isAlive());

    assertTrue(ticket.get().isDone());
    assertSame(program, reader.thread());
    assertEquals(42, seen[0]);
  }

  @Test
  void laterSubmitsFromOtherThreadsWaitForAnInlineWork() {
    long[] a = new long[1];
    long[] seen = {-1};
    Probe inline = fixture.held();
    Probe reader = Probe.free();
    Thread program = Threads.start("program", () -> scheduler.runInline(TestWork.writing(a, () -> {
      inline.run();
      a[0] = 42;
    })));
    await().until(inline::started);
    Ticket read = scheduler.submit(TestWork.reading(a, () -> {
      reader.run();
      seen[0] = a[0];
    }));

    // Both workers are free; had the read been ready it would have gone before this later work.
    Ticket independent = scheduler.submit(TestWork.writing(new long[1], () -> {}));
    await().until(independent::isDone);
    assertFalse(reader.started(), "a submitted work ran before the inline work it depends on");
    inline.release();
    await().until(read::isDone);

    assertEquals(42, seen[0]);
    await().until(() -> !program.isAlive());
  }

  @Test
  void aFailureIsRecordedNotThrown() {
    Ticket ticket = scheduler.runInline(TestWork.writing(new long[1], () -> {
      throw new java.io.IOException("boom");
    }));

    assertTrue(ticket.isDone());
    assertInstanceOf(java.io.IOException.class, ticket.failure());
    assertEquals(1, scheduler.stats().failed());
  }
}

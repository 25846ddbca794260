package io.looplift.executors.schedule;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A broken scheduler leaves threads waiting uninterruptibly: time the test out from a separate thread.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ESchedulerCloseTest {
  @Test
  void waitsForOutstandingWorkThenRunsLaterSubmitsInline() {
    try (SchedulerFixture fixture = new SchedulerFixture(1)) {
      EScheduler scheduler = fixture.scheduler;
      long[] a = new long[1];
      Probe first = fixture.held();
      Probe queued = Probe.free();
      scheduler.submit(TestWork.writing(a, first));
      Ticket dependent = scheduler.submit(TestWork.reading(a, queued));
      await().until(first::started);
      Thread worker = first.thread();

      Thread closer = Threads.start("closer", scheduler::close);
      await().until(() -> closer.getState() == Thread.State.WAITING);
      assertFalse(dependent.isDone());
      first.release();
      await().until(() -> !closer.isAlive());

      assertTrue(dependent.isDone(), "close returned before outstanding work finished");
      assertFalse(worker.isAlive(), "close returned before the workers ended");
      Probe late = Probe.free();
      Ticket lateTicket = scheduler.submit(TestWork.writing(a, late));
      assertTrue(lateTicket.isDone());
      assertSame(Thread.currentThread(), late.thread());
      assertTimeoutPreemptively(Duration.ofSeconds(10), scheduler::close);
      EScheduler.Stats stats = scheduler.stats();
      assertEquals(2, stats.submitted());
      assertEquals(1, stats.inline());
      assertEquals(3, stats.completed());
    }
  }

  @Test
  void aSubmitHeldBackWhenClosingRunsInline() {
    try (SchedulerFixture fixture = new SchedulerFixture(1, 1, Long.MAX_VALUE)) {
      EScheduler scheduler = fixture.scheduler;
      Probe first = fixture.held();
      Ticket firstTicket = scheduler.submit(TestWork.writing(new long[1], first));
      Probe second = Probe.free();
      AtomicReference<Ticket> secondTicket = new AtomicReference<>();
      Thread submitter = Threads.start("submitter",
          () -> secondTicket.set(scheduler.submit(TestWork.writing(new long[1], second))));
      await().until(() -> submitter.getState() == Thread.State.WAITING);

      Threads.start("closer", scheduler::close);
      await().until(() -> !submitter.isAlive());

      assertTrue(secondTicket.get().isDone());
      assertSame(submitter, second.thread());
      assertFalse(firstTicket.isDone(), "the held-back submit waited for outstanding work");
    }
  }
}

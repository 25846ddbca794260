package io.looplift.executors.schedule;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

// A broken scheduler leaves threads waiting uninterruptibly: time the test out from a separate thread.
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ESchedulerBackPressureTest {
  @Test
  void aSubmitOverTheWorkLimitWaitsUntilAWorkCompletes() {
    try (SchedulerFixture fixture = new SchedulerFixture(2, 2, Long.MAX_VALUE)) {
      EScheduler scheduler = fixture.scheduler;
      Probe first = fixture.held();
      Probe second = fixture.held();
      Ticket firstTicket = scheduler.submit(TestWork.writing(new long[1], first));
      scheduler.submit(TestWork.writing(new long[1], second));

      Submitter third = Submitter.start(scheduler, TestWork.writing(new long[1], () -> {}));
      third.awaitHeldBack();
      first.release();
      await().until(firstTicket::isDone);
      await().until(third::returned);

      await().until(() -> third.ticket().isDone());
      EScheduler.Stats stats = scheduler.stats();
      assertEquals(1, stats.backPressureWaits());
      assertTrue(stats.backPressureNanos() > 0);
      assertEquals(2, stats.maxOutstandingSeen());
    }
  }

  @Test
  void aSubmitOverTheByteLimitWaitsUntilEnoughBytesComplete() {
    try (SchedulerFixture fixture = new SchedulerFixture(2, 10, 100)) {
      EScheduler scheduler = fixture.scheduler;
      Probe sixty = fixture.held();
      Probe forty = fixture.held();
      Ticket sixtyTicket = scheduler.submit(TestWork.writing(new long[1], 60, sixty));
      scheduler.submit(TestWork.writing(new long[1], 40, forty));

      Submitter fifty = Submitter.start(scheduler, TestWork.writing(new long[1], 50, () -> {}));
      fifty.awaitHeldBack();
      sixty.release();
      await().until(sixtyTicket::isDone);
      await().until(fifty::returned);

      await().until(() -> fifty.ticket().isDone());
      assertNull(fifty.ticket().failure());
      assertEquals(1, scheduler.stats().backPressureWaits());
    }
  }

  @Test
  void aWorkOverTheByteLimitIsLetInAloneAndHoldsBackTheNext() {
    try (SchedulerFixture fixture = new SchedulerFixture(2, 10, 100)) {
      EScheduler scheduler = fixture.scheduler;
      Probe big = fixture.held();
      Ticket bigTicket = assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> scheduler.submit(TestWork.writing(new long[1], 500, big)));

      Submitter small = Submitter.start(scheduler, TestWork.writing(new long[1], 1, () -> {}));
      small.awaitHeldBack();
      big.release();
      await().until(bigTicket::isDone);
      await().until(small::returned);
    }
  }

  @Test
  void aHeldBackSubmitKeepsAnInterrupt() {
    try (SchedulerFixture fixture = new SchedulerFixture(1, 1, Long.MAX_VALUE)) {
      Probe first = fixture.held();
      fixture.scheduler.submit(TestWork.writing(new long[1], first));
      Submitter second = Submitter.start(fixture.scheduler, TestWork.writing(new long[1], () -> {}));
      second.awaitHeldBack();

      second.thread.interrupt();
      // The interrupt is taken once the flag is clear again, and the submitter waits on.
      await().until(() -> !second.thread.isInterrupted() && second.thread.getState() == Thread.State.WAITING);
      first.release();
      await().until(second::returned);

      assertTrue(second.interruptedOnReturn);
    }
  }

  /** A program thread submitting one work, so that the test can watch it being held back. */
  private static final class Submitter {
    final Thread thread;
    private final AtomicReference<Ticket> ticket = new AtomicReference<>();
    private volatile boolean interruptedOnReturn;

    private Submitter(EScheduler scheduler, ScheduledWork work) {
      thread = new Thread(() -> {
        ticket.set(scheduler.submit(work));
        interruptedOnReturn = Thread.currentThread().isInterrupted();
      }, "submitter");
      thread.setDaemon(true);
    }

    static Submitter start(EScheduler scheduler, ScheduledWork work) {
      Submitter s = new Submitter(scheduler, work);
      s.thread.start();
      return s;
    }

    /** Waits until the submitter is parked in submit, and checks that submit has not returned. */
    void awaitHeldBack() {
      await().until(() -> thread.getState() == Thread.State.WAITING);
      assertNull(ticket.get(), "submit returned although outstanding work is at the limit");
    }

    boolean returned() {
      return ticket.get() != null;
    }

    Ticket ticket() {
      return ticket.get();
    }
  }
}

package io.looplift.executors.schedule;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A scheduler for one test, and the held probes to release before closing it. */
final class SchedulerFixture implements AutoCloseable {
  private static final AtomicInteger IDS = new AtomicInteger();

  final String threadNamePrefix = "es-test-" + IDS.incrementAndGet() + "-";
  final EScheduler scheduler;
  private final List<Probe> probes = new ArrayList<>();

  SchedulerFixture(int workers, int maxOutstanding, long maxOutstandingBytes) {
    scheduler = new EScheduler(threadNamePrefix, workers, maxOutstanding, maxOutstandingBytes);
  }

  SchedulerFixture(int workers) {
    this(workers, 1_000, Long.MAX_VALUE);
  }

  /** A held probe, released at the latest by {@link #close()}. */
  Probe held() {
    Probe p = Probe.held();
    probes.add(p);
    return p;
  }

  /** Releases the probes and closes the scheduler, failing rather than hanging when close does not return. */
  @Override
  public void close() {
    probes.forEach(Probe::release);
    assertTimeoutPreemptively(Duration.ofSeconds(30), scheduler::close);
  }
}

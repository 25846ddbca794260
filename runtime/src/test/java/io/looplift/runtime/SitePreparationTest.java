package io.looplift.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SitePreparationTest {
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final SitePreparation preparation = new SitePreparation(new Log(Log.Level.DEBUG, lines::add));

  @Test
  void aSiteIsPreparedOnceOnItsOwnThreadAndReadyOnlyAfterwards() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<String> ranOn = new CopyOnWriteArrayList<>();
    Runnable prepare = () -> {
      ranOn.add(Thread.currentThread().getName());
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    assertFalse(preparation.ready(3, prepare));
    assertFalse(preparation.ready(3, prepare), "still preparing");
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> preparation.ready(3, prepare));
    assertEquals(List.of("looplift-prepare"), ranOn, "prepared once, off the caller's thread");
  }

  @Test
  void aPreparationThatFailsLeavesTheSiteToItsLaunches() {
    assertFalse(preparation.ready(5, () -> {
      throw new IllegalStateException("no kernel");
    }));
    await().atMost(Duration.ofSeconds(10)).until(() -> preparation.ready(5, () -> {}));
    assertTrue(lines.stream().anyMatch(l -> l.contains("preparing loop site 5") && l.contains("no kernel")), lines.toString());
  }
}

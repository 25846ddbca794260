package io.looplift.runtime;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.looplift.bridge.LoopBridge;
import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Sites rest through the bridge's gates, and a rest with an end offers their runs again on a thread of its own. */
class SiteRestsTest {
  /** A site number no other test of this JVM links: the bridge's gates are the JVM's. */
  private static final int SITE = 1_000_003;

  private static CallSite gate(String name, String type) {
    return LoopBridge.restGate(MethodHandles.lookup(), name, MethodType.fromMethodDescriptorString(type, null), SITE);
  }

  @Test
  void aRestWithAnEndOffersTheSitesRunsAgainWhenItIsOver() throws Throwable {
    SiteRests rests = new SiteRests();
    assertFalse(rests.rest(SITE, 100), "no gate linked yet");
    CallSite offering = gate(LoopBridge.OFFERING, LoopBridge.OFFERING_TYPE);
    CallSite upTo = gate(LoopBridge.RESTED_UP_TO, LoopBridge.RESTED_UP_TO_TYPE);
    assertTrue(rests.rest(SITE, 100));
    assertFalse((boolean) offering.dynamicInvoker().invokeExact());
    assertEquals(100, (long) upTo.dynamicInvoker().invokeExact());
    rests.offerAgainIn(SITE, 50_000_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      try {
        return (boolean) offering.dynamicInvoker().invokeExact();
      } catch (Throwable e) {
        throw new AssertionError(e);
      }
    });
    assertEquals(0, (long) upTo.dynamicInvoker().invokeExact());
  }
}

package io.looplift.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VerifyPolicyTest {
  @Test
  void sampleChecksTheFirstLaunchThenOneInEvery() {
    VerifyPolicy sample = new VerifyPolicy(VerifyPolicy.Mode.SAMPLE, 100);
    assertTrue(sample.checks(0));
    assertFalse(sample.checks(1));
    assertFalse(sample.checks(99));
    assertTrue(sample.checks(100));
    assertTrue(sample.checks(200));
    assertEquals(1000, VerifyPolicy.DEFAULT_EVERY);
  }

  @Test
  void allChecksEveryLaunchAndOffNone() {
    assertTrue(new VerifyPolicy(VerifyPolicy.Mode.ALL, 7).checks(3));
    assertFalse(VerifyPolicy.OFF.checks(0));
    assertEquals("off", VerifyPolicy.OFF.mode().value());
  }

  @Test
  void aPeriodBelowOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new VerifyPolicy(VerifyPolicy.Mode.SAMPLE, 0));
    assertThrows(NullPointerException.class, () -> new VerifyPolicy(null, 1));
  }
}

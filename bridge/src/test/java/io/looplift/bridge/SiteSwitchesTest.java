package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/** A site's switch is on until it is switched off, for every call site of that site; unknown sites stay as they are. */
class SiteSwitchesTest {
  private static final MethodType TYPE = MethodType.fromMethodDescriptorString(LoopBridge.SWITCH_TYPE, null);

  private static boolean on(CallSite s) throws Throwable {
    return (boolean) s.dynamicInvoker().invokeExact();
  }

  @Test
  void aSwitchIsOnUntilSwitchedOffAndStaysOff() throws Throwable {
    SiteSwitches switches = new SiteSwitches();
    CallSite first = switches.of(3);
    assertTrue(on(first));
    assertSame(first, switches.of(3), "one switch per site");
    assertTrue(switches.off(3));
    assertFalse(on(first));
    assertFalse(on(switches.of(3)));
  }

  @Test
  void aSiteWithoutASwitchIsNotSwitchedOffAndOthersStayOn() throws Throwable {
    SiteSwitches switches = new SiteSwitches();
    CallSite other = switches.of(1);
    assertFalse(switches.off(500), "never asked for");
    assertFalse(switches.off(-1));
    assertFalse(switches.off(2));
    assertTrue(on(other));
    assertTrue(on(switches.of(500)), "made later, on");
  }

  @Test
  void aSwitchTellsWhetherItsPreambleHasRun() {
    SiteSwitches switches = new SiteSwitches();
    assertFalse(switches.asked(4));
    switches.of(4);
    assertTrue(switches.asked(4));
    assertFalse(switches.asked(5));
    assertFalse(switches.asked(-1));
    assertFalse(switches.asked(100_000));
  }

  @Test
  void theBootstrapMethodLinksTheSitesSwitch() throws Throwable {
    assertFalse(LoopBridge.preambleRan(77));
    CallSite s = LoopBridge.siteSwitch(MethodHandles.lookup(), LoopBridge.SWITCH_NAME, TYPE, 77);
    assertTrue(LoopBridge.preambleRan(77));
    assertSame(TYPE, s.type());
    assertTrue(on(s));
    assertTrue(LoopBridge.switchOff(77));
    assertFalse(on(s));
  }
}

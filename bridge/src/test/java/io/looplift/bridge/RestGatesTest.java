package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

/** A site offers its runs until the pipeline rests it, only ever longer ones, until a longer run opens it. */
class RestGatesTest {
  private static boolean offering(CallSite s) throws Throwable {
    return (boolean) s.dynamicInvoker().invokeExact();
  }

  private static long upTo(CallSite s) throws Throwable {
    return (long) s.dynamicInvoker().invokeExact();
  }

  @Test
  void aSiteRestsRunsUpToTheLongestLengthItWasGivenUntilOpened() throws Throwable {
    RestGates gates = new RestGates();
    CallSite offering = gates.offering(3);
    CallSite upTo = gates.restedUpTo(3);
    assertEquals(MethodType.fromMethodDescriptorString(LoopBridge.OFFERING_TYPE, null), offering.type());
    assertEquals(MethodType.fromMethodDescriptorString(LoopBridge.RESTED_UP_TO_TYPE, null), upTo.type());
    assertTrue(offering(offering));
    assertEquals(0, upTo(upTo));
    assertSame(offering, gates.offering(3), "one gate per site");
    assertTrue(gates.rest(3, 1_000));
    assertFalse(offering(offering));
    assertEquals(1_000, upTo(upTo));
    assertTrue(gates.rest(3, 10), "resting shorter runs is no change");
    assertEquals(1_000, upTo(upTo));
    assertTrue(gates.rest(3, 5_000));
    assertEquals(5_000, upTo(gates.restedUpTo(3)));
    gates.open(3);
    assertTrue(offering(offering));
    assertEquals(0, upTo(upTo));
    assertTrue(gates.rest(3, 100), "rests again, from nothing");
    assertEquals(100, upTo(upTo));
  }

  @Test
  void aSiteWithoutAGateDoesNotRestAndOthersStayOpen() throws Throwable {
    RestGates gates = new RestGates();
    CallSite other = gates.offering(1);
    assertFalse(gates.rest(500, 10), "never linked");
    assertFalse(gates.rest(-1, 10));
    assertFalse(gates.rest(1, 0), "a length of 0 rests nothing");
    gates.open(500);
    assertTrue(offering(other));
    assertTrue(offering(gates.offering(500)), "made later, offering");
  }

  @Test
  void aRunLongerThanThoseRestedOpensTheSiteEachTime() throws Throwable {
    RestGates gates = new RestGates();
    CallSite offering = gates.offering(5);
    CallSite longer = gates.opener(5);
    assertTrue(gates.rest(5, 100));
    longer.dynamicInvoker().invokeExact();
    assertTrue(offering(offering));
    assertTrue(gates.rest(5, 1_000));
    longer.dynamicInvoker().invokeExact();
    assertTrue(offering(offering), "the same call site opens it again");
  }

  @Test
  void aGateLinkedWhileItsSiteRestsStartsResting() throws Throwable {
    RestGates gates = new RestGates();
    gates.offering(2);
    assertTrue(gates.rest(2, 64));
    assertEquals(64, upTo(gates.restedUpTo(2)), "linked after the rest, by a method compiled later");
    assertFalse(offering(gates.offering(2)));
  }
}

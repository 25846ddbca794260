package io.looplift.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The constants the rewriter bakes into rewritten code name exactly the bridge's entry points. */
class BridgeDescriptorsTest {
  @Test
  void everyEntryPointHasItsNameAndDescriptorAsConstants() {
    Map<String, String> declared = new TreeMap<>();
    for (Method m : LoopBridge.class.getDeclaredMethods()) {
      // install, switchOff, preambleRan, rest and offerAgain are the pipeline's and the agent's, not rewritten code's.
      if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers()) || m.getName().equals("install")
          || m.getName().equals("switchOff") || m.getName().equals("preambleRan") || m.getName().equals("rest") || m.getName().equals("offerAgain")) {
        continue;
      }
      declared.put(m.getName(), MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString());
    }
    Map<String, String> constants = new TreeMap<>(Map.ofEntries(
        Map.entry(LoopBridge.SUBMIT, LoopBridge.SUBMIT_DESC),
        Map.entry(LoopBridge.SYNC, LoopBridge.SYNC_DESC),
        Map.entry(LoopBridge.RAN, LoopBridge.RAN_DESC),
        Map.entry(LoopBridge.BEGIN_REGION, LoopBridge.BEGIN_REGION_DESC),
        Map.entry(LoopBridge.TEMP, LoopBridge.TEMP_DESC),
        Map.entry(LoopBridge.END_REGION, LoopBridge.END_REGION_DESC),
        Map.entry(LoopBridge.ABORT_REGION, LoopBridge.ABORT_REGION_DESC),
        Map.entry(LoopBridge.INITIALIZED, LoopBridge.INITIALIZED_DESC),
        Map.entry(LoopBridge.FIELD, LoopBridge.FIELD_DESC),
        Map.entry(LoopBridge.SHORT_RUN, LoopBridge.SHORT_RUN_DESC),
        Map.entry(LoopBridge.SITE_SWITCH, LoopBridge.SITE_SWITCH_DESC),
        Map.entry(LoopBridge.SHORT_RUN_COUNTER, LoopBridge.SHORT_RUN_COUNTER_DESC),
        Map.entry(LoopBridge.REST_GATE, LoopBridge.REST_GATE_DESC),
        Map.entry(LoopBridge.INITIALIZED_CHECK, LoopBridge.INITIALIZED_CHECK_DESC),
        Map.entry(LoopBridge.DISPATCHES, LoopBridge.DISPATCHES_DESC)));
    assertEquals(constants, declared);
    assertEquals(LoopBridge.class.getName().replace('.', '/'), LoopBridge.INTERNAL_NAME);
  }
}

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
      if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers()) || m.getName().equals("install")) {
        continue;
      }
      declared.put(m.getName(), MethodType.methodType(m.getReturnType(), m.getParameterTypes()).toMethodDescriptorString());
    }
    Map<String, String> constants = new TreeMap<>(Map.of(
        LoopBridge.SUBMIT, LoopBridge.SUBMIT_DESC,
        LoopBridge.SYNC, LoopBridge.SYNC_DESC,
        LoopBridge.RAN, LoopBridge.RAN_DESC,
        LoopBridge.BEGIN_REGION, LoopBridge.BEGIN_REGION_DESC,
        LoopBridge.TEMP, LoopBridge.TEMP_DESC,
        LoopBridge.END_REGION, LoopBridge.END_REGION_DESC,
        LoopBridge.ABORT_REGION, LoopBridge.ABORT_REGION_DESC,
        LoopBridge.INITIALIZED, LoopBridge.INITIALIZED_DESC));
    assertEquals(constants, declared);
    assertEquals(LoopBridge.class.getName().replace('.', '/'), LoopBridge.INTERNAL_NAME);
  }
}

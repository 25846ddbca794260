package io.looplift.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * The call site of one class check in a loop's preamble ({@link LoopBridge#classInitialized}): it asks
 * {@link LoopBridge#initialized} until that first answers true, and is the constant true from then on, as a
 * class once initialized stays so. HotSpot compiles the constant as nothing; a call there, on a path back into
 * the original loop, made C2 keep a nest's arrays on the stack through its inner loop.
 */
final class InitializedCheck {
  private static final MethodHandle ASK;
  private static final MethodHandle TRUE = MethodHandles.constant(boolean.class, true);

  static {
    try {
      ASK = MethodHandles.lookup().findVirtual(InitializedCheck.class, "ask", MethodType.methodType(boolean.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final int siteId;
  private final Class<?> checked;
  private final MutableCallSite site = new MutableCallSite(MethodType.methodType(boolean.class));

  private InitializedCheck(int siteId, Class<?> checked) {
    this.siteId = siteId;
    this.checked = checked;
    site.setTarget(ASK.bindTo(this));
  }

  /** The call site that tells whether {@code checked} is initialized, before site {@code siteId} is offered. */
  static MutableCallSite of(int siteId, Class<?> checked) {
    return new InitializedCheck(siteId, checked).site;
  }

  private boolean ask() {
    if (!LoopBridge.initialized(siteId, checked)) return false;
    site.setTarget(TRUE);
    return true;
  }
}

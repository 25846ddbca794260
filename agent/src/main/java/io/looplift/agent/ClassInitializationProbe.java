package io.looplift.agent;

import io.looplift.runtime.Log;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Tells whether a class is initialized without initializing it, for loops that inline static methods of a
 * class with a static initializer (see {@code LoopBridge.initialized}). The JDK answers this only in
 * {@code jdk.internal.misc.Unsafe.shouldBeInitialized}, which the agent's {@link Instrumentation} exports to
 * this class's module. Where that fails, every such class counts as not initialized: those loops stay as
 * bytecode, which is always correct.
 */
final class ClassInitializationProbe implements Predicate<Class<?>> {
  private final Instrumentation inst;
  private final Log log;
  private volatile Predicate<Class<?>> probe;

  /** A probe that reaches for the JDK's answer when it is first asked (few programs ever ask). */
  ClassInitializationProbe(Instrumentation inst, Log log) {
    this.inst = inst;
    this.log = log;
  }

  @Override
  public boolean test(Class<?> c) {
    Predicate<Class<?>> p = probe;
    if (p == null) {
      synchronized (this) {
        if (probe == null) probe = open(inst, log);
        p = probe;
      }
    }
    return p.test(c);
  }

  /** The probe, or one that says "not initialized" to every class when the JDK's answer cannot be reached. */
  private static Predicate<Class<?>> open(Instrumentation inst, Log log) {
    try {
      Module base = Object.class.getModule();
      Module self = ClassInitializationProbe.class.getModule();
      inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(self)), Map.of(), Set.of(), Map.of());
      Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      Object unsafe = lookup.findStatic(unsafeClass, "getUnsafe", MethodType.methodType(unsafeClass)).invoke();
      MethodHandle should = lookup.findVirtual(unsafeClass, "shouldBeInitialized",
          MethodType.methodType(boolean.class, Class.class)).bindTo(unsafe);
      return c -> {
        try {
          return !(boolean) should.invokeExact(c);
        } catch (Throwable e) {
          return false;
        }
      };
    } catch (Throwable e) {
      log.debug("cannot tell which classes are initialized (" + e + "); loops that inline a method of a class"
          + " with a static initializer run as bytecode");
      return c -> false;
    }
  }
}

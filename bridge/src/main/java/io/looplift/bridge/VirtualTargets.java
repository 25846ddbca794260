package io.looplift.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which declaration a virtual call runs on an object of a given class: the one the JVM resolves the method to
 * in that class, found once per class, holder and method and then remembered. Holders are named, not passed
 * as classes, so that rewritten code needs no class constant (class files older than Java 5 cannot have one).
 * Only java.base, since the bridge lives in the bootstrap loader. Thread-safe.
 */
final class VirtualTargets {
  /** By receiver class: by holder's name, by method, whether a call of it runs the holder's declaration. */
  private static final ClassValue<Map<String, Map<String, Boolean>>> ANSWERS = new ClassValue<>() {
    @Override
    protected Map<String, Map<String, Boolean>> computeValue(Class<?> type) {
      return new ConcurrentHashMap<>();
    }
  };

  private VirtualTargets() {}

  /**
   * Whether calling {@code method} (its name and descriptor, e.g. {@code get(I)D}) on an object of class
   * {@code c} runs the declaration in {@code holder} (a binary name): {@code c} is that class or a subclass,
   * and neither it nor a class between them declares a method of that name and descriptor. False when that
   * cannot be found out (a class of a module that does not open it, a type in the descriptor not found).
   */
  static boolean runs(Class<?> c, String holder, String method) {
    return ANSWERS.get(c).computeIfAbsent(holder, h -> new ConcurrentHashMap<>())
        .computeIfAbsent(method, m -> resolvesTo(c, holder, m));
  }

  private static boolean resolvesTo(Class<?> c, String holder, String method) {
    Class<?> declaring = c;
    while (declaring != null && !declaring.getName().equals(holder)) declaring = declaring.getSuperclass();
    if (declaring == null) return false;
    int paren = method.indexOf('(');
    try {
      MethodType type = MethodType.fromMethodDescriptorString(method.substring(paren), c.getClassLoader());
      MethodHandles.Lookup in = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
      MethodHandle found = in.findVirtual(c, method.substring(0, paren), type);
      return in.revealDirect(found).getDeclaringClass() == declaring;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }
}

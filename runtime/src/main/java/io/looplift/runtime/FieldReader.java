package io.looplift.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the instance fields that a loop's class cannot name itself (a private field read by a method the loop
 * inlines), as {@code getfield} would: the field resolved from the class that declares it in the bytecode,
 * upward through its superclasses. A getter per class and field, made once. Reaches fields of classes in
 * unnamed modules (the class path); a field of a named module that is not open throws, and the loop runs as
 * bytecode. Thread-safe.
 */
final class FieldReader {
  private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);

  private final ClassValue<Map<String, MethodHandle>> getters = new ClassValue<>() {
    @Override
    protected Map<String, MethodHandle> computeValue(Class<?> type) {
      return new ConcurrentHashMap<>();
    }
  };

  /**
   * Field {@code name} of {@code obj} as seen from class {@code owner} (internal name), a class of
   * {@code obj}'s class or a superclass of it; primitives boxed.
   */
  Object read(Object obj, String owner, String name) throws Throwable {
    Class<?> c = obj.getClass();
    while (c != null && !c.getName().replace('.', '/').equals(owner)) c = c.getSuperclass();
    if (c == null) throw new IllegalArgumentException(obj.getClass() + " is not a " + owner);
    Class<?> from = c;
    MethodHandle getter = getters.get(from).get(name);
    if (getter == null) {
      getter = getter(from, name);
      getters.get(from).put(name, getter);
    }
    return getter.invokeExact(obj);
  }

  private static MethodHandle getter(Class<?> from, String name) throws ReflectiveOperationException {
    for (Class<?> k = from; k != null; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (!f.getName().equals(name) || Modifier.isStatic(f.getModifiers())) continue;
        f.setAccessible(true);
        return MethodHandles.lookup().unreflectGetter(f).asType(GETTER);
      }
    }
    throw new NoSuchFieldException(from.getName() + "." + name);
  }
}

package io.looplift.runtime;

import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;

/**
 * The first guard of a launch: every argument non-null and exactly of its type. A one-dimensional argument is
 * an array of its element type or a region's {@link TempArray} of that type; an argument whose rows the
 * template reads or writes is an array of such arrays (a {@code double[][]}, say, whose rows are then
 * {@code double[]} or null: the JVM's array store check allows nothing else). Immutable.
 */
final class ArgumentTypes {
  private final Type[] types;
  private final boolean[] rows;
  /** By argument: the class it must have, unless it is a placeholder. */
  private final Class<?>[] classes;

  ArgumentTypes(LoopTemplate t) {
    types = t.arrays().toArray(new Type[0]);
    rows = new boolean[types.length];
    for (int a : t.rowArrays()) rows[a] = true;
    classes = new Class<?>[types.length];
    for (int a = 0; a < types.length; a++) {
      Class<?> flat = types[a].arrayClass();
      classes[a] = rows[a] ? flat.arrayType() : flat;
    }
  }

  /** True when argument {@code a} is an array of arrays. */
  boolean isRows(int a) {
    return rows[a];
  }

  /** Null when every argument has its type, else a reason a user can read. */
  String check(Object[] arrays) {
    for (int a = 0; a < types.length; a++) {
      Object x = arrays[a];
      if (x == null) return "array " + a + " is null";
      if (x.getClass() == classes[a] || x instanceof TempArray temp && !rows[a] && temp.elementType == types[a]) continue;
      String actual = x instanceof TempArray temp ? temp.elementType.name().toLowerCase() + "[]" : x.getClass().getSimpleName();
      return "array " + a + " is a " + actual + ", not a " + classes[a].getSimpleName();
    }
    return null;
  }
}

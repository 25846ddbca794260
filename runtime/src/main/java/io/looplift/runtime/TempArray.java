package io.looplift.runtime;

import io.looplift.ir.Type;
import java.lang.reflect.Array;

/**
 * What a region's fast path holds instead of a temporary array ({@code LoopBridge.temp}): the element type
 * and length the program would have allocated, and no storage. The pipeline allocates one only when a
 * kernel still needs it in memory. Compared by identity, like the array it stands for.
 */
final class TempArray {
  final Type elementType;
  final int length;

  TempArray(Type elementType, int length) {
    this.elementType = elementType;
    this.length = length;
  }

  /** The element type of JVM {@code newarray} type code {@code code}, or null for an unknown code. */
  static Type typeOf(int code) {
    switch (code) {
      case 4: return Type.BOOLEAN;
      case 5: return Type.CHAR;
      case 6: return Type.FLOAT;
      case 7: return Type.DOUBLE;
      case 8: return Type.BYTE;
      case 9: return Type.SHORT;
      case 10: return Type.INT;
      case 11: return Type.LONG;
      default: return null;
    }
  }

  /** A zero-filled array of this type and length, as {@code newarray} makes it. */
  Object allocate() {
    return Array.newInstance(elementType.arrayClass().getComponentType(), length);
  }

  /** The length of a launch argument: an array or a placeholder. */
  static int lengthOf(Object array) {
    return array instanceof TempArray t ? t.length : Array.getLength(array);
  }
}

package io.looplift.analyzer;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reading a class file's raw bytes (JVMS §4) without decoding it: the constant pool's layout, big-endian
 * numbers, attribute tables, Utf8 entries compared as bytes. For the passes that run on every class the
 * program loads ({@link LoopPrescan}, {@link Implementors}) and must stay cheaper than any parser.
 */
final class ClassFileBytes {
  /** The name of the attribute holding a method's code, as its Utf8 entry holds it. */
  private static final byte[] CODE = "Code".getBytes(StandardCharsets.US_ASCII);

  private ClassFileBytes() {}

  /**
   * The offset of each constant pool entry's tag byte, by index (0 for index 0 and for the second slot of
   * a Long or Double), and, as the last element, the offset just past the pool (of the access flags).
   *
   * @throws IllegalArgumentException when the bytes are not a class file or hold an unknown tag
   */
  static int[] constantPool(byte[] b) {
    if (u4(b, 0) != 0xCAFEBABE) throw new IllegalArgumentException("not a class file");
    int count = u2(b, 8);
    int[] cp = new int[count + 1];
    int p = 10;
    for (int i = 1; i < count; i++) {
      cp[i] = p;
      switch (b[p]) {
        case 1 -> p += 3 + u2(b, p + 1); // Utf8
        case 3, 4, 9, 10, 11, 12, 17, 18 -> p += 5; // Integer, Float, refs, NameAndType, Dynamic, InvokeDynamic
        case 5, 6 -> { // Long and Double take two entries
          p += 9;
          i++;
        }
        case 7, 8, 16, 19, 20 -> p += 3; // Class, String, MethodType, Module, Package
        case 15 -> p += 4; // MethodHandle
        default -> throw new IllegalArgumentException("unknown constant pool tag " + b[p]);
      }
    }
    cp[count] = p;
    return cp;
  }

  /** The offset of the fields table's count, given the offset of the access flags that follow the pool. */
  static int fieldsAt(byte[] b, int afterPool) {
    return afterPool + 8 + 2 * u2(b, afterPool + 6); // access, this, super, interfaces
  }

  /** The offset of the methods table's count, given the offset of the fields table's count. */
  static int methodsAt(byte[] b, int fieldsAt) {
    int fields = u2(b, fieldsAt);
    int p = fieldsAt + 2;
    for (int f = 0; f < fields; f++) p = skipAttributes(b, p + 6);
    return p;
  }

  /** The offset just past the attribute table whose count is at {@code p}. */
  static int skipAttributes(byte[] b, int p) {
    int attributes = u2(b, p);
    p += 2;
    for (int a = 0; a < attributes; a++) p += 6 + u4(b, p + 2);
    return p;
  }

  /**
   * The offset of the Code attribute of the method whose {@code method_info} starts at {@code method}, or -1
   * when it has none (abstract, native); {@code cp} is the class's {@link #constantPool}. Past the attribute's
   * name and length: its max_stack at +6, max_locals at +8, the code's length at +10, the code at +14. The
   * next method starts at {@code skipAttributes(b, method + 6)}.
   */
  static int codeAt(byte[] b, int[] cp, int method) {
    int attributes = u2(b, method + 6);
    int p = method + 8;
    for (int a = 0; a < attributes; a++) {
      if (utf8Equals(b, cp[u2(b, p)], CODE)) return p;
      p += 6 + u4(b, p + 2);
    }
    return -1;
  }

  /** Whether the Utf8 entry whose tag is at offset {@code at} holds exactly {@code utf8} (modified UTF-8). */
  static boolean utf8Equals(byte[] b, int at, byte[] utf8) {
    return u2(b, at + 1) == utf8.length && Arrays.equals(b, at + 3, at + 3 + utf8.length, utf8, 0, utf8.length);
  }

  /**
   * The string the Utf8 entry whose tag is at offset {@code at} holds.
   *
   * @throws IllegalArgumentException when its bytes are not modified UTF-8
   */
  static String utf8(byte[] b, int at) {
    try {
      // The entry's length and modified UTF-8 bytes are what readUTF reads.
      return new DataInputStream(new ByteArrayInputStream(b, at + 1, 2 + u2(b, at + 1))).readUTF();
    } catch (IOException e) {
      throw new IllegalArgumentException("malformed Utf8 entry", e);
    }
  }

  static int u2(byte[] b, int p) {
    return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
  }

  static int u4(byte[] b, int p) {
    return (u2(b, p) << 16) | u2(b, p + 2);
  }
}

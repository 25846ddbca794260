package io.looplift.profiler;

import java.util.Arrays;

/**
 * A minimal streaming JSON writer: objects, arrays, strings, longs and null, written compactly. It places
 * commas itself; the caller only has to nest begin/end calls correctly and call {@link #name} before each
 * member value. Not thread-safe; one writer per report.
 */
final class JsonWriter {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final StringBuilder out = new StringBuilder(256);
  /** One entry per open container: true until its first element is written. */
  private boolean[] first = new boolean[8];
  private int depth;
  /** True right after {@link #name}: the next value belongs to that member and needs no comma. */
  private boolean afterName;

  JsonWriter beginObject() {
    return open('{');
  }

  JsonWriter endObject() {
    return close('}');
  }

  JsonWriter beginArray() {
    return open('[');
  }

  JsonWriter endArray() {
    return close(']');
  }

  /** Starts an object member; the next call writes its value. */
  JsonWriter name(String name) {
    separate();
    quote(name);
    out.append(':');
    afterName = true;
    return this;
  }

  /** Writes a string, or null. */
  JsonWriter value(String s) {
    separate();
    if (s == null) {
      out.append("null");
    } else {
      quote(s);
    }
    return this;
  }

  JsonWriter value(long n) {
    separate();
    out.append(n);
    return this;
  }

  /** Writes a number to three decimals, or null when it is not finite (JSON has no NaN or infinity). */
  JsonWriter value(double d) {
    separate();
    out.append(Double.isFinite(d) ? String.format(java.util.Locale.ROOT, "%.3f", d) : "null");
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private JsonWriter open(char c) {
    separate();
    out.append(c);
    if (depth == first.length) {
      first = Arrays.copyOf(first, depth * 2);
    }
    first[depth++] = true;
    return this;
  }

  private JsonWriter close(char c) {
    depth--;
    out.append(c);
    return this;
  }

  private void separate() {
    if (afterName) {
      afterName = false;
    } else if (depth > 0) {
      if (!first[depth - 1]) out.append(',');
      first[depth - 1] = false;
    }
  }

  /**
   * Writes {@code s} as a JSON string. Besides the characters JSON requires escaping, unpaired surrogates
   * are written as {@code \}{@code uXXXX} escapes: they have no UTF-8 encoding, and escaping them keeps
   * the report valid UTF-8 whatever a class name contains.
   */
  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || unpairedSurrogate(s, i)) {
            unicodeEscape(c);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean unpairedSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
    }
    return false;
  }

  private void unicodeEscape(char c) {
    out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf])
        .append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
  }
}

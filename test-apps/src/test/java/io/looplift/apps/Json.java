package io.looplift.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for the agent's report: objects become {@code Map<String, Object>} (in order),
 * arrays {@code List<Object>}, numbers {@code Long} when integral and {@code Double} otherwise, and
 * {@code true}, {@code false}, {@code null} themselves. Anything else is an error that says where.
 */
final class Json {
  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /** Parses one JSON value that must fill the whole text (surrounding white space aside). */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.pos != text.length()) throw json.error("trailing characters");
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) throw error("unexpected end");
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c != '-' && (c < '0' || c > '9')) throw error("unexpected '" + c + "'");
        yield number();
      }
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') throw error("expected a member name");
      String key = string();
      skipSpace();
      expect(':');
      map.put(key, value());
      skipSpace();
      char c = next();
      if (c == '}') return map;
      if (c != ',') throw error("expected ',' or '}'");
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      list.add(value());
      skipSpace();
      char c = next();
      if (c == ']') return list;
      if (c != ',') throw error("expected ',' or ']'");
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      char c = next();
      if (c == '"') return sb.toString();
      if (c < 0x20) throw error("control character in a string");
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = next();
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) throw error("short \\u escape");
          sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = pos;
    if (peek() == '-') pos++;
    while (pos < text.length() && "0123456789".indexOf(text.charAt(pos)) >= 0) pos++;
    boolean integral = true;
    while (pos < text.length() && ".eE+-0123456789".indexOf(text.charAt(pos)) >= 0) {
      integral = false;
      pos++;
    }
    String s = text.substring(start, pos);
    try {
      return integral ? (Object) Long.parseLong(s) : (Object) Double.parseDouble(s);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("bad number '" + s + "'");
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) throw error("unexpected word");
    pos += word.length();
    return value;
  }

  private void skipSpace() {
    while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) pos++;
  }

  private char peek() {
    if (pos >= text.length()) throw error("unexpected end");
    return text.charAt(pos);
  }

  private char next() {
    char c = peek();
    pos++;
    return c;
  }

  private void expect(char c) {
    if (next() != c) {
      pos--;
      throw error("expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String what) {
    int from = Math.max(0, pos - 30);
    int to = Math.min(text.length(), pos + 30);
    return new IllegalArgumentException("JSON error at offset " + pos + ": " + what + " near «" + text.substring(from, to) + "»");
  }
}

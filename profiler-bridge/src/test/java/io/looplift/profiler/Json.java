package io.looplift.profiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict test-side JSON parser (objects to {@link LinkedHashMap}, arrays to {@link List}, integers to
 * {@link Long}, decimals without exponent to {@link Double}), so the tests check the report is well-formed without trusting the writer.
 */
final class Json {
  private final String s;
  private int pos;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.pos != text.length()) throw p.error("trailing characters");
    return v;
  }

  private Object value() {
    if (pos >= s.length()) throw error("unexpected end");
    char c = s.charAt(pos);
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return string();
    if (s.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    if (s.startsWith("true", pos)) {
      pos += 4;
      return true;
    }
    if (s.startsWith("false", pos)) {
      pos += 5;
      return false;
    }
    return number();
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    ws();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      ws();
      String k = string();
      ws();
      expect(':');
      ws();
      if (m.containsKey(k)) throw error("duplicate key " + k);
      m.put(k, value());
      ws();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect('}');
      return m;
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    pos++;
    ws();
    if (peek() == ']') {
      pos++;
      return l;
    }
    while (true) {
      ws();
      l.add(value());
      ws();
      if (peek() == ',') {
        pos++;
        continue;
      }
      expect(']');
      return l;
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= s.length()) throw error("unterminated string");
      char c = s.charAt(pos++);
      if (c == '"') return b.toString();
      if (c < 0x20) throw error("raw control character in string");
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"' -> b.append('"');
        case '\\' -> b.append('\\');
        case '/' -> b.append('/');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
  }

  private Number number() {
    int start = pos;
    if (peek() == '-') pos++;
    int digits = pos;
    while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
    if (pos == digits) throw error("expected a value");
    if (pos == s.length() || s.charAt(pos) != '.') return Long.parseLong(s.substring(start, pos));
    int fraction = ++pos;
    while (pos < s.length() && Character.isDigit(s.charAt(pos))) pos++;
    if (pos == fraction) throw error("expected digits after the decimal point");
    return Double.parseDouble(s.substring(start, pos));
  }

  private void ws() {
    while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) pos++;
  }

  private char peek() {
    if (pos >= s.length()) throw error("unexpected end");
    return s.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) throw error("expected '" + c + "'");
    pos++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at " + pos + " in " + s);
  }
}

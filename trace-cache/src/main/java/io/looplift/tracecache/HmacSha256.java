package io.looplift.tracecache;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * HMAC-SHA256 (RFC 2104) under one key, built on {@link MessageDigest}: the same bytes as
 * {@code javax.crypto.Mac}'s "HmacSHA256", without its first use in a JVM, which sets up the JCE (about 65 ms
 * against SHA-256's 20 on a 2-core machine) at a program's first loaded class or first launch.
 */
final class HmacSha256 {
  static final int BYTES = 32;
  private static final int BLOCK = 64;

  private final byte[] innerPad = new byte[BLOCK];
  private final byte[] outerPad = new byte[BLOCK];

  HmacSha256(byte[] key) {
    byte[] k = key.length > BLOCK ? sha256().digest(key) : key;
    for (int i = 0; i < BLOCK; i++) {
      byte b = i < k.length ? k[i] : 0;
      innerPad[i] = (byte) (b ^ 0x36);
      outerPad[i] = (byte) (b ^ 0x5c);
    }
  }

  /** The MAC of {@code parts}, one after another. */
  byte[] mac(byte[]... parts) {
    MessageDigest d = sha256();
    d.update(innerPad);
    for (byte[] p : parts) d.update(p);
    byte[] inner = d.digest();
    d.update(outerPad);
    return d.digest(inner);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}

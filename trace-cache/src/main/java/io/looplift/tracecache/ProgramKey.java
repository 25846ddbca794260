package io.looplift.tracecache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identifies one compiled device program: everything that can change its binary.
 *
 * @param source the program source
 * @param device the device's name
 * @param driverVersion the device driver's version (a new driver may compile differently)
 * @param buildOptions the options the program is built with
 * @param version the LoopLift version (a new release may generate or expect different code)
 */
public record ProgramKey(String source, String device, String driverVersion, String buildOptions, String version) {

  /** A stable digest of every field, usable as a file name: 64 lower-case hex characters. */
  public String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String field : new String[] {source, device, driverVersion, buildOptions, version}) {
        byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
        // Length prefixes keep ("ab", "c") and ("a", "bc") apart.
        sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        sha.update(bytes);
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}

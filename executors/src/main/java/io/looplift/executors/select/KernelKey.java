package io.looplift.executors.select;

import io.looplift.ir.LoopTemplate;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a measured choice of executor is about: a kernel (one loop, a fused group of loops or a nest: what
 * ProgGen launches) as its template's structure, plus the class files its loops come from. Equal keys in two
 * JVM runs mean the same computation from the same code, so a choice measured in one holds in the other.
 *
 * @param shape a digest of the kernel's {@link LoopTemplate} (see {@link #of})
 * @param classes for each class a loop of the kernel comes from, its binary name and a hash of its class
 *     file; a class whose file changed makes what was measured for the kernel stale
 */
public record KernelKey(String shape, SortedMap<String, String> classes) {
  public KernelKey {
    if (shape == null || shape.isEmpty()) throw new IllegalArgumentException("no shape");
    classes = Collections.unmodifiableSortedMap(new TreeMap<>(classes));
  }

  /**
   * The key of a kernel computing {@code template}.
   *
   * @param classHashes binary class name to a hash of that class's file, for every class the kernel's loops
   *     come from (the caller decides the hash; it only has to change when the file does)
   */
  public static KernelKey of(LoopTemplate template, Map<String, String> classHashes) {
    return new KernelKey(ShapeDigest.of(template), new TreeMap<>(classHashes));
  }

  /**
   * The 64-hex-digit name of the kernel's record on disk: its shape and the names of its classes, not their
   * hashes, so that the record of a class that changed is found, seen to be stale, and replaced.
   */
  String storeId() {
    MessageDigest sha = ShapeDigest.sha256();
    update(sha, "looplift-selection-id");
    update(sha, shape);
    for (String name : classes.keySet()) update(sha, name);
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void update(MessageDigest sha, String field) {
    byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
    // Length prefixes keep ("ab", "c") and ("a", "bc") apart.
    sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
    sha.update(bytes);
  }
}

package io.looplift.tracecache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * Device program binaries on disk, one file per {@link ProgramKey} named by its {@link ProgramKey#digest()},
 * so that a later JVM run loads programs instead of compiling them.
 *
 * <p>Best effort: an unreadable, truncated or corrupt file reads as absent, and a failed write is dropped.
 * Files are written to a temporary name and moved into place, so concurrent writers (threads or JVMs) never
 * expose a partial file. Thread-safe.
 */
public final class DiskProgramStore {
  private static final int MAGIC = 0x4c4c5042; // "LLPB"
  private static final int HEADER = 4 + 4 + 8;

  private final Path directory;

  /** A store in {@code directory}, created on the first write. */
  public DiskProgramStore(Path directory) {
    this.directory = directory;
  }

  /** A store in {@link #defaultDirectory()}. */
  public static DiskProgramStore atDefaultLocation() {
    return new DiskProgramStore(defaultDirectory());
  }

  /** {@code $XDG_CACHE_HOME/looplift/programs}, or {@code ~/.cache/looplift/programs} when that is unset. */
  public static Path defaultDirectory() {
    return defaultDirectory(System.getenv(), System.getProperty("user.home"));
  }

  static Path defaultDirectory(Map<String, String> env, String userHome) {
    String xdg = env.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(userHome, ".cache");
    return base.resolve("looplift").resolve("programs");
  }

  /** The directory holding the files. */
  public Path directory() {
    return directory;
  }

  /** The binary stored for {@code key}, or empty when there is none or it cannot be read intact. */
  public Optional<byte[]> read(ProgramKey key) {
    Path file = file(key);
    try {
      if (!Files.isRegularFile(file)) return Optional.empty();
      byte[] all = Files.readAllBytes(file);
      if (all.length < HEADER) return Optional.empty();
      ByteBuffer header = ByteBuffer.wrap(all, 0, HEADER);
      int magic = header.getInt();
      int length = header.getInt();
      long crc = header.getLong();
      if (magic != MAGIC || length != all.length - HEADER) return Optional.empty();
      byte[] binary = Arrays.copyOfRange(all, HEADER, all.length);
      return crc32(binary) == crc ? Optional.of(binary) : Optional.empty();
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** Stores {@code binary} for {@code key}, replacing any earlier file; returns false when that failed. */
  public boolean write(ProgramKey key, byte[] binary) {
    Path file = file(key);
    Path tmp = null;
    try {
      Files.createDirectories(directory);
      tmp = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
      ByteBuffer out = ByteBuffer.allocate(HEADER + binary.length);
      out.putInt(MAGIC).putInt(binary.length).putLong(crc32(binary)).put(binary);
      Files.write(tmp, out.array());
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      return true;
    } catch (IOException | SecurityException e) {
      if (tmp != null) delete(tmp);
      return false;
    }
  }

  /** Removes the file for {@code key}, if any (for a binary the device no longer accepts). */
  public void delete(ProgramKey key) {
    delete(file(key));
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException | SecurityException e) {
      // Best effort: a stale file is rejected again on its next read.
    }
  }

  private Path file(ProgramKey key) {
    return directory.resolve(key.digest() + ".bin");
  }

  private static long crc32(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }
}

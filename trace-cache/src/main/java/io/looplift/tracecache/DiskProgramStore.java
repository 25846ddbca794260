package io.looplift.tracecache;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Device program binaries on disk, one file per {@link ProgramKey} named by its {@link ProgramKey#digest()},
 * so that a later JVM run loads programs instead of compiling them.
 *
 * <p>A device binary can be native code that the driver loads into the process (it is for CPU devices such as
 * PoCL), so only the current user may be able to feed the store: the files live in an {@link OwnerOnlyStore},
 * which refuses a directory anybody else can write (one message on the warning channel, and no disk caching
 * for the rest of the run) and authenticates every entry, deleting one that fails (planted, altered,
 * truncated, renamed from another key's file, or written by an older LoopLift) so that its program is compiled
 * again and stored anew. Best effort and thread-safe, as that store is.
 */
public final class DiskProgramStore {
  /** "LLPH": an HMAC-authenticated entry (the entries of earlier versions, "LLPB", carried only a CRC32). */
  private static final int MAGIC = 0x4c4c5048;

  private final OwnerOnlyStore files;

  /** A store in {@code directory} whose refusal, if any, is printed to stderr. */
  public DiskProgramStore(Path directory) {
    this(directory, line -> System.err.println("looplift: " + line));
  }

  /**
   * A store in {@code directory}, checked and created on first use.
   *
   * @param warnings receives the one line saying why the directory is refused, at most once per store
   */
  public DiskProgramStore(Path directory, Consumer<String> warnings) {
    this.files = new OwnerOnlyStore(directory, MAGIC, ".bin", "compiled programs are not cached on disk", warnings);
  }

  /** A store in {@link #defaultDirectory()}, whose refusal, if any, is printed to stderr. */
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
    return files.directory();
  }

  /**
   * The binary stored for {@code key}, or empty when there is none, it cannot be read, or the directory is
   * refused. A stored file that fails authentication is deleted.
   */
  public Optional<byte[]> read(ProgramKey key) {
    return files.read(key.digest());
  }

  /**
   * Stores {@code binary} for {@code key}, replacing any earlier file; returns false when that failed or the
   * directory is refused.
   */
  public boolean write(ProgramKey key, byte[] binary) {
    return files.write(key.digest(), binary);
  }

  /** Removes the file for {@code key}, if any (for a binary the device no longer accepts). */
  public void delete(ProgramKey key) {
    files.delete(key.digest());
  }
}

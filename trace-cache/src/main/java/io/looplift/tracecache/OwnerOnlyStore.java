package io.looplift.tracecache;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.attribute.PosixFilePermission.GROUP_WRITE;
import static java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Entries of bytes in a directory only the current user can feed, each named by a 64-hex-digit id and
 * authenticated: the disk half of the caches whose entries persist between JVM runs (device programs, in
 * {@link DiskProgramStore}; executor choices, in the executors' selection).
 *
 * <p>On first use the store creates its directory owner-only ({@code rwx------}) if it is missing, then
 * refuses the directory (one message on the warning channel, and nothing read or written for the rest of the
 * run) when it, or any file in it, is not owned by the current user or is writable by group or others, when
 * its file system has no POSIX owners and permissions, or when it cannot be used at all. Every file is written
 * owner-only ({@code rw-------}).
 *
 * <p>Entries are authenticated: each carries an HMAC-SHA256 of its format, its id and its bytes under a
 * random 256-bit key kept in the file {@code hmac.key} of the directory (owner-only, made on first use). An
 * entry that fails the check (planted, altered, truncated, renamed from another id's file, or written in
 * another format) reads as absent and is deleted.
 *
 * <p>Otherwise best effort: an unreadable file reads as absent, and a failed write is dropped. Files are
 * written to a temporary name and moved into place, so concurrent writers (threads or JVMs) never expose a
 * partial file. Thread-safe.
 */
public final class OwnerOnlyStore {
  private static final int MAC_BYTES = HmacSha256.BYTES;
  private static final int HEADER = 4 + 4 + MAC_BYTES;
  private static final int KEY_BYTES = 32;
  /** The key's file; entries are named by 64 hex digits, so they never clash with it. */
  private static final String KEY_FILE = "hmac.key";
  private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

  /** What the directory passed its checks with: the current user, and the key entries are authenticated with. */
  private record Trust(UserPrincipal user, HmacSha256 key) {}

  private final Path directory;
  private final int magic;
  private final String suffix;
  private final String consequence;
  private final Consumer<String> warnings;
  private boolean opened; // guarded by this
  /** Null before the first use, and for good once the directory is refused. */
  private volatile Trust trust;

  /**
   * A store in {@code directory}, checked and created on first use.
   *
   * @param magic the first four bytes of every entry: its format, covered by the MAC, so that an entry of
   *     another format or store never passes
   * @param suffix the file name of an entry is its id followed by this
   * @param lost what the user loses when the directory is refused (e.g. "compiled programs are not cached on
   *     disk"), for the warning
   * @param warnings receives the one line saying why the directory is refused, at most once per store
   */
  public OwnerOnlyStore(Path directory, int magic, String suffix, String lost, Consumer<String> warnings) {
    this.directory = directory;
    this.magic = magic;
    this.suffix = suffix;
    this.consequence = "; " + lost + " (cache.dir must be a directory of yours holding only files of yours, none of"
        + " them writable by others; or set cache.dir to another directory)";
    this.warnings = warnings;
  }

  /**
   * Checks and creates the directory and reads (or makes) its key now, as the first {@link #read} or
   * {@link #write} would otherwise do; a refused directory is refused here, with its warning.
   */
  public void prepare() {
    trust();
  }

  /** The directory holding the files. */
  public Path directory() {
    return directory;
  }

  /**
   * The bytes stored under {@code id}, or empty when there are none, they cannot be read, or the directory is
   * refused. A stored file that fails authentication is deleted.
   *
   * @throws IllegalArgumentException when {@code id} is not 64 lower-case hex digits
   */
  public Optional<byte[]> read(String id) {
    Path file = file(id);
    Trust t = trust();
    if (t == null) return Optional.empty();
    try {
      PosixFileAttributes attributes;
      try {
        attributes = Files.readAttributes(file, PosixFileAttributes.class, NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return Optional.empty();
      }
      String problem = problem(file, attributes, t.user());
      if (problem != null) {
        refuse(problem);
        return Optional.empty();
      }
      Optional<byte[]> bytes = authentic(t.key(), id, readWithoutFollowing(file));
      if (bytes.isEmpty()) delete(file);
      return bytes;
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * Stores {@code bytes} under {@code id}, replacing any earlier file; returns false when that failed or the
   * directory is refused.
   *
   * @throws IllegalArgumentException when {@code id} is not 64 lower-case hex digits
   */
  public boolean write(String id, byte[] bytes) {
    Path file = file(id);
    Trust t = trust();
    if (t == null) return false;
    Path tmp = null;
    try {
      tmp = Files.createTempFile(directory, file.getFileName().toString(), ".tmp", ownerOnlyFile());
      ByteBuffer out = ByteBuffer.allocate(HEADER + bytes.length);
      out.putInt(magic).putInt(bytes.length).put(mac(t.key(), id, bytes)).put(bytes);
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

  /**
   * Removes the file for {@code id}, if any.
   *
   * @throws IllegalArgumentException when {@code id} is not 64 lower-case hex digits
   */
  public void delete(String id) {
    Path file = file(id);
    if (trust() != null) delete(file);
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException | SecurityException e) {
      // Best effort: a stale file is rejected again on its next read.
    }
  }

  private Path file(String id) {
    if (id.length() != 64 || !id.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      throw new IllegalArgumentException("an entry's id is 64 lower-case hex digits, not '" + id + "'");
    }
    return directory.resolve(id + suffix);
  }

  /** The trust the directory was opened with, opening it on the first call; null once it is refused. */
  private Trust trust() {
    Trust t = trust;
    if (t != null) return t;
    synchronized (this) {
      if (!opened) {
        opened = true;
        try {
          trust = open();
        } catch (Refusal r) {
          warnings.accept(r.getMessage() + consequence);
        }
      }
      return trust;
    }
  }

  /** Stops disk caching for good after the checks passed once; says why, the first time only. */
  private synchronized void refuse(String problem) {
    if (trust == null) return;
    trust = null;
    warnings.accept(problem + consequence);
  }

  /** Creates the directory if needed, checks it and every file in it, and reads (or makes) the key. */
  private Trust open() throws Refusal {
    if (!directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      throw new Refusal("cache.dir " + directory + " is on a file system without POSIX owners and permissions");
    }
    try {
      UserPrincipal user = currentUser();
      try {
        Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
      } catch (FileAlreadyExistsException e) {
        throw new Refusal("cache.dir " + directory + " exists and is not a directory");
      }
      // Following a link here: the directory a link leads to must be the user's, wherever it is.
      String problem = problem(directory, Files.readAttributes(directory, PosixFileAttributes.class), user);
      if (problem != null) throw new Refusal(problem);
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
        for (Path f : files) {
          PosixFileAttributes a;
          try {
            a = Files.readAttributes(f, PosixFileAttributes.class, NOFOLLOW_LINKS);
          } catch (NoSuchFileException e) {
            continue; // another JVM's temporary file, moved into place since the listing
          }
          problem = problem(f, a, user);
          if (problem != null) throw new Refusal(problem);
        }
      }
      return new Trust(user, new HmacSha256(key(user)));
    } catch (IOException | SecurityException e) {
      throw new Refusal("cannot use cache.dir " + directory + " (" + e + ")");
    }
  }

  /**
   * The user running this JVM, as the file system names owners. {@code user.name} is the name of the
   * process's user on every POSIX platform the JDK supports.
   */
  private UserPrincipal currentUser() throws IOException, Refusal {
    String name = System.getProperty("user.name");
    try {
      return directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name);
    } catch (UserPrincipalNotFoundException e) {
      throw new Refusal("cannot tell who owns cache.dir " + directory + ": the user '" + name
          + "' running this JVM is unknown");
    }
  }

  /** Why {@code path} (the directory or a file in it) makes the directory untrusted; null when it does not. */
  private String problem(Path path, PosixFileAttributes a, UserPrincipal user) {
    String what = path.equals(directory) ? "cache.dir " + path : "cache.dir holds " + path + ", which";
    if (!a.owner().equals(user)) {
      return what + " is owned by " + a.owner().getName() + ", not by " + user.getName() + " (the user running this JVM)";
    }
    // A link's own permissions mean nothing (they read rwxrwxrwx); it is never followed inside the directory.
    if (!a.isSymbolicLink() && (a.permissions().contains(GROUP_WRITE) || a.permissions().contains(OTHERS_WRITE))) {
      return what + " is writable by others (" + PosixFilePermissions.toString(a.permissions()) + ")";
    }
    return null;
  }

  /** The directory's key, made on first use; the file must be the user's and readable by nobody else. */
  private byte[] key(UserPrincipal user) throws IOException, Refusal {
    Path file = directory.resolve(KEY_FILE);
    if (Files.notExists(file, NOFOLLOW_LINKS)) makeKey(file);
    PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, NOFOLLOW_LINKS);
    // Checked again: another JVM may have made the key after the directory was listed.
    String problem = problem(file, a, user);
    if (problem != null) throw new Refusal(problem);
    if (!a.isRegularFile() || !OWNER_ONLY_FILE.containsAll(a.permissions())) {
      throw new Refusal("cache.dir's key " + file + " must be a file only its owner can read (rw-------), not "
          + (a.isRegularFile() ? PosixFilePermissions.toString(a.permissions()) : "a link or a directory"));
    }
    byte[] key = readWithoutFollowing(file);
    if (key.length != KEY_BYTES) {
      throw new Refusal("cache.dir's key " + file + " is damaged (" + key.length + " bytes, not " + KEY_BYTES
          + "); delete it and LoopLift makes a new one");
    }
    return key;
  }

  /**
   * Writes a new random key to {@code file}. The move does not replace an existing file, so when two JVMs
   * race, the first key stays; in the rare race the check-then-rename of {@link Files#move} loses, a JVM
   * authenticates its entries with a key that is then replaced, and they are merely compiled again later.
   */
  private void makeKey(Path file) throws IOException {
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    Path tmp = Files.createTempFile(directory, KEY_FILE, ".tmp", ownerOnlyFile());
    try {
      Files.write(tmp, key);
      Files.move(tmp, file);
    } catch (FileAlreadyExistsException e) {
      // Another JVM made the key first: that one is used.
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The contents of {@code file}, failing if it is a link (only the checked file itself is ever read). */
  private static byte[] readWithoutFollowing(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file, NOFOLLOW_LINKS)) {
      return in.readAllBytes();
    }
  }

  /** The bytes of a stored file {@code all} for {@code id}, or empty when it is not authentic. */
  private Optional<byte[]> authentic(HmacSha256 secret, String id, byte[] all) {
    if (all.length < HEADER) return Optional.empty();
    ByteBuffer header = ByteBuffer.wrap(all, 0, HEADER);
    if (header.getInt() != magic || header.getInt() != all.length - HEADER) return Optional.empty();
    byte[] mac = new byte[MAC_BYTES];
    header.get(mac);
    byte[] bytes = Arrays.copyOfRange(all, HEADER, all.length);
    // Constant time, so that timing tells nothing about how much of a forged MAC was right.
    return MessageDigest.isEqual(mac, mac(secret, id, bytes)) ? Optional.of(bytes) : Optional.empty();
  }

  /**
   * The MAC of an entry: over the format, the id (so an entry copied to another id's file name fails) and
   * the bytes.
   */
  private byte[] mac(HmacSha256 secret, String id, byte[] bytes) {
    return secret.mac(ByteBuffer.allocate(4).putInt(magic).array(), id.getBytes(StandardCharsets.US_ASCII), bytes);
  }

  private static FileAttribute<Set<PosixFilePermission>> ownerOnlyFile() {
    return PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE);
  }

  /** Why the directory is not used; the message names the path and what is wrong with it. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;

    Refusal(String message) {
      super(message, null, false, false);
    }
  }
}

package io.looplift.agent;

import io.looplift.analyzer.AnalysisMemo;
import io.looplift.profiler.Profiler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntPredicate;
import java.util.zip.CRC32C;

/**
 * The {@link AnalysisMemo} kept between runs: one file under {@code cache.dir}'s {@code analysis} folder per
 * build of the agent and set of rewriting options (what makes a record valid: another analyzer, JVM or
 * {@code min.length} may find other loops worth it), read when the agent starts and written back at exit
 * with what this run analyzed. Files of other builds are deleted then. A file that cannot be read, or holds a
 * record of another build, reads as empty. As with the program cache, nothing is read or written unless
 * nobody but the user running the JVM can write {@code cache.dir}, the folder and the file; but a record can
 * only leave loops as they are, never change what a program computes, so the files are not authenticated.
 * Clearing the folder makes the next run analyze every class again.
 *
 * <p>It also watches the methods it is told were rewritten ({@link #rewrote}): when two runs in a row that
 * loaded a class reached none of its rewritten loops, its methods are passed over at load by the next
 * {@link #RESTING_RUNS} runs that load it (their loops run as they are, and the report gives them the reason
 * of loops analyzed late); the run after those analyzes them again, and sends them back to rest if they go
 * unreached once more. A class one of whose loops runs keeps all of them analyzed. A large program loads
 * library classes for a method or two and rewrites their loops that never run (Commons Lang's
 * {@code ArrayUtils} in a Spark job): their analysis, on the thread loading them, with the analyzer's own code
 * still cold, was most of what the agent cost that job's start.
 * Thread-safe.
 */
final class StoredAnalysisMemo implements AnalysisMemo {
  /** "LLA2": the file's first four bytes. */
  private static final int MAGIC = 0x4c4c4132;
  private static final int MAX_CLASSES = 1 << 20;
  /**
   * How many records a file keeps, at most about 2.5 MB read at every start: past it, only those this run used or
   * made are written back (a program's classes stay; those of programs not run lately go).
   */
  static final int KEPT_CLASSES = 1 << 16;
  /** A zip file's end record without a comment: its length, and its first four bytes. */
  private static final int END_RECORD = 22;
  private static final int END_SIGNATURE = 0x06054b50;
  private static final int MAX_WORDS = 1 << 10; // 65,536 methods, HotSpot's limit on a class
  /** How many runs that load a class pass over its methods once two runs in a row reached none of its loops. */
  static final int RESTING_RUNS = 8;

  /**
   * What the file keeps of one class file: the methods worth analyzing; of those, the ones whose loops the
   * last run that rewrote them did not reach; and the ones passed over at load by the next {@code rest} runs
   * that load the class.
   */
  record Entry(BitSet worth, BitSet unreached, BitSet resting, int rest) {
    /** A class file just analyzed. */
    static Entry of(BitSet worth) {
      return new Entry(worth, new BitSet(), new BitSet(), 0);
    }

    /**
     * What a run that rewrote {@code rewritten} (methods by index) and {@code reached} a loop of any of them or
     * not makes of it. Only a run that reached none of the class's loops counts against them: where one ran,
     * the others may well run in another run (other input, another command of the same program), so they are
     * all analyzed again from the next run on.
     */
    Entry after(BitSet rewritten, boolean reached) {
      if (reached) return of(worth);
      BitSet nowUnreached = (BitSet) unreached.clone();
      BitSet nowResting = (BitSet) resting.clone();
      int nowRest = rest;
      for (int method = rewritten.nextSetBit(0); method >= 0; method = rewritten.nextSetBit(method + 1)) {
        if (nowUnreached.get(method)) {
          nowUnreached.clear(method);
          nowResting.set(method);
          nowRest = RESTING_RUNS;
        } else {
          nowUnreached.set(method);
        }
      }
      return new Entry(worth, nowUnreached, nowResting, nowRest);
    }
  }

  /** Loop sites {@code sites} of method {@code method} of the class file with hash {@code classHash}. */
  private record Rewrite(long classHash, int method, int[] sites) {}

  private final Path file; // null: cache.dir refused, nothing read or written
  private final String build;
  private final Map<Long, Entry> known;
  private final Map<Long, BitSet> analyzed = new ConcurrentHashMap<>();
  /** The entries whose resting methods this run's loads counted down or took back. */
  private final Map<Long, Entry> loaded = new ConcurrentHashMap<>();
  private final Queue<Rewrite> rewrites = new ConcurrentLinkedQueue<>();
  private final Set<Long> used = ConcurrentHashMap.newKeySet();
  private final Profiler profiler;

  private StoredAnalysisMemo(Path file, String build, Map<Long, Entry> known, Profiler profiler) {
    this.file = file;
    this.build = build;
    this.known = known;
    this.profiler = profiler;
  }

  /**
   * The memo for {@code build} (the agent's build and the options that decide what the analyzer accepts) in
   * {@code cacheDir}'s {@code analysis} folder, with what that holds for it; {@code profiler} counts the class
   * files it knows.
   */
  static StoredAnalysisMemo open(Path cacheDir, String build, Profiler profiler) {
    CRC32C crc = new CRC32C();
    crc.update(build.getBytes(StandardCharsets.UTF_8));
    Path folder = cacheDir.resolve("analysis");
    Path file = folder.resolve("memo-" + HexFormat.of().toHexDigits((int) crc.getValue()) + ".bin");
    if (!onlyTheUserWrites(cacheDir, cacheDir, folder, file)) {
      return new StoredAnalysisMemo(null, build, Map.of(), profiler);
    }
    return new StoredAnalysisMemo(file, build, read(file, build), profiler);
  }

  /**
   * True when each of {@code paths} that exists belongs to the user running this JVM and nobody else may
   * write it (a link is followed for {@code cacheDir} itself, refused inside it), on a file system with POSIX
   * owners.
   */
  private static boolean onlyTheUserWrites(Path cacheDir, Path... paths) {
    try {
      if (!cacheDir.getFileSystem().supportedFileAttributeViews().contains("posix")) return false;
      UserPrincipal user = cacheDir.getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByName(System.getProperty("user.name"));
      for (Path p : paths) {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) continue;
        LinkOption[] links = p.equals(cacheDir) ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
        PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, links);
        Set<PosixFilePermission> perms = a.permissions();
        if (!a.owner().equals(user) || a.isSymbolicLink() || perms.contains(PosixFilePermission.GROUP_WRITE)
            || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
          return false;
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * What identifies a build of the agent: its version, the JVM's, and a checksum of the central directory of
   * the jar its classes run from, which holds every entry's name, sizes and CRC-32 (a rebuilt jar keeps its
   * version; the launcher extracts it anew for every run, so its time says nothing). Only the directory is
   * read, at every start: 0.3 ms against 4 ms for the whole 3 MB jar. Null when the classes do not run from a
   * jar file, so that nothing is remembered for classes on a build tree that may change under it.
   */
  static String agentBuild(String version) {
    try {
      Path jar = Path.of(StoredAnalysisMemo.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!Files.isRegularFile(jar)) return null;
      return version + " on " + System.getProperty("java.vm.version") + ", jar directory checksum "
          + HexFormat.of().toHexDigits((int) centralDirectoryChecksum(jar));
    } catch (Exception e) {
      return null;
    }
  }

  /**
   * A CRC-32C of the central directory of zip file {@code zip}, found through its end record (which ends
   * the file when the archive has no comment, as a jar has not).
   *
   * @throws IOException when the file cannot be read or is not a zip file of this kind (one with a comment,
   *     or a zip64 archive)
   */
  static long centralDirectoryChecksum(Path zip) throws IOException {
    try (FileChannel file = FileChannel.open(zip, StandardOpenOption.READ)) {
      ByteBuffer end = read(file, file.size() - END_RECORD, END_RECORD);
      if (end.getInt(0) != END_SIGNATURE) throw new IOException(zip + " has no zip end record where it ends");
      long size = end.getInt(12) & 0xFFFFFFFFL;
      long offset = end.getInt(16) & 0xFFFFFFFFL;
      if (size + offset + END_RECORD > file.size()) throw new IOException(zip + ": central directory out of range");
      CRC32C crc = new CRC32C();
      crc.update(read(file, offset, (int) size));
      return crc.getValue();
    }
  }

  /** {@code length} bytes of {@code file} from {@code position}, little-endian, as zip files are. */
  private static ByteBuffer read(FileChannel file, long position, int length) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (file.read(b, position + b.position()) < 0) throw new IOException("unexpected end of file");
    }
    return b.flip();
  }

  @Override
  public BitSet methodsWorthAnalyzing(long classHash) {
    Entry e = known.get(classHash);
    if (e == null) return null;
    used.add(classHash);
    profiler.analysisRemembered();
    if (e.resting().isEmpty()) return e.worth();
    if (e.rest() == 0) {
      // Rested long enough: analyzed again, and back to rest after one more run that does not reach them.
      BitSet unreached = (BitSet) e.unreached().clone();
      unreached.or(e.resting());
      loaded.putIfAbsent(classHash, new Entry(e.worth(), unreached, new BitSet(), 0));
      return e.worth();
    }
    loaded.putIfAbsent(classHash, new Entry(e.worth(), e.unreached(), e.resting(), e.rest() - 1));
    BitSet now = (BitSet) e.worth().clone();
    now.andNot(e.resting());
    return now;
  }

  @Override
  public void analyzed(long classHash, BitSet worthAnalyzing) {
    analyzed.put(classHash, (BitSet) worthAnalyzing.clone());
  }

  @Override
  public void rewrote(long classHash, int method, int[] siteIds) {
    rewrites.add(new Rewrite(classHash, method, siteIds.clone()));
  }

  /**
   * Writes what the file holds, what this run read, what it analyzed and which of the methods it rewrote
   * {@code reached} says it ran a loop of (only what this run used and made, past {@link #KEPT_CLASSES}), to
   * the file, through a temporary file moved in place (a program running at the same time reads the old file
   * or the new one); deletes the files of other builds. Does nothing when this run changed no record, or
   * {@code cache.dir} was refused.
   *
   * @param reached whether a loop site's preamble ran in this run
   * @throws IOException when the folder or the file cannot be written
   */
  void save(IntPredicate reached) throws IOException {
    if (file == null) return;
    Map<Long, Entry> updates = new HashMap<>();
    analyzed.forEach((hash, worth) -> updates.put(hash, Entry.of(worth)));
    updates.putAll(loaded);
    Map<Long, BitSet> rewritten = new HashMap<>();
    Set<Long> ran = new HashSet<>(); // the class files a loop of which this run reached
    for (Rewrite r : rewrites) {
      rewritten.computeIfAbsent(r.classHash(), h -> new BitSet()).set(r.method());
      for (int site : r.sites()) {
        if (reached.test(site)) ran.add(r.classHash());
      }
    }
    rewritten.forEach((hash, methods) -> {
      Entry e = updates.getOrDefault(hash, known.get(hash));
      if (e == null) return;
      Entry next = e.after(methods, ran.contains(hash));
      if (!next.equals(e)) updates.put(hash, next);
    });
    if (updates.isEmpty()) return;
    Map<Long, Entry> all = new HashMap<>(read(file, build));
    all.putAll(known);
    all.putAll(updates);
    if (all.size() > KEPT_CLASSES) {
      all = new HashMap<>(updates);
      for (Long hash : used) all.putIfAbsent(hash, known.get(hash));
    }
    Path directory = file.getParent();
    Files.createDirectories(directory,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path temporary = Files.createTempFile(directory, "memo-", ".tmp");
    try {
      Files.write(temporary, encode(build, all));
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temporary);
    }
    try (DirectoryStream<Path> others = Files.newDirectoryStream(directory, "memo-*.bin")) {
      for (Path other : others) {
        if (!other.equals(file)) Files.deleteIfExists(other);
      }
    }
  }

  /** The file's records, empty when it is missing, unreadable or of another build. */
  private static Map<Long, Entry> read(Path file, String build) {
    try {
      return decode(build, Files.readAllBytes(file));
    } catch (IOException | RuntimeException e) {
      return new ConcurrentHashMap<>();
    }
  }

  static byte[] encode(String build, Map<Long, Entry> records) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeUTF(build);
      out.writeInt(records.size());
      for (Map.Entry<Long, Entry> r : records.entrySet()) {
        Entry e = r.getValue();
        out.writeLong(r.getKey());
        for (BitSet methods : new BitSet[] {e.worth(), e.unreached(), e.resting()}) {
          long[] words = methods.toLongArray();
          out.writeShort(words.length);
          for (long w : words) out.writeLong(w);
        }
        out.writeByte(e.rest());
      }
    }
    return bytes.toByteArray();
  }

  /** The records in {@code bytes}, empty unless they are a whole file of {@code build}. */
  static Map<Long, Entry> decode(String build, byte[] bytes) throws IOException {
    Map<Long, Entry> records = new ConcurrentHashMap<>();
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    if (in.readInt() != MAGIC || !in.readUTF().equals(build)) return records;
    int count = in.readInt();
    if (count < 0 || count > MAX_CLASSES) return records;
    for (int k = 0; k < count; k++) {
      long hash = in.readLong();
      BitSet worth = methods(in);
      BitSet unreached = methods(in);
      BitSet resting = methods(in);
      int rest = in.readUnsignedByte();
      if (worth == null || unreached == null || resting == null || rest > RESTING_RUNS) return new ConcurrentHashMap<>();
      records.put(hash, new Entry(worth, unreached, resting, rest));
    }
    return in.read() == -1 ? records : new ConcurrentHashMap<>();
  }

  /** A set of methods as {@link #encode} writes it; null when it cannot be one. */
  private static BitSet methods(DataInputStream in) throws IOException {
    int n = in.readUnsignedShort();
    if (n > MAX_WORDS) return null;
    long[] words = new long[n];
    for (int w = 0; w < n; w++) words[w] = in.readLong();
    return BitSet.valueOf(words);
  }
}

package io.looplift.tracecache;

import static java.nio.file.attribute.PosixFilePermissions.fromString;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Who may feed the disk store (its owner only) and which entries it accepts (authentic ones only). */
class DiskProgramStoreTest {
  @TempDir Path tmp;
  private final List<String> warnings = new ArrayList<>();

  private DiskProgramStore store(Path dir) {
    return new DiskProgramStore(dir, warnings::add);
  }

  private static ProgramKey key(String source) {
    return new ProgramKey(source, "device", "driver 1", "-opt", "1.0");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Path entry(Path dir, ProgramKey key) {
    return dir.resolve(key.digest() + ".bin");
  }

  private static String permissions(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A directory of the user's, holding one authentic entry for {@code key("k")}. */
  private Path cacheWithEntry() {
    Path dir = tmp.resolve("programs");
    assertTrue(store(dir).write(key("k"), bytes("program:k")));
    return dir;
  }

  private void assertOneRefusal(String problem) {
    assertEquals(1, warnings.size(), () -> "warnings: " + warnings);
    String w = warnings.get(0);
    assertTrue(w.contains(problem), w);
    assertTrue(w.contains("compiled programs are not cached on disk"), w);
    assertTrue(w.contains("set cache.dir to another directory"), w);
    assertFalse(w.contains("\n"), w);
  }

  @Test
  void createsTheDirectoryAndEveryFileOwnerOnly() throws IOException {
    Path dir = tmp.resolve("a").resolve("programs");
    DiskProgramStore store = store(dir);
    assertTrue(store.write(key("k"), bytes("program:k")));
    assertEquals("rwx------", permissions(dir));
    assertEquals(List.of(key("k").digest() + ".bin", "hmac.key"), names(dir));
    for (String name : names(dir)) assertEquals("rw-------", permissions(dir.resolve(name)), name);
    assertArrayEquals(bytes("program:k"), store.read(key("k")).orElseThrow());
    assertArrayEquals(bytes("program:k"), store(dir).read(key("k")).orElseThrow(), "a second store shares the key");
    assertEquals(List.of(), warnings);
  }

  @ParameterizedTest
  @ValueSource(strings = {"rwxrwxrwx", "rwxrwx---", "rwx----w-"})
  void directoryWritableByOthersIsRefusedOnce(String mode) throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(dir, fromString(mode));
    DiskProgramStore store = store(dir);
    assertFalse(store.write(key("k"), bytes("program:k")));
    assertTrue(store.read(key("k")).isEmpty());
    assertFalse(store.write(key("j"), bytes("program:j")));
    assertOneRefusal("cache.dir " + dir + " is writable by others (" + mode + ")");
    assertEquals(List.of(), names(dir), "nothing is written to a refused directory");
  }

  @Test
  void authenticEntriesAreNotReadFromADirectoryOthersCanWrite() throws IOException {
    Path dir = cacheWithEntry();
    Files.setPosixFilePermissions(dir, fromString("rwxrwxrwx"));
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertOneRefusal("is writable by others");
  }

  @Test
  void aFileOthersCanWriteRefusesTheDirectory() throws IOException {
    Path dir = cacheWithEntry();
    Path file = entry(dir, key("k"));
    Files.setPosixFilePermissions(file, fromString("rw-rw-rw-"));
    DiskProgramStore store = store(dir);
    assertTrue(store.read(key("k")).isEmpty());
    assertFalse(store.write(key("j"), bytes("program:j")));
    assertOneRefusal("cache.dir holds " + file + ", which is writable by others (rw-rw-rw-)");
    assertTrue(Files.exists(file), "a refused directory is left as it is");
  }

  @Test
  void aFileThatBecomesWritableByOthersRefusesTheDirectoryWhenRead() throws IOException {
    Path dir = cacheWithEntry();
    DiskProgramStore store = store(dir);
    assertTrue(store.write(key("j"), bytes("program:j")));
    Files.setPosixFilePermissions(entry(dir, key("k")), fromString("rw-rw-rw-"));
    assertTrue(store.read(key("k")).isEmpty());
    assertTrue(store.read(key("j")).isEmpty(), "refused for the rest of the run");
    assertFalse(store.write(key("i"), bytes("program:i")));
    assertOneRefusal("which is writable by others (rw-rw-rw-)");
  }

  @Test
  void aFileOfAnotherUserRefusesTheDirectory() throws IOException {
    Path dir = cacheWithEntry();
    Path file = entry(dir, key("k"));
    UserPrincipal other;
    try {
      other = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(file, other);
    } catch (IOException e) {
      Assumptions.abort("cannot give a file to another user here: " + e);
      return;
    }
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertOneRefusal("cache.dir holds " + file + ", which is owned by nobody, not by " + System.getProperty("user.name"));
  }

  @Test
  void aKeyOthersCanReadRefusesTheDirectory() throws IOException {
    Path dir = cacheWithEntry();
    Path keyFile = dir.resolve("hmac.key");
    Files.setPosixFilePermissions(keyFile, fromString("rw-r--r--"));
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertOneRefusal("cache.dir's key " + keyFile + " must be a file only its owner can read (rw-------), not rw-r--r--");
  }

  @Test
  void aDamagedKeyRefusesTheDirectory() throws IOException {
    Path dir = cacheWithEntry();
    Files.write(dir.resolve("hmac.key"), new byte[5]);
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertOneRefusal("is damaged (5 bytes, not 32); delete it");
  }

  @Test
  void aFileWhereTheDirectoryShouldBeIsRefused() throws IOException {
    Path file = Files.writeString(tmp.resolve("programs"), "not a directory");
    assertFalse(store(file).write(key("k"), bytes("program:k")));
    assertOneRefusal("cache.dir " + file + " exists and is not a directory");
  }

  @Test
  void aFileSystemWithoutPosixPermissionsIsRefused() throws IOException {
    try (FileSystem zip = FileSystems.newFileSystem(tmp.resolve("cache.zip"), Map.of("create", "true"))) {
      Path dir = zip.getPath("/programs");
      assertFalse(store(dir).write(key("k"), bytes("program:k")));
      assertOneRefusal("is on a file system without POSIX owners and permissions");
      assertFalse(Files.exists(dir));
    }
  }

  /** Other writers' temporary files come and go while a store lists the directory; none is a reason to refuse it. */
  @Test
  void concurrentWritersNeverGetTheDirectoryRefused() throws Exception {
    Path dir = cacheWithEntry();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      DiskProgramStore writer = new DiskProgramStore(dir, line -> { });
      int id = w;
      Thread t = new Thread(() -> {
        for (int i = 0; !stop.get(); i++) writer.write(key("w" + id + "-" + i % 20), new byte[10]);
      });
      t.start();
      writers.add(t);
    }
    try {
      for (int r = 0; r < 100; r++) {
        assertArrayEquals(bytes("program:k"), store(dir).read(key("k")).orElse(null), () -> "refused: " + warnings);
      }
    } finally {
      stop.set(true);
      for (Thread t : writers) t.join();
    }
    assertEquals(List.of(), warnings);
  }

  @Test
  void anAlteredEntryIsRejectedAndDeleted() throws IOException {
    Path dir = cacheWithEntry();
    Path file = entry(dir, key("k"));
    byte[] all = Files.readAllBytes(file);
    all[all.length - 1] ^= 1;
    Files.write(file, all);
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertFalse(Files.exists(file));
    assertEquals(List.of(), warnings, "a bad entry is no reason to refuse the directory");
  }

  @Test
  void anEntryAuthenticatedUnderAnotherKeyIsRejectedAndDeleted() throws IOException {
    Path dir = cacheWithEntry();
    Path elsewhere = tmp.resolve("elsewhere");
    assertTrue(store(elsewhere).write(key("k"), bytes("program:planted")));
    Files.copy(entry(elsewhere, key("k")), entry(dir, key("k")), StandardCopyOption.REPLACE_EXISTING);
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertFalse(Files.exists(entry(dir, key("k"))));
  }

  @Test
  void anEntryCopiedToAnotherKeysNameIsRejected() throws IOException {
    Path dir = cacheWithEntry();
    Files.copy(entry(dir, key("k")), entry(dir, key("j")));
    DiskProgramStore store = store(dir);
    assertTrue(store.read(key("j")).isEmpty());
    assertArrayEquals(bytes("program:k"), store.read(key("k")).orElseThrow());
  }

  @Test
  void anEntryWithOnlyAChecksumIsRejectedAndDeleted() throws IOException {
    Path dir = cacheWithEntry();
    byte[] binary = bytes("program:unsigned");
    CRC32 crc = new CRC32();
    crc.update(binary);
    // The format before entries were authenticated: magic "LLPB", length, CRC32, binary.
    ByteBuffer old = ByteBuffer.allocate(16 + binary.length)
        .putInt(0x4c4c5042).putInt(binary.length).putLong(crc.getValue()).put(binary);
    Path file = entry(dir, key("k"));
    Files.write(file, old.array());
    assertTrue(store(dir).read(key("k")).isEmpty());
    assertFalse(Files.exists(file));
  }
}

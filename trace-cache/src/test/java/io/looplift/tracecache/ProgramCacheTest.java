package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The program cache with string "programs" whose binary is their source reversed. */
class ProgramCacheTest {
  private final List<String> released = new ArrayList<>();
  private final AtomicInteger compiled = new AtomicInteger();
  private final AtomicInteger loaded = new AtomicInteger();

  private final ProgramCache.Compiler<String> compiler = new ProgramCache.Compiler<>() {
    @Override
    public String compile(ProgramKey key) throws Exception {
      if (key.source().contains("syntax error")) throw new Exception("build log: syntax error");
      compiled.incrementAndGet();
      return "program:" + key.source();
    }

    @Override
    public String load(ProgramKey key, byte[] binary) throws Exception {
      String s = new String(binary, StandardCharsets.UTF_8);
      if (!s.startsWith("program:")) throw new Exception("device rejects binary");
      loaded.incrementAndGet();
      return s;
    }

    @Override
    public byte[] binary(String program) {
      return program.getBytes(StandardCharsets.UTF_8);
    }
  };

  private static ProgramKey key(String source) {
    return new ProgramKey(source, "device", "driver 1", "-opt", "1.0");
  }

  private ProgramCache<String> cache(long size, DiskProgramStore disk) {
    return new ProgramCache<>(size, disk, p -> {
      synchronized (released) {
        released.add(p);
      }
    });
  }

  @Test
  void compilesOnceThenHitsMemory() throws Exception {
    ProgramCache<String> cache = cache(10, null);
    try (ProgramLease<String> a = cache.acquire(key("k1"), compiler)) {
      assertEquals("program:k1", a.program());
    }
    try (ProgramLease<String> b = cache.acquire(key("k1"), compiler)) {
      assertEquals("program:k1", b.program());
    }
    assertEquals(new ProgramCache.Stats(1, 0, 1, 0), cache.stats());
    cache.close();
    assertEquals(List.of("program:k1"), released);
  }

  @Test
  void secondCacheLoadsFromDisk(@TempDir Path dir) throws Exception {
    DiskProgramStore disk = new DiskProgramStore(dir.resolve("programs"));
    try (ProgramCache<String> first = cache(10, disk); ProgramLease<String> l = first.acquire(key("k"), compiler)) {
      assertEquals("program:k", l.program());
      assertEquals(1, first.stats().compiles());
    }
    try (ProgramCache<String> second = cache(10, disk); ProgramLease<String> l = second.acquire(key("k"), compiler)) {
      assertEquals("program:k", l.program());
      assertEquals(new ProgramCache.Stats(0, 1, 0, 0), second.stats());
    }
    assertEquals(1, compiled.get());
    assertEquals(1, loaded.get());
  }

  @Test
  void keyFieldsAllMatter(@TempDir Path dir) throws Exception {
    DiskProgramStore disk = new DiskProgramStore(dir);
    disk.write(key("k"), "program:k".getBytes(StandardCharsets.UTF_8));
    assertTrue(disk.read(new ProgramKey("k", "device", "driver 2", "-opt", "1.0")).isEmpty());
    assertTrue(disk.read(new ProgramKey("k", "device", "driver 1", "-opt", "1.1")).isEmpty());
    assertTrue(disk.read(new ProgramKey("k", "other", "driver 1", "-opt", "1.0")).isEmpty());
    assertTrue(disk.read(new ProgramKey("k", "device", "driver 1", "", "1.0")).isEmpty());
    assertTrue(disk.read(key("k")).isPresent());
    assertNotEquals(new ProgramKey("ab", "c", "", "", "").digest(), new ProgramKey("a", "bc", "", "", "").digest());
  }

  @Test
  void rejectedBinaryIsRecompiledAndReplaced(@TempDir Path dir) throws Exception {
    DiskProgramStore disk = new DiskProgramStore(dir);
    disk.write(key("k"), "garbage".getBytes(StandardCharsets.UTF_8));
    try (ProgramCache<String> cache = cache(10, disk); ProgramLease<String> l = cache.acquire(key("k"), compiler)) {
      assertEquals("program:k", l.program());
      assertEquals(1, cache.stats().compiles());
    }
    assertEquals("program:k", new String(disk.read(key("k")).orElseThrow(), StandardCharsets.UTF_8));
  }

  /** A binary the device would accept, but planted by someone without the store's key: compiled, never loaded. */
  @Test
  void plantedBinaryIsCompiledNotLoaded(@TempDir Path dir) throws Exception {
    Path mine = dir.resolve("mine");
    Path theirs = dir.resolve("theirs");
    new DiskProgramStore(theirs).write(key("k"), "program:planted".getBytes(StandardCharsets.UTF_8));
    Files.createDirectory(mine);
    Files.copy(theirs.resolve(key("k").digest() + ".bin"), mine.resolve(key("k").digest() + ".bin"));
    DiskProgramStore disk = new DiskProgramStore(mine);
    try (ProgramCache<String> cache = cache(10, disk); ProgramLease<String> l = cache.acquire(key("k"), compiler)) {
      assertEquals("program:k", l.program());
      assertEquals(new ProgramCache.Stats(0, 0, 1, 0), cache.stats());
    }
    assertEquals(0, loaded.get());
    assertEquals("program:k", new String(disk.read(key("k")).orElseThrow(), StandardCharsets.UTF_8));
  }

  @Test
  void truncatedFileReadsAsAbsent(@TempDir Path dir) throws Exception {
    DiskProgramStore disk = new DiskProgramStore(dir);
    assertTrue(disk.write(key("k"), new byte[100]));
    Path file = dir.resolve(key("k").digest() + ".bin");
    Files.write(file, java.util.Arrays.copyOf(Files.readAllBytes(file), 50));
    assertTrue(disk.read(key("k")).isEmpty());
  }

  @Test
  void buildFailureIsReportedAndNotCached() {
    ProgramCache<String> cache = cache(10, null);
    ProgramBuildException e = assertThrows(ProgramBuildException.class, () -> cache.acquire(key("syntax error"), compiler));
    assertEquals("build log: syntax error", e.getCause().getMessage());
    assertEquals(0, cache.size());
  }

  @Test
  void evictedProgramIsReleasedOnlyAfterItsLeaseCloses() throws Exception {
    ProgramCache<String> cache = cache(1, null);
    ProgramLease<String> held = cache.acquire(key("a"), compiler);
    for (int k = 0; k < 20; k++) cache.acquire(key("b" + k), compiler).close();
    assertEquals(1, cache.size());
    assertTrue(cache.stats().evictions() > 0);
    assertFalse(released.contains("program:a"), "released while leased");
    assertEquals("program:a", held.program());
    held.close();
    assertTrue(released.contains("program:a"));
    cache.close();
    assertEquals(21, released.size()); // every program released exactly once
    assertEquals(21, released.stream().distinct().count());
  }

  @Test
  void defaultDirectoryFollowsXdg() {
    assertEquals(Path.of("/x/cache/looplift/programs"), DiskProgramStore.defaultDirectory(Map.of("XDG_CACHE_HOME", "/x/cache"), "/home/u"));
    assertEquals(Path.of("/home/u/.cache/looplift/programs"), DiskProgramStore.defaultDirectory(Map.of(), "/home/u"));
  }
}

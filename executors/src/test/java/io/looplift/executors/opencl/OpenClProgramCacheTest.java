package io.looplift.executors.opencl;

import static io.looplift.executors.opencl.OpenClTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.ExecutionException;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Type;
import io.looplift.tracecache.ProgramCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Device binaries on disk let a second executor (as in a second JVM run) skip compilation. */
class OpenClProgramCacheTest {
  private static final LoopTemplate TEMPLATE = map(List.of(Type.FLOAT, Type.FLOAT, Type.FLOAT), List.of(),
      List.of(store(2, Type.FLOAT, new Binary(BinaryOp.DIV, load(0, Type.FLOAT), load(1, Type.FLOAT)))));

  private static void runOnce(OpenClExecutor ocl) throws ExecutionException {
    Random rnd = new Random(1);
    assertSameAsReference(ocl, TEMPLATE, new Object[] {floats(rnd, 1000), floats(rnd, 1000), floats(rnd, 1000)}, new long[0], 1000);
  }

  @Test
  void secondExecutorLoadsTheBinaryInsteadOfCompiling(@TempDir Path dir) throws Exception {
    InProcessLink first = link(dir);
    try (OpenClExecutor ocl = new OpenClExecutor(device(), first)) {
      runOnce(ocl);
      runOnce(ocl);
      assertEquals(new ProgramCache.Stats(1, 0, 1, 0), first.device().programStats());
    }
    assertEquals(1, binaries(dir).size());
    InProcessLink second = link(dir); // fresh context, fresh in-memory cache
    try (OpenClExecutor ocl = new OpenClExecutor(device(), second)) {
      runOnce(ocl);
      ProgramCache.Stats stats = second.device().programStats();
      assertEquals(1, stats.diskHits(), stats.toString());
      assertEquals(0, stats.compiles(), stats.toString());
      runOnce(ocl);
      assertEquals(1, second.device().programStats().memoryHits());
    }
  }

  @Test
  void corruptBinaryIsRecompiledAndReplaced(@TempDir Path dir) throws Exception {
    try (OpenClExecutor first = executor(dir)) {
      runOnce(first);
    }
    Path file = binaries(dir).get(0);
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(file, bytes);
    InProcessLink second = link(dir);
    try (OpenClExecutor ocl = new OpenClExecutor(device(), second)) {
      runOnce(ocl);
      assertEquals(0, second.device().programStats().diskHits());
      assertEquals(1, second.device().programStats().compiles());
    }
    InProcessLink third = link(dir);
    try (OpenClExecutor ocl = new OpenClExecutor(device(), third)) {
      runOnce(ocl);
      assertEquals(1, third.device().programStats().diskHits());
    }
  }

  private static List<Path> binaries(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".bin")).toList();
    }
  }
}

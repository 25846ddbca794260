package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.ir.Type;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Staging launches in shared segments, and arrays of every type through them, across segment ends too. */
class SegmentPoolTest {
  /** Direct buffers standing in for shared files; remembers what it made and freed. */
  private static final class Segments implements SegmentPool.Source {
    final Map<Integer, ByteBuffer> live = new ConcurrentHashMap<>();
    final List<Integer> capacities = new ArrayList<>();
    int retired;
    boolean full;

    @Override
    public synchronized ByteBuffer create(int id, int capacity) throws IOException {
      if (full) throw new IOException("no space left");
      capacities.add(capacity);
      ByteBuffer b = ByteBuffer.allocateDirect(capacity);
      live.put(id, b);
      return b;
    }

    @Override
    public synchronized void retire(int id, ByteBuffer segment) {
      assertSame(segment, live.remove(id), "retires the segment it was given, once");
      retired++;
    }

    /** What the device side sees at {@code piece}. */
    ByteBuffer slice(KernelLaunch.Piece piece) {
      return live.get(piece.segment()).slice(piece.offset(), piece.length()).order(ByteOrder.nativeOrder());
    }
  }

  @Test
  void blocksOfOneLaunchShareOneSegmentAtAlignedOffsets() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 4096, 1 << 20, 1 << 20);
    try (Staging s = pool.stage(new long[] {10, 4096, 3})) {
      assertEquals(List.of(8192), source.capacities, "the smallest power of two that holds 64 + 4096 + 64 bytes");
      assertEquals(new KernelLaunch.Piece(1, 0, 10), s.block(0).pieces().get(0));
      assertEquals(new KernelLaunch.Piece(1, 64, 4096), s.block(1).pieces().get(0));
      assertEquals(new KernelLaunch.Piece(1, 64 + 4096, 3), s.block(2).pieces().get(0));
      assertEquals(10, s.block(0).views().get(0).capacity());
    }
  }

  @Test
  void aLaunchLargerThanTheLargestSegmentSpansSeveral() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 4096, 1 << 20);
    long[] sizes = {10_000, 8, 5000};
    try (Staging s = pool.stage(sizes)) {
      assertEquals(List.of(4096, 4096, 4096, 4096), source.capacities, "ceil(10048 + 64 + 5000) / 4096 segments");
      for (int b = 0; b < sizes.length; b++) {
        Staging.Block block = s.block(b);
        assertEquals(sizes[b], block.pieces().stream().mapToLong(KernelLaunch.Piece::length).sum());
        assertEquals(block.pieces().size(), block.views().size());
        for (int p = 0; p < block.pieces().size(); p++) {
          KernelLaunch.Piece piece = block.pieces().get(p);
          assertTrue(piece.offset() + piece.length() <= 4096, piece.toString());
          assertEquals(piece.length(), block.views().get(p).capacity());
          block.views().get(p).put(0, (byte) (b + 1)); // a view and its piece are the same bytes
          assertEquals(b + 1, source.slice(piece).get(0));
        }
      }
      assertEquals(3, s.block(0).pieces().size(), "10,000 bytes from offset 0 over 4096-byte segments");
    }
  }

  @Test
  void segmentsAreReusedAndFreedPastTheIdleLimit() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 1 << 16, 8192);
    pool.stage(new long[] {5000}).close();
    pool.stage(new long[] {100}).close(); // the idle 8 KiB segment serves it
    assertEquals(List.of(8192), source.capacities);
    Staging a = pool.stage(new long[] {5000});
    Staging b = pool.stage(new long[] {5000}); // the first is leased: a second is made
    assertEquals(2, source.capacities.size());
    a.close();
    b.close(); // over the 8 KiB idle limit: the one idle longest is freed
    assertEquals(1, source.retired);
    pool.close();
    assertEquals(2, source.retired);
    assertTrue(source.live.isEmpty());
  }

  /** Small segments idle since earlier launches give way to a large one that a launch just gave back. */
  @Test
  void theSegmentUsedLastStaysWhenTheIdleLimitIsReached() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 1 << 16, 8192);
    pool.stage(new long[] {1000}).close();
    pool.stage(new long[] {8000}).close(); // 1 KiB + 8 KiB idle is over the limit: the 1 KiB one goes
    assertEquals(1, source.retired);
    pool.stage(new long[] {8000}).close(); // served by the 8 KiB segment that stayed
    assertEquals(List.of(1024, 8192), source.capacities);
    pool.stage(new long[] {9000}).close(); // a 16 KiB segment, over the limit by itself: freed at once
    assertEquals(2, source.retired);
    pool.stage(new long[] {8000}).close();
    assertEquals(List.of(1024, 8192, 16384), source.capacities);
    pool.close();
    assertTrue(source.live.isEmpty());
  }

  @Test
  void segmentsStillLeasedAtCloseAreFreedWhenTheirLaunchEnds() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 1 << 16, 1 << 20);
    Staging leased = pool.stage(new long[] {100});
    pool.close();
    assertEquals(0, source.retired);
    leased.close();
    assertEquals(1, source.retired);
    assertThrows(IOException.class, () -> pool.stage(new long[] {100}));
  }

  @Test
  void aFailedCreationLeavesNothingLeased() throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 4096, 1 << 20);
    pool.stage(new long[] {4096}).close(); // one idle 4 KiB segment
    source.full = true;
    IOException e = assertThrows(IOException.class, () -> pool.stage(new long[] {4096, 4096}));
    assertEquals("no space left", e.getMessage());
    source.full = false;
    pool.stage(new long[] {4096}).close(); // the idle segment went back to the pool
    assertEquals(1, source.capacities.size());
  }

  /** Arrays of every type go in and come back bit for bit, across piece ends, and are what the device sees. */
  @ParameterizedTest
  @EnumSource(Type.class)
  void arraysCrossPieceEndsIntact(Type t) throws IOException {
    Segments source = new Segments();
    SegmentPool pool = new SegmentPool(source, 1024, 1024, 1 << 20);
    int n = 1000;
    Object array = OpenClTestSupport.array(t, new Random(t.ordinal()), n);
    Object back = OpenClTestSupport.array(t, new Random(99), n);
    try (Staging s = pool.stage(new long[] {24, (long) n * t.byteSize()})) { // the array starts 64 bytes in
      Staging.Block block = s.block(1);
      assertTrue(block.pieces().size() > 1, "spans several segments");
      StagedArrays.upload(array, block, 0);
      ByteBuffer first = source.slice(block.pieces().get(0));
      if (t == Type.INT) assertEquals(((int[]) array)[1], first.getInt(4));
      if (t == Type.DOUBLE) assertEquals(Double.doubleToRawLongBits(((double[]) array)[0]), first.getLong(0));
      StagedArrays.download(block, 0, back, 0, n);
    }
    OpenClTestSupport.assertArrayContentEquals(array, back, t.toString());
  }

  /** Arrays large enough to be copied by several threads go in and come back whole, and a range only its range. */
  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"BOOLEAN", "SHORT", "FLOAT", "DOUBLE"})
  void largeArraysSplitBetweenThreadsCrossPieceEndsIntact(Type t) throws IOException {
    int segment = 8 << 20; // several pieces, each split between threads
    SegmentPool pool = new SegmentPool(new Segments(), segment, segment, 1L << 30);
    int n = (int) (3 * ParallelCopy.PARALLEL_BYTES / t.byteSize()) + 7;
    Object array = OpenClTestSupport.array(t, new Random(7 + t.ordinal()), n);
    Object back = OpenClTestSupport.array(t, new Random(8), n);
    Object untouched = OpenClTestSupport.deepCopy(new Object[] {back})[0];
    int from = n / 5 + 3;
    int to = n - n / 7;
    try (Staging s = pool.stage(new long[] {(long) n * t.byteSize()})) {
      Staging.Block block = s.block(0);
      assertTrue(block.pieces().size() > 1, "spans several segments");
      StagedArrays.upload(array, block, 0);
      StagedArrays.download(block, 0, back, from, to);
    }
    for (int j = 0; j < n; j++) {
      Object expected = j >= from && j < to ? array : untouched;
      if (!java.lang.reflect.Array.get(expected, j).equals(java.lang.reflect.Array.get(back, j))) {
        fail(t + " element " + j + " of " + n + ": " + java.lang.reflect.Array.get(back, j));
      }
    }
  }

  /** Rows of an array of arrays lie one after another in one block: each goes in and comes back at its offset. */
  @ParameterizedTest
  @EnumSource(value = Type.class, names = {"BOOLEAN", "CHAR", "FLOAT", "LONG"})
  void rowsAtOffsetsCrossPieceEndsIntact(Type t) throws IOException {
    SegmentPool pool = new SegmentPool(new Segments(), 1024, 1024, 1 << 20);
    Random rnd = new Random(40 + t.ordinal());
    Object[] rows = {OpenClTestSupport.array(t, rnd, 333), OpenClTestSupport.array(t, rnd, 0), OpenClTestSupport.array(t, rnd, 700)};
    Object[] back = {OpenClTestSupport.array(t, rnd, 333), OpenClTestSupport.array(t, rnd, 0), OpenClTestSupport.array(t, rnd, 700)};
    Object untouched = OpenClTestSupport.deepCopy(new Object[] {back[2]})[0];
    try (Staging s = pool.stage(new long[] {1033L * t.byteSize()})) {
      Staging.Block block = s.block(0);
      assertTrue(block.pieces().size() > 1, "spans several segments");
      long at = 0;
      for (Object row : rows) {
        StagedArrays.upload(row, block, at);
        at += java.lang.reflect.Array.getLength(row);
      }
      StagedArrays.download(block, 0, back[0], 0, 333);
      StagedArrays.download(block, 333, back[2], 100, 650);
    }
    OpenClTestSupport.assertArrayContentEquals(rows[0], back[0], "row 0");
    for (int j = 0; j < 700; j++) {
      Object expected = j >= 100 && j < 650 ? rows[2] : untouched;
      assertEquals(java.lang.reflect.Array.get(expected, j), java.lang.reflect.Array.get(back[2], j), "row 2 [" + j + "]");
    }
  }

  @Test
  void aDownloadWritesOnlyItsRangeAndBooleansKeepTheLowBit() throws IOException {
    SegmentPool pool = new SegmentPool(new Segments(), 1024, 1 << 16, 1 << 20);
    try (Staging s = pool.stage(new long[] {8})) {
      Staging.Block block = s.block(0);
      for (int j = 0; j < 8; j++) block.views().get(0).put(j, (byte) (j * 3)); // 0, 3, 6, 9...: low bits 0 1 0 1
      boolean[] b = {true, true, true, true, true, true, true, true};
      StagedArrays.download(block, 0, b, 2, 6);
      assertArrayEquals(new boolean[] {true, true, false, true, false, true, true, true}, b);
      StagedArrays.upload(new boolean[] {true, false}, block, 0);
      assertEquals(1, block.views().get(0).get(0));
      assertEquals(0, block.views().get(0).get(1));
    }
  }
}

package io.looplift.executors.opencl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Shared memory for launches, in segments that both this JVM and the device side have mapped. A launch
 * {@linkplain #stage stages} its arrays in one segment, or in several when they need more than the largest
 * segment, so arrays of any size travel; a segment goes back to the pool when the launch is done and serves
 * later launches, up to an idle limit past which the least recently used are freed. Thread-safe.
 */
public final class SegmentPool implements AutoCloseable {
  /** Blocks start at multiples of this: a cache line, and a multiple of every element size. */
  static final int ALIGN = 64;

  /** Makes and frees segments: files mapped by the host process too, or plain memory in a test. */
  public interface Source {
    /**
     * A new segment of {@code capacity} bytes that the device side knows by {@code id} once this returns.
     *
     * @throws IOException when the memory cannot be had (the message says why)
     */
    ByteBuffer create(int id, int capacity) throws IOException;

    /** Frees a segment that no launch uses any more. Never throws. */
    void retire(int id, ByteBuffer segment);
  }

  private record Segment(int id, ByteBuffer buffer) {
    int capacity() {
      return buffer.capacity();
    }
  }

  private final Source source;
  private final int minSegment;
  private final int maxSegment;
  private final long idleLimit;
  private final AtomicInteger ids = new AtomicInteger();
  private final List<Segment> idle = new ArrayList<>(); // guarded by this
  private long idleBytes; // guarded by this
  private boolean closed; // guarded by this

  /**
   * @param minSegment the smallest segment made, a power of two
   * @param maxSegment the largest segment made, a power of two: a launch needing more gets several
   * @param idleLimit how many bytes of unused segments are kept for later launches
   */
  public SegmentPool(Source source, int minSegment, int maxSegment, long idleLimit) {
    if (Integer.bitCount(minSegment) != 1 || Integer.bitCount(maxSegment) != 1 || minSegment < ALIGN || minSegment > maxSegment) {
      throw new IllegalArgumentException("segments from " + minSegment + " to " + maxSegment + " bytes");
    }
    this.source = source;
    this.minSegment = minSegment;
    this.maxSegment = maxSegment;
    this.idleLimit = idleLimit;
  }

  /**
   * Shared memory with one block of {@code blockBytes[b]} bytes for each {@code b}.
   *
   * @throws IOException when the segments cannot be made; nothing stays leased then
   */
  public Staging stage(long[] blockBytes) throws IOException {
    if (blockBytes.length == 0) return new Staging(List.of(), () -> {});
    long total = 0;
    for (long bytes : blockBytes) {
      if (bytes <= 0) throw new IllegalArgumentException("block of " + bytes + " bytes");
      total += align(bytes);
    }
    List<Segment> segments = acquire(total);
    List<Staging.Block> blocks = new ArrayList<>(blockBytes.length);
    int seg = 0;
    long offset = 0; // in segments.get(seg); blocks follow one another across segment ends
    for (long bytes : blockBytes) {
      List<KernelLaunch.Piece> pieces = new ArrayList<>(1);
      List<ByteBuffer> views = new ArrayList<>(1);
      for (long left = bytes; left > 0; ) {
        Segment s = segments.get(seg);
        if (offset == s.capacity()) {
          seg++;
          offset = 0;
          continue;
        }
        int take = (int) Math.min(s.capacity() - offset, left);
        pieces.add(new KernelLaunch.Piece(s.id(), (int) offset, take));
        views.add(s.buffer().slice((int) offset, take).order(ByteOrder.nativeOrder()));
        offset += take;
        left -= take;
      }
      offset = align(offset);
      blocks.add(new Staging.Block(pieces, views));
    }
    return new Staging(blocks, () -> release(segments));
  }

  private static long align(long bytes) {
    return (bytes + ALIGN - 1) / ALIGN * ALIGN;
  }

  /** Segments holding {@code total} bytes: idle ones where they fit, new ones (made outside the lock) else. */
  private List<Segment> acquire(long total) throws IOException {
    List<Segment> taken = new ArrayList<>();
    List<Integer> wanted = new ArrayList<>(); // capacities still to make
    synchronized (this) {
      if (closed) throw new IOException("the shared memory is closed");
      if (total <= maxSegment) {
        Segment s = idle.stream().filter(x -> x.capacity() >= total).min(Comparator.comparingInt(Segment::capacity)).orElse(null);
        if (s != null) take(s, taken);
        else wanted.add((int) Math.max(minSegment, Long.highestOneBit(total - 1) << 1));
      } else {
        long count = (total + maxSegment - 1) / maxSegment;
        for (Segment s : List.copyOf(idle)) {
          if (taken.size() < count && s.capacity() == maxSegment) take(s, taken);
        }
        for (long k = taken.size(); k < count; k++) wanted.add(maxSegment);
      }
    }
    try {
      for (int capacity : wanted) {
        int id = ids.incrementAndGet();
        taken.add(new Segment(id, source.create(id, capacity)));
      }
    } catch (IOException | RuntimeException e) {
      release(taken);
      throw e;
    }
    return taken;
  }

  private void take(Segment s, List<Segment> taken) {
    idle.remove(s);
    idleBytes -= s.capacity();
    taken.add(s);
  }

  /**
   * Returns a launch's segments to the pool, most recently used last, and frees the least recently used idle
   * ones past the idle limit: a program that launches a large kernel again and again keeps its segment, mapped
   * and paged in, even when smaller kernels ran before it (making one and paging it in cost more than the
   * copies into it).
   */
  private void release(List<Segment> segments) {
    List<Segment> retired = new ArrayList<>();
    synchronized (this) {
      for (Segment s : segments) {
        if (closed || s.capacity() > idleLimit) {
          retired.add(s);
          continue;
        }
        idle.add(s);
        idleBytes += s.capacity();
      }
      while (idleBytes > idleLimit) {
        Segment oldest = idle.remove(0);
        idleBytes -= oldest.capacity();
        retired.add(oldest);
      }
    }
    for (Segment s : retired) source.retire(s.id(), s.buffer());
  }

  /** Frees the idle segments; segments still leased are freed when their launch gives them back. */
  @Override
  public void close() {
    List<Segment> retired;
    synchronized (this) {
      closed = true;
      retired = List.copyOf(idle);
      idle.clear();
      idleBytes = 0;
    }
    for (Segment s : retired) source.retire(s.id(), s.buffer());
  }
}

package io.looplift.executors.opencl.host;

import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.device.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The host's side of the shared memory: the segments the program's JVM had it map, by id. Thread-safe. */
final class MappedSegments implements Memory {
  private final Map<Integer, MappedByteBuffer> segments = new ConcurrentHashMap<>();

  /** Maps {@code capacity} bytes of {@code file} as segment {@code id}. */
  void map(int id, Path file, int capacity) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      // Touching a mapped page past the end of the file would raise SIGBUS.
      if (channel.size() < capacity) throw new IOException(file + " holds " + channel.size() + " bytes, not " + capacity);
      MappedByteBuffer old = segments.put(id, channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity));
      if (old != null) Unmapper.unmap(old);
    }
  }

  /** Unmaps segment {@code id}; the program's JVM sends this only once no launch uses it. */
  void unmap(int id) {
    MappedByteBuffer b = segments.remove(id);
    if (b != null) Unmapper.unmap(b);
  }

  @Override
  public ByteBuffer slice(KernelLaunch.Piece piece) {
    MappedByteBuffer b = segments.get(piece.segment());
    if (b == null) throw new IllegalArgumentException("no shared segment " + piece.segment());
    if ((long) piece.offset() + piece.length() > b.capacity()) {
      throw new IllegalArgumentException("piece " + piece + " outside segment of " + b.capacity() + " bytes");
    }
    return b.slice(piece.offset(), piece.length());
  }
}

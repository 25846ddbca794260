package io.looplift.executors.opencl.host;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.opencl.SegmentPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;

/**
 * Segments of shared memory as files that this JVM and the host process both map: created owner-only in
 * {@code /dev/shm} (else {@code java.io.tmpdir}), filled, mapped here, mapped by the host, and unlinked as
 * soon as both have them, so that no name is left behind and the memory goes away with the mappings.
 */
final class SharedFiles implements SegmentPool.Source {
  private static final int FILL_CHUNK = 1 << 20;

  private final HostProcess host;
  private final Path directory;

  SharedFiles(HostProcess host) {
    this(host, defaultDirectory());
  }

  SharedFiles(HostProcess host, Path directory) {
    this.host = host;
    this.directory = directory;
  }

  /** {@code /dev/shm} where it is a writable directory (memory, not disk), else {@code java.io.tmpdir}. */
  static Path defaultDirectory() {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
  }

  /** A new, empty file in {@code directory} that only this user can read and write, created so at once. */
  static Path newFile(Path directory) throws IOException {
    try {
      return Files.createTempFile(directory, "looplift-", ".shm",
          PosixFilePermissions.asFileAttribute(EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)));
    } catch (UnsupportedOperationException e) {
      throw new IOException(directory + " cannot hold owner-only files");
    }
  }

  @Override
  public ByteBuffer create(int id, int capacity) throws IOException {
    Path file = newFile(directory);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      fill(channel, capacity);
      MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, capacity);
      try {
        host.map(id, file, capacity);
      } catch (ExecutionException e) {
        Unmapper.unmap(mapped);
        throw new IOException(e.getMessage(), e);
      }
      return mapped;
    } catch (IOException e) {
      throw new IOException("cannot share " + ((capacity + (1 << 20) - 1) >> 20) + " MiB through " + directory + ": " + e.getMessage(), e);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /**
   * Writes every byte of the file, so that its pages exist now: on a full file system this fails here with
   * an exception, where touching a mapped page that cannot be backed would raise SIGBUS later.
   */
  private static void fill(FileChannel channel, int capacity) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(Math.min(FILL_CHUNK, capacity));
    for (long at = 0; at < capacity; ) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), capacity - at));
      at += channel.write(zeros, at);
    }
  }

  @Override
  public void retire(int id, ByteBuffer segment) {
    host.unmap(id);
    Unmapper.unmap(segment);
  }
}

package io.looplift.executors.opencl;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Shared memory leased for one launch: blocks of bytes, each both a list of {@link KernelLaunch.Piece}s (how
 * the device side finds it) and views of the same bytes in this JVM, in native byte order. Closing it
 * returns the memory for later launches. Not thread-safe: one launch owns it.
 */
public final class Staging implements AutoCloseable {
  private final List<Block> blocks;
  private final Runnable release;
  private boolean closed;

  Staging(List<Block> blocks, Runnable release) {
    this.blocks = List.copyOf(blocks);
    this.release = release;
  }

  /**
   * One block.
   *
   * @param pieces where the block lies in shared memory, in order
   * @param views this JVM's views of the pieces, one each, in native byte order
   */
  public record Block(List<KernelLaunch.Piece> pieces, List<ByteBuffer> views) {
    public Block {
      pieces = List.copyOf(pieces);
      views = List.copyOf(views);
    }
  }

  /** Block {@code b}, in the order the sizes were given. */
  public Block block(int b) {
    return blocks.get(b);
  }

  @Override
  public void close() {
    if (closed) return;
    closed = true;
    release.run();
  }
}

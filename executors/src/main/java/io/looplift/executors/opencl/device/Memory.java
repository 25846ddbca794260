package io.looplift.executors.opencl.device;

import io.looplift.executors.opencl.KernelLaunch;
import java.nio.ByteBuffer;

/** How the device side finds the shared memory a {@link KernelLaunch} names. */
@FunctionalInterface
public interface Memory {
  /**
   * The bytes of {@code piece}: a direct buffer whose position 0 is the piece's first byte.
   *
   * @throws IllegalArgumentException when no segment has the piece's id or the piece does not fit in it
   */
  ByteBuffer slice(KernelLaunch.Piece piece);
}

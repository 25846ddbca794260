package io.looplift.executors.opencl;

import io.looplift.ir.Type;
import java.util.List;

/**
 * What the device side does for one launch of a kernel, in terms a device understands: its arguments in
 * kernel order and the NDRange. Array contents never travel in here: a {@link Buffer} names the
 * {@link Piece}s of shared memory that hold its bytes, which the device copies in before and (over the range
 * the kernel may write) back out after the kernel.
 *
 * @param args the kernel's arguments, in order
 * @param range the NDRange's dimensions, dimension 0 first: one to three
 */
public record KernelLaunch(List<Arg> args, List<Dimension> range) {
  public KernelLaunch {
    args = List.copyOf(args);
    range = List.copyOf(range);
    if (range.isEmpty() || range.size() > 3) throw new IllegalArgumentException(range.size() + " dimensions");
  }

  /**
   * One dimension of the NDRange.
   *
   * @param global the number of work items along it, a positive multiple of {@code local}
   * @param local the work-group's extent along it
   */
  public record Dimension(long global, int local) {
    public Dimension {
      if (local < 1 || global < local || global % local != 0) throw new IllegalArgumentException("global size " + global + ", local size " + local);
    }
  }

  /** One kernel argument. */
  public sealed interface Arg permits Buffer, Scalar {}

  /**
   * A {@code __global} buffer.
   *
   * @param pieces where its bytes lie in shared memory, in order; together they are the whole buffer
   * @param upload the device buffer starts as a copy of the pieces (otherwise its contents are undefined, or
   *     for a kept buffer what the device holds)
   * @param written the kernel may write the buffer
   * @param readFrom the first byte copied back into the pieces after the kernel
   * @param readLength how many bytes are copied back; 0 for none
   * @param kept a handle, not 0, under which the device keeps the buffer after the launch until
   *     {@link DeviceLink#release}, and finds it again when a later launch or {@link DeviceLink#read} names
   *     the handle; 0 for a buffer freed with its launch
   */
  public record Buffer(List<Piece> pieces, boolean upload, boolean written, long readFrom, long readLength, long kept)
      implements Arg {
    public Buffer {
      pieces = List.copyOf(pieces);
      long bytes = pieces.stream().mapToLong(Piece::length).sum();
      if (bytes == 0 || readFrom < 0 || readLength < 0 || readFrom + readLength > bytes || (readLength > 0 && !written)) {
        throw new IllegalArgumentException("buffer of " + bytes + " bytes, read back " + readFrom + "+" + readLength
            + (written ? "" : ", read-only"));
      }
    }

    /** A buffer freed with its launch. */
    public Buffer(List<Piece> pieces, boolean upload, boolean written, long readFrom, long readLength) {
      this(pieces, upload, written, readFrom, readLength, 0);
    }

    /** The buffer's size in bytes. */
    public long bytes() {
      return pieces.stream().mapToLong(Piece::length).sum();
    }
  }

  /**
   * A scalar of type {@code int}, {@code long}, {@code float} or {@code double}.
   *
   * @param bits the value's raw bits (see {@link io.looplift.ir.Const})
   */
  public record Scalar(Type type, long bits) implements Arg {
    public Scalar {
      if (type != Type.INT && type != Type.LONG && type != Type.FLOAT && type != Type.DOUBLE) {
        throw new IllegalArgumentException("scalar of type " + type);
      }
    }
  }

  /**
   * A range of bytes in one shared-memory segment.
   *
   * @param segment the segment's id, as both sides know it
   * @param offset the first byte
   * @param length how many bytes
   */
  public record Piece(int segment, int offset, int length) {
    public Piece {
      if (offset < 0 || length <= 0) throw new IllegalArgumentException("piece " + offset + "+" + length);
    }
  }
}

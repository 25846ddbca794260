package io.looplift.executors.opencl.host;

import io.looplift.executors.opencl.DeviceInfo;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.LaunchTimings;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.OpenClKernel;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The protocol between the program's JVM and the OpenCL host process: frames on the host's stdin (requests)
 * and on a pipe of its own (replies), big-endian. A frame is {@code int length} (of the rest), {@code byte
 * type}, {@code int id}, then the payload. Every request that is answered gets exactly one reply with its id:
 * {@link #OK} with a payload that depends on the request, or {@link #FAILED} with a reason (the request
 * failed, the host is fine). Array contents never travel here, only the shared-memory pieces that hold them.
 *
 * <p>The session starts with {@link #HELLO}, which carries {@link #MAGIC} and {@link #VERSION}; the host
 * answers with the same two and its device inventory, or exits when they do not match. Readers ignore bytes
 * at the end of a payload that they do not know, so a later version can append fields to a message; a
 * change that an older reader would misread takes a new version. Version 2: a launch names up to three
 * NDRange dimensions instead of one. Version 3: a buffer names the handle the device keeps it under
 * ({@link KernelLaunch.Buffer#kept}), a launch its lane; {@link #READ} and {@link #RELEASE}.
 *
 * <p>Requests and their {@link #OK} payloads:
 * <ul>
 *   <li>{@link #HELLO}: magic, version, cache directory ("" for the default), LoopLift version → magic,
 *       version, inventory (reason, devices)
 *   <li>{@link #OPEN}: device index → device handle
 *   <li>{@link #MAP}: segment id, file path, capacity → nothing (the host has mapped the file)
 *   <li>{@link #UNMAP}: segment id; not answered
 *   <li>{@link #DEFINE}: kernel id, name, source, build options, work-group size; not answered
 *   <li>{@link #LAUNCH}: device handle, kernel id, lane, launch (the NDRange's dimensions, each its global and
 *       local size, then the arguments) → count, then that many timings in nanoseconds (program, transfer in,
 *       kernel, transfer out). Requests of one lane other than 0 run in the order they arrive.
 *   <li>{@link #READ}: device handle, lane, buffers (as in a launch, each kept by the device) → the
 *       nanoseconds the copies took
 *   <li>{@link #RELEASE}: device handle, count, that many handles of kept buffers; not answered
 *   <li>{@link #DROP}: kernel id, which no later launch names; not answered
 *   <li>{@link #CLOSE}: not answered; the host exits
 * </ul>
 */
final class Wire {
  /** "LLOH": LoopLift OpenCL host. */

  /**
   * How a line of the host's stderr starts when the user must see it whatever {@code log=} says (a refused
   * {@code cache.dir}); the parent prints the rest as a warning, and every other line at {@code log=debug}.
   */
  static final String WARNING = "looplift-host-warning: ";
  static final int MAGIC = 0x4c4c4f48;
  static final int VERSION = 3;
  /** No frame is longer: a longer length is garbage. */
  static final int MAX_FRAME = 64 << 20;

  static final byte HELLO = 1;
  static final byte OPEN = 2;
  static final byte MAP = 3;
  static final byte UNMAP = 4;
  static final byte DEFINE = 5;
  static final byte LAUNCH = 6;
  static final byte CLOSE = 7;
  static final byte DROP = 8;
  static final byte READ = 9;
  static final byte RELEASE = 10;
  static final byte OK = 64;
  static final byte FAILED = 65;

  private static final byte BUFFER = 1;
  private static final byte SCALAR = 2;
  private static final Type[] SCALARS = {Type.INT, Type.LONG, Type.FLOAT, Type.DOUBLE};
  private static final DeviceInfo.Kind[] KINDS = DeviceInfo.Kind.values();

  private Wire() {}

  /** A frame being written. Not thread-safe. */
  static final class Out {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream data = new DataOutputStream(bytes);

    Out(byte type, int id) {
      try {
        data.writeInt(0); // the length, filled in by writeTo
        data.writeByte(type);
        data.writeInt(id);
      } catch (IOException e) {
        throw new AssertionError(e); // a ByteArrayOutputStream does not fail
      }
    }

    Out i(int v) {
      try {
        data.writeInt(v);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      return this;
    }

    Out l(long v) {
      try {
        data.writeLong(v);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      return this;
    }

    Out b(boolean v) {
      return i(v ? 1 : 0);
    }

    Out s(String v) {
      byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
      i(utf8.length);
      bytes.write(utf8, 0, utf8.length);
      return this;
    }

    /** Writes the whole frame to {@code out} and flushes it. */
    void writeTo(OutputStream out) throws IOException {
      byte[] frame = bytes.toByteArray();
      ByteBuffer.wrap(frame).putInt(0, frame.length - 4);
      out.write(frame);
      out.flush();
    }
  }

  /** A frame read. Reading past its end throws {@link ProtocolException}. Not thread-safe. */
  static final class In {
    final byte type;
    final int id;
    private final ByteBuffer payload;

    private In(byte type, int id, ByteBuffer payload) {
      this.type = type;
      this.id = id;
      this.payload = payload;
    }

    int i() throws ProtocolException {
      try {
        return payload.getInt();
      } catch (BufferUnderflowException e) {
        throw new ProtocolException("frame of type " + type + " ends early");
      }
    }

    long l() throws ProtocolException {
      try {
        return payload.getLong();
      } catch (BufferUnderflowException e) {
        throw new ProtocolException("frame of type " + type + " ends early");
      }
    }

    boolean b() throws ProtocolException {
      return i() != 0;
    }

    String s() throws ProtocolException {
      int n = i();
      if (n < 0 || n > payload.remaining()) throw new ProtocolException("string of " + n + " bytes in a frame of type " + type);
      byte[] utf8 = new byte[n];
      payload.get(utf8);
      return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A count of items that each take at least {@code minBytes} of what is left. */
    int count(int minBytes) throws ProtocolException {
      int n = i();
      if (n < 0 || (long) n * minBytes > payload.remaining()) throw new ProtocolException("count " + n + " in a frame of type " + type);
      return n;
    }
  }

  /**
   * The next frame of {@code in}.
   *
   * @throws EOFException when the stream ends before a frame starts
   * @throws ProtocolException when what arrives is not a frame
   */
  static In read(InputStream in) throws IOException {
    byte[] head = in.readNBytes(4);
    if (head.length == 0) throw new EOFException();
    if (head.length < 4) throw new ProtocolException("stream ends inside a frame header");
    int length = ByteBuffer.wrap(head).getInt();
    if (length < 5 || length > MAX_FRAME) throw new ProtocolException("frame length " + length);
    byte[] body = in.readNBytes(length);
    if (body.length < length) throw new ProtocolException("stream ends inside a frame of " + length + " bytes");
    ByteBuffer b = ByteBuffer.wrap(body);
    return new In(b.get(), b.getInt(), b.slice());
  }

  static void inventory(Out out, DeviceInventory inventory) {
    out.s(inventory.reason()).i(inventory.devices().size());
    for (DeviceInfo d : inventory.devices()) {
      out.i(d.index()).i(d.platformIndex()).i(d.deviceIndex()).s(d.platform()).s(d.name()).s(d.vendor())
          .i(d.kind().ordinal()).i(d.computeUnits()).l(d.globalMemory()).l(d.maxAllocation()).l(d.maxWorkGroupSize())
          .b(d.fp64()).l(d.singleFpConfig()).l(d.doubleFpConfig()).s(d.openclCVersion()).s(d.driverVersion());
    }
  }

  static DeviceInventory inventory(In in) throws ProtocolException {
    String reason = in.s();
    int n = in.count(4);
    List<DeviceInfo> devices = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      int index = in.i();
      int platformIndex = in.i();
      int deviceIndex = in.i();
      String platform = in.s();
      String name = in.s();
      String vendor = in.s();
      int kind = in.i();
      if (kind < 0 || kind >= KINDS.length) throw new ProtocolException("device kind " + kind);
      devices.add(new DeviceInfo(index, platformIndex, deviceIndex, platform, name, vendor, KINDS[kind], in.i(), in.l(),
          in.l(), in.l(), in.b(), in.l(), in.l(), in.s(), in.s()));
      if (index != k) throw new ProtocolException("device " + k + " has index " + index);
    }
    return new DeviceInventory(devices, reason);
  }

  static void kernel(Out out, OpenClKernel k) {
    out.s(k.name()).s(k.source()).s(k.buildOptions()).i(k.workGroupSize());
  }

  static OpenClKernel kernel(In in) throws ProtocolException {
    String name = in.s();
    String source = in.s();
    String options = in.s();
    return new OpenClKernel(source, name, options, in.i());
  }

  static void launch(Out out, KernelLaunch launch) {
    out.i(launch.range().size());
    for (KernelLaunch.Dimension d : launch.range()) out.l(d.global()).i(d.local());
    out.i(launch.args().size());
    for (KernelLaunch.Arg arg : launch.args()) {
      if (arg instanceof KernelLaunch.Buffer b) {
        out.i(BUFFER);
        buffer(out, b);
      } else {
        KernelLaunch.Scalar s = (KernelLaunch.Scalar) arg;
        out.i(SCALAR).i(List.of(SCALARS).indexOf(s.type())).l(s.bits());
      }
    }
  }

  static KernelLaunch launch(In in) throws ProtocolException {
    try {
      return launchFields(in);
    } catch (IllegalArgumentException e) { // a record refused what arrived
      throw new ProtocolException("bad launch: " + e.getMessage());
    }
  }

  private static KernelLaunch launchFields(In in) throws ProtocolException {
    int dimensions = in.count(12);
    List<KernelLaunch.Dimension> range = new ArrayList<>(dimensions);
    for (int d = 0; d < dimensions; d++) range.add(new KernelLaunch.Dimension(in.l(), in.i()));
    int n = in.count(4);
    List<KernelLaunch.Arg> args = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      int tag = in.i();
      if (tag == BUFFER) {
        args.add(buffer(in));
      } else if (tag == SCALAR) {
        int type = in.i();
        if (type < 0 || type >= SCALARS.length) throw new ProtocolException("scalar type " + type);
        args.add(new KernelLaunch.Scalar(SCALARS[type], in.l()));
      } else {
        throw new ProtocolException("argument tag " + tag);
      }
    }
    return new KernelLaunch(args, range);
  }

  private static void buffer(Out out, KernelLaunch.Buffer b) {
    out.b(b.upload()).b(b.written()).l(b.readFrom()).l(b.readLength()).l(b.kept()).i(b.pieces().size());
    for (KernelLaunch.Piece p : b.pieces()) out.i(p.segment()).i(p.offset()).i(p.length());
  }

  private static KernelLaunch.Buffer buffer(In in) throws ProtocolException {
    boolean upload = in.b();
    boolean written = in.b();
    long readFrom = in.l();
    long readLength = in.l();
    long kept = in.l();
    int pieces = in.count(12);
    List<KernelLaunch.Piece> list = new ArrayList<>(pieces);
    for (int p = 0; p < pieces; p++) list.add(new KernelLaunch.Piece(in.i(), in.i(), in.i()));
    return new KernelLaunch.Buffer(list, upload, written, readFrom, readLength, kept);
  }

  /** The buffers of a {@link #READ}. */
  static void buffers(Out out, List<KernelLaunch.Buffer> buffers) {
    out.i(buffers.size());
    for (KernelLaunch.Buffer b : buffers) buffer(out, b);
  }

  static List<KernelLaunch.Buffer> buffers(In in) throws ProtocolException {
    try {
      int n = in.count(36);
      List<KernelLaunch.Buffer> buffers = new ArrayList<>(n);
      for (int k = 0; k < n; k++) buffers.add(buffer(in));
      return buffers;
    } catch (IllegalArgumentException e) { // a record refused what arrived
      throw new ProtocolException("bad buffer: " + e.getMessage());
    }
  }

  /** The handles of a {@link #RELEASE}. */
  static void handles(Out out, long[] handles) {
    out.i(handles.length);
    for (long h : handles) out.l(h);
  }

  static long[] handles(In in) throws ProtocolException {
    long[] handles = new long[in.count(8)];
    for (int k = 0; k < handles.length; k++) handles[k] = in.l();
    return handles;
  }

  static void timings(Out out, LaunchTimings t) {
    out.i(4).l(t.programNanos()).l(t.transferInNanos()).l(t.kernelNanos()).l(t.transferOutNanos());
  }

  static LaunchTimings timings(In in) throws ProtocolException {
    int n = in.count(8);
    if (n < 4) throw new ProtocolException(n + " timings");
    LaunchTimings t = new LaunchTimings(in.l(), in.l(), in.l(), in.l());
    for (int k = 4; k < n; k++) in.l(); // measured by a later version; not known here
    return t;
  }
}

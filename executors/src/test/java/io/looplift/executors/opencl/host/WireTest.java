package io.looplift.executors.opencl.host;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.executors.opencl.DeviceInfo;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.LaunchTimings;
import io.looplift.ir.Type;
import io.looplift.progen.opencl.OpenClKernel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every message survives the trip, and what is not a frame is refused rather than misread. */
class WireTest {
  private static Wire.In trip(Wire.Out out) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    out.writeTo(bytes);
    return Wire.read(new ByteArrayInputStream(bytes.toByteArray()));
  }

  @Test
  void launchesKernelsInventoriesAndTimingsSurviveTheTrip() throws IOException {
    KernelLaunch launch = new KernelLaunch(List.of(
        new KernelLaunch.Buffer(List.of(new KernelLaunch.Piece(3, 64, 1 << 30), new KernelLaunch.Piece(4, 0, 8)), true, true, 16, 1000, 77),
        new KernelLaunch.Buffer(List.of(new KernelLaunch.Piece(5, 0, 4)), false, false, 0, 0),
        new KernelLaunch.Scalar(Type.LONG, Long.MIN_VALUE), new KernelLaunch.Scalar(Type.FLOAT, Float.floatToRawIntBits(-0f))),
        List.of(new KernelLaunch.Dimension(1 << 20, 64), new KernelLaunch.Dimension(96, 32), new KernelLaunch.Dimension(7, 1)));
    Wire.Out out = new Wire.Out(Wire.LAUNCH, 42).i(7);
    Wire.launch(out, launch);
    Wire.In in = trip(out);
    assertEquals(Wire.LAUNCH, in.type);
    assertEquals(42, in.id);
    assertEquals(7, in.i());
    assertEquals(launch, Wire.launch(in));

    OpenClKernel kernel = new OpenClKernel("kernel void k() { /* é */ }", "k", "-cl-fp32-correctly-rounded-divide-sqrt", 64);
    Wire.Out define = new Wire.Out(Wire.DEFINE, 0);
    Wire.kernel(define, kernel);
    assertEquals(kernel, Wire.kernel(trip(define)));

    DeviceInventory inventory = new DeviceInventory(List.of(new DeviceInfo(0, 1, 2, "Portable Computing Language", "cpu",
        "vendor", DeviceInfo.Kind.CPU, 2, 1L << 33, 1L << 31, 4096, true, 0xff, 0x3f, "OpenCL C 1.2 PoCL", "3.1")), "1 device");
    Wire.Out hello = new Wire.Out(Wire.OK, 1);
    Wire.inventory(hello, inventory);
    assertEquals(inventory, Wire.inventory(trip(hello)));

    Wire.Out timings = new Wire.Out(Wire.OK, 2);
    Wire.timings(timings, new LaunchTimings(1, 2, 3, 4));
    assertEquals(new LaunchTimings(1, 2, 3, 4), Wire.timings(trip(timings)));

    List<KernelLaunch.Buffer> kept = List.of(
        new KernelLaunch.Buffer(List.of(new KernelLaunch.Piece(9, 128, 800)), false, true, 80, 720, Long.MAX_VALUE));
    Wire.Out read = new Wire.Out(Wire.READ, 3).i(1);
    Wire.buffers(read, kept);
    Wire.In readIn = trip(read);
    assertEquals(1, readIn.i());
    assertEquals(kept, Wire.buffers(readIn));

    Wire.Out release = new Wire.Out(Wire.RELEASE, 0).i(1);
    Wire.handles(release, new long[] {5, -1, 1L << 40});
    Wire.In releaseIn = trip(release);
    assertEquals(1, releaseIn.i());
    assertArrayEquals(new long[] {5, -1, 1L << 40}, Wire.handles(releaseIn));
  }

  /** A later host may measure more; this version reads the four it knows and skips the rest. */
  @Test
  void timingsAppendedByALaterVersionAreSkipped() throws IOException {
    Wire.Out out = new Wire.Out(Wire.OK, 2).i(6).l(10).l(20).l(30).l(40).l(50).l(60);
    assertEquals(new LaunchTimings(10, 20, 30, 40), Wire.timings(trip(out)));
  }

  @Test
  void whatIsNotAFrameIsRefused() {
    assertThrows(EOFException.class, () -> Wire.read(new ByteArrayInputStream(new byte[0])));
    assertThrows(ProtocolException.class, () -> Wire.read(new ByteArrayInputStream(new byte[] {0, 0})));
    byte[] tooLong = ByteBuffer.allocate(9).putInt(Wire.MAX_FRAME + 1).array();
    assertThrows(ProtocolException.class, () -> Wire.read(new ByteArrayInputStream(tooLong)));
    byte[] cut = ByteBuffer.allocate(9).putInt(100).array();
    assertThrows(ProtocolException.class, () -> Wire.read(new ByteArrayInputStream(cut)));
    byte[] text = "Could not load libOpenCL.so, error libOpenCL.so: cannot open shared object file\n".getBytes();
    assertThrows(ProtocolException.class, () -> Wire.read(new ByteArrayInputStream(text)));
  }

  @Test
  void aMessageThatEndsEarlyOrMakesNoSenseIsRefused() throws IOException {
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(1).l(64).i(64).i(1))));
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(1).l(64).i(0).i(0))), "local size 0");
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(1).l(64).i(64).i(1).i(9))), "no such argument");
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(0).i(0))), "no dimension");
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(4)
        .l(64).i(64).l(64).i(64).l(64).i(64).l(64).i(64).i(0))), "four dimensions");
    assertThrows(ProtocolException.class, () -> Wire.launch(trip(new Wire.Out(Wire.LAUNCH, 1).i(1).l(0).i(64).i(0))), "an empty range");
    assertThrows(ProtocolException.class, () -> Wire.inventory(trip(new Wire.Out(Wire.OK, 1).s("x").i(Integer.MAX_VALUE))));
    assertThrows(ProtocolException.class, () -> trip(new Wire.Out(Wire.OK, 1).i(-5)).s(), "negative string length");
    Random rnd = new Random(1);
    for (int k = 0; k < 200; k++) { // random payloads: refused, never misread as something else or thrown otherwise
      byte[] junk = new byte[rnd.nextInt(64)];
      rnd.nextBytes(junk);
      Wire.Out out = new Wire.Out(Wire.LAUNCH, 1);
      for (byte b : junk) out.i(b);
      try {
        Wire.launch(trip(out));
      } catch (ProtocolException expected) {
        // what garbage must give
      }
    }
  }
}

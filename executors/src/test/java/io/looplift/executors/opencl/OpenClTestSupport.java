package io.looplift.executors.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.Launch;
import io.looplift.executors.opencl.device.DeviceDiscovery;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.executors.select.ExecutorChain;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.tracecache.DiskProgramStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/** Shared device, data generators and the comparison against the reference executor for OpenCL tests. */
public final class OpenClTestSupport {
  /**
   * The system property set in the one test JVM that may load an OpenCL driver (the {@code driver-in-jvm}
   * execution in this module's pom): a driver such as PoCL replaces the handlers of the signals HotSpot
   * throws {@code ArithmeticException} and {@code NullPointerException} by, so a JVM test that ran after it in
   * the same JVM could see an integer division by zero not throw.
   */
  static final String DRIVER_IN_JVM = "looplift.test.driverInJvm";

  private OpenClTestSupport() {}

  /** The devices, found by loading the driver into this JVM; fails a test that runs where it must not. */
  public static DeviceInventory discoverHere() {
    if (!Boolean.getBoolean(DRIVER_IN_JVM)) {
      throw new IllegalStateException("this test loads an OpenCL driver into the test JVM: list its class in the"
          + " driver-in-jvm execution of executors/pom.xml, which runs such tests in a JVM of their own");
    }
    return DeviceDiscovery.discover();
  }

  /** This JVM's devices, discovered once, when a test first needs them. */
  static DeviceInventory inventory() {
    return Inventory.DEVICES;
  }

  private static final class Inventory {
    static final DeviceInventory DEVICES = discoverHere();
  }

  /** The device under test ({@code opencl.device} selects, as in the agent); see {@link DeviceRequirement}. */
  static DeviceInfo device() {
    DeviceInventory inventory = inventory();
    DeviceRequirement.require(!inventory.isEmpty(), inventory.reason());
    List<Device> devices = inventory.devices().stream().map(OpenClExecutorProvider::device).toList();
    return inventory.devices().get(ExecutorChain.select(devices, System.getProperty("opencl.device")).orElseThrow().index());
  }

  /** The device code in this JVM, with programs cached in {@code cacheDir}. */
  static InProcessLink link(Path cacheDir) throws ExecutionException {
    return new InProcessLink(device(), new DiskProgramStore(cacheDir), 1 << 30);
  }

  /** An executor running the device code in this JVM. */
  static OpenClExecutor executor(Path cacheDir) throws ExecutionException {
    return new OpenClExecutor(device(), link(cacheDir));
  }

  /**
   * An executor running the device code in this JVM with every piece of 256 bytes or more moved through pinned
   * memory in halves of 4 KiB, whatever the device: many turns of both halves per launch.
   */
  static OpenClExecutor pinnedExecutor(Path cacheDir) throws ExecutionException {
    return new OpenClExecutor(device(), new InProcessLink(device(), new DiskProgramStore(cacheDir), 1 << 30, 4096));
  }

  /** An executor through the OpenCL host process, opened the way the agent opens it. */
  static OpenClExecutor hostExecutor(Path cacheDir) throws ExecutionException {
    OpenClExecutorProvider provider = new OpenClExecutorProvider();
    ExecutorEnvironment env = new ExecutorEnvironment(ExecutionOptions.EXACT, cacheDir, "test", 1);
    List<Device> devices = provider.devices(env);
    DeviceRequirement.require(!devices.isEmpty(), provider.inventoryNote());
    return provider.open(ExecutorChain.select(devices, System.getProperty("opencl.device")).orElseThrow(), env);
  }

  static Load load(int slot, Type t) {
    return new Load(slot, t, Index.I);
  }

  static Store store(int slot, Type t, Node value) {
    return new Store(slot, t, Index.I, value, Const.TRUE);
  }

  static LoopTemplate map(List<Type> arrays, List<Type> params, List<Store> stores) {
    return new LoopTemplate(arrays, params, List.of(), stores, List.of());
  }

  /** Runs {@code launch}'s work on both executors over copies of its data and requires identical results. */
  static void assertSameAsReference(OpenClExecutor ocl, LoopTemplate t, Object[] arrays, long[] params, long[] accs,
      int start, int step, int trips, ExecutionOptions options) throws ExecutionException {
    Object[] expected = deepCopy(arrays);
    long[] expectedAccs = accs.clone();
    new ReferenceExecutor().execute(new Launch(t, expected, params, expectedAccs, start, step, trips), options);
    Object[] actual = deepCopy(arrays);
    long[] actualAccs = accs.clone();
    ocl.execute(new Launch(t, actual, params, actualAccs, start, step, trips), options);
    for (int a = 0; a < arrays.length; a++) assertArrayContentEquals(expected[a], actual[a], "array " + a);
    for (int r = 0; r < accs.length; r++) {
      Type type = t.accumulators().get(r);
      assertEquals(canonical(type, expectedAccs[r]), canonical(type, actualAccs[r]),
          "accumulator " + r + ": " + show(type, expectedAccs[r]) + " vs " + show(type, actualAccs[r]));
    }
  }

  static void assertSameAsReference(OpenClExecutor ocl, LoopTemplate t, Object[] arrays, long[] params, int trips)
      throws ExecutionException {
    assertSameAsReference(ocl, t, arrays, params, new long[0], 0, 1, trips, ExecutionOptions.EXACT);
  }

  /** Raw bits, with every NaN the same (Java does not promise NaN payloads either). */
  static long canonical(Type t, long bits) {
    if (t == Type.FLOAT) return Float.floatToIntBits(Float.intBitsToFloat((int) bits));
    if (t == Type.DOUBLE) return Double.doubleToLongBits(Double.longBitsToDouble(bits));
    return bits;
  }

  static String show(Type t, long bits) {
    if (t == Type.FLOAT) return Float.toString(Float.intBitsToFloat((int) bits));
    if (t == Type.DOUBLE) return Double.toString(Double.longBitsToDouble(bits));
    return Long.toString(bits);
  }

  static void assertArrayContentEquals(Object expected, Object actual, String what) {
    if (expected instanceof Object[] rows) { // an array of arrays: row by row
      Object[] actualRows = (Object[]) actual;
      assertEquals(rows.length, actualRows.length, what + ": rows");
      for (int r = 0; r < rows.length; r++) assertArrayContentEquals(rows[r], actualRows[r], what + "[" + r + "]");
    } else if (expected instanceof boolean[] e) assertArrayEquals(e, (boolean[]) actual, what);
    else if (expected instanceof byte[] e) assertArrayEquals(e, (byte[]) actual, what);
    else if (expected instanceof char[] e) assertArrayEquals(e, (char[]) actual, what);
    else if (expected instanceof short[] e) assertArrayEquals(e, (short[]) actual, what);
    else if (expected instanceof int[] e) assertArrayEquals(e, (int[]) actual, what);
    else if (expected instanceof long[] e) assertArrayEquals(e, (long[]) actual, what);
    else if (expected instanceof float[] e) {
      float[] a = (float[]) actual;
      for (int j = 0; j < e.length; j++) {
        if (Float.floatToIntBits(e[j]) != Float.floatToIntBits(a[j])) {
          throw new AssertionError(what + "[" + j + "]: expected " + e[j] + " but was " + a[j]);
        }
      }
    } else {
      double[] e = (double[]) expected;
      double[] a = (double[]) actual;
      for (int j = 0; j < e.length; j++) {
        if (Double.doubleToLongBits(e[j]) != Double.doubleToLongBits(a[j])) {
          throw new AssertionError(what + "[" + j + "]: expected " + e[j] + " but was " + a[j]);
        }
      }
    }
  }

  /** Copies of {@code arrays}, arrays of arrays row by row. */
  static Object[] deepCopy(Object[] arrays) {
    Object[] copy = new Object[arrays.length];
    for (int a = 0; a < arrays.length; a++) {
      Object x = arrays[a];
      if (x instanceof Object[] rows) copy[a] = deepCopy(rows);
      else if (x instanceof boolean[] v) copy[a] = v.clone();
      else if (x instanceof byte[] v) copy[a] = v.clone();
      else if (x instanceof char[] v) copy[a] = v.clone();
      else if (x instanceof short[] v) copy[a] = v.clone();
      else if (x instanceof int[] v) copy[a] = v.clone();
      else if (x instanceof long[] v) copy[a] = v.clone();
      else if (x instanceof float[] v) copy[a] = v.clone();
      else copy[a] = ((double[]) x).clone();
    }
    return copy;
  }

  private static final int[] SPECIAL_INTS = {0, 1, -1, 2, -2, 31, 32, 33, 63, 64, 127, 128, 255, 256, 65535, 65536,
      Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1};
  private static final long[] SPECIAL_LONGS = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE,
      Integer.MIN_VALUE, 1L << 32, (1L << 53) + 1, -(1L << 53) - 1, (1L << 24) + 1, 63, 64};
  private static final double[] SPECIAL_DOUBLES = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, Double.NaN,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
      Double.MIN_NORMAL, 2.147483647E9, 2.147483648E9, -2.147483649E9, 9.3e18, -9.3e18, 1e300, 3.4e38, 3.5e38,
      Float.MIN_VALUE, 1.401298464324817E-45 / 2, 0.1, 1e-310};
  private static final float[] SPECIAL_FLOATS = {0f, -0f, 1f, -1f, 0.5f, -0.5f, 1.5f, 2.5f, Float.NaN,
      Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
      Float.MIN_NORMAL, 2.14748365E9f, -2.14748365E9f, 9.3e18f, -9.3e18f, 1e-40f, 0.1f, 16777217f};

  static int[] ints(Random rnd, int n) {
    int[] v = new int[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(4);
      v[j] = pick == 0 ? SPECIAL_INTS[rnd.nextInt(SPECIAL_INTS.length)] : pick == 1 ? rnd.nextInt(200) - 100 : rnd.nextInt();
    }
    return v;
  }

  /** Ints without zero: the analyzer never offloads a division by a possible zero. */
  static int[] divisors(Random rnd, int n) {
    int[] v = ints(rnd, n);
    for (int j = 0; j < n; j++) if (v[j] == 0) v[j] = -1;
    return v;
  }

  static long[] longs(Random rnd, int n) {
    long[] v = new long[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(4);
      v[j] = pick == 0 ? SPECIAL_LONGS[rnd.nextInt(SPECIAL_LONGS.length)] : pick == 1 ? rnd.nextInt(200) - 100 : rnd.nextLong();
    }
    return v;
  }

  static long[] longDivisors(Random rnd, int n) {
    long[] v = longs(rnd, n);
    for (int j = 0; j < n; j++) if (v[j] == 0) v[j] = -1;
    return v;
  }

  static float[] floats(Random rnd, int n) {
    float[] v = new float[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(4);
      v[j] = pick == 0 ? SPECIAL_FLOATS[rnd.nextInt(SPECIAL_FLOATS.length)]
          : pick == 1 ? (rnd.nextInt(9) - 4) * 0.5f : pick == 2 ? (float) rnd.nextGaussian() * 1e3f : Float.intBitsToFloat(rnd.nextInt());
    }
    return v;
  }

  static double[] doubles(Random rnd, int n) {
    double[] v = new double[n];
    for (int j = 0; j < n; j++) {
      int pick = rnd.nextInt(4);
      v[j] = pick == 0 ? SPECIAL_DOUBLES[rnd.nextInt(SPECIAL_DOUBLES.length)]
          : pick == 1 ? (rnd.nextInt(9) - 4) * 0.5 : pick == 2 ? rnd.nextGaussian() * 1e6 : Double.longBitsToDouble(rnd.nextLong());
    }
    return v;
  }

  static Object array(Type t, Random rnd, int n) {
    return switch (t) {
      case BOOLEAN -> {
        boolean[] b = new boolean[n];
        for (int j = 0; j < n; j++) b[j] = rnd.nextBoolean();
        yield b;
      }
      case BYTE -> {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        yield b;
      }
      case CHAR -> {
        char[] c = new char[n];
        for (int j = 0; j < n; j++) c[j] = (char) ints(rnd, 1)[0];
        yield c;
      }
      case SHORT -> {
        short[] s = new short[n];
        for (int j = 0; j < n; j++) s[j] = (short) ints(rnd, 1)[0];
        yield s;
      }
      case INT -> ints(rnd, n);
      case LONG -> longs(rnd, n);
      case FLOAT -> floats(rnd, n);
      case DOUBLE -> doubles(rnd, n);
    };
  }
}

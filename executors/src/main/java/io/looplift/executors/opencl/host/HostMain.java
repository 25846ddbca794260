package io.looplift.executors.opencl.host;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.OneLine;
import io.looplift.executors.opencl.device.DeviceDiscovery;
import io.looplift.executors.opencl.device.OpenClDevice;
import io.looplift.progen.opencl.OpenClKernel;
import io.looplift.tracecache.DiskProgramStore;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The OpenCL host process: the only JVM that loads JOCL and the OpenCL driver. Reads {@link Wire} requests
 * from stdin and writes replies to the pipe named by its argument (see {@link HostCommand}); its stdout and
 * stderr are the program JVM's debug log.
 *
 * <p>The main thread only reads requests, so that it notices at once when stdin ends, which means the
 * program's JVM is gone or done with it: the host then halts, whatever its other threads are doing. Cheap
 * requests (mapping memory, defining kernels) are handled on the main thread in order; discovery and
 * opening a device on one control thread; launches on a few launch threads, except those of a lane (a flush
 * session's), which run one after another in the order they arrived, so that their sender need not wait
 * for one before sending the next.
 */
public final class HostMain {
  private static final int LAUNCH_THREADS = 4;

  private final OutputStream replies; // guarded by itself
  private final MappedSegments segments = new MappedSegments();
  private final Map<Integer, OpenClKernel> kernels = new ConcurrentHashMap<>();
  private final List<OpenClDevice> devices = new CopyOnWriteArrayList<>(); // a handle is a position
  private final ExecutorService control = Executors.newSingleThreadExecutor(daemons("looplift-host-control"));
  private final ExecutorService launches = Executors.newFixedThreadPool(LAUNCH_THREADS, daemons("looplift-host-launch"));
  /** One thread each: the requests of a lane run on one of them, in the order they arrived. */
  private final ExecutorService[] lanes = new ExecutorService[LAUNCH_THREADS];
  private volatile DeviceInventory inventory;
  private volatile DiskProgramStore disk;
  private volatile String version;

  private HostMain(OutputStream replies) {
    this.replies = replies;
  }

  /** {@code args[0]}: the path of the reply pipe. */
  public static void main(String[] args) {
    OutputStream replies;
    try {
      replies = new BufferedOutputStream(new FileOutputStream(args[0]));
    } catch (IOException | RuntimeException e) {
      System.err.println("cannot open the reply pipe: " + OneLine.of(e));
      Runtime.getRuntime().halt(2);
      return;
    }
    new HostMain(replies).serve(new BufferedInputStream(new FileInputStream(FileDescriptor.in)));
  }

  /** Handles requests until stdin ends or a request is garbage; then halts. */
  private void serve(InputStream requests) {
    try {
      while (true) {
        Wire.In r = Wire.read(requests);
        switch (r.type) {
          case Wire.HELLO -> hello(r);
          case Wire.OPEN -> {
            int index = r.i();
            control.execute(() -> open(r.id, index));
          }
          case Wire.MAP -> map(r);
          case Wire.UNMAP -> segments.unmap(r.i());
          case Wire.DEFINE -> kernels.put(r.i(), Wire.kernel(r));
          case Wire.DROP -> kernels.remove(r.i());
          case Wire.LAUNCH -> {
            int device = r.i();
            int kernel = r.i();
            int lane = r.i();
            KernelLaunch launch = Wire.launch(r);
            lane(lane).execute(() -> launch(r.id, device, kernel, launch));
          }
          case Wire.READ -> {
            int device = r.i();
            int lane = r.i();
            List<KernelLaunch.Buffer> buffers = Wire.buffers(r);
            lane(lane).execute(() -> read(r.id, device, buffers));
          }
          case Wire.RELEASE -> {
            int device = r.i();
            long[] handles = Wire.handles(r);
            if (device >= 0 && device < devices.size()) devices.get(device).release(handles);
          }
          case Wire.CLOSE -> Runtime.getRuntime().halt(0);
          default -> throw new ProtocolException("a request of type " + r.type);
        }
      }
    } catch (EOFException e) {
      Runtime.getRuntime().halt(0); // the program's JVM is gone, or done with OpenCL
    } catch (IOException e) {
      System.err.println("garbage on stdin: " + e.getMessage());
      Runtime.getRuntime().halt(2);
    }
  }

  /** Where a request of {@code lane} runs: any launch thread for lane 0, else its lane's (main thread only). */
  private ExecutorService lane(int lane) {
    if (lane == 0) return launches;
    int k = Math.floorMod(lane, lanes.length);
    if (lanes[k] == null) lanes[k] = Executors.newSingleThreadExecutor(daemons("looplift-host-lane"));
    return lanes[k];
  }

  private void hello(Wire.In r) throws ProtocolException {
    int magic = r.i();
    int protocol = r.i();
    String cacheDir = r.s();
    String loopliftVersion = r.s();
    if (magic != Wire.MAGIC || protocol != Wire.VERSION) {
      reply(new Wire.Out(Wire.FAILED, r.id).s("the OpenCL host speaks protocol version " + Wire.VERSION + ", not " + protocol));
      Runtime.getRuntime().halt(2);
    }
    control.execute(() -> {
      long t0 = System.nanoTime();
      DeviceInventory found = DeviceDiscovery.discover();
      System.err.printf("%s (discovery took %d ms)%n", found.reason(), (System.nanoTime() - t0) / 1_000_000);
      Path dir = cacheDir.isEmpty() ? DiskProgramStore.defaultDirectory() : Path.of(cacheDir);
      disk = new DiskProgramStore(dir, line -> System.err.println(Wire.WARNING + line));
      version = loopliftVersion;
      inventory = found;
      Wire.Out out = new Wire.Out(Wire.OK, r.id).i(Wire.MAGIC).i(Wire.VERSION);
      Wire.inventory(out, found);
      reply(out);
    });
  }

  private void open(int id, int index) {
    DeviceInventory found = inventory;
    if (found == null || index < 0 || index >= found.devices().size()) {
      reply(new Wire.Out(Wire.FAILED, id).s("no OpenCL device " + index));
      return;
    }
    try {
      OpenClDevice device = new OpenClDevice(found.devices().get(index), disk, version);
      int handle;
      synchronized (devices) {
        devices.add(device);
        handle = devices.size() - 1;
      }
      System.err.println("opened " + device);
      reply(new Wire.Out(Wire.OK, id).i(handle));
    } catch (ExecutionException e) {
      reply(new Wire.Out(Wire.FAILED, id).s(e.getMessage()));
    }
  }

  private void map(Wire.In r) throws ProtocolException {
    int segment = r.i();
    Path file = Path.of(r.s());
    int capacity = r.i();
    try {
      segments.map(segment, file, capacity);
      reply(new Wire.Out(Wire.OK, r.id));
    } catch (IOException | RuntimeException e) {
      reply(new Wire.Out(Wire.FAILED, r.id).s("the OpenCL host cannot map " + file + ": " + OneLine.of(e)));
    }
  }

  private void launch(int id, int handle, int kernelId, KernelLaunch launch) {
    onDevice(id, handle, (device, ok) -> {
      OpenClKernel kernel = kernels.get(kernelId);
      if (kernel == null) throw new ExecutionException("no kernel " + kernelId);
      Wire.timings(ok, device.run(kernel, launch, segments));
    });
  }

  private void read(int id, int handle, List<KernelLaunch.Buffer> buffers) {
    onDevice(id, handle, (device, ok) -> ok.l(device.read(buffers, segments)));
  }

  /** Work on an open device that fills the payload of its {@link Wire#OK} reply. */
  private interface DeviceWork {
    void run(OpenClDevice device, Wire.Out ok) throws ExecutionException;
  }

  /** Does {@code work} on the device {@code handle} names and answers request {@code id} with the outcome. */
  private void onDevice(int id, int handle, DeviceWork work) {
    try {
      if (handle < 0 || handle >= devices.size()) throw new ExecutionException("no open device " + handle);
      Wire.Out ok = new Wire.Out(Wire.OK, id);
      work.run(devices.get(handle), ok);
      reply(ok);
    } catch (ExecutionException | RuntimeException e) { // a bad piece, a launch the device refused
      reply(new Wire.Out(Wire.FAILED, id).s(e instanceof ExecutionException ? e.getMessage() : OneLine.of(e)));
    } catch (Throwable t) { // out of memory, a broken JOCL: this process cannot be trusted any more
      t.printStackTrace();
      Runtime.getRuntime().halt(3);
    }
  }

  private void reply(Wire.Out out) {
    synchronized (replies) {
      try {
        out.writeTo(replies);
      } catch (IOException e) {
        Runtime.getRuntime().halt(0); // nobody is listening any more
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemons(String name) {
    AtomicInteger n = new AtomicInteger();
    return body -> {
      Thread t = new Thread(body, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}

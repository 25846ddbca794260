package io.looplift.executors.opencl.host;

import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutorLog;
import io.looplift.executors.opencl.DeviceInventory;
import io.looplift.executors.opencl.KernelLaunch;
import io.looplift.executors.opencl.LaunchTimings;
import io.looplift.progen.opencl.OpenClKernel;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The OpenCL host process as the program's JVM sees it: a child JVM that owns the OpenCL driver, so that
 * the driver can change nothing in the program's process (signal handlers, stdout) and a driver crash or
 * hang stays out of it. Speaks {@link Wire}: requests go to the host's stdin, replies come back on a pipe of
 * their own and are matched to their requests by id, so that many threads can have launches in flight.
 *
 * <p>The first time the host dies, answers garbage or does not answer in time, this object kills it and
 * gives up on it for good: every request in flight and every later one fails with an
 * {@link ExecutionException}, and (once the session is up) one line goes to the log's warnings. The host
 * exits by itself when its stdin closes, so it never outlives the program's JVM, however that ends. Its
 * stderr (with its stdout) goes to the log at debug level only. Thread-safe.
 */
public final class HostProcess implements AutoCloseable {
  /** Kernels the host keeps defined; past this, the least recently launched ones are dropped. */
  private static final int MAX_DEFINED = 1024;
  private static final int STDERR_LINES = 20;
  /** The hosts started and not yet ended, for {@link #cpuNanos}. */
  private static final Set<ProcessHandle> RUNNING = ConcurrentHashMap.newKeySet();

  private final Process process;
  private final OutputStream requests; // guarded by itself
  private final HostTimeouts timeouts;
  private final ExecutorLog log;
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger kernelIds = new AtomicInteger();
  private final Map<OpenClKernel, Integer> defined = new LinkedHashMap<>(16, 0.75f, true); // guarded by requests
  private final Map<Integer, CompletableFuture<Wire.In>> pending = new ConcurrentHashMap<>();
  private final List<String> stderrTail = new ArrayList<>(); // guarded by itself
  private final AtomicBoolean ended = new AtomicBoolean();
  /** Held while the host is being ended, by {@link #fail} or {@link #close}. */
  private final Object ending = new Object();
  private volatile String failure;
  private volatile boolean announceFailure;

  private HostProcess(Process process, HostTimeouts timeouts, ExecutorLog log) {
    this.process = process;
    this.requests = process.getOutputStream();
    this.timeouts = timeouts;
    this.log = log;
  }

  /**
   * Starts the host with {@code command}. It then waits for {@link #hello}.
   *
   * @throws IOException when the process cannot be started
   */
  public static HostProcess start(HostCommand command, HostTimeouts timeouts, ExecutorLog log) throws IOException {
    Process p = command.processBuilder().start();
    HostProcess host = new HostProcess(p, timeouts, log);
    RUNNING.add(p.toHandle());
    p.onExit().thenRun(() -> RUNNING.remove(p.toHandle()));
    log.debug("opencl: started the OpenCL host process " + p.pid() + ": " + command);
    daemon("looplift-opencl-replies", host::readReplies);
    daemon("looplift-opencl-stderr", host::drainStderr);
    return host;
  }

  /** Starts the host {@link HostCommand#forHost} describes for {@code loader}'s LoopLift classes. */
  public static HostProcess start(ClassLoader loader, HostTimeouts timeouts, ExecutorLog log) throws IOException {
    return start(HostCommand.forHost(loader), timeouts, log);
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /**
   * The processor time the running hosts have used so far, in nanoseconds (0 where the system does not say):
   * what they took from the JVM's own threads, for the selection's measuring runs
   * ({@link io.looplift.executors.select.Selector.Builder#deviceProcesses}).
   */
  public static long cpuNanos() {
    long n = 0;
    for (ProcessHandle h : RUNNING) n += h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    return n;
  }

  /** The host's process id. */
  public long pid() {
    return process.pid();
  }

  /** False once the host failed or was closed. */
  public boolean usable() {
    return !ended.get();
  }

  /**
   * Opens the session: the host checks the protocol version, finds its devices and sets up its program
   * cache, within {@link HostTimeouts#start}.
   *
   * @param cacheDir where compiled programs persist, or null for the default location
   * @throws ExecutionException when it does not answer in time, answers garbage or refuses
   */
  public DeviceInventory hello(Path cacheDir, String version) throws ExecutionException {
    int id = ids.incrementAndGet();
    Wire.Out out = new Wire.Out(Wire.HELLO, id).i(Wire.MAGIC).i(Wire.VERSION).s(cacheDir == null ? "" : cacheDir.toString()).s(version);
    Wire.In reply = call(id, out, timeouts.start());
    try {
      int magic = reply.i();
      int protocol = reply.i();
      if (magic != Wire.MAGIC || protocol != Wire.VERSION) {
        throw new ProtocolException("it speaks protocol " + Integer.toHexString(magic) + " version " + protocol);
      }
      DeviceInventory inventory = Wire.inventory(reply);
      announceFailure = true;
      return inventory;
    } catch (ProtocolException e) {
      throw garbage(e);
    }
  }

  /**
   * Opens the device at {@code index} of the inventory; returns the handle launches name it by.
   *
   * @throws ExecutionException when the device cannot be opened or the host failed
   */
  public int open(int index) throws ExecutionException {
    int id = ids.incrementAndGet();
    Wire.In reply = call(id, new Wire.Out(Wire.OPEN, id).i(index), timeouts.request());
    try {
      return reply.i();
    } catch (ProtocolException e) {
      throw garbage(e);
    }
  }

  /** Has the host map {@code capacity} bytes of {@code file} as segment {@code segment}. */
  void map(int segment, Path file, int capacity) throws ExecutionException {
    int id = ids.incrementAndGet();
    call(id, new Wire.Out(Wire.MAP, id).i(segment).s(file.toString()).i(capacity), timeouts.request());
  }

  /** Has the host unmap segment {@code segment}; nothing may use it any more. Never throws. */
  void unmap(int segment) {
    if (!usable()) return;
    try {
      synchronized (requests) {
        new Wire.Out(Wire.UNMAP, 0).i(segment).writeTo(requests);
      }
    } catch (IOException e) {
      writeFailed(e);
    }
  }

  /**
   * Runs {@code launch} of {@code kernel} on the device {@code device} (a handle from {@link #open}),
   * defining the kernel first where the host does not know it yet.
   *
   * @throws ExecutionException when the launch failed; when the host failed, also every later call
   */
  public LaunchTimings launch(int device, OpenClKernel kernel, KernelLaunch launch) throws ExecutionException {
    return timings(send(device, kernel, launch, 0));
  }

  /**
   * Sends {@code launch} of {@code kernel} for the device {@code device} on {@code lane} (0: any order) and
   * returns its reply, for {@link #timings}.
   *
   * @throws ExecutionException when the host failed
   */
  CompletableFuture<Wire.In> send(int device, OpenClKernel kernel, KernelLaunch launch, int lane)
      throws ExecutionException {
    int id = ids.incrementAndGet();
    CompletableFuture<Wire.In> reply = expect(id);
    try {
      synchronized (requests) { // a kernel's definition precedes every launch of it on the pipe
        Integer kernelId = defined.get(kernel);
        if (kernelId == null) {
          kernelId = kernelIds.incrementAndGet();
          Wire.Out define = new Wire.Out(Wire.DEFINE, 0).i(kernelId);
          Wire.kernel(define, kernel);
          define.writeTo(requests);
          defined.put(kernel, kernelId);
          dropEldestDefinitions();
        }
        Wire.Out out = new Wire.Out(Wire.LAUNCH, id).i(device).i(kernelId).i(lane);
        Wire.launch(out, launch);
        out.writeTo(requests);
      }
    } catch (IOException e) {
      pending.remove(id);
      writeFailed(e);
      throw unusable();
    }
    return reply;
  }

  /**
   * Waits for a launch's {@code reply} (from {@link #send}) and returns its timings.
   *
   * @throws ExecutionException when the launch failed; when the host failed, also every later call
   */
  LaunchTimings timings(CompletableFuture<Wire.In> reply) throws ExecutionException {
    Wire.In answer = await(reply, timeouts.launch());
    try {
      return Wire.timings(answer);
    } catch (ProtocolException e) {
      throw garbage(e);
    }
  }

  /**
   * Copies the read-back ranges of {@code buffers}, which the device {@code device} keeps, into their pieces,
   * after the launches sent before on {@code lane}; returns the nanoseconds the copies took on the host's
   * clock.
   *
   * @throws ExecutionException when the copies failed; when the host failed, also every later call
   */
  public long read(int device, int lane, List<KernelLaunch.Buffer> buffers) throws ExecutionException {
    int id = ids.incrementAndGet();
    Wire.Out request = new Wire.Out(Wire.READ, id).i(device).i(lane);
    Wire.buffers(request, buffers);
    Wire.In answer = call(id, request, timeouts.launch());
    try {
      return answer.l();
    } catch (ProtocolException e) {
      throw garbage(e);
    }
  }

  /** Has the host free the buffers the device {@code device} keeps under {@code handles}. Never throws. */
  void release(int device, long[] handles) {
    if (!usable() || handles.length == 0) return;
    try {
      Wire.Out request = new Wire.Out(Wire.RELEASE, 0).i(device);
      Wire.handles(request, handles);
      synchronized (requests) {
        request.writeTo(requests);
      }
    } catch (IOException e) {
      writeFailed(e);
    }
  }

  private void dropEldestDefinitions() throws IOException {
    while (defined.size() > MAX_DEFINED) {
      Map.Entry<OpenClKernel, Integer> eldest = defined.entrySet().iterator().next();
      defined.remove(eldest.getKey());
      new Wire.Out(Wire.DROP, 0).i(eldest.getValue()).writeTo(requests);
    }
  }

  /** Sends a request and waits for its reply; a {@link Wire#FAILED} reply throws its reason. */
  private Wire.In call(int id, Wire.Out request, Duration timeout) throws ExecutionException {
    CompletableFuture<Wire.In> reply = expect(id);
    try {
      synchronized (requests) {
        request.writeTo(requests);
      }
    } catch (IOException e) {
      pending.remove(id);
      writeFailed(e);
      throw unusable();
    }
    return await(reply, timeout);
  }

  /** Registers the reply to request {@code id}; throws when the host is already gone. */
  private CompletableFuture<Wire.In> expect(int id) throws ExecutionException {
    CompletableFuture<Wire.In> reply = new CompletableFuture<>();
    pending.put(id, reply);
    // fail() sets ended before it fails what is pending: either it saw this reply, or this sees ended.
    if (ended.get()) {
      pending.remove(id);
      throw unusable();
    }
    return reply;
  }

  /**
   * Waits for {@code reply} until {@code timeout}; interrupts do not cut the wait short (the host may still
   * be writing into the launch's shared memory), they are kept for the caller.
   */
  private Wire.In await(CompletableFuture<Wire.In> reply, Duration timeout) throws ExecutionException {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          Wire.In in = reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          if (in.type == Wire.FAILED) throw new ExecutionException(in.s());
          return in;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (TimeoutException e) {
          fail("did not answer within " + timeout.toSeconds() + " s");
          throw unusable();
        } catch (java.util.concurrent.ExecutionException e) {
          throw unusable();
        } catch (ProtocolException e) {
          throw garbage(e);
        }
      }
    } finally {
      if (interrupted) Thread.currentThread().interrupt();
    }
  }

  private ExecutionException garbage(ProtocolException e) {
    fail("answered garbage (" + e.getMessage() + ")");
    return unusable();
  }

  private ExecutionException unusable() {
    String why = failure;
    return new ExecutionException(why == null ? "the OpenCL host process was closed" : "the OpenCL host process " + why);
  }

  /** Reads replies and hands each to its waiting request, until the pipe ends or carries garbage. */
  private void readReplies() {
    try (BufferedInputStream replies = new BufferedInputStream(process.getInputStream())) {
      while (true) {
        Wire.In reply = Wire.read(replies);
        if (reply.type != Wire.OK && reply.type != Wire.FAILED) throw new ProtocolException("a reply of type " + reply.type);
        CompletableFuture<Wire.In> waiting = pending.remove(reply.id);
        if (waiting == null) throw new ProtocolException("a reply to request " + reply.id + ", which nobody waits for");
        waiting.complete(reply);
      }
    } catch (EOFException e) {
      fail(exitDescription());
    } catch (IOException e) {
      fail("answered garbage (" + e.getMessage() + ")");
    }
  }

  /** Gives up on a host that cannot be written to: usually one that has just exited. */
  private void writeFailed(IOException e) {
    fail(process.isAlive() ? "could not be written to (" + e.getMessage() + ")" : exitDescription());
  }

  /** How the host ended, once its reply pipe closed. */
  private String exitDescription() {
    try {
      if (!process.waitFor(2, TimeUnit.SECONDS)) return "closed its reply pipe";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "closed its reply pipe";
    }
    int code = process.exitValue();
    return code > 128 ? "was killed by signal " + (code - 128) : "exited with code " + code;
  }

  /**
   * Logs the host's stderr (and stdout) at debug level, its warnings ({@link Wire#WARNING}) whatever the level,
   * and keeps its last lines for a failure.
   */
  private void drainStderr() {
    try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = err.readLine()) != null; ) {
        if (line.startsWith(Wire.WARNING)) log.warn(line.substring(Wire.WARNING.length()));
        else log.debug("opencl host: " + line);
        synchronized (stderrTail) {
          if (stderrTail.size() == STDERR_LINES) stderrTail.remove(0);
          stderrTail.add(line);
        }
      }
    } catch (IOException e) {
      // The host is gone; readReplies reports that.
    }
  }

  /**
   * Gives up on the host for good, the first time only: kills it and fails everything pending. The reason and
   * the warning come before {@link #ended} is set, and a second caller waits for the first: whoever sees the
   * host ended sees why, with the warning already given (a launch failing on a dead host and the pipe reader
   * that noticed the exit race here).
   */
  private void fail(String why) {
    synchronized (ending) {
      if (ended.get()) return;
      failure = why;
      if (announceFailure) {
        log.warn("the OpenCL host process " + why + "; loops run on the jvm executor from now on (log=debug shows its output)");
      }
      ended.set(true);
    }
    process.destroyForcibly();
    for (Integer id : List.copyOf(pending.keySet())) {
      CompletableFuture<Wire.In> waiting = pending.remove(id);
      if (waiting != null) waiting.completeExceptionally(new IOException(why));
    }
    synchronized (stderrTail) {
      log.debug("opencl: the OpenCL host process " + why + "; its last output: " + String.join(" | ", stderrTail));
    }
  }

  /** Ends the session: the host exits, and what it still had in flight fails. Waits at most a moment. */
  @Override
  public void close() {
    synchronized (ending) {
      if (!ended.compareAndSet(false, true)) return;
    }
    try {
      synchronized (requests) {
        new Wire.Out(Wire.CLOSE, 0).writeTo(requests);
        requests.close();
      }
    } catch (IOException e) {
      // Already gone.
    }
    for (Integer id : List.copyOf(pending.keySet())) {
      CompletableFuture<Wire.In> waiting = pending.remove(id);
      if (waiting != null) waiting.completeExceptionally(new IOException("closed"));
    }
    try {
      if (!process.waitFor(2, TimeUnit.SECONDS)) process.destroyForcibly();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}

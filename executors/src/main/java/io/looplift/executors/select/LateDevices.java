package io.looplift.executors.select;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The device executors {@code executor=auto} may choose, opened in the background the first time they are
 * asked for: a program whose loops never reach the selection starts no driver and no OpenCL host process, and
 * one that does goes on with the other candidates while the devices open. Only providers that are
 * {@link ExecutorProvider#present() present} are asked. Thread-safe.
 */
public final class LateDevices implements AutoCloseable {
  private final List<ExecutorProvider> providers;
  private final String deviceSelector;
  private final ExecutorEnvironment env;
  private final Consumer<List<Device>> found;
  private volatile List<Offload> open = List.of();
  private boolean started; // guarded by this
  private volatile boolean asked;
  private boolean closed; // guarded by this

  /**
   * @param deviceSelector {@code opencl.device}: which devices to open (see {@link ExecutorChain#select}); null
   *     opens every device
   * @param found receives every device the providers found, once they have been asked
   */
  LateDevices(List<ExecutorProvider> providers, String deviceSelector, ExecutorEnvironment env,
      Consumer<List<Device>> found) {
    this.providers = List.copyOf(providers);
    this.deviceSelector = deviceSelector;
    this.env = env;
    this.found = found;
  }

  /** Nothing to open: a run that forces its executor, or a machine where no device provider is present. */
  public static LateDevices none() {
    return new LateDevices(List.of(), null, null, devices -> {});
  }

  /** The executors opened so far; the first call starts opening them on a daemon thread. */
  public List<Offload> poll() {
    synchronized (this) {
      if (!started && !providers.isEmpty()) {
        started = true;
        daemon(this::openAll, "looplift-devices").start();
      }
    }
    return open;
  }

  /** Whether there is any device provider to open: false for {@link #none()}. */
  public boolean present() {
    return !providers.isEmpty();
  }

  /** The executors opened so far, without starting to open any. */
  public List<Offload> opened() {
    return open;
  }

  /** Whether devices are opening: from the first {@link #poll} until every provider has been asked. */
  public synchronized boolean opening() {
    return started && !asked;
  }

  /**
   * A daemon thread that keeps nothing of the program thread that happens to create it: not its context class
   * loader, nor (through the inherited access control context) the protection domains on its stack, either of
   * which would keep the class loader of the program's class alive as long as the thread runs.
   */
  @SuppressWarnings("removal") // no other way to leave the caller's frames out of a new thread's context
  public static Thread daemon(Runnable task, String name) {
    Thread t = java.security.AccessController.doPrivileged(
        (java.security.PrivilegedAction<Thread>) () -> new Thread(task, name));
    t.setContextClassLoader(LateDevices.class.getClassLoader());
    t.setDaemon(true);
    return t;
  }

  private void openAll() {
    try {
      openEach();
    } finally {
      asked = true;
    }
  }

  private void openEach() {
    List<Device> devices = new ArrayList<>();
    for (ExecutorProvider p : providers) {
      List<Device> all = p.devices(env);
      devices.addAll(all);
      List<Device> wanted = deviceSelector == null ? all : ExecutorChain.select(all, deviceSelector).stream().toList();
      if (all.isEmpty()) env.log().debug(p.name() + ": " + p.inventoryNote());
      for (Device d : wanted) {
        try {
          add(Offload.on(p.open(d, env), d));
          env.log().debug(p.name() + " device open for measured selection: " + d.description());
        } catch (ExecutionException e) {
          env.log().debug("cannot open " + d.id() + " (" + e.getMessage() + "); it is not a candidate");
        }
      }
    }
    found.accept(devices);
  }

  private synchronized void add(Offload o) {
    if (closed) {
      o.executor().close();
      return;
    }
    List<Offload> grown = new ArrayList<>(open);
    grown.add(o);
    open = List.copyOf(grown);
  }

  /** Closes what was opened; what opens after this is closed at once. */
  @Override
  public void close() {
    List<Offload> toClose;
    synchronized (this) {
      closed = true;
      toClose = open;
      open = List.of();
    }
    for (Offload o : toClose) o.executor().close();
  }
}

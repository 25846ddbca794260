package io.looplift.apps;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Loads {@link LoaderGuest} through a {@link URLClassLoader} whose parent is the platform class loader,
 * so it never delegates to the application class loader, runs it, and prints the result. Then it drops
 * the loader and prints whether the garbage collector reclaimed it within ten seconds ("collected"): a
 * Java agent must not keep a program's class loaders alive.
 */
public final class IsolatedLauncher {
  private static final String GUEST = "io.looplift.apps.LoaderGuest";

  private IsolatedLauncher() {}

  /** Runs the guest in a fresh loader; returns a weak reference to that loader, the only one left. */
  private static WeakReference<ClassLoader> runIsolated(URL classes) throws Exception {
    try (URLClassLoader loader = new URLClassLoader("isolated", new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
      Class<?> guest = Class.forName(GUEST, true, loader);
      // The guest must be defined by this loader, not found through the application class path.
      System.out.println("isolated " + (guest.getClassLoader() == loader));
      Method run = guest.getMethod("run", int.class);
      for (int round = 0; round < 3; round++) System.out.println("guest " + run.invoke(null, 1 << 18));
      return new WeakReference<>(loader);
    }
  }

  public static void main(String[] args) throws Exception {
    URL classes = IsolatedLauncher.class.getProtectionDomain().getCodeSource().getLocation();
    WeakReference<ClassLoader> ref = runIsolated(classes);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (ref.get() != null && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    System.out.println(ref.get() == null ? "collected" : "not collected");
  }
}

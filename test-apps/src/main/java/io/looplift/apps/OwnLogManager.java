package io.looplift.apps;

import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * A program that installs its own {@code java.util.logging} {@link LogManager}, as application servers do:
 * the property is read once, when the logging classes initialize, so an agent that initialized logging
 * before the program asked for it would leave the program with the default manager. Installs it first thing
 * in {@code main}, or with the argument {@code late} only after its loops have run; then prints the manager
 * it got and a sum over an array.
 */
public class OwnLogManager {
  /** The program's own manager. */
  public static class Manager extends LogManager {}

  static long total(int[] v) { long s = 0; for (int i = 0; i < v.length; i++) s += v[i]; return s; }

  public static void main(String[] args) {
    boolean late = args.length > 0 && args[0].equals("late");
    if (!late) install();
    int[] v = new int[1 << 20];
    for (int i = 0; i < v.length; i++) v[i] = i % 1000;
    long sum = 0;
    for (int round = 0; round < 20; round++) sum += total(v);
    if (late) install();
    System.out.println(LogManager.getLogManager().getClass().getName());
    System.out.println(sum);
  }

  private static void install() {
    System.setProperty("java.util.logging.manager", Manager.class.getName());
    Logger.getLogger("own").fine("started");
  }
}

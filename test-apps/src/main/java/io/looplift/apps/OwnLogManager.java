package io.looplift.apps;

import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * A program that installs its own {@code java.util.logging} {@link LogManager} in {@code main}, as
 * application servers do: the property is read once, when the first logging class initializes, so an agent
 * that initialized logging before {@code main} would leave the program with the default manager. Prints the
 * manager it got and a sum over an array.
 */
public class OwnLogManager {
  /** The program's own manager. */
  public static class Manager extends LogManager {}

  static long total(int[] v) { long s = 0; for (int i = 0; i < v.length; i++) s += v[i]; return s; }

  public static void main(String[] args) {
    System.setProperty("java.util.logging.manager", Manager.class.getName());
    Logger.getLogger("own").fine("started");
    System.out.println(LogManager.getLogManager().getClass().getName());
    int[] v = new int[1 << 20];
    for (int i = 0; i < v.length; i++) v[i] = i % 1000;
    System.out.println(total(v));
  }
}

package io.looplift.apps;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * A program and the platform MBean server. Prints a sum over an array, then, with {@code look}, waits a
 * moment and prints whether any MBean server runs (it starts none itself); with {@code start <millis>} it
 * starts the platform MBean server as a program with JMX monitoring does, waits up to that long for
 * LoopLift's MBean and says on stderr what it found.
 */
public class PlatformMBeans {
  static long total(int[] v) { long s = 0; for (int i = 0; i < v.length; i++) s += v[i]; return s; }

  public static void main(String[] args) throws Exception {
    int[] v = new int[1 << 20];
    for (int i = 0; i < v.length; i++) v[i] = i % 1000;
    System.out.println(total(v));
    if (args[0].equals("look")) {
      Thread.sleep(2500);
      System.out.println("MBean servers running: " + MBeanServerFactory.findMBeanServer(null).size());
    } else {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName looplift = new ObjectName("io.looplift:type=LoopLift");
      long deadline = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000;
      while (!server.isRegistered(looplift) && System.nanoTime() < deadline) Thread.sleep(20);
      System.err.println(server.isRegistered(looplift)
          ? "found " + looplift + " with LoopCount " + server.getAttribute(looplift, "LoopCount")
          : "no " + looplift);
    }
  }
}

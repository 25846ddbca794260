package io.looplift.profiler;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Registers the profiler's MBean. Apart from {@link Profiler} so that only this class needs
 * {@code java.management}: a runtime image made without it fails to load this class, not the profiler.
 */
final class MBeanRegistration {
  private MBeanRegistration() {}

  /**
   * Whether the platform MBean server runs: a server made through {@link MBeanServerFactory} (as the
   * platform's is) that holds the platform's runtime bean. Looking starts nothing.
   */
  static boolean platformServerStarted() {
    try {
      ObjectName runtime = new ObjectName(ManagementFactory.RUNTIME_MXBEAN_NAME);
      for (MBeanServer server : MBeanServerFactory.findMBeanServer(null)) {
        if (server.isRegistered(runtime)) return true;
      }
      return false;
    } catch (JMException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Registers {@code view} as {@link Profiler#MBEAN_NAME}, replacing a bean another profiler registered there;
   * nothing changes when {@code registered} (this profiler registered its bean before) and that bean is still
   * there. Returns whether the bean is registered; a failure is said on stderr.
   */
  static boolean register(LoopLiftMBean view, boolean registered) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      ObjectName name = new ObjectName(Profiler.MBEAN_NAME);
      if (registered && server.isRegistered(name)) return true;
      if (server.isRegistered(name)) server.unregisterMBean(name);
      server.registerMBean(new StandardMBean(view, LoopLiftMBean.class), name);
      return true;
    } catch (JMException | RuntimeException e) {
      System.err.println("looplift: cannot register MBean " + Profiler.MBEAN_NAME + ": " + Profiler.reason(e));
      return false;
    }
  }
}

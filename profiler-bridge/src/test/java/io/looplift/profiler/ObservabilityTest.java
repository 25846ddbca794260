package io.looplift.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObservabilityTest {
  @TempDir Path dir;

  @Test
  void profilerMethodsCommitJfrEvents() throws Exception {
    Profiler p = new Profiler();
    int site = p.siteAdded(new SiteInfo("demo.Demo", "scale", "([F)V", 12, "map", "offloaded", null));
    Path file = dir.resolve("looplift.jfr");
    try (Recording recording = new Recording()) {
      for (String e : List.of("looplift.Kernel", "looplift.Offload", "looplift.Fallback", "looplift.TraceCacheMiss",
          "looplift.VerifyMismatch")) {
        recording.enable(e).withThreshold(Duration.ZERO);
      }
      recording.start();
      p.kernelLaunch("k7", "jvm", 1234, site);
      p.offloaded(site, "jvm", 2000);
      p.fallback(site, "guard failed");
      p.traceCacheMiss("scale[f32 x 1000]");
      p.verified("k7", "jvm", 5);
      p.mismatch(new VerifyMismatch("k7", "jvm", "demo.Demo.scale:12", "array 1[17]", "1.5", "2.5"));
      recording.stop();
      recording.dump(file);
    }
    Map<String, RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().startsWith("looplift."))
        .collect(Collectors.toMap(e -> e.getEventType().getName(), Function.identity()));
    assertEquals(5, events.size(), events.keySet().toString());

    RecordedEvent kernel = events.get("looplift.Kernel");
    assertEquals("k7", kernel.getString("kernelId"));
    assertEquals("jvm", kernel.getString("executor"));
    assertEquals("[" + site + "]", kernel.getString("sites"));
    assertEquals(Duration.ofNanos(1234), kernel.getDuration("kernelTime"));
    assertEquals(List.of("LoopLift"), kernel.getEventType().getCategoryNames());

    RecordedEvent offload = events.get("looplift.Offload");
    assertEquals("demo.Demo", offload.getString("className"));
    assertEquals("scale", offload.getString("method"));
    assertEquals(12, offload.getInt("line"));
    assertEquals("guard failed", events.get("looplift.Fallback").getString("reason"));
    assertEquals("scale[f32 x 1000]", events.get("looplift.TraceCacheMiss").getString("key"));

    RecordedEvent mismatch = events.get("looplift.VerifyMismatch");
    assertEquals("k7", mismatch.getString("kernelId"));
    assertEquals("jvm", mismatch.getString("executor"));
    assertEquals("demo.Demo.scale:12", mismatch.getString("sites"));
    assertEquals("array 1[17]", mismatch.getString("location"));
    assertEquals("1.5", mismatch.getString("expected"));
    assertEquals("2.5", mismatch.getString("actual"));
  }

  @Test
  void mbeanShowsTheProfiler() throws Exception {
    Profiler p = new Profiler();
    int site = p.siteAdded(new SiteInfo("demo.Demo", "scale", "([F)V", 12, "map", "offloaded", null));
    p.offloaded(site, "jvm", 5);
    p.offloaded(site, "jvm", 5);
    p.fallback(site, "short");
    p.classTransformed(700);
    p.verified("k0", "jvm", 0);
    p.verified("k0", "jvm", 0);
    p.mismatch(new VerifyMismatch("k0", "jvm", "demo.Demo.scale:12", "reduction 0", "1", "2"));
    assertTrue(p.registerMBean());
    assertTrue(p.registerMBean(), "idempotent");

    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("io.looplift:type=LoopLift");
    assertEquals(2L, server.getAttribute(name, "OffloadedRuns"));
    assertEquals(1L, server.getAttribute(name, "FallbackRuns"));
    assertEquals(1, server.getAttribute(name, "LoopCount"));
    assertEquals(1L, server.getAttribute(name, "TransformedClasses"));
    assertEquals(700L, server.getAttribute(name, "TransformNanos"));
    assertEquals(2L, server.getAttribute(name, "VerifiedLaunches"));
    assertEquals(1L, server.getAttribute(name, "VerifyMismatches"));
    assertEquals(p.reportJson(), server.getAttribute(name, "ReportJson"));
    Path report = dir.resolve("jmx.json");
    server.invoke(name, "writeReport", new Object[] {report.toString()}, new String[] {String.class.getName()});
    assertEquals(p.reportJson() + "\n", Files.readString(report));

    Profiler next = new Profiler();
    assertTrue(next.registerMBean(), "a newer profiler takes the name over");
    assertEquals(0, server.getAttribute(name, "LoopCount"));
  }
}

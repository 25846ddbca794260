package io.looplift.apps;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LoopLift's JFR events cost a program nothing until JFR runs: without a recording the agent loads no event
 * class (loading one starts JFR's machinery), with one the offloaded loops show in it, and in a runtime without
 * JFR (or JMX) at all the loops run as anywhere else.
 */
class JfrEventsTest {
  private static final String DEMO = ProgramCatalog.DEMO.mainClass();

  @TempDir Path tmp;

  @Test
  void withoutARecordingNoEventClassAndNothingOfJfrsRecorderIsLoaded() throws IOException {
    Path classes = tmp.resolve("classes.log");
    ForkedJvm.Result agent = ForkedJvm.run(List.of("-Xlog:class+load=info:file=" + classes,
        ForkedJvm.agentArg("min.length=0")), DEMO);
    assertEquals(ForkedJvm.plain(DEMO).stdout(), agent.stdout(), agent::describe);
    String loaded = Files.readString(classes);
    assertTrue(loaded.contains("io.looplift.profiler.Profiler "), "the log lists LoopLift's classes");
    List<String> jfr = loaded.lines()
        .filter(l -> l.matches(".*io\\.looplift\\.profiler\\.\\w+Event .*") || l.contains("jdk.jfr.internal.MetadataRepository "))
        .toList();
    assertEquals(List.of(), jfr);
  }

  /**
   * A runtime image with only {@code java.base} and {@code java.instrument} (as jlink makes for an application
   * that needs no more): the loops run offloaded and the output is the program's. Without {@code jdk.jfr} the
   * profiler used to throw NoClassDefFoundError in the middle of a flush, and a map's results never reached its
   * array; without {@code java.management} the agent did not start.
   */
  @Test
  void inARuntimeWithoutJfrOrManagementLoopsRunOffloadedAndTheOutputIsUnchanged() throws IOException {
    Path report = tmp.resolve("report.json");
    ForkedJvm.Result agent = ForkedJvm.run(List.of("--limit-modules", "java.base,java.instrument",
        ForkedJvm.agentArg("min.length=0,report=" + report)), DEMO);
    assertEquals(ForkedJvm.plain(DEMO).stdout(), agent.stdout(), agent::describe);
    LoopReport loops = LoopReport.read(report);
    for (String method : List.of("scale", "blend", "sum", "max")) {
      LoopReport.Loop loop = loops.loops().stream().filter(l -> l.method().equals(method)).findFirst().orElseThrow();
      assertTrue(loop.offloadedRuns() > 0 && loop.fallbackRuns() == 0, loop::toString);
    }
  }

  @Test
  void aRecordingStartedWithTheProgramHasItsOffloadsAndLaunches() throws IOException {
    Path recording = tmp.resolve("demo.jfr");
    // JFR announces its recording on stdout; -Xlog keeps that off, so that stdout is the program's alone.
    ForkedJvm.Result agent = ForkedJvm.run(List.of("-XX:StartFlightRecording=dumponexit=true,filename=" + recording,
        "-Xlog:jfr+startup=off", ForkedJvm.agentArg("min.length=0")), DEMO);
    assertEquals(ForkedJvm.plain(DEMO).stdout(), agent.stdout(), agent::describe);
    Set<String> offloaded = new TreeSet<>();
    Set<String> types = new TreeSet<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      String type = e.getEventType().getName();
      if (!type.startsWith("looplift.")) continue;
      types.add(type);
      if (type.equals("looplift.Offload")) offloaded.add(e.getString("method"));
    }
    assertTrue(types.containsAll(Set.of("looplift.Offload", "looplift.Kernel")), types::toString);
    assertTrue(offloaded.containsAll(Set.of("scale", "blend", "sum")), offloaded::toString);
  }
}

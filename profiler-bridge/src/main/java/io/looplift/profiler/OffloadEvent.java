package io.looplift.profiler;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR event: one run of a loop site that the pipeline computed instead of the original bytecode. */
@Name("looplift.Offload")
@Label("Loop Offloaded")
@Category("LoopLift")
@Description("A loop ran through the LoopLift pipeline")
@StackTrace(false)
final class OffloadEvent extends Event {
  @Label("Site")
  int site;

  @Label("Class")
  String className;

  @Label("Method")
  String method;

  @Label("Line")
  int line;

  @Label("Executor")
  String executor;

  @Label("Run Time")
  @Timespan(Timespan.NANOSECONDS)
  long runTime;
}

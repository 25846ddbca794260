package io.looplift.profiler;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR event: one launch of a generated kernel. */
@Name("looplift.Kernel")
@Label("Kernel Launch")
@Category("LoopLift")
@Description("A generated kernel ran on an executor")
@StackTrace(false)
final class KernelEvent extends Event {
  @Label("Kernel")
  String kernelId;

  @Label("Executor")
  String executor;

  @Label("Sites")
  @Description("Ids of the loop sites the launch served (several for fused loops), as in the report")
  String sites;

  @Label("Kernel Time")
  @Description("How long the launch took, as measured by the executor")
  @Timespan(Timespan.NANOSECONDS)
  long kernelTime;
}

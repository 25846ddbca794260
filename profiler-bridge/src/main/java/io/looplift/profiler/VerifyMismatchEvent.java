package io.looplift.profiler;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR event: a kernel launch whose result differed from the reference executor's (verify mode). */
@Name("looplift.VerifyMismatch")
@Label("Verify Mismatch")
@Category("LoopLift")
@Description("A checked kernel launch differed from the reference executor; the program got the reference result")
@StackTrace(false)
final class VerifyMismatchEvent extends Event {
  @Label("Kernel")
  String kernelId;

  @Label("Executor")
  String executor;

  @Label("Sites")
  @Description("The loop sites the kernel computes")
  String sites;

  @Label("Location")
  @Description("The first value that differed: an array argument and index, or a reduction")
  String location;

  @Label("Expected")
  @Description("The reference executor's value")
  String expected;

  @Label("Actual")
  @Description("The executor's value")
  String actual;
}

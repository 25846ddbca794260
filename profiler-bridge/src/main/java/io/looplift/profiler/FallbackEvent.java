package io.looplift.profiler;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR event: one run of an offloadable loop site that ran as the original bytecode instead. */
@Name("looplift.Fallback")
@Label("Loop Fallback")
@Category("LoopLift")
@Description("An offloadable loop ran as its original bytecode")
@StackTrace(false)
final class FallbackEvent extends Event {
  @Label("Site")
  int site;

  @Label("Class")
  String className;

  @Label("Method")
  String method;

  @Label("Line")
  int line;

  @Label("Reason")
  String reason;
}

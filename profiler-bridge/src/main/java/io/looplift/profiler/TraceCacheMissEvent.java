package io.looplift.profiler;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** JFR event: a flush whose trace-cache key had no cached program sequence. */
@Name("looplift.TraceCacheMiss")
@Label("Trace Cache Miss")
@Category("LoopLift")
@Description("A flushed work queue had to go through program generation")
@StackTrace(false)
final class TraceCacheMissEvent extends Event {
  @Label("Key")
  @Description("The trace-cache key: queued sites and shapes")
  String key;
}

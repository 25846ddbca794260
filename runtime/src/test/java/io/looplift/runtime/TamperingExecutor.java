package io.looplift.runtime;

import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.Executor;
import io.looplift.executors.Launch;
import io.looplift.executors.reference.ReferenceExecutor;
import io.looplift.ir.LoopTemplate;
import java.util.function.BiConsumer;

/**
 * A test executor under a name of its own: computes each launch with the reference interpreter, then hands
 * it to {@code tamper} with the launch's number (0 for its first) to spoil results on purpose, the way a
 * broken kernel would.
 */
final class TamperingExecutor implements Executor {
  private final String name;
  private final BiConsumer<Launch, Integer> tamper;
  private final ReferenceExecutor exact = new ReferenceExecutor();
  private int launches;

  TamperingExecutor(String name, BiConsumer<Launch, Integer> tamper) {
    this.name = name;
    this.tamper = tamper;
  }

  /** An executor that computes every launch right. */
  static TamperingExecutor faithful(String name) {
    return new TamperingExecutor(name, (launch, n) -> {});
  }

  /** How many launches it ran. */
  synchronized int launches() {
    return launches;
  }

  @Override
  public String name() { return name; }

  @Override
  public boolean supports(LoopTemplate template, ExecutionOptions options) { return true; }

  @Override
  public void execute(Launch launch, ExecutionOptions options) {
    int n;
    synchronized (this) {
      n = launches++;
    }
    exact.execute(launch, options);
    tamper.accept(launch, n);
  }

  @Override
  public void close() {}
}

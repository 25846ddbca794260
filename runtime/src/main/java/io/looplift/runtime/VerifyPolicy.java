package io.looplift.runtime;

import java.util.Locale;
import java.util.Objects;

/**
 * Which kernel launches verify mode checks against the reference executor ({@code verify=} and
 * {@code verify.every=}). Immutable.
 *
 * <p>Checks count per kernel and executor: under {@link Mode#SAMPLE} the first launch of a kernel on an
 * executor is checked, then every {@code every}-th after it (launches 0, {@code every}, 2·{@code every},
 * …), so a kernel moved to another executor after a mismatch has its first launch there checked too.
 * Launches that run on the reference executor itself are never checked.
 *
 * @param mode how many launches are checked
 * @param every under {@link Mode#SAMPLE}, one launch in this many is checked; at least 1
 */
public record VerifyPolicy(Mode mode, int every) {
  /** How many launches are checked. */
  public enum Mode {
    /** None: verify mode costs nothing, not even a copy. */
    OFF,
    /** The first launch of each kernel on each executor, then one in {@code every}. */
    SAMPLE,
    /** Every launch. */
    ALL;

    /** The option value: {@code off}, {@code sample}, {@code all}. */
    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The default sampling period. A checked launch costs about R times an unchecked one, R on the order of
   * a thousand (the reference interpreter takes microseconds an iteration where a kernel takes nanoseconds),
   * so checking one launch in N slows a program's steady state by about {@code 1 + R / N}: some 2 times for
   * N = 1000, where 100 would cost 11 times. Each kernel's first launch on each executor is checked anyway.
   */
  public static final int DEFAULT_EVERY = 1000;

  /** Verify mode off. */
  public static final VerifyPolicy OFF = new VerifyPolicy(Mode.OFF, DEFAULT_EVERY);

  /**
   * @throws NullPointerException when {@code mode} is null
   * @throws IllegalArgumentException when {@code every} is below 1
   */
  public VerifyPolicy {
    Objects.requireNonNull(mode, "mode");
    if (every < 1) throw new IllegalArgumentException("verify every " + every);
  }

  /** Whether a kernel's launch number {@code n} on an executor (0 for its first) is checked. */
  boolean checks(long n) {
    return switch (mode) {
      case OFF -> false;
      case SAMPLE -> n % every == 0;
      case ALL -> true;
    };
  }
}

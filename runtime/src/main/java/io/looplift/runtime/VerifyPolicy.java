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
   * The default sampling period: a checked launch runs the reference interpreter, on the order of a thousand
   * times slower than a kernel, so checking one launch in 100 after each kernel's first keeps a long-running
   * program's steady state within a small multiple of its normal time while still catching a kernel that
   * goes wrong later (on inputs its first launch did not have).
   */
  public static final int DEFAULT_EVERY = 100;

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

package io.looplift.executors;

/**
 * The user's choices that bound what an executor may do.
 *
 * @param reassociate floating-point sums and products may be split into parallel partials
 *     ({@code reductions=reassociate}); otherwise they run in Java's order
 * @param ulp transcendental functions may use an implementation within a few ulp ({@code precision=ulp});
 *     otherwise only bit-exact implementations are allowed
 */
public record ExecutionOptions(boolean reassociate, boolean ulp) {
  public static final ExecutionOptions EXACT = new ExecutionOptions(false, false);
}

package io.looplift.ir;

import java.util.List;
import java.util.Objects;

/**
 * A counted loop inside a loop body: {@code for (v = start; v cond limit; v += step) body}, run where
 * {@code predicate} holds. {@code start} and {@code limit} are computed once, when the loop is reached, as
 * are the {@link Carried} values' initial values; {@link LoopVar}({@code id}) is the loop's variable in its
 * body. The number of iterations follows Java's loop, as {@link LoopShape#trips} counts it; guards make sure
 * the loop ends as a counted loop does.
 *
 * @param id the loop's number, unique within its template
 * @param parallel its iterations are independent of each other (no carried values, and no iteration reads or
 *     writes an element another one writes), so an executor may run them in any order or at once
 */
public record Loop(int id, Node start, Node limit, Cond cond, int step, List<Carried> carried, List<Stmt> body,
    Node predicate, boolean parallel) implements Stmt {
  public Loop {
    carried = List.copyOf(carried);
    body = List.copyOf(body);
    if (start.type() != Type.INT || limit.type() != Type.INT || predicate.type() != Type.BOOLEAN || step == 0) {
      throw new IllegalArgumentException("loop from " + start.type() + " to " + limit.type() + " by " + step);
    }
    if (parallel && !carried.isEmpty()) throw new IllegalArgumentException("a parallel loop carries no values");
  }

  /** The loop's iteration space. */
  public LoopShape shape() {
    return new LoopShape(cond, step);
  }

  // Written out: see package-info, "equals and hashCode".
  @Override
  public boolean equals(Object o) {
    return o instanceof Loop l && id == l.id && step == l.step && parallel == l.parallel && cond == l.cond
        && Objects.equals(start, l.start) && Objects.equals(limit, l.limit) && carried.equals(l.carried)
        && body.equals(l.body) && Objects.equals(predicate, l.predicate);
  }

  @Override
  public int hashCode() { return Objects.hash(id, start, limit, cond, step, carried, body, predicate, parallel); }
}

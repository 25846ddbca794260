package io.looplift.progen.fusion;

import io.looplift.ir.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * The queued loop launches of one flush, in program order, and the arrays they touch ({@code arrays.get(id)}
 * describes flush array id {@code id}).
 */
public record Flush(List<QueuedLoop> loops, List<FlushArray> arrays) {
  public Flush {
    loops = List.copyOf(loops);
    arrays = List.copyOf(arrays);
    for (QueuedLoop loop : loops) {
      for (int slot = 0; slot < loop.arrayIds().length; slot++) {
        int id = loop.arrayIds()[slot];
        if (id < 0 || id >= arrays.size() || arrays.get(id).elementType() != loop.template().arrays().get(slot)) {
          throw new IllegalArgumentException("site " + loop.siteId() + " binds slot " + slot + " to array " + id);
        }
      }
    }
  }

  /** True when array {@code id} is a temporary (not live after the flush). */
  public boolean isTemporary(int id) {
    return !arrays.get(id).liveOut();
  }

  /** The element type of every flush array, by id. */
  public List<Type> elementTypes() {
    List<Type> types = new ArrayList<>();
    for (FlushArray a : arrays) types.add(a.elementType());
    return types;
  }
}

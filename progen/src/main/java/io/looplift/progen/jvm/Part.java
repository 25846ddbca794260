package io.looplift.progen.jvm;

import io.looplift.ir.Store;
import java.util.List;

/** A piece of the body of a {@link Level}: a segment of stores, or a level inside it. */
sealed interface Part permits Part.Segment, Level {
  /** A maximal run of stores: every value of the segment is computed before the first of them is performed. */
  record Segment(List<Store> stores) implements Part {}
}

package io.looplift.progen.fusion;

/** Entry {@code index} of the parameters (or accumulators) of flush loop {@code loop}. */
public record SlotRef(int loop, int index) {}

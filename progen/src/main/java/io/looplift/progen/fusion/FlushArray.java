package io.looplift.progen.fusion;

import io.looplift.ir.Type;

/**
 * One distinct array object of a flush. {@code liveOut} is false for a temporary: an array the program
 * allocated for this work only and never reads after the flush, which needs storage only when some kernel
 * still loads or stores it.
 */
public record FlushArray(Type elementType, boolean liveOut) {}

package io.looplift.progen.opencl;

/**
 * The OpenCL C source of one loop kernel and how to launch it.
 *
 * <p>Kernel arguments, in order:
 * <ol>
 *   <li>per template array, a {@code __global} pointer to its elements (element types as in
 *       {@link OpenClGenerator#elementType}); for an array of arrays ({@link io.looplift.ir.LoopTemplate#rowArrays})
 *       the elements of all its rows one after another, followed by a {@code __global long*} table of
 *       {@code rows + 1} offsets: row {@code r} holds elements {@code [off[r], off[r + 1])};
 *   <li>one scalar per template parameter;
 *   <li>one {@code __global} partials buffer per reduction, holding one value per work-group;
 *   <li>{@code int start}, {@code int step} and {@code int trips} of the outermost loop;
 *   <li>for the {@linkplain KernelLayout#chunked chunked} layout, {@code int chunk}; otherwise, per band loop
 *       ({@link KernelLayout#band}, outermost first), {@code int start} (its variable's first value) and
 *       {@code int trips} (its number of iterations).
 * </ol>
 *
 * <p>Launch geometry, by {@link KernelLayout}: the chunked layout runs in one dimension, work-item {@code g}
 * running iterations {@code [g * chunk, min((g + 1) * chunk, trips))} in order with induction value
 * {@code start + k * step}; its NDRange must be a multiple of {@link #workGroupSize} covering
 * {@code ceil(trips / chunk)} work-items, and work-group {@code w} writes the combination, in iteration order,
 * of its reduction elements to {@code partials[w]} (the identity when it ran none). Other layouts take any
 * local size: dimension {@code d} must cover at least its loop's trips, and work-items beyond them do nothing.
 *
 * @param source the complete program source
 * @param name the kernel function's name
 * @param buildOptions the options the program must be built with
 * @param workGroupSize the local size the chunked layout requires (the kernel declares
 *     {@code reqd_work_group_size}); the most work items per work-group for the others
 */
public record OpenClKernel(String source, String name, String buildOptions, int workGroupSize) {}

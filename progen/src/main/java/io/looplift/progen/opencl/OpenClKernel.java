package io.looplift.progen.opencl;

/**
 * The OpenCL C source of one loop kernel and how to launch it.
 *
 * <p>Kernel arguments, in order: one {@code __global} pointer per template array (element types as in
 * {@link OpenClGenerator#elementType}); one scalar per template parameter; one {@code __global} partials
 * buffer per reduction, holding one value per work-group; then {@code int start}, {@code int step},
 * {@code int trips} and {@code int chunk}. Work-item {@code g} runs iterations
 * {@code [g * chunk, min((g + 1) * chunk, trips))} in order, with induction value {@code start + k * step};
 * the NDRange must be a multiple of {@link #workGroupSize} covering {@code ceil(trips / chunk)} work-items.
 * Work-group {@code w} writes the combination, in iteration order, of its reduction elements to
 * {@code partials[w]} (the identity when it ran none).
 *
 * @param source the complete program source
 * @param name the kernel function's name
 * @param buildOptions the options the program must be built with
 * @param workGroupSize the required local size (the kernel declares {@code reqd_work_group_size})
 */
public record OpenClKernel(String source, String name, String buildOptions, int workGroupSize) {}

package io.looplift.progen.opencl;

import static org.junit.jupiter.api.Assertions.*;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.BinaryOp;
import io.looplift.ir.Call;
import io.looplift.ir.Const;
import io.looplift.ir.Index;
import io.looplift.ir.Load;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.Node;
import io.looplift.ir.ReduceOp;
import io.looplift.ir.Reduction;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Source-level checks; the kernels themselves run against Java on a device in the executors module. */
class OpenClGeneratorTest {
  private static LoopTemplate binary(Type t, BinaryOp op) {
    Node x = new Load(0, t, Index.I);
    Node y = new Load(1, t, Index.I);
    return new LoopTemplate(List.of(t, t, t), List.of(), List.of(), List.of(new Store(2, t, Index.I, new Binary(op, x, y), Const.TRUE)), List.of());
  }

  @Test
  void floatKernelsAreBuiltForJavaRounding() {
    OpenClKernel k = OpenClGenerator.generate(binary(Type.FLOAT, BinaryOp.DIV), 64);
    assertTrue(k.source().contains("#pragma OPENCL FP_CONTRACT OFF"));
    assertEquals("-cl-fp32-correctly-rounded-divide-sqrt", k.buildOptions());
    assertFalse(k.buildOptions().contains("fast"));
    assertFalse(k.source().contains("cl_khr_fp64"));
    assertTrue(k.source().contains("reqd_work_group_size(64, 1, 1)"));
  }

  @Test
  void doubleKernelsEnableFp64AndUseJavaMinMax() {
    OpenClKernel k = OpenClGenerator.generate(binary(Type.DOUBLE, BinaryOp.MIN), 32);
    assertTrue(k.source().contains("#pragma OPENCL EXTENSION cl_khr_fp64 : enable"));
    assertTrue(k.source().contains("jmin_d("));
    assertFalse(k.source().contains("fmin"));
    assertEquals("", k.buildOptions());
  }

  @Test
  void integerArithmeticWrapsAndShiftsMask() {
    assertTrue(OpenClGenerator.generate(binary(Type.INT, BinaryOp.ADD), 64).source().contains("as_int(as_uint("));
    assertTrue(OpenClGenerator.generate(binary(Type.LONG, BinaryOp.MUL), 64).source().contains("as_long(as_ulong("));
    Node shl = new Binary(BinaryOp.SHL, new Load(0, Type.LONG, Index.I), new Load(1, Type.INT, Index.I));
    LoopTemplate t = new LoopTemplate(List.of(Type.LONG, Type.INT, Type.LONG), List.of(), List.of(),
        List.of(new Store(2, Type.LONG, Index.I, shl, Const.TRUE)), List.of());
    assertTrue(OpenClGenerator.generate(t, 64).source().contains("& 63"));
  }

  @Test
  void literalsAreExact() {
    assertEquals("(-2147483647-1)", Expressions.literal(Type.INT, Integer.MIN_VALUE));
    assertEquals("(-9223372036854775807L-1L)", Expressions.literal(Type.LONG, Long.MIN_VALUE));
    assertEquals("as_float(0x7fc00000u)", Expressions.literal(Type.FLOAT, Float.floatToRawIntBits(Float.NaN)));
    assertEquals("as_double(0x8000000000000000UL)", Expressions.literal(Type.DOUBLE, Double.doubleToRawLongBits(-0.0)));
  }

  @Test
  void declinesWhatCannotBeExact() {
    DeviceFeatures full = DeviceFeatures.FULL;
    LoopTemplate floats = binary(Type.FLOAT, BinaryOp.ADD);
    assertTrue(OpenClGenerator.supports(floats, false, false, full));
    assertFalse(OpenClGenerator.supports(floats, false, false, new DeviceFeatures(true, false, true, true)));
    assertFalse(OpenClGenerator.supports(floats, false, false, new DeviceFeatures(true, true, false, true)));
    LoopTemplate doubles = binary(Type.DOUBLE, BinaryOp.ADD);
    assertFalse(OpenClGenerator.supports(doubles, true, true, new DeviceFeatures(false, true, true, false)));
    assertTrue(OpenClGenerator.supports(binary(Type.INT, BinaryOp.ADD), false, false, new DeviceFeatures(false, false, false, false)));

    Node x = new Load(0, Type.DOUBLE, Index.I);
    LoopTemplate exp = new LoopTemplate(List.of(Type.DOUBLE, Type.DOUBLE), List.of(), List.of(),
        List.of(new Store(1, Type.DOUBLE, Index.I, new Call("java/lang/Math", "exp", "(D)D", List.of(x)), Const.TRUE)), List.of());
    assertEquals("exp differs from Java by up to 4 ulp on OpenCL: needs precision=ulp",
        OpenClGenerator.rejection(exp, false, false, full).orElseThrow());
    assertTrue(OpenClGenerator.supports(exp, false, true, full));

    Reduction sum = new Reduction(0, Type.FLOAT, new Binary(BinaryOp.ADD, new Acc(0, Type.FLOAT), new Load(0, Type.FLOAT, Index.I)),
        ReduceOp.ADD, new Load(0, Type.FLOAT, Index.I));
    LoopTemplate floatSum = new LoopTemplate(List.of(Type.FLOAT), List.of(), List.of(Type.FLOAT), List.of(), List.of(sum));
    assertTrue(OpenClGenerator.rejection(floatSum, false, false, full).orElseThrow().contains("reductions=reassociate"));
    assertTrue(OpenClGenerator.supports(floatSum, true, false, full));

    // out[i] = in[i + 1] where out is in: a carried dependence
    LoopTemplate shifted = new LoopTemplate(List.of(Type.INT), List.of(), List.of(), List.of(new Store(0, Type.INT, Index.I,
        new Load(0, Type.INT, new Binary(BinaryOp.ADD, Index.I, Const.ofInt(1))), Const.TRUE)), List.of());
    assertFalse(OpenClGenerator.supports(shifted, true, true, full));
  }

  @Test
  void ulpBoundsAreOpenClPlusJava() {
    assertEquals(5, OpenClFunctions.of("java/lang/Math", "sin", "(D)D").orElseThrow().ulpBound());
    assertEquals(17, OpenClFunctions.of("java/lang/StrictMath", "pow", "(DD)D").orElseThrow().ulpBound());
    assertTrue(OpenClFunctions.of("java/lang/Math", "floor", "(D)D").orElseThrow().exact());
    assertTrue(OpenClFunctions.of("java/lang/Math", "round", "(D)J").isEmpty());
    assertTrue(OpenClFunctions.of("com/example/Math", "sin", "(D)D").isEmpty());
  }

  @Test
  void rejectsBadWorkGroupSizes() {
    assertThrows(IllegalArgumentException.class, () -> OpenClGenerator.generate(binary(Type.INT, BinaryOp.ADD), 48));
  }
}

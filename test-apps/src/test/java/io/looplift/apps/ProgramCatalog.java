package io.looplift.apps;

import java.util.List;

/**
 * The test programs and what the agent's report must say about their loops when they run with
 * {@code min.length=0}. Methods are named rather than lines, so that editing a program does not silently
 * change what is checked; a method named here holds only the loops its expectation describes (plus, for
 * the row-wise matrix methods whose rows are not offloaded as one nest, the outer loop over rows, which is
 * not checked).
 */
final class ProgramCatalog {
  private ProgramCatalog() {}

  /** What must happen to the loops of one method. */
  enum Outcome {
    /** Reported {@code offloaded} with the given kind, and ran offloaded at least once. */
    OFFLOADED,
    /** Reported {@code rejected} with a reason; never ran offloaded. */
    REJECTED,
    /** Recognized, but a run-time guard failed every time: ran as the original loop, never offloaded. */
    FALLBACK,
    /** Never ran offloaded, whether rejected up front or by a guard (the design allows either). */
    NOT_OFFLOADED
  }

  /**
   * One expectation.
   *
   * @param className binary name with dots, as in the report
   * @param method method name; a trailing {@code *} matches any suffix (lambda bodies are numbered by javac)
   * @param outcome what must happen
   * @param kind the report's kind for {@link Outcome#OFFLOADED}; null otherwise
   */
  record Expectation(String className, String method, Outcome outcome, String kind) {
    boolean matches(String cls, String m) {
      if (!className.equals(cls)) return false;
      return method.endsWith("*") ? m.startsWith(method.substring(0, method.length() - 1)) : method.equals(m);
    }

    @Override
    public String toString() {
      return className + "." + method + " " + outcome + (kind == null ? "" : " " + kind);
    }
  }

  /**
   * A program of {@code test-apps} with its expectations.
   *
   * @param mainClass the class whose {@code main} runs
   * @param expectations what the report must say
   */
  record Program(String mainClass, List<Expectation> expectations) {
    @Override
    public String toString() {
      return mainClass.substring(mainClass.lastIndexOf('.') + 1);
    }
  }

  private static final String P = "io.looplift.apps.";

  static Expectation map(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.OFFLOADED, "map");
  }

  static Expectation reduce(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.OFFLOADED, "reduce");
  }

  static Expectation nest(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.OFFLOADED, "nest");
  }

  static Expectation rejected(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.REJECTED, null);
  }

  static Expectation fallback(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.FALLBACK, null);
  }

  static Expectation notOffloaded(String cls, String method) {
    return new Expectation(P + cls, method, Outcome.NOT_OFFLOADED, null);
  }

  static final Program DEMO = new Program(P + "Demo", List.of(
      map("Demo", "scale"),
      map("Demo", "blend"),
      reduce("Demo", "sum"),
      reduce("Demo", "max"),
      reduce("Demo", "countBelow"),
      rejected("Demo", "runningSum")));

  static final Program OPTION_PRICING = new Program(P + "OptionPricing", List.of(
      map("OptionPricing", "<clinit>"),
      map("OptionPricing", "blackScholes"),
      map("OptionPricing", "forwards"),
      map("OptionPricing", "intrinsic"),
      map("OptionPricing", "ladderPayoffs"),
      reduce("OptionPricing", "totalPremium"),
      reduce("OptionPricing", "parityError"),
      reduce("OptionPricing", "inTheMoney")));

  static final Program IMAGE_FILTER = new Program(P + "ImageFilter", List.of(
      map("ImageFilter$Blur", "apply"),
      map("ImageFilter", "adjust"),
      map("ImageFilter", "threshold"),
      map("ImageFilter", "pack"),
      map("ImageFilter", "luminance"),
      reduce("ImageFilter", "brightnessSum"),
      reduce("ImageFilter", "litPixels")));

  static final Program FEATURE_PIPELINE = new Program(P + "FeaturePipeline", List.of(
      reduce("FeaturePipeline$Column", "mean"),
      reduce("FeaturePipeline$Column", "variance"),
      map("FeaturePipeline$Column", "standardize"),
      reduce("FeaturePipeline", "min"),
      reduce("FeaturePipeline", "max"),
      map("FeaturePipeline", "minMaxScale"),
      map("FeaturePipeline", "log1p"),
      map("FeaturePipeline", "clip"),
      reduce("FeaturePipeline", "countAbove"),
      reduce("FeaturePipeline", "quartileBins"),
      map("FeaturePipeline", "targetEncode"),
      reduce("FeaturePipeline", "weightedCount"),
      map("FeaturePipeline", "shuffle"),
      map("FeaturePipeline", "columnSums"),
      nest("FeaturePipeline", "standardizeRows"),
      rejected("FeaturePipeline", "histogram")));

  static final Program SIGNAL_CHAIN = new Program(P + "SignalChain", List.of(
      map("SignalChain", "applyGain"),
      reduce("SignalChain", "mean"),
      map("SignalChain", "removeDc"),
      map("SignalChain", "hann"),
      map("SignalChain", "multiply"),
      map("SignalChain", "mix"),
      map("SignalChain", "rectify"),
      map("SignalChain", "boostEven"),
      map("SignalChain", "fadeOut"),
      map("SignalChain", "toPcm16"),
      map("SignalChain", "toPcm8"),
      map("SignalChain", "fromPcm16"),
      reduce("SignalChain", "energy"),
      reduce("SignalChain", "peak"),
      map("SignalChain", "tone")));

  static final Program MANY_THREADS = new Program(P + "ManyThreads", List.of(
      map("ManyThreads", "lambda$main$*"),
      map("ManyThreads", "relu"),
      reduce("ManyThreads", "dot"),
      map("ManyThreads", "relax")));

  static final Program FALLBACKS = new Program(P + "Fallbacks", List.of(
      rejected("Fallbacks", "prefixSum"),
      rejected("Fallbacks", "recurrence"),
      rejected("Fallbacks", "copyUntilNegative"),
      fallback("Fallbacks", "tripleInto"),
      fallback("Fallbacks", "gatherInto"),
      fallback("Fallbacks", "averageShifted"),
      fallback("Fallbacks", "addOne"),
      fallback("Fallbacks", "spread"),
      notOffloaded("Fallbacks", "quotients"),
      rejected("Fallbacks", "printFirst"),
      rejected("Fallbacks", "lengths"),
      rejected("Fallbacks", "unbox"),
      rejected("Fallbacks", "histogram"),
      rejected("Fallbacks", "accumulateTotal"),
      rejected("Fallbacks", "lockedScale"),
      rejected("Fallbacks", "boxEach"),
      map("Fallbacks", "squareInPlace")));

  /** Runs {@code LoaderGuest} in a class loader that does not delegate to the application loader. */
  static final Program ISOLATED_LAUNCHER = new Program(P + "IsolatedLauncher", List.of(
      map("LoaderGuest", "ramp"),
      map("LoaderGuest", "polynomial"),
      reduce("LoaderGuest", "sum")));

  static final Program PIPELINES = new Program(P + "Pipelines", List.of(
      map("Pipelines", "smoothstep"),
      map("Pipelines", "affinePair"),
      map("Pipelines", "forwardDifference"),
      map("Pipelines", "shifted")));

  /** Divisions by zero and null dereferences in hot code, counted, between runs of an offloaded map. */
  static final Program HOT_TRAPS = new Program(P + "HotTraps", List.of(
      map("HotTraps", "ramp"),
      map("HotTraps", "scale"),
      rejected("HotTraps", "main")));

  /** Without arguments, 40 rounds of one loop and a shutdown hook that prints; see {@code OpenClLeavesNoTraceTest}. */
  static final Program UNTIL_INTERRUPTED = new Program(P + "UntilInterrupted", List.of(
      map("UntilInterrupted", "relax")));

  /** Loop nests offloaded whole: image filters, row normalization, k nearest neighbours, a matrix product. */
  static final Program NEST_WORK = new Program(P + "NestWork", List.of(
      nest("NestWork", "blur"),
      nest("NestWork", "sobel"),
      nest("NestWork", "normalizeRows"),
      nest("NestWork", "distances"),
      nest("NestWork", "nearest"),
      nest("NestWork", "matmul"),
      nest("NestWork", "columnSums"),
      nest("NestWork", "rowsTimes"),
      map("NestWork", "deinterleave"),
      reduce("NestWork", "interleave"),
      nest("NestWork", "curve"),
      nest("NestWork", "forces"),
      nest("NestWork", "diffuse"),
      map("NestWork", "scaleUnrolled"),
      nest("NestWork", "autocorrelation"),
      nest("NestWork", "smooth"),
      nest("NestWork", "blockSums")));

  /** Commons Math's ebeAdd shape: the result a clone of an operand, updated in place, returned at once. */
  static final Program FRESH_OUTPUTS = new Program(P + "FreshOutputs", List.of(
      map("FreshOutputs", "ebeAdd"),
      map("FreshOutputs", "ebeMultiply"),
      map("FreshOutputs", "ebeDivide")));

  /**
   * Loops that call helpers: of a utility class, of a class whose static initializer prints (inlined, yet the
   * line stays where Java prints it), and a private method on {@code this}.
   */
  static final Program HELPER_CALLS = new Program(P + "HelperCalls", List.of(
      map("HelperCalls", "toCelsius"),
      map("HelperCalls", "calibrate"),
      map("HelperCalls", "weigh")));

  /**
   * ojAlgo's matrix product: a nest over columns calling an axpy of another class, whose static initializer
   * must have run before the nest is offloaded.
   */
  static final Program COLUMN_PRODUCTS = new Program(P + "ColumnProducts", List.of(
      nest("ColumnProducts", "addMxC")));

  /**
   * The acceptance smoke program ({@code ../shared/checks/Smoke.java}), run by {@code VerifyModeTest}. Not in
   * {@link #ALL}: its loops are of the kinds {@link #DEMO} has, so the other suites would only take longer.
   */
  static final Program SMOKE = new Program(P + "Smoke", List.of(
      map("Smoke", "scale"),
      map("Smoke", "blend"),
      reduce("Smoke", "total"),
      reduce("Smoke", "norm2"),
      rejected("Smoke", "carried")));

  static final List<Program> ALL = List.of(DEMO, OPTION_PRICING, IMAGE_FILTER, FEATURE_PIPELINE, SIGNAL_CHAIN,
      MANY_THREADS, FALLBACKS, ISOLATED_LAUNCHER, PIPELINES, HOT_TRAPS, UNTIL_INTERRUPTED, NEST_WORK,
      FRESH_OUTPUTS, HELPER_CALLS, COLUMN_PRODUCTS);
}

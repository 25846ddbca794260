package io.looplift.agent;

import io.looplift.analyzer.AnalysisMemo;
import io.looplift.analyzer.ClassRewriter;
import io.looplift.analyzer.Implementors;
import io.looplift.analyzer.RewriteOptions;
import io.looplift.bridge.LoopBridge;
import io.looplift.executors.Device;
import io.looplift.executors.ExecutionOptions;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import io.looplift.executors.opencl.host.HostProcess;
import io.looplift.executors.schedule.EScheduler;
import io.looplift.executors.select.ExecutorChain;
import io.looplift.executors.select.LateDevices;
import io.looplift.executors.select.Selector;
import io.looplift.profiler.Profiler;
import io.looplift.runtime.Log;
import io.looplift.runtime.Pipeline;
import io.looplift.tracecache.DiskProgramStore;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The agent behind the launcher: builds the pipeline from the options, installs it behind
 * {@link LoopBridge}, and adds the class file transformer. Also carries out the actions the attach CLI
 * sends to a running agent ({@code action=detach}, {@code action=report}).
 *
 * <p>One agent per JVM. It is kept in a static field because the attach CLI talks to it through later
 * {@code agentmain} calls, and because the bridge accepts a dispatcher only once: detaching removes the
 * transformer, and attaching again reuses the same pipeline (and therefore the first attach's options).
 */
public final class LoopLiftAgent {
  /** This build's version (from the jar manifest), part of the key of cached device binaries. */
  static final String VERSION = versionOf();
  private static LoopLiftAgent current; // guarded by LoopLiftAgent.class
  /** How often the agent looks for a platform MBean server to register its MBean in. */
  private static final long MBEAN_SERVER_POLL_MILLIS = 1000;
  /**
   * Writes the measured selection's records, so that no program thread waits on the disk; drained at exit so
   * that the next run finds what this one measured.
   */
  private static final ExecutorService SELECTION_WRITER =
      Executors.newSingleThreadExecutor(r -> LateDevices.daemon(r, "looplift-selection-writer"));

  private final LoopLiftConfig config;
  private final Log log;
  private final Profiler profiler;
  private final LoopTransformer transformer;
  private final StoredAnalysisMemo memo; // null: none kept
  private final Instrumentation inst;
  private final Retransformer retransformer;
  private boolean active; // transformer installed; guarded by LoopLiftAgent.class

  private LoopLiftAgent(LoopLiftConfig config, Log log, Profiler profiler, LoopTransformer transformer,
      StoredAnalysisMemo memo, Instrumentation inst, Retransformer retransformer) {
    this.config = config;
    this.log = log;
    this.profiler = profiler;
    this.transformer = transformer;
    this.memo = memo;
    this.inst = inst;
    this.retransformer = retransformer;
  }

  /**
   * Starts the agent, or carries out {@code action=attach|detach|report} on the running one. Called by
   * the launcher from {@code premain} ({@code attached} false) and {@code agentmain} (true). Never
   * throws: on any failure it prints one {@code looplift:} line and the program runs as it would without
   * the agent.
   *
   * @param args the agent argument string {@code key=value,...}, or null
   */
  public static void start(String args, Instrumentation inst, boolean attached) {
    try {
      act(args, inst, attached);
    } catch (Throwable e) {
      System.err.println("looplift: could not start (" + e + "); the program runs without LoopLift");
    }
  }

  private static synchronized void act(String args, Instrumentation inst, boolean attached) {
    Map<String, String> parsed = LoopLiftConfig.parseArgs(args, System.err::println);
    String action = parsed.remove("action");
    if (action == null || action.equals("attach")) {
      if (current == null) {
        current = create(parsed, inst);
        current.activate(attached);
      } else if (!current.active) {
        if (!parsed.isEmpty()) current.log.warn("attached again; the options of the first start stay in effect");
        current.activate(true);
      } else {
        current.log.warn("already attached; nothing to do");
      }
    } else if (action.equals("detach")) {
      if (current == null || !current.active) {
        System.err.println("looplift: not attached; nothing to detach");
      } else {
        current.deactivate();
      }
    } else if (action.equals("report")) {
      if (current == null) {
        System.err.println("looplift: not running; no report to write");
        return;
      }
      String path = parsed.get("report");
      Path target = path != null ? Path.of(path) : current.config.report();
      if (target == null) {
        System.err.println("looplift: no report path; pass report=PATH");
      } else {
        current.profiler.writeReport(target);
      }
    } else {
      System.err.println("looplift: bad value '" + action + "' for action; accepted: attach, detach, report — ignored");
    }
  }

  private static LoopLiftAgent create(Map<String, String> args, Instrumentation inst) {
    List<ExecutorProvider> providers = ExecutorProvider.load(LoopLiftAgent.class.getClassLoader());
    LoopLiftConfig config = LoopLiftConfig.load(args, providers.stream().map(ExecutorProvider::name).toList(),
        System.err::println);
    Log log = Log.stderr(config.log());
    // Guarded: building the line spins up string concatenation with a dozen arguments, a start-up cost.
    if (log.debug()) log.debug("options: " + config);
    Profiler profiler = new Profiler();
    ExecutionOptions options = new ExecutionOptions(config.reductions() == LoopLiftConfig.Reductions.REASSOCIATE,
        config.precision() == LoopLiftConfig.Precision.ULP);
    Retransformer retransformer = new Retransformer(inst, log);
    Selector selector = selector(config, log);
    Pipeline.Builder builder = Pipeline.builder()
        .selector(selector)
        .bytecodeCandidate(config.measured())
        .options(options)
        .profiler(profiler)
        .log(log)
        .verify(config.verify())
        .classInitialized(new ClassInitializationProbe(inst, log))
        .classRewriting(retransformer::retransform)
        .threadCpu(ManagementTimes.threadCpu());
    if (ExecutorChain.AUTO.equals(config.executor())) {
      // The jvm executor's pools and caches and the scheduler's threads cost a good part of a short
      // program's run; they open when the first loop is offered, and the devices later still (Selections).
      builder.openLater(() -> {
        ExecutorChain.Opened opened = executors(providers, config, options, log, profiler);
        selector.prepare();
        return new Pipeline.Backend(opened.executors(), opened.later(), escheduler());
      });
    } else {
      // A chosen executor opens now, so that what it says of its device comes at start-up.
      builder.offloads(executors(providers, config, options, log, profiler).executors()).scheduler(escheduler());
    }
    Pipeline pipeline = builder.build();
    LoopBridge.install(pipeline.dispatcher());
    // Loops the pre-scan expects rejected are analyzed only when a report needs their reasons.
    DeferredAnalyses deferred = new DeferredAnalyses(profiler);
    profiler.beforeReport(deferred::runAll);
    Implementors implementors = new Implementors();
    StoredAnalysisMemo memo = analysisMemo(config, profiler);
    LoopTransformer transformer = new LoopTransformer(config,
        new ClassRewriter(rewriteOptions(config), pipeline.sites(), deferred, implementors,
            memo != null ? memo : AnalysisMemo.NONE),
        new Reanalysis(implementors, retransformer, pipeline.sites(), log), profiler, log);
    LoopLiftAgent agent = new LoopLiftAgent(config, log, profiler, transformer, memo, inst, retransformer);
    Runtime.getRuntime().addShutdownHook(new Thread(agent::atExit, "looplift-exit"));
    boolean directed = CompilerDirective.addNow(inst, log);
    registerMBean(profiler, directed, log);
    return agent;
  }

  /**
   * The record of what earlier runs found worth analyzing, under {@code cache.dir}'s {@code analysis} folder;
   * null when the agent does not run from a jar, whose build would say when a record is out of date.
   */
  private static StoredAnalysisMemo analysisMemo(LoopLiftConfig config, Profiler profiler) {
    String build = StoredAnalysisMemo.agentBuild(VERSION);
    if (build == null) return null;
    Path base = config.cacheDir() != null ? config.cacheDir() : DiskProgramStore.defaultDirectory();
    return StoredAnalysisMemo.open(base, build + ", " + rewriteOptions(config), profiler);
  }

  /** What the rewriter bakes in and rejects, from the user's options. */
  private static RewriteOptions rewriteOptions(LoopLiftConfig config) {
    return new RewriteOptions(config.minLength(),
        config.measured() && config.reductions() == LoopLiftConfig.Reductions.ORDERED);
  }

  /**
   * Chooses the executor of each kernel: by measurement with {@code executor=auto}, keeping what it measured
   * under {@code cache.dir}; the named executor otherwise.
   */
  private static Selector selector(LoopLiftConfig config, Log log) {
    Selector.Builder b = Selector.builder(VERSION + " on " + System.getProperty("java.vm.version"),
        Runtime.getRuntime().availableProcessors());
    if (!config.executor().equals(ExecutorChain.AUTO)) return b.forced("executor=" + config.executor()).build();
    b.compiling(ManagementTimes.compiling()).deviceProcesses(HostProcess::cpuNanos);
    return b.store(Selector.directory(config.cacheDir()), log::warn).writer(task -> {
      try {
        SELECTION_WRITER.execute(task);
      } catch (RejectedExecutionException e) {
        // Measured after the exit hook drained the writer: the record is not kept, the program goes on.
      }
    }).build();
  }

  /**
   * The E-scheduler: two background threads (a kernel spreads itself over the jvm executor's pool, so more
   * would only contend), at most 32 programs or 4 GiB of arrays in flight before a program thread waits.
   */
  private static EScheduler escheduler() {
    return new EScheduler("looplift-escheduler-", 2, 32, 4L << 30);
  }

  /**
   * The executors in order of preference (see {@link ExecutorChain}); logs what was opened, and reports the
   * devices found, those {@code auto} opens later included.
   */
  private static ExecutorChain.Opened executors(List<ExecutorProvider> providers, LoopLiftConfig config,
      ExecutionOptions options, Log log, Profiler profiler) {
    ExecutorEnvironment env = new ExecutorEnvironment(options, config.cacheDir(), VERSION,
        Runtime.getRuntime().availableProcessors(), log);
    List<String> descriptions = new CopyOnWriteArrayList<>();
    ExecutorChain.Opened opened = ExecutorChain.open(providers, config.executor(), config.openclDevice(), env,
        late -> {
          for (Device d : late) descriptions.add(d.toString());
          profiler.devices(descriptions);
        });
    opened.warnings().forEach(log::warn);
    opened.notes().forEach(log::info);
    for (Device d : opened.devices()) descriptions.add(d.toString());
    profiler.devices(descriptions);
    return opened;
  }

  private static String versionOf() {
    String v = LoopLiftAgent.class.getPackage().getImplementationVersion();
    return v != null ? v : "dev";
  }

  /**
   * Registers the profiler's MBean once the platform MBean server runs, and then adds the
   * {@link CompilerDirective} through it unless it is {@code directed} already. The agent never starts the
   * server itself: that initializes {@code java.util.logging} (which a program may want to configure first)
   * and leaves a megabyte of the platform's MBeans in the heap, which every young collection of a program
   * that allocates large arrays copies again until they are old. The program, {@code -Dcom.sun.management.*}
   * or a JMX client attaching (jconsole, JMC) starts it; a daemon thread looks for it every second.
   */
  private static void registerMBean(Profiler profiler, boolean directed, Log log) {
    if (ModuleLayer.boot().findModule("java.management").isEmpty()) return;
    Thread t = new Thread(() -> {
      try {
        while (!Profiler.platformMBeanServerStarted()) Thread.sleep(MBEAN_SERVER_POLL_MILLIS);
        profiler.registerMBean();
        if (!directed) CompilerDirective.addThroughMBeanServer(log);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "looplift-mbean");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Installs the transformer; with {@code retransform}, rewrites the eligible classes already loaded that have
   * a loop over arrays.
   */
  private void activate(boolean retransform) {
    inst.addTransformer(transformer, true);
    active = true;
    if (!retransform) return;
    List<Class<?>> classes = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      if (inst.isModifiableClass(c) && transformer.eligible(c)
          && ClassRewriter.mayRewrite(c.getClassLoader(), c.getName().replace('.', '/'))) {
        classes.add(c);
      }
    }
    log.info("attached; " + retransform(classes, "loaded classes with loops retransformed"));
  }

  /** Removes the transformer and gives every class it rewrote back its original bytes. */
  private void deactivate() {
    inst.removeTransformer(transformer);
    active = false;
    List<Class<?>> classes = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      // With our transformer gone, retransformation rebuilds a class from its original bytes.
      if (inst.isModifiableClass(c) && !c.isArray() && transformer.rewrote(c.getName().replace('.', '/'))) {
        classes.add(c);
      }
    }
    log.info("detached; " + retransform(classes, "rewritten classes restored"));
  }

  /**
   * Retransforms those of {@code classes} no thread runs a method of now, one by one where the batch fails, and
   * hands the others to the {@link Retransformer}, which waits for a moment none of their methods runs (a method
   * running while its class is redefined would lose its frame's file and line). Says how many of how many
   * {@code were} (what they are and what was done to them), and how many wait.
   */
  private String retransform(List<Class<?>> classes, String were) {
    RunningClasses running = new RunningClasses();
    List<Class<?>> idle = new ArrayList<>();
    int waiting = 0;
    for (Class<?> c : classes) {
      if (!running.contains(c.getName())) {
        idle.add(c);
        continue;
      }
      waiting++;
      String name = c.getName();
      retransformer.retransform(c, () -> { }, why -> {
        if (why != null) log.debug("did not retransform " + name + ": " + why);
      });
    }
    return retransformNow(idle) + " of " + classes.size() + " " + were
        + (waiting > 0 ? ", " + waiting + " more once none of their methods runs" : "");
  }

  /** Retransforms {@code classes}, one by one where the batch fails; returns how many succeeded. */
  private int retransformNow(List<Class<?>> classes) {
    if (classes.isEmpty()) return 0;
    try {
      inst.retransformClasses(classes.toArray(new Class<?>[0]));
      return classes.size();
    } catch (Throwable batch) {
      log.debug("retransforming " + classes.size() + " classes at once failed (" + batch + "); one by one");
    }
    int done = 0;
    for (Class<?> c : classes) {
      try {
        inst.retransformClasses(c);
        done++;
      } catch (Throwable e) {
        log.debugOnce("retransform " + c.getName(), "could not retransform " + c.getName() + ": " + e);
      }
    }
    return done;
  }

  /** Keeps what this run analyzed for the next; a failure only costs the next run those analyses. */
  private void saveMemo() {
    if (memo == null) return;
    try {
      memo.save(LoopBridge::preambleRan);
    } catch (IOException | RuntimeException e) {
      log.debug("could not keep what this run analyzed: " + e);
    }
  }

  /**
   * Keeps what this run analyzed, writes the report and, at {@code log=info}, the summary. Runs in a shutdown
   * hook; never throws.
   */
  private void atExit() {
    try {
      SELECTION_WRITER.shutdown();
      if (!SELECTION_WRITER.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("the measured selection's records were still being written at exit; the next run measures again");
      }
      saveMemo();
      if (config.report() != null) profiler.writeReport(config.report());
      if (!log.info()) return;
      String[] lines = profiler.summary().split("\n");
      // One line per loop (status, where, kind, executor, runs, time), then the totals (already prefixed).
      for (int k = 0; k < lines.length - 1; k++) log.info(lines[k]);
      if (lines.length > 0) System.err.println(lines[lines.length - 1]);
    } catch (Throwable e) {
      System.err.println("looplift: could not finish the report: " + e);
    }
  }
}

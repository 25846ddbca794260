package io.looplift.executors.select;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import io.looplift.executors.jvm.JvmExecutor;
import io.looplift.executors.reference.ReferenceExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The executors a run uses, in order of preference: the one {@code executor=} names (or, for {@code auto},
 * the {@code jvm} executor), then {@code jvm} as the fallback of a device executor, and always the
 * {@code reference} executor last, which runs anything. With {@code auto}, the device executors are opened
 * later, when the measured selection first asks for them ({@link LateDevices}).
 */
public final class ExecutorChain {
  /** The value of {@code executor=} that leaves the choice to LoopLift. */
  public static final String AUTO = "auto";
  static final String JVM = JvmExecutor.NAME;
  static final String REFERENCE = ReferenceExecutor.NAME;

  private ExecutorChain() {}

  /**
   * What {@link #open} opened.
   *
   * @param executors in order of preference, the reference executor last
   * @param devices the devices of every provider that was asked for them, for the report
   * @param notes lines for the log at {@code log=info}
   * @param warnings lines the user must see: a forced executor that could not be opened
   * @param later with {@code auto}, the device executors the selection may open when it first needs them
   */
  public record Opened(List<Offload> executors, List<Device> devices, List<String> notes, List<String> warnings,
      LateDevices later) {}

  /**
   * Opens the executors for {@code choice}. Only the providers that will run kernels are asked for their
   * devices: with {@code auto}, no device executor is opened (and no driver loaded) yet. Never throws.
   *
   * @param choice {@link #AUTO} or a provider's name
   * @param deviceSelector which of the chosen provider's devices: an index or a substring of its name; null
   *     picks the first GPU, else the first device (with {@code auto}: every device)
   * @param lateDevices with {@code auto}, receives the devices the late providers found once they were asked
   */
  public static Opened open(List<ExecutorProvider> providers, String choice, String deviceSelector,
      ExecutorEnvironment env, Consumer<List<Device>> lateDevices) {
    List<Offload> executors = new ArrayList<>();
    List<Device> devices = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    boolean forced = !AUTO.equals(choice) && !JVM.equals(choice) && !REFERENCE.equals(choice);
    if (forced) {
      ExecutorProvider p = provider(providers, choice);
      if (p != null) {
        List<Device> found = p.devices(env);
        devices.addAll(found);
        Optional<Device> d = select(found, deviceSelector);
        if (d.isEmpty()) {
          warnings.add("executor=" + choice + ": no device matches '" + (deviceSelector == null ? "" : deviceSelector)
              + "' (" + p.inventoryNote() + "); using jvm");
        } else {
          try {
            executors.add(Offload.on(p.open(d.get(), env), d.get()));
            notes.add(choice + " executor on " + d.get().description());
          } catch (ExecutionException e) {
            warnings.add("executor=" + choice + ": " + e.getMessage() + "; using jvm");
          }
        }
      }
    }
    if (!REFERENCE.equals(choice)) openFirst(providers, JVM, env, executors, warnings);
    openFirst(providers, REFERENCE, env, executors, warnings);
    LateDevices later = LateDevices.none();
    if (AUTO.equals(choice)) {
      List<ExecutorProvider> present = providers.stream()
          .filter(p -> !p.name().equals(JVM) && !p.name().equals(REFERENCE) && p.present()).toList();
      later = new LateDevices(present, deviceSelector, env, lateDevices);
    }
    return new Opened(List.copyOf(executors), List.copyOf(devices), List.copyOf(notes), List.copyOf(warnings), later);
  }

  private static void openFirst(List<ExecutorProvider> providers, String name, ExecutorEnvironment env,
      List<Offload> executors, List<String> warnings) {
    ExecutorProvider p = provider(providers, name);
    if (p == null) return;
    List<Device> found = p.devices(env);
    if (found.isEmpty()) return;
    try {
      executors.add(Offload.on(p.open(found.get(0), env), found.get(0)));
    } catch (ExecutionException e) {
      warnings.add("cannot open the " + name + " executor: " + e.getMessage());
    }
  }

  private static ExecutorProvider provider(List<ExecutorProvider> providers, String name) {
    for (ExecutorProvider p : providers) {
      if (p.name().equals(name)) return p;
    }
    return null;
  }

  /**
   * The device {@code selector} names among {@code devices}: an index, or a case-insensitive substring of a
   * device's name (the first match); null or blank picks the first GPU, else the first device.
   */
  public static Optional<Device> select(List<Device> devices, String selector) {
    if (selector == null || selector.isBlank()) {
      return devices.stream().filter(d -> d.kind() == Device.Kind.GPU).findFirst().or(() -> devices.stream().findFirst());
    }
    String s = selector.trim();
    if (s.chars().allMatch(Character::isDigit)) {
      try {
        int index = Integer.parseInt(s);
        return index < devices.size() ? Optional.of(devices.get(index)) : Optional.empty();
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    String needle = s.toLowerCase(Locale.ROOT);
    return devices.stream().filter(d -> d.name().toLowerCase(Locale.ROOT).contains(needle)).findFirst();
  }
}

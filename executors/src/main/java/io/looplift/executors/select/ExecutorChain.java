package io.looplift.executors.select;

import io.looplift.executors.Device;
import io.looplift.executors.ExecutionException;
import io.looplift.executors.Executor;
import io.looplift.executors.ExecutorEnvironment;
import io.looplift.executors.ExecutorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The executors a run uses, in order of preference: the one {@code executor=} names (or, for {@code auto},
 * the {@code jvm} executor), then {@code jvm} as the fallback of a device executor, and always the
 * {@code reference} executor last, which runs anything.
 */
public final class ExecutorChain {
  /** The value of {@code executor=} that leaves the choice to LoopLift. */
  public static final String AUTO = "auto";
  static final String JVM = "jvm";
  static final String REFERENCE = "reference";

  private ExecutorChain() {}

  /**
   * What {@link #open} opened.
   *
   * @param executors in order of preference, the reference executor last
   * @param devices the devices of every provider that was asked for them, for the report
   * @param notes lines for the log at {@code log=info}
   * @param warnings lines the user must see: a forced executor that could not be opened
   */
  public record Opened(List<Executor> executors, List<Device> devices, List<String> notes, List<String> warnings) {}

  /**
   * Opens the executors for {@code choice}. Only the providers that will run kernels are asked for their
   * devices: with {@code auto}, no device executor is opened (and no driver loaded) yet. Never throws.
   *
   * @param choice {@link #AUTO} or a provider's name
   * @param deviceSelector which of the chosen provider's devices: an index or a substring of its name; null
   *     picks the first GPU, else the first device
   */
  public static Opened open(List<ExecutorProvider> providers, String choice, String deviceSelector,
      ExecutorEnvironment env) {
    List<Executor> executors = new ArrayList<>();
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
            executors.add(p.open(d.get(), env));
            notes.add(choice + " executor on " + d.get().description());
          } catch (ExecutionException e) {
            warnings.add("executor=" + choice + ": " + e.getMessage() + "; using jvm");
          }
        }
      }
    }
    if (!REFERENCE.equals(choice)) openFirst(providers, JVM, env, executors, devices, warnings);
    openFirst(providers, REFERENCE, env, executors, devices, warnings);
    return new Opened(List.copyOf(executors), List.copyOf(devices), List.copyOf(notes), List.copyOf(warnings));
  }

  private static void openFirst(List<ExecutorProvider> providers, String name, ExecutorEnvironment env,
      List<Executor> executors, List<Device> devices, List<String> warnings) {
    ExecutorProvider p = provider(providers, name);
    if (p == null) return;
    List<Device> found = p.devices(env);
    if (found.isEmpty()) return;
    try {
      executors.add(p.open(found.get(0), env));
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

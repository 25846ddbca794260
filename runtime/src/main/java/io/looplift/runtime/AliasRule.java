package io.looplift.runtime;

/**
 * Which of a launch's arguments may be the same array (or share rows) without changing what the loop computes
 * when its iterations run at once. Runs after the bounds guard, whose ranges it reads from the scratch.
 */
interface AliasRule {
  /**
   * @param readsBeforeWrites the site's iterations read every element before they write any
   * @return null, or why the launch cannot be offloaded
   */
  String check(Object[] arrays, long[] slots, GuardScratch s, boolean readsBeforeWrites);
}

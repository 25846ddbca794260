/**
 * The agent jar's entry points, loaded by the application class loader: they put the jar on the bootstrap
 * class path for the bridge and hand over to the implementation in an isolated class loader. Nothing else
 * belongs here.
 */
package io.looplift.launcher;

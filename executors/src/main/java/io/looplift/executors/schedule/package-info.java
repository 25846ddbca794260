/**
 * The E-scheduler: compiled programs ({@link io.looplift.executors.schedule.ScheduledWork}) run on background
 * daemon threads, ordered by the arrays they read and write, while the program threads that submitted them
 * go on until they reach a read point.
 */
package io.looplift.executors.schedule;

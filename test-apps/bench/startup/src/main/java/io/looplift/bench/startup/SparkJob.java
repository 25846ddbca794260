package io.looplift.bench.startup;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A small Spark job in local mode, the large program whose start-up {@code test-apps/bench/startup.sh}
 * measures with and without the agent: a session on two cores, 80,000 numbers in 8 partitions (8 tasks),
 * grouped into 10 buckets with a sum and a count each (a shuffle into 8 partitions), printed in order.
 * Starting Spark dominates its time; it loads about 11,000 classes from the class path.
 */
public final class SparkJob {
  private SparkJob() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("looplift-startup")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "8")
        .getOrCreate();
    try {
      Dataset<Row> numbers = spark.range(0, 80_000, 1, 8).withColumn("bucket", col("id").mod(10));
      List<Row> rows = numbers.groupBy("bucket").agg(sum("id"), count("id")).orderBy("bucket").collectAsList();
      for (Row r : rows) System.out.println(r);
    } finally {
      spark.stop();
    }
  }
}

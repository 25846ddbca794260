package io.looplift.tracecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class HmacSha256Test {
  /** RFC 4231, test case 2: a short key. */
  @Test
  void matchesTheRfcTestVector() {
    byte[] mac = new HmacSha256("Jefe".getBytes(StandardCharsets.US_ASCII))
        .mac("what do ya want ".getBytes(StandardCharsets.US_ASCII), "for nothing?".getBytes(StandardCharsets.US_ASCII));
    assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", HexFormat.of().formatHex(mac));
  }

  /** Keys shorter than, as long as and longer than SHA-256's block, messages of many lengths, as the JCE computes them. */
  @Test
  void equalsTheJcesHmacSha256() throws Exception {
    Random r = new Random(3);
    for (int keyLength : new int[] {1, 32, 63, 64, 65, 131}) {
      byte[] key = new byte[keyLength];
      r.nextBytes(key);
      Mac jce = Mac.getInstance("HmacSHA256");
      jce.init(new SecretKeySpec(key, "HmacSHA256"));
      for (int length : new int[] {0, 1, 55, 64, 1000}) {
        byte[] message = new byte[length];
        r.nextBytes(message);
        assertArrayEquals(jce.doFinal(message), new HmacSha256(key).mac(message), keyLength + "-byte key, " + length + " bytes");
      }
    }
  }
}

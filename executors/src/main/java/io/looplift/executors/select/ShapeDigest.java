package io.looplift.executors.select;

import io.looplift.ir.Acc;
import io.looplift.ir.Binary;
import io.looplift.ir.Call;
import io.looplift.ir.Carried;
import io.looplift.ir.CarriedVar;
import io.looplift.ir.Compare;
import io.looplift.ir.Const;
import io.looplift.ir.Convert;
import io.looplift.ir.Index;
import io.looplift.ir.Length;
import io.looplift.ir.Load;
import io.looplift.ir.Loop;
import io.looplift.ir.LoopOut;
import io.looplift.ir.LoopTemplate;
import io.looplift.ir.LoopVar;
import io.looplift.ir.Node;
import io.looplift.ir.Nodes;
import io.looplift.ir.Param;
import io.looplift.ir.Reduction;
import io.looplift.ir.Select;
import io.looplift.ir.Stmt;
import io.looplift.ir.Store;
import io.looplift.ir.Type;
import io.looplift.ir.Unary;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The SHA-256 of a {@link LoopTemplate}'s structure, the same in every JVM run: types and operators by name
 * (not ordinal), constants by their bits, and the node DAG written once per distinct node, each after its
 * operands and referred to by number, so that shared sub-DAGs cost nothing extra and the digest is linear
 * in the DAG's size. Two templates have the same digest exactly when they are equal (up to SHA-256).
 */
final class ShapeDigest {
  /** Bumped whenever the encoding changes, so that old digests never match new ones. */
  private static final String FORMAT = "looplift-template-1";

  private final DataOutputStream out;
  private final Map<Node, Integer> numbers = new HashMap<>();

  private ShapeDigest(DataOutputStream out) {
    this.out = out;
  }

  /** 64 lower-case hex digits. */
  static String of(LoopTemplate t) {
    MessageDigest sha = sha256();
    try (DataOutputStream out = new DataOutputStream(new DigestOutputStream(OutputStream.nullOutputStream(), sha))) {
      new ShapeDigest(out).template(t);
    } catch (IOException e) {
      throw new UncheckedIOException("a null stream does not fail", e);
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  private void template(LoopTemplate t) throws IOException {
    out.writeUTF(FORMAT);
    types(t.arrays());
    types(t.params());
    types(t.accumulators());
    out.writeInt(t.rowArrays().size());
    for (int a : t.rowArrays()) out.writeInt(a);
    out.writeBoolean(t.ordered());
    stmts(t.body());
    out.writeInt(t.reductions().size());
    for (Reduction r : t.reductions()) {
      out.writeInt(r.acc());
      type(r.type());
      out.writeInt(node(r.update()));
      out.writeUTF(r.op() == null ? "" : r.op().name());
      out.writeInt(r.element() == null ? -1 : node(r.element()));
    }
  }

  private void stmts(List<Stmt> body) throws IOException {
    out.writeInt(body.size());
    for (Stmt s : body) {
      if (s instanceof Store st) {
        int index = node(st.index());
        int value = node(st.value());
        int predicate = node(st.predicate());
        int row = st.row() == null ? -1 : node(st.row());
        out.writeUTF("store");
        out.writeInt(st.array());
        type(st.elementType());
        out.writeInt(index);
        out.writeInt(value);
        out.writeInt(predicate);
        out.writeInt(row);
      } else if (s instanceof Loop l) {
        int start = node(l.start());
        int limit = node(l.limit());
        int predicate = node(l.predicate());
        out.writeUTF("loop");
        out.writeInt(l.id());
        out.writeInt(start);
        out.writeInt(limit);
        out.writeUTF(l.cond().name());
        out.writeInt(l.step());
        out.writeBoolean(l.parallel());
        out.writeInt(predicate);
        out.writeInt(l.carried().size());
        for (Carried c : l.carried()) {
          int init = node(c.init());
          int update = node(c.update());
          type(c.type());
          out.writeInt(init);
          out.writeInt(update);
        }
        stmts(l.body());
      } else {
        throw new IllegalArgumentException("unknown statement " + s);
      }
    }
  }

  /** The number of {@code n}, writing its definition (after its operands') the first time it is met. */
  private int node(Node n) throws IOException {
    Integer known = numbers.get(n);
    if (known != null) return known;
    List<Node> operands = Nodes.children(n);
    int[] refs = new int[operands.size()];
    for (int k = 0; k < refs.length; k++) refs[k] = node(operands.get(k));
    out.writeUTF(n.getClass().getSimpleName());
    type(n.type());
    if (n instanceof Const c) {
      out.writeLong(c.bits());
    } else if (n instanceof Param p) {
      out.writeInt(p.index());
    } else if (n instanceof Acc a) {
      out.writeInt(a.index());
    } else if (n instanceof Load l) {
      out.writeInt(l.array());
      type(l.elementType());
      out.writeInt(l.epoch());
      out.writeBoolean(l.row() != null);
    } else if (n instanceof Length l) {
      out.writeInt(l.array());
    } else if (n instanceof Unary u) {
      out.writeUTF(u.op().name());
    } else if (n instanceof Binary b) {
      out.writeUTF(b.op().name());
    } else if (n instanceof Compare c) {
      out.writeUTF(c.cond().name());
    } else if (n instanceof Convert c) {
      type(c.to());
    } else if (n instanceof Call c) {
      out.writeUTF(c.owner());
      out.writeUTF(c.name());
      out.writeUTF(c.desc());
    } else if (n instanceof LoopVar v) {
      out.writeInt(v.loop());
    } else if (n instanceof CarriedVar v) {
      out.writeInt(v.loop());
      out.writeInt(v.slot());
    } else if (n instanceof LoopOut o) {
      out.writeInt(o.loop());
      out.writeInt(o.slot());
    } else if (!(n instanceof Index) && !(n instanceof Select)) {
      throw new IllegalArgumentException("unknown node " + n);
    }
    // Operands last: their count is part of the shape (a call's arity), their order is Nodes.children's.
    out.writeInt(refs.length);
    for (int r : refs) out.writeInt(r);
    int number = numbers.size();
    numbers.put(n, number);
    return number;
  }

  private void types(List<Type> types) throws IOException {
    out.writeInt(types.size());
    for (Type t : types) type(t);
  }

  private void type(Type t) throws IOException {
    out.writeUTF(t.name());
  }
}

//! The e-graph language of the `opt` stage: the pure integer operations of a block (with
//! the width each result has), constants and the region's inputs as leaves, plus the
//! evaluator constant folding and the rule tests share, which follows the interpreter's
//! definitions (division by zero gives all ones, `x % 0` gives `x`, shifts reduce the
//! count modulo the width).

use std::fmt;

use egg::{Id, Language};

/// Integer binary operators (the float ones never enter the e-graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Integer comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ICmp {
    Eq,
    Ne,
    SLt,
    SLe,
    SGt,
    SGe,
    ULt,
    ULe,
    UGt,
    UGe,
}

const BINS: [(Bin, &str); 13] = [
    (Bin::Add, "add"),
    (Bin::Sub, "sub"),
    (Bin::Mul, "mul"),
    (Bin::UDiv, "udiv"),
    (Bin::SDiv, "sdiv"),
    (Bin::URem, "urem"),
    (Bin::SRem, "srem"),
    (Bin::Shl, "shl"),
    (Bin::LShr, "lshr"),
    (Bin::AShr, "ashr"),
    (Bin::And, "and"),
    (Bin::Or, "or"),
    (Bin::Xor, "xor"),
];

const CMPS: [(ICmp, &str); 10] = [
    (ICmp::Eq, "eq"),
    (ICmp::Ne, "ne"),
    (ICmp::SLt, "slt"),
    (ICmp::SLe, "sle"),
    (ICmp::SGt, "sgt"),
    (ICmp::SGe, "sge"),
    (ICmp::ULt, "ult"),
    (ICmp::ULe, "ule"),
    (ICmp::UGt, "ugt"),
    (ICmp::UGe, "uge"),
];

/// One e-node. Casts name their destination width; a binary op's width is its operands'.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Bin(Bin, [Id; 2]),
    Neg(Id),
    Not(Id),
    Cmp(ICmp, [Id; 2]),
    /// Condition, value if true, value if false.
    Select([Id; 3]),
    ZExt(u8, Id),
    SExt(u8, Id),
    Trunc(u8, Id),
    /// A pointer plus a signed 64-bit byte offset.
    PtrAdd([Id; 2]),
    /// Width and value (masked to the width).
    Const(u8, u64),
    /// Input `i` of the region: an op outside it (memory, variables, floats, vectors...).
    Leaf(u32),
}

impl Node {
    /// The node with its children cleared: what two nodes must share to match.
    fn op_only(&self) -> Node {
        let mut n = self.clone();
        for c in n.children_mut() {
            *c = Id::from(0usize);
        }
        n
    }
}

impl Language for Node {
    type Discriminant = Node;

    fn discriminant(&self) -> Node {
        self.op_only()
    }

    fn matches(&self, other: &Self) -> bool {
        self.op_only() == other.op_only()
    }

    fn children(&self) -> &[Id] {
        match self {
            Node::Bin(_, c) | Node::Cmp(_, c) | Node::PtrAdd(c) => c,
            Node::Select(c) => c,
            Node::Neg(c)
            | Node::Not(c)
            | Node::ZExt(_, c)
            | Node::SExt(_, c)
            | Node::Trunc(_, c) => std::slice::from_ref(c),
            Node::Const(..) | Node::Leaf(_) => &[],
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            Node::Bin(_, c) | Node::Cmp(_, c) | Node::PtrAdd(c) => c,
            Node::Select(c) => c,
            Node::Neg(c)
            | Node::Not(c)
            | Node::ZExt(_, c)
            | Node::SExt(_, c)
            | Node::Trunc(_, c) => std::slice::from_mut(c),
            Node::Const(..) | Node::Leaf(_) => &mut [],
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |b: Bin| BINS.iter().find(|x| x.0 == b).map(|x| x.1).unwrap_or("?");
        let cname = |c: ICmp| CMPS.iter().find(|x| x.0 == c).map(|x| x.1).unwrap_or("?");
        match self {
            Node::Bin(b, _) => f.write_str(name(*b)),
            Node::Cmp(c, _) => f.write_str(cname(*c)),
            Node::Neg(_) => f.write_str("neg"),
            Node::Not(_) => f.write_str("not"),
            Node::Select(_) => f.write_str("select"),
            Node::ZExt(w, _) => write!(f, "zext{w}"),
            Node::SExt(w, _) => write!(f, "sext{w}"),
            Node::Trunc(w, _) => write!(f, "trunc{w}"),
            Node::PtrAdd(_) => f.write_str("ptradd"),
            Node::Const(w, v) => write!(f, "{v}i{w}"),
            Node::Leaf(i) => write!(f, "in{i}"),
        }
    }
}

impl egg::FromOp for Node {
    type Error = String;

    /// Operators as `Display` prints them: `add`, `zext32`, `5i32`, `in0`.
    fn from_op(op: &str, c: Vec<Id>) -> Result<Node, String> {
        let bad = || format!("bad e-node `{op}` with {} children", c.len());
        let width = |s: &str| s.parse::<u8>().ok().filter(|w| (1..=64).contains(w));
        if let Some(b) = BINS.iter().find(|x| x.1 == op) {
            return <[Id; 2]>::try_from(c.clone())
                .map(|c| Node::Bin(b.0, c))
                .map_err(|_| bad());
        }
        if let Some(k) = CMPS.iter().find(|x| x.1 == op) {
            return <[Id; 2]>::try_from(c.clone())
                .map(|c| Node::Cmp(k.0, c))
                .map_err(|_| bad());
        }
        let one = || (c.len() == 1).then(|| c[0]).ok_or_else(bad);
        let cast = |prefix: &str| op.strip_prefix(prefix).and_then(width);
        match op {
            "neg" => return one().map(Node::Neg),
            "not" => return one().map(Node::Not),
            "select" => {
                return <[Id; 3]>::try_from(c.clone())
                    .map(Node::Select)
                    .map_err(|_| bad())
            }
            "ptradd" => {
                return <[Id; 2]>::try_from(c.clone())
                    .map(Node::PtrAdd)
                    .map_err(|_| bad())
            }
            _ => {}
        }
        if let Some(w) = cast("zext") {
            return one().map(|x| Node::ZExt(w, x));
        }
        if let Some(w) = cast("sext") {
            return one().map(|x| Node::SExt(w, x));
        }
        if let Some(w) = cast("trunc") {
            return one().map(|x| Node::Trunc(w, x));
        }
        if let Some(i) = op.strip_prefix("in").and_then(|s| s.parse().ok()) {
            return c.is_empty().then_some(Node::Leaf(i)).ok_or_else(bad);
        }
        if let Some((v, w)) = op.split_once('i') {
            if let (Ok(v), Some(w)) = (v.parse::<i128>(), width(w)) {
                return c
                    .is_empty()
                    .then(|| Node::Const(w, v as u64 & mask(w as u32)))
                    .ok_or_else(bad);
            }
        }
        Err(bad())
    }
}

pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

pub fn sext(v: u64, bits: u32) -> i64 {
    let s = 64 - bits.clamp(1, 64);
    ((v << s) as i64) >> s
}

/// `op` on `bits`-wide operands, as the interpreter and the hardware compute it.
pub fn eval_bin(op: Bin, bits: u32, x: u64, y: u64) -> u64 {
    let (x, y) = (x & mask(bits), y & mask(bits));
    let r = match op {
        Bin::Add => x.wrapping_add(y),
        Bin::Sub => x.wrapping_sub(y),
        Bin::Mul => x.wrapping_mul(y),
        Bin::UDiv => x.checked_div(y).unwrap_or(u64::MAX),
        Bin::URem => x.checked_rem(y).unwrap_or(x),
        Bin::SDiv | Bin::SRem => {
            let (sx, sy) = (sext(x, bits), sext(y, bits));
            match (sy, op) {
                (0, Bin::SDiv) => u64::MAX,
                (0, _) => x,
                (_, Bin::SDiv) => sx.wrapping_div(sy) as u64,
                _ => sx.wrapping_rem(sy) as u64,
            }
        }
        Bin::Shl => x << (y % bits as u64),
        Bin::LShr => x >> (y % bits as u64),
        Bin::AShr => (sext(x, bits) >> (y % bits as u64)) as u64,
        Bin::And => x & y,
        Bin::Or => x | y,
        Bin::Xor => x ^ y,
    };
    r & mask(bits)
}

pub fn eval_cmp(op: ICmp, bits: u32, x: u64, y: u64) -> bool {
    let (x, y) = (x & mask(bits), y & mask(bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    match op {
        ICmp::Eq => x == y,
        ICmp::Ne => x != y,
        ICmp::SLt => sx < sy,
        ICmp::SLe => sx <= sy,
        ICmp::SGt => sx > sy,
        ICmp::SGe => sx >= sy,
        ICmp::ULt => x < y,
        ICmp::ULe => x <= y,
        ICmp::UGt => x > y,
        ICmp::UGe => x >= y,
    }
}

/// The value of `node` given its children's values and widths (`None` for a leaf, or a
/// pointer, which only the machine knows). `width` is the node's own result width.
pub fn eval(node: &Node, width: u32, child: impl Fn(usize) -> Option<(u64, u32)>) -> Option<u64> {
    let m = mask(width);
    Some(match node {
        Node::Const(_, v) => *v & m,
        Node::Leaf(_) | Node::PtrAdd(_) => return None,
        Node::Bin(b, _) => {
            let ((x, w), (y, _)) = (child(0)?, child(1)?);
            eval_bin(*b, w, x, y)
        }
        Node::Cmp(c, _) => {
            let ((x, w), (y, _)) = (child(0)?, child(1)?);
            eval_cmp(*c, w, x, y) as u64
        }
        Node::Neg(_) => child(0)?.0.wrapping_neg() & m,
        Node::Not(_) => !child(0)?.0 & m,
        Node::Select(_) => {
            let c = child(0)?.0;
            if c & 1 == 1 {
                child(1)?.0
            } else {
                child(2)?.0
            }
        }
        Node::ZExt(..) | Node::Trunc(..) => child(0)?.0 & m,
        Node::SExt(..) => {
            let (x, w) = child(0)?;
            sext(x, w) as u64 & m
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_print_and_parse_back() {
        let e: egg::RecExpr<Node> = "(add (zext32 in0) (trunc32 (mul in1 5i64)))"
            .parse()
            .unwrap();
        assert_eq!(e.to_string(), "(add (zext32 in0) (trunc32 (mul in1 5i64)))");
        let neg: egg::RecExpr<Node> = "-1i8".parse().unwrap();
        assert_eq!(neg.to_string(), "255i8");
    }

    #[test]
    fn evaluation_follows_the_interpreter_at_the_corners() {
        assert_eq!(
            eval_bin(Bin::SDiv, 32, 0x8000_0000, 0xFFFF_FFFF),
            0x8000_0000
        );
        assert_eq!(eval_bin(Bin::UDiv, 8, 7, 0), 0xFF);
        assert_eq!(eval_bin(Bin::SRem, 8, 0x80, 0xFF), 0);
        assert_eq!(eval_bin(Bin::URem, 16, 7, 0), 7);
        assert_eq!(eval_bin(Bin::AShr, 8, 0x80, 7), 0xFF);
        assert!(eval_cmp(ICmp::SLt, 8, 0x80, 0x7F));
    }
}

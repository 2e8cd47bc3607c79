//! A small typed expression tree for the right-hand sides of the netlist: constants,
//! nets and their slices, concatenation, operators and muxes, each with an explicit width.

use super::netlist::{Module, NetId};
use super::RtlError;

/// A constant of any width, little-endian 64-bit limbs; bits past `width` are zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Const {
    pub width: u32,
    pub limbs: Vec<u64>,
}

impl Const {
    /// `value` truncated to `width` bits.
    pub fn new(width: u32, value: u64) -> Const {
        let mut c = Const {
            width,
            limbs: vec![0; width.div_ceil(64).max(1) as usize],
        };
        c.limbs[0] = value;
        c.mask();
        c
    }

    pub fn zero(width: u32) -> Const {
        Const::new(width, 0)
    }

    pub fn ones(width: u32) -> Const {
        let mut c = Const::new(width, 0);
        c.limbs.iter_mut().for_each(|l| *l = u64::MAX);
        c.mask();
        c
    }

    fn mask(&mut self) {
        let full = (self.width / 64) as usize;
        let rest = self.width % 64;
        for (i, l) in self.limbs.iter_mut().enumerate() {
            if i > full || (i == full && rest == 0) {
                *l = 0;
            } else if i == full {
                *l &= (1u64 << rest) - 1;
            }
        }
    }

    /// Verilog literal: `8'h2a`, hex digits most significant first.
    pub fn verilog(&self) -> String {
        let digits = self.width.div_ceil(4).max(1) as usize;
        let mut hex = String::new();
        for l in self.limbs.iter().rev() {
            hex.push_str(&format!("{l:016x}"));
        }
        let hex = &hex[hex.len() - digits..];
        format!("{}'h{}", self.width, hex)
    }
}

/// Operators of one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Bitwise `~`; result as wide as the operand.
    Not,
    /// `!` on a 1-bit operand.
    LogicNot,
    /// Reductions `&`, `|`, `^`; 1-bit result.
    RedAnd,
    RedOr,
    RedXor,
}

/// Operators of two operands. Arithmetic and bitwise operators take operands of one width
/// and give that width (the carry is dropped: widen first with [`Expr::zext`]);
/// comparisons are unsigned and give one bit; shifts keep the left operand's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    LogicAnd,
    LogicOr,
}

impl BinOp {
    fn verilog(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::LogicAnd => "&&",
            BinOp::LogicOr => "||",
        }
    }

    fn is_compare(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A right-hand side. Slices apply to nets only, as Verilog-2005 cannot slice an
/// expression: name an intermediate wire to slice a computed value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Const(Const),
    Net(NetId),
    /// Bits `hi..=lo` of a net.
    Slice {
        net: NetId,
        hi: u32,
        lo: u32,
    },
    /// Most significant part first, as in Verilog.
    Concat(Vec<Expr>),
    /// `{count{e}}`.
    Repeat(u32, Box<Expr>),
    Un(UnOp, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// `cond ? then : else`, with a 1-bit condition and arms of one width.
    Mux(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn lit(width: u32, value: u64) -> Expr {
        Expr::Const(Const::new(width, value))
    }

    pub fn bit(net: NetId, i: u32) -> Expr {
        Expr::Slice { net, hi: i, lo: i }
    }

    pub fn un(op: UnOp, a: Expr) -> Expr {
        Expr::Un(op, Box::new(a))
    }

    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    pub fn mux(cond: Expr, then: Expr, other: Expr) -> Expr {
        Expr::Mux(Box::new(cond), Box::new(then), Box::new(other))
    }

    pub fn lnot(a: Expr) -> Expr {
        Expr::un(UnOp::LogicNot, a)
    }

    pub fn land(a: Expr, b: Expr) -> Expr {
        Expr::bin(BinOp::LogicAnd, a, b)
    }

    pub fn lor(a: Expr, b: Expr) -> Expr {
        Expr::bin(BinOp::LogicOr, a, b)
    }

    /// `e` widened with `extra` zero bits on top.
    pub fn zext(e: Expr, extra: u32) -> Expr {
        if extra == 0 {
            e
        } else {
            Expr::Concat(vec![Expr::lit(extra, 0), e])
        }
    }

    /// The width of the value, or an error naming the first operator whose operands do
    /// not fit (a compiler bug: the emitter refuses to write such a netlist).
    pub fn width(&self, m: &Module) -> Result<u32, RtlError> {
        let err = |msg: String| Err(RtlError::new(&m.name, msg));
        match self {
            Expr::Const(c) => {
                if c.width == 0 {
                    return err("a constant of width 0".into());
                }
                Ok(c.width)
            }
            Expr::Net(n) => Ok(m.net_checked(*n)?.width),
            Expr::Slice { net, hi, lo } => {
                let n = m.net_checked(*net)?;
                if lo > hi || *hi >= n.width {
                    return err(format!(
                        "slice [{hi}:{lo}] of `{}` ({} bits) is out of range",
                        n.name, n.width
                    ));
                }
                Ok(hi - lo + 1)
            }
            Expr::Concat(parts) => {
                if parts.is_empty() {
                    return err("an empty concatenation".into());
                }
                parts.iter().try_fold(0, |acc, p| Ok(acc + p.width(m)?))
            }
            Expr::Repeat(n, e) => {
                if *n == 0 {
                    return err("a repetition of 0 copies".into());
                }
                Ok(n * e.width(m)?)
            }
            Expr::Un(op, a) => {
                let w = a.width(m)?;
                match op {
                    UnOp::Not => Ok(w),
                    UnOp::LogicNot if w != 1 => err(format!(
                        "`!` on a {w}-bit operand (compare with zero instead)"
                    )),
                    _ => Ok(1),
                }
            }
            Expr::Bin(op, a, b) => {
                let (wa, wb) = (a.width(m)?, b.width(m)?);
                match op {
                    BinOp::Shl | BinOp::Shr => Ok(wa),
                    BinOp::LogicAnd | BinOp::LogicOr if wa != 1 || wb != 1 => err(format!(
                        "`{}` on {wa}- and {wb}-bit operands (1 bit each expected)",
                        op.verilog()
                    )),
                    BinOp::LogicAnd | BinOp::LogicOr => Ok(1),
                    _ if wa != wb => err(format!(
                        "`{}` on operands of {wa} and {wb} bits",
                        op.verilog()
                    )),
                    _ if op.is_compare() => Ok(1),
                    _ => Ok(wa),
                }
            }
            Expr::Mux(c, t, e) => {
                let wc = c.width(m)?;
                let (wt, we) = (t.width(m)?, e.width(m)?);
                if wc != 1 {
                    return err(format!("a mux condition of {wc} bits"));
                }
                if wt != we {
                    return err(format!("mux arms of {wt} and {we} bits"));
                }
                Ok(wt)
            }
        }
    }

    /// Calls `f(net, hi, lo)` for every net bit range this expression reads.
    pub fn reads(&self, m: &Module, f: &mut dyn FnMut(NetId, u32, u32)) {
        match self {
            Expr::Const(_) => {}
            Expr::Net(n) => {
                if let Ok(net) = m.net_checked(*n) {
                    f(*n, net.width - 1, 0)
                }
            }
            Expr::Slice { net, hi, lo } => f(*net, *hi, *lo),
            Expr::Concat(parts) => parts.iter().for_each(|p| p.reads(m, f)),
            Expr::Repeat(_, e) | Expr::Un(_, e) => e.reads(m, f),
            Expr::Bin(_, a, b) => {
                a.reads(m, f);
                b.reads(m, f);
            }
            Expr::Mux(c, t, e) => {
                c.reads(m, f);
                t.reads(m, f);
                e.reads(m, f);
            }
        }
    }

    /// Verilog text; every operator is parenthesised so precedence never matters.
    pub fn verilog(&self, m: &Module) -> String {
        match self {
            Expr::Const(c) => c.verilog(),
            Expr::Net(n) => m.net(*n).name.clone(),
            // A 1-bit net is declared without a range; Verilog cannot select its bit 0.
            Expr::Slice { net, hi: 0, lo: 0 } if m.net(*net).width == 1 => m.net(*net).name.clone(),
            Expr::Slice { net, hi, lo } if hi == lo => format!("{}[{hi}]", m.net(*net).name),
            Expr::Slice { net, hi, lo } => format!("{}[{hi}:{lo}]", m.net(*net).name),
            Expr::Concat(parts) => {
                let p: Vec<String> = parts.iter().map(|p| p.verilog(m)).collect();
                format!("{{{}}}", p.join(", "))
            }
            Expr::Repeat(n, e) => format!("{{{n}{{{}}}}}", e.verilog(m)),
            Expr::Un(op, a) => {
                let s = match op {
                    UnOp::Not => "~",
                    UnOp::LogicNot => "!",
                    UnOp::RedAnd => "&",
                    UnOp::RedOr => "|",
                    UnOp::RedXor => "^",
                };
                format!("({s}{})", a.verilog(m))
            }
            // The low bits of a product do not depend on signedness; a signed multiply
            // lets synthesis drop replicated sign bits of sign-extended operands (Yosys
            // `wreduce` drops only constant zeros of unsigned ones), so a 64-bit product
            // of two sign-extended 32-bit values is a 32 x 32 multiplier.
            Expr::Bin(BinOp::Mul, a, b) => format!(
                "$unsigned($signed({}) * $signed({}))",
                a.verilog(m),
                b.verilog(m)
            ),
            Expr::Bin(op, a, b) => {
                format!("({} {} {})", a.verilog(m), op.verilog(), b.verilog(m))
            }
            Expr::Mux(c, t, e) => {
                format!("({} ? {} : {})", c.verilog(m), t.verilog(m), e.verilog(m))
            }
        }
    }
}

impl From<NetId> for Expr {
    fn from(n: NetId) -> Expr {
        Expr::Net(n)
    }
}

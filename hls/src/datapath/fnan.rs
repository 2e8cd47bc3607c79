//! The NaN bits of binary32 `+ - * /` in the datapath: the float units return the
//! canonical NaN 0x7FC00000, the interpreter (x86 SSE, like POCL) the first NaN operand
//! quieted, else the second's, else the negative default NaN 0xFFC00000 for an invalid
//! operation (inf - inf, 0 * inf, 0 / 0, inf / inf). Also the lane tests conversions use.

use super::ops::{concat, lane, Computed};
use super::Gen;
use crate::ir::BinOp as IB;
use crate::rtl::expr::{BinOp, Expr, UnOp};
use crate::rtl::netlist::NetId;

/// Bits 30..0 (the magnitude) of the binary32 lane at bit `lo` of `net`.
pub(super) fn mag_at(net: NetId, lo: u32) -> Expr {
    Expr::Slice {
        net,
        hi: lo + 30,
        lo,
    }
}

fn exp_ones_at(net: NetId, lo: u32) -> Expr {
    Expr::un(
        UnOp::RedAnd,
        Expr::Slice {
            net,
            hi: lo + 30,
            lo: lo + 23,
        },
    )
}

fn mant_zero_at(net: NetId, lo: u32) -> Expr {
    Expr::bin(
        BinOp::Eq,
        Expr::Slice {
            net,
            hi: lo + 22,
            lo,
        },
        Expr::lit(23, 0),
    )
}

/// The binary32 lane at bit `lo` of `net` is a NaN.
pub(super) fn is_nan_at(net: NetId, lo: u32) -> Expr {
    Expr::land(exp_ones_at(net, lo), Expr::lnot(mant_zero_at(net, lo)))
}

fn is_inf_at(net: NetId, lo: u32) -> Expr {
    Expr::land(exp_ones_at(net, lo), mant_zero_at(net, lo))
}

fn is_zero_at(net: NetId, lo: u32) -> Expr {
    Expr::bin(BinOp::Eq, mag_at(net, lo), Expr::lit(31, 0))
}

impl Gen<'_> {
    /// The result of float op `op` on lanes of `a` and `b`, with the interpreter's NaN
    /// muxed over the unit result `c` (from `Gen::unit`, one 32-bit result per lane).
    pub(super) fn fp_nan_fix(
        &mut self,
        op: IB,
        a: NetId,
        b: NetId,
        lanes: u32,
        c: Computed,
    ) -> Computed {
        let Computed::Unit { done, value } = c else {
            return c;
        };
        // In a pipeline the operands have moved on by the time the result is there.
        let (a, b) = (self.pipe_delayed(a), self.pipe_delayed(b));
        let name = self.fresh("fnan");
        let all = self.m.wire(&name, 32 * lanes);
        self.m.assign(all, value);
        let v = (0..lanes)
            .map(|i| {
                let lo = i * 32;
                let both_inf = || Expr::land(is_inf_at(a, lo), is_inf_at(b, lo));
                let same_sign =
                    || Expr::bin(BinOp::Eq, Expr::bit(a, lo + 31), Expr::bit(b, lo + 31));
                let invalid = match op {
                    IB::FAdd => Expr::land(both_inf(), Expr::lnot(same_sign())),
                    IB::FSub => Expr::land(both_inf(), same_sign()),
                    IB::FMul => Expr::lor(
                        Expr::land(is_inf_at(a, lo), is_zero_at(b, lo)),
                        Expr::land(is_zero_at(a, lo), is_inf_at(b, lo)),
                    ),
                    _ => Expr::lor(both_inf(), Expr::land(is_zero_at(a, lo), is_zero_at(b, lo))),
                };
                let quiet =
                    |n: NetId| Expr::bin(BinOp::Or, lane(n, i, 32, lanes), Expr::lit(32, 1 << 22));
                Expr::mux(
                    is_nan_at(a, lo),
                    quiet(a),
                    Expr::mux(
                        is_nan_at(b, lo),
                        quiet(b),
                        Expr::mux(invalid, Expr::lit(32, 0xFFC0_0000), lane(all, i, 32, lanes)),
                    ),
                )
            })
            .collect();
        Computed::Unit {
            done,
            value: concat(v),
        }
    }
}

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
        let name = self.fresh("fnan");
        let all = self.m.wire(&name, 32 * lanes);
        self.m.assign(all, value);
        let rules = (0..lanes)
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
                vec![
                    (is_nan_at(a, lo), quiet(a)),
                    (is_nan_at(b, lo), quiet(b)),
                    (invalid, Expr::lit(32, 0xFFC0_0000)),
                ]
            })
            .collect();
        let v = self.nan_override(rules, all, lanes);
        Computed::Unit {
            done,
            value: concat(v),
        }
    }

    /// Per lane, the unit result `all` (32 bits a lane) unless one of the lane's `rules`
    /// (a condition on the unit's operands and the bits it gives, first match wins)
    /// holds. The rules are decided from the operands as they enter the unit, so in a
    /// pipeline only the verdict and the chosen bits ride along to the result: 33 bits a
    /// lane instead of every operand (matmul_tiled's eight fma units had 3,840 flip-flops
    /// of delayed operands).
    pub(super) fn nan_override(
        &mut self,
        rules: Vec<Vec<(Expr, Expr)>>,
        all: NetId,
        lanes: u32,
    ) -> Vec<Expr> {
        rules
            .into_iter()
            .enumerate()
            .map(|(i, rules)| {
                let hit = rules
                    .iter()
                    .map(|r| r.0.clone())
                    .reduce(Expr::lor)
                    .unwrap_or(Expr::lit(1, 0));
                let bits = rules
                    .into_iter()
                    .rev()
                    .fold(Expr::lit(32, 0xFFC0_0000), |rest, (c, v)| {
                        Expr::mux(c, v, rest)
                    });
                let name = self.fresh("fov");
                let w = self.m.wire(&name, 33);
                self.m.assign(w, Expr::Concat(vec![hit, bits]));
                let d = self.pipe_delayed(w);
                Expr::mux(
                    Expr::bit(d, 32),
                    Expr::Slice {
                        net: d,
                        hi: 31,
                        lo: 0,
                    },
                    lane(all, i as u32, 32, lanes),
                )
            })
            .collect()
    }
}

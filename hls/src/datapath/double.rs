//! Double precision (binary64) in the datapath: `+ - * /`, compares, negation, and every
//! conversion from or to f64 (integers of 8..64 bits, f32), lane by lane through the
//! `ohls_dp_*` templates. Those units already give the interpreter's (x86 SSE) NaN bits
//! and out-of-range integer results, so no fix-up logic is needed here.
//! Lane moves of f64 values (bit copies: select, shuffle, bitcast ...) stay in `ops.rs`.

use super::fsm::StateId;
use super::ops::{concat, flip_sign, lane, resize, unsupported, Computed};
use super::Gen;
use crate::diag::{Diagnostic, Span};
use crate::ir::{BinOp as IB, CmpOp, Conv, OpKind, Round, Ty, UnOp as IU};
use crate::rtl::expr::Expr;
use crate::rtl::netlist::NetId;

/// The rounding-mode input of the conversion units.
fn rm(r: Round) -> Expr {
    Expr::lit(
        2,
        match r {
            Round::Rte => 0,
            Round::Rtz => 1,
            Round::Rtp => 2,
            Round::Rtn => 3,
        },
    )
}

fn bit(v: bool) -> Expr {
    Expr::lit(1, v as u64)
}

/// Bits `w-1..0` of a unit output (narrow integer results are its low bits).
fn low(net: NetId, full: u32, w: u32) -> Expr {
    if w == full {
        Expr::Net(net)
    } else {
        Expr::Slice {
            net,
            hi: w - 1,
            lo: 0,
        }
    }
}

impl Gen<'_> {
    /// Op `kind` with operand `nets`, operand type `from` and result type `to`, when one
    /// of them has f64 lanes. `None` for ops that only move bits (left to `ops.rs`) and for
    /// f64 ops with no implementation (which `ops.rs` then refuses).
    pub(super) fn double(
        &mut self,
        s: StateId,
        kind: &OpKind,
        nets: &[NetId],
        from: &Ty,
        to: &Ty,
        span: Span,
    ) -> Result<Option<Computed>, Diagnostic> {
        let lanes = to.lanes() as u32;
        Ok(Some(match kind {
            OpKind::Unary(IU::FNeg) if to.elem() == &Ty::F64 => {
                let a = nets[0];
                Computed::Comb(concat(
                    (0..lanes)
                        .map(|i| flip_sign(lane(a, i, 64, lanes), 64))
                        .collect(),
                ))
            }
            OpKind::Binary(op) if to.elem() == &Ty::F64 => {
                let (module, sub) = match op {
                    IB::FAdd => ("ohls_dp_add", Some(0)),
                    IB::FSub => ("ohls_dp_add", Some(1)),
                    IB::FMul => ("ohls_dp_mul", None),
                    IB::FDiv => ("ohls_dp_div", None),
                    _ => return Ok(None),
                };
                let (a, b) = (nets[0], nets[1]);
                let ins = (0..lanes)
                    .map(|i| {
                        let mut v = vec![
                            ("a", 64, lane(a, i, 64, lanes)),
                            ("b", 64, lane(b, i, 64, lanes)),
                        ];
                        if let Some(x) = sub {
                            v.push(("sub", 1, Expr::lit(1, x)));
                        }
                        v
                    })
                    .collect();
                self.unit(s, module, &[], ins, &[("result", 64)], &|o| Expr::Net(o[0]))
            }
            OpKind::Cmp(c) if from.elem() == &Ty::F64 => {
                return self.dp_compare(s, *c, nets, from, span).map(Some)
            }
            OpKind::Conv(cv) => return self.dp_convert(s, *cv, nets[0], from, to, span).map(Some),
            _ => return Ok(None),
        }))
    }

    /// An ordered compare (or C's `!=`) of f64 lanes through `ohls_dp_cmp`.
    fn dp_compare(
        &mut self,
        s: StateId,
        c: CmpOp,
        nets: &[NetId],
        from: &Ty,
        span: Span,
    ) -> Result<Computed, Diagnostic> {
        if !matches!(
            c,
            CmpOp::FEq | CmpOp::FLt | CmpOp::FGt | CmpOp::FLe | CmpOp::FGe | CmpOp::FNe
        ) {
            return Err(unsupported(&format!("{c:?} on doubles"), span, self.sm));
        }
        let (a, b) = (nets[0], nets[1]);
        let lanes = from.lanes() as u32;
        // a > b is b < a: the unit has lt and le only.
        let swap = matches!(c, CmpOp::FGt | CmpOp::FGe);
        let ins = (0..lanes)
            .map(|i| {
                let (x, y) = (lane(a, i, 64, lanes), lane(b, i, 64, lanes));
                let (x, y) = if swap { (y, x) } else { (x, y) };
                vec![("a", 64, x), ("b", 64, y)]
            })
            .collect();
        let pick = move |o: &[NetId]| match c {
            CmpOp::FEq => Expr::Net(o[0]),
            CmpOp::FLt | CmpOp::FGt => Expr::Net(o[1]),
            CmpOp::FLe | CmpOp::FGe => Expr::Net(o[2]),
            _ => Expr::lnot(Expr::Net(o[0])),
        };
        Ok(self.unit(
            s,
            "ohls_dp_cmp",
            &[],
            ins,
            &[("eq", 1), ("lt", 1), ("le", 1), ("unordered", 1)],
            &pick,
        ))
    }

    /// A conversion from or to f64, as the interpreter computes it (`interp::convert`).
    fn dp_convert(
        &mut self,
        s: StateId,
        cv: Conv,
        a: NetId,
        from: &Ty,
        to: &Ty,
        span: Span,
    ) -> Result<Computed, Diagnostic> {
        let lanes = to.lanes() as u32;
        let (fw, tw) = (from.elem().bits(), to.elem().bits());
        let refuse = |g: &Gen| {
            Err(unsupported(
                &format!("conversion {from} to {to} ({cv:?})"),
                span,
                g.sm,
            ))
        };
        let one = |o: &[NetId]| Expr::Net(o[0]);
        Ok(match cv {
            // f32 -> f64 is exact: the rounding mode does not matter.
            Conv::Float { .. } if from.elem() == &Ty::F32 && to.elem() == &Ty::F64 => {
                let ins = (0..lanes)
                    .map(|i| vec![("a", 32, lane(a, i, 32, lanes))])
                    .collect();
                self.unit(s, "ohls_dp_from_fp32", &[], ins, &[("result", 64)], &one)
            }
            Conv::Float { round } if from.elem() == &Ty::F64 && to.elem() == &Ty::F32 => {
                let ins = (0..lanes)
                    .map(|i| vec![("a", 64, lane(a, i, 64, lanes)), ("rm", 2, rm(round))])
                    .collect();
                self.unit(s, "ohls_dp_to_fp32", &[], ins, &[("result", 32)], &one)
            }
            Conv::IntToFloat { from_signed, round } if to.elem() == &Ty::F64 && fw <= 64 => {
                let ins = (0..lanes)
                    .map(|i| {
                        vec![
                            ("x", 64, resize(a, i * fw, fw, 64, from_signed)),
                            ("is_signed", 1, bit(from_signed)),
                            ("rm", 2, rm(round)),
                        ]
                    })
                    .collect();
                self.unit(s, "ohls_dp_from_int", &[], ins, &[("result", 64)], &one)
            }
            Conv::FloatToInt {
                to_signed,
                round,
                sat,
            } if from.elem() == &Ty::F64 => {
                let size = match tw {
                    8 => 0,
                    16 => 1,
                    32 => 2,
                    64 => 3,
                    _ => return refuse(self),
                };
                let ins = (0..lanes)
                    .map(|i| {
                        vec![
                            ("a", 64, lane(a, i, 64, lanes)),
                            ("rm", 2, rm(round)),
                            ("is_signed", 1, bit(to_signed)),
                            ("sat", 1, bit(sat)),
                            ("size", 2, Expr::lit(2, size)),
                        ]
                    })
                    .collect();
                self.unit(
                    s,
                    "ohls_dp_to_int",
                    &[],
                    ins,
                    &[("result", 64)],
                    &move |o| low(o[0], 64, tw),
                )
            }
            _ => return refuse(self),
        })
    }
}

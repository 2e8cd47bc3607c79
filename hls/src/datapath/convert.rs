//! `OpKind::Conv` in the datapath, lane by lane, bit for bit as `interp::convert` computes
//! it: integer resizing and saturation as netlist expressions, float <-> integer through
//! `ohls_fp_to_int` / `ohls_int_to_fp` (32- or 64-bit), half <-> float through
//! `ohls_half_to_fp` / `ohls_fp_to_half`, each with the interpreter's (x86's) NaN and
//! out-of-range results muxed over the unit's. Conversions from or to `double` are not
//! here (`double.rs` owns them).

use super::fnan::{is_nan_at, mag_at};
use super::fsm::StateId;
use super::ops::{concat, flip_sign, lane, resize, unsupported, Computed};
use super::Gen;
use crate::diag::{Diagnostic, Span};
use crate::ir::{Conv, Round, Ty};
use crate::rtl::expr::{BinOp, Expr, UnOp};
use crate::rtl::netlist::NetId;

/// The 2-bit `rm` code of the float templates.
fn round_bits(r: Round) -> u64 {
    match r {
        Round::Rte => 0,
        Round::Rtz => 1,
        Round::Rtp => 2,
        Round::Rtn => 3,
    }
}

fn ones(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// OR (or AND, `all`) of bits `lo..=hi` of `net`; `None` when the range is empty.
fn reduce(net: NetId, lo: u32, hi: u32, all: bool) -> Option<Expr> {
    if hi < lo {
        return None;
    }
    let op = if all { UnOp::RedAnd } else { UnOp::RedOr };
    Some(Expr::un(op, Expr::Slice { net, hi, lo }))
}

impl Gen<'_> {
    /// A wire holding `e` (`w` bits), so that it can be sliced.
    fn conv_wire(&mut self, e: Expr, w: u32) -> NetId {
        let name = self.fresh("cv");
        let n = self.m.wire(&name, w);
        self.m.assign(n, e);
        n
    }

    /// Converts operand `a` of type `from` to `to` in state `s`.
    pub(super) fn convert(
        &mut self,
        s: StateId,
        cv: Conv,
        a: NetId,
        from: &Ty,
        to: &Ty,
        span: Span,
    ) -> Result<Computed, Diagnostic> {
        let lanes = to.lanes() as u32;
        let (fe, te) = (from.elem(), to.elem());
        let (fw, tw) = (fe.bits(), te.bits());
        let refuse = |g: &Gen| {
            Err(unsupported(
                &format!("conversion {from} to {to} ({cv:?})"),
                span,
                g.sm,
            ))
        };
        match cv {
            Conv::Int {
                from_signed,
                to_signed,
                sat,
            } => {
                // Saturation reads a sign and value bits: booleans are never saturated.
                let min = if sat { 2 } else { 1 };
                if !(min..=64).contains(&fw) || !(min..=64).contains(&tw) {
                    return refuse(self);
                }
                let v = (0..lanes)
                    .map(|i| {
                        let x = resize(a, i * fw, fw, tw, from_signed);
                        if sat {
                            self.saturate(a, i * fw, fw, from_signed, tw, to_signed, x)
                        } else {
                            x
                        }
                    })
                    .collect();
                Ok(Computed::Comb(concat(v)))
            }
            Conv::IntToFloat { from_signed, round } if te == &Ty::F32 && fw <= 64 => {
                // Narrow integers are exact in 32 bits; 64-bit ones need the wide unit
                // (going through anything narrower would round twice).
                let uw = if fw > 32 { 64 } else { 32 };
                let ins = (0..lanes)
                    .map(|i| {
                        vec![
                            ("x", uw, resize(a, i * fw, fw, uw, from_signed)),
                            ("is_signed", 1, Expr::lit(1, from_signed as u64)),
                            ("rm", 2, Expr::lit(2, round_bits(round))),
                        ]
                    })
                    .collect();
                let params = [("WIDTH", uw as i64)];
                Ok(
                    self.unit(s, "ohls_int_to_fp", &params, ins, &[("result", 32)], &|o| {
                        Expr::Net(o[0])
                    }),
                )
            }
            Conv::FloatToInt {
                to_signed,
                round,
                sat,
            } if fe == &Ty::F32 && matches!(tw, 8 | 16 | 32 | 64) => {
                Ok(self.float_to_int(s, a, lanes, tw, to_signed, round, sat))
            }
            Conv::Float { round } if fe == &Ty::F32 && te == &Ty::F16 => {
                Ok(self.float_to_half(s, a, lanes, round))
            }
            Conv::Float { .. } if fe == &Ty::F16 && te == &Ty::F32 => {
                Ok(self.half_to_float(s, a, lanes))
            }
            _ => refuse(self),
        }
    }

    /// `interp::convert::int_to_int` with `sat` on one lane: the `fw`-bit lane at bit
    /// `lo` of `a` clamped to the `tw`-bit range; `x` is the lane resized (the result
    /// when in range). Range tests look at the lane's high bits, so no wide compare.
    #[allow(clippy::too_many_arguments)]
    fn saturate(
        &self,
        a: NetId,
        lo: u32,
        fw: u32,
        from_signed: bool,
        tw: u32,
        to_signed: bool,
        x: Expr,
    ) -> Expr {
        let msb = Expr::bit(a, lo + fw - 1);
        // Bits of the lane from `b` up to its top value bit (below the sign when signed).
        let top = if from_signed { fw - 2 } else { fw - 1 };
        let any_from = |b: u32| reduce(a, lo + b, lo + top, false);
        let nonneg = |e: Expr| {
            if from_signed {
                Expr::land(Expr::lnot(msb.clone()), e)
            } else {
                e
            }
        };
        let (low, high) = if to_signed {
            (1u64 << (tw - 1), ones(tw - 1))
        } else {
            (0, ones(tw))
        };
        // Above the maximum: a non-negative lane with a value bit at or above the
        // maximum's width.
        let over = any_from(if to_signed { tw - 1 } else { tw }).map(nonneg);
        // Below the minimum: a negative lane (unsigned targets), or one whose bits from
        // the target's sign bit up are not all copies of its sign (signed targets).
        let under = match (from_signed, to_signed) {
            (false, _) => None,
            (true, false) => Some(msb.clone()),
            (true, true) => reduce(a, lo + tw - 1, lo + fw - 2, true)
                .map(|all| Expr::land(msb.clone(), Expr::lnot(all))),
        };
        let mut e = x;
        if let Some(o) = over {
            e = Expr::mux(o, Expr::lit(tw, high), e);
        }
        if let Some(u) = under {
            e = Expr::mux(u, Expr::lit(tw, low), e);
        }
        e
    }

    /// `interp::convert::float_to_int` from binary32: `int`/`uint`/`long`/`ulong` through
    /// the unit of that width, `char`/`short` (and unsigned) through the 32-bit signed
    /// unit as x86 does (`cvttss2si` then truncation; with `sat`, saturated to int32
    /// first and then clamped, which is the same as clamping the rounded value).
    #[allow(clippy::too_many_arguments)]
    fn float_to_int(
        &mut self,
        s: StateId,
        a: NetId,
        lanes: u32,
        tw: u32,
        to_signed: bool,
        round: Round,
        sat: bool,
    ) -> Computed {
        let uw = if tw == 64 { 64 } else { 32 };
        let narrow = tw < 32;
        let unit_signed = to_signed || narrow;
        // Unsigned int/long without `sat` give all ones for NaN and anything outside the
        // range: the unit saturates (too large is already all ones), the rest is fixed
        // below.
        let wrap_unsigned = !unit_signed && !sat;
        let unit_sat = sat || wrap_unsigned;
        let ins = (0..lanes)
            .map(|i| {
                vec![
                    ("a", 32, lane(a, i, 32, lanes)),
                    ("rm", 2, Expr::lit(2, round_bits(round))),
                    ("is_signed", 1, Expr::lit(1, unit_signed as u64)),
                    ("sat", 1, Expr::lit(1, unit_sat as u64)),
                ]
            })
            .collect();
        let params = [("WIDTH", uw as i64)];
        let c = self.unit(s, "ohls_fp_to_int", &params, ins, &[("result", uw)], &|o| {
            Expr::Net(o[0])
        });
        let Computed::Unit { done, value } = c else {
            return c;
        };
        // In a pipeline the operand has moved on by the time the result is there.
        let a = self.pipe_delayed(a);
        if !narrow && !wrap_unsigned {
            return Computed::Unit { done, value };
        }
        let all = self.conv_wire(value, uw * lanes);
        let v = (0..lanes)
            .map(|i| {
                let r = lane(all, i, uw, lanes);
                if wrap_unsigned {
                    let bad = Expr::lor(is_nan_at(a, i * 32), below_zero(a, i * 32, round));
                    return Expr::mux(bad, Expr::lit(uw, ones(uw)), r);
                }
                let low = Expr::Slice {
                    net: all,
                    hi: i * uw + tw - 1,
                    lo: i * uw,
                };
                if !sat {
                    return low;
                }
                let (lo, hi) = if to_signed {
                    ((1u64 << 32) - (1u64 << (tw - 1)), ones(tw - 1))
                } else {
                    (0, ones(tw))
                };
                let under = Expr::bin(
                    BinOp::Lt,
                    flip_sign(r.clone(), 32),
                    flip_sign(Expr::lit(32, lo), 32),
                );
                let over = Expr::bin(
                    BinOp::Gt,
                    flip_sign(r, 32),
                    flip_sign(Expr::lit(32, hi), 32),
                );
                Expr::mux(
                    under,
                    Expr::lit(tw, lo & ones(tw)),
                    Expr::mux(over, Expr::lit(tw, hi), low),
                )
            })
            .collect();
        Computed::Unit {
            done,
            value: concat(v),
        }
    }

    /// `interp::ieee::float_to_float` binary32 -> binary16: the unit's result, except that
    /// a NaN keeps its sign with all payload bits set (0x7FFF) for scalars and becomes the
    /// quiet 0x7E00 for vectors, as POCL's scalar and vector half stores give.
    fn float_to_half(&mut self, s: StateId, a: NetId, lanes: u32, round: Round) -> Computed {
        let ins = (0..lanes)
            .map(|i| {
                vec![
                    ("a", 32, lane(a, i, 32, lanes)),
                    ("rm", 2, Expr::lit(2, round_bits(round))),
                ]
            })
            .collect();
        let c = self.unit(s, "ohls_fp_to_half", &[], ins, &[("result", 16)], &|o| {
            Expr::Net(o[0])
        });
        let Computed::Unit { done, value } = c else {
            return c;
        };
        // In a pipeline the operand has moved on by the time the result is there.
        let a = self.pipe_delayed(a);
        let all = self.conv_wire(value, 16 * lanes);
        let nan = if lanes > 1 { 0x7E00 } else { 0x7FFF };
        let v = (0..lanes)
            .map(|i| {
                let sign = Expr::bit(a, i * 32 + 31);
                Expr::mux(
                    is_nan_at(a, i * 32),
                    Expr::Concat(vec![sign, Expr::lit(15, nan)]),
                    lane(all, i, 16, lanes),
                )
            })
            .collect();
        Computed::Unit {
            done,
            value: concat(v),
        }
    }

    /// binary16 -> binary32 (exact): the unit's result, except that a NaN keeps its sign
    /// and payload, quieted (the unit gives the canonical NaN).
    fn half_to_float(&mut self, s: StateId, a: NetId, lanes: u32) -> Computed {
        let ins = (0..lanes)
            .map(|i| vec![("h", 16, lane(a, i, 16, lanes))])
            .collect();
        let c = self.unit(s, "ohls_half_to_fp", &[], ins, &[("result", 32)], &|o| {
            Expr::Net(o[0])
        });
        let Computed::Unit { done, value } = c else {
            return c;
        };
        // In a pipeline the operand has moved on by the time the result is there.
        let a = self.pipe_delayed(a);
        let all = self.conv_wire(value, 32 * lanes);
        let v = (0..lanes)
            .map(|i| {
                let lo = i * 16;
                let exp_ones = Expr::un(
                    UnOp::RedAnd,
                    Expr::Slice {
                        net: a,
                        hi: lo + 14,
                        lo: lo + 10,
                    },
                );
                let payload = Expr::Slice {
                    net: a,
                    hi: lo + 9,
                    lo,
                };
                let nan = Expr::land(
                    exp_ones,
                    Expr::bin(BinOp::Ne, payload.clone(), Expr::lit(10, 0)),
                );
                let quiet = Expr::Concat(vec![
                    Expr::bit(a, lo + 15),
                    Expr::lit(9, 0x1FF),
                    Expr::Slice {
                        net: a,
                        hi: lo + 8,
                        lo,
                    },
                    Expr::lit(13, 0),
                ]);
                Expr::mux(nan, quiet, lane(all, i, 32, lanes))
            })
            .collect();
        Computed::Unit {
            done,
            value: concat(v),
        }
    }
}

/// The binary32 lane at bit `lo` of `a` rounds (in mode `round`) to an integer below
/// zero: negative with a magnitude of at least 1 (toward zero or +inf), above 0.5 (to
/// nearest even: -0.5 gives -0), or above 0 (toward -inf).
fn below_zero(a: NetId, lo: u32, round: Round) -> Expr {
    let mag = mag_at(a, lo);
    let (op, limit) = match round {
        Round::Rte => (BinOp::Gt, 0x3F00_0000),
        Round::Rtz | Round::Rtp => (BinOp::Ge, 0x3F80_0000),
        Round::Rtn => (BinOp::Gt, 0),
    };
    Expr::land(
        Expr::bit(a, lo + 31),
        Expr::bin(op, mag, Expr::lit(31, limit)),
    )
}

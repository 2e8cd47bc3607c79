//! OpenCL built-in calls in the datapath, lane by lane, matching the interpreter
//! (`interp::{integer, math, relational}`) bit for bit: integer built-ins and float
//! bit-pattern functions as combinational expressions, `fma` through `ohls_fp_fma`.
//! Anything else keeps the "no hardware implementation yet" refusal.

use super::ops::{concat, flip_sign, lane, resize, unsupported, Computed};
use super::Gen;
use crate::diag::{Diagnostic, Span};
use crate::frontend::types::Type;
use crate::ir::{BuiltinCall, Ty};
use crate::rtl::expr::{BinOp, Expr, UnOp};
use crate::rtl::netlist::NetId;

/// One operand: its net, element width and lane count (1: broadcast to every lane).
#[derive(Clone, Copy)]
struct Arg {
    net: NetId,
    w: u32,
    lanes: u32,
}

impl Arg {
    fn at(&self, i: u32) -> Expr {
        lane(self.net, i, self.w, self.lanes)
    }

    /// Lane `i` extended (or truncated) to `to` bits.
    fn ext(&self, i: u32, to: u32, signed: bool) -> Expr {
        let lo = if self.lanes == 1 { 0 } else { i * self.w };
        resize(self.net, lo, self.w, to, signed)
    }

    fn msb(&self, i: u32) -> Expr {
        let lo = if self.lanes == 1 { 0 } else { i * self.w };
        Expr::bit(self.net, lo + self.w - 1)
    }
}

fn signed_of(t: Option<&Type>) -> bool {
    matches!(t, Some(Type::Scalar(s) | Type::Vector(s, _)) if s.is_signed())
}

fn float_of(t: Option<&Type>) -> bool {
    matches!(t, Some(Type::Scalar(s) | Type::Vector(s, _)) if s.is_float())
}

fn ones(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `x < y` (or `<=`) on `w`-bit lanes, two's complement when `signed`.
fn less(x: Expr, y: Expr, w: u32, signed: bool, or_equal: bool) -> Expr {
    let op = if or_equal { BinOp::Le } else { BinOp::Lt };
    if signed {
        Expr::bin(op, flip_sign(x, w), flip_sign(y, w))
    } else {
        Expr::bin(op, x, y)
    }
}

impl Gen<'_> {
    /// A wire holding `e` (`w` bits), so that it can be sliced.
    fn held(&mut self, e: Expr, w: u32) -> NetId {
        let name = self.fresh("bi");
        let n = self.m.wire(&name, w);
        self.m.assign(n, e);
        n
    }

    /// The value of built-in call `call` on operands `nets` of types `tys`, result `ty`.
    pub(super) fn builtin(
        &mut self,
        s: super::fsm::StateId,
        call: &BuiltinCall,
        nets: &[NetId],
        tys: &[Ty],
        ty: Option<&Ty>,
        span: Span,
    ) -> Result<Computed, Diagnostic> {
        let nope = |g: &Gen| Err(unsupported(&call.name, span, g.sm));
        // Void built-ins and those writing through a pointer have no register result.
        let Some(ty) = ty else { return nope(self) };
        if nets.len() != tys.len()
            || nets.is_empty()
            || tys.iter().any(|t| t.is_ptr() || t.elem() == &Ty::F16)
            || call.params.iter().any(|p| matches!(p, Type::Pointer(_)))
            || ty.elem() == &Ty::F16
        {
            return nope(self);
        }
        let args: Vec<Arg> = nets
            .iter()
            .zip(tys)
            .map(|(n, t)| Arg {
                net: *n,
                w: t.elem().bits(),
                lanes: t.lanes() as u32,
            })
            .collect();
        let lanes = ty.lanes() as u32;
        let rw = ty.elem().bits();
        let name = call.name.as_str();
        let signed = signed_of(call.params.first());
        // The same precedence as `interp::builtins::compile`: relational names first,
        // integer names only for integer arguments.
        if let Some(e) = self.relational(name, &args, lanes, rw, tys) {
            return Ok(Computed::Comb(e));
        }
        if !float_of(call.params.first()) && tys[0].is_int() {
            if let Some(e) = self.integer(name, &args, lanes, rw, signed) {
                return Ok(Computed::Comb(e));
            }
            return nope(self);
        }
        let fw = args[0].w;
        if !tys[0].is_float() || !ty.is_float() {
            return nope(self);
        }
        let a = args[0];
        let e = match (name, args.len()) {
            ("fabs", 1) => Expr::bin(
                BinOp::And,
                Expr::Net(a.net),
                Expr::Repeat(lanes, Box::new(Expr::lit(fw, ones(fw - 1)))),
            ),
            ("copysign", 2) => {
                let b = args[1];
                concat(
                    (0..lanes)
                        .map(|i| {
                            let mag = Expr::bin(BinOp::And, a.at(i), Expr::lit(fw, ones(fw - 1)));
                            let sign = Expr::bin(BinOp::And, b.at(i), Expr::lit(fw, 1 << (fw - 1)));
                            Expr::bin(BinOp::Or, mag, sign)
                        })
                        .collect(),
                )
            }
            ("fmin" | "fmax", 2) => {
                let max = name == "fmax";
                let b = args[1];
                let v = (0..lanes)
                    .map(|i| self.fminmax(a.at(i), b.at(i), fw, max))
                    .collect();
                concat(v)
            }
            ("fma", 3) if fw == 32 && rw == 32 => {
                let ins = (0..lanes)
                    .map(|i| {
                        vec![
                            ("a", 32, args[0].at(i)),
                            ("b", 32, args[1].at(i)),
                            ("c", 32, args[2].at(i)),
                        ]
                    })
                    .collect();
                let c = self.unit(s, "ohls_fp_fma", &[], ins, &[("result", 32)], &|o| {
                    Expr::Net(o[0])
                });
                let Computed::Unit { done, value } = c else {
                    return Ok(c);
                };
                let all = self.held(value, 32 * lanes);
                let rules = (0..lanes).map(|i| self.fma_nan(&args, i)).collect();
                let v = self.nan_override(rules, all, lanes);
                return Ok(Computed::Unit {
                    done,
                    value: concat(v),
                });
            }
            ("sqrt", 1) if fw == 32 && rw == 32 => {
                let ins = (0..lanes).map(|i| vec![("a", 32, a.at(i))]).collect();
                let c = self.unit(s, "ohls_fp_sqrt", &[], ins, &[("result", 32)], &|o| {
                    Expr::Net(o[0])
                });
                let Computed::Unit { done, value } = c else {
                    return Ok(c);
                };
                let all = self.held(value, 32 * lanes);
                let rules = (0..lanes).map(|i| self.sqrt_nan(a, i)).collect();
                let v = self.nan_override(rules, all, lanes);
                return Ok(Computed::Unit {
                    done,
                    value: concat(v),
                });
            }
            _ => match self.math_exact(name, nets, tys) {
                Some(e) => e,
                None => return nope(self),
            },
        };
        Ok(Computed::Comb(e))
    }

    /// `interp::float_fns::fmin`/`fmax` on one lane: a NaN operand loses (both NaN: the
    /// second, quieted as the f32 -> f64 -> f32 round trip does), equal zeros give the
    /// OR of the two (-0 if either is -0), otherwise the smaller or larger value.
    fn fminmax(&mut self, x: Expr, y: Expr, w: u32, max: bool) -> Expr {
        let x = self.held(x, w);
        let y = self.held(y, w);
        let (xn, yn) = (self.is_nan(x, w), self.is_nan(y, w));
        let quiet = if w == 32 { 1u64 << 22 } else { 0 };
        let y_nan = if quiet == 0 {
            Expr::Net(y)
        } else {
            Expr::bin(BinOp::Or, Expr::Net(y), Expr::lit(w, quiet))
        };
        let both_zero = self.both_zero(x, y, w);
        let (kx, ky) = (self.key(x, w), self.key(y, w));
        let x_wins = if max {
            Expr::bin(BinOp::Gt, kx, ky)
        } else {
            Expr::bin(BinOp::Lt, kx, ky)
        };
        Expr::mux(
            xn,
            Expr::mux(yn.clone(), y_nan, Expr::Net(y)),
            Expr::mux(
                yn,
                Expr::Net(x),
                Expr::mux(
                    both_zero,
                    Expr::bin(BinOp::Or, Expr::Net(x), Expr::Net(y)),
                    Expr::mux(x_wins, Expr::Net(x), Expr::Net(y)),
                ),
            ),
        )
    }

    /// Where `interp::float_fns::fma_f32`'s NaN differs from the unit's, as rules for
    /// `nan_override` on lane `i`: the unit returns the canonical +NaN, the interpreter the
    /// x86 one: a NaN operand (a, then b, then c) quieted, or the negative default NaN for
    /// inf * 0 and inf - inf.
    fn fma_nan(&mut self, args: &[Arg], i: u32) -> Vec<(Expr, Expr)> {
        let [a, b, c] = [0, 1, 2].map(|k| self.held(args[k].at(i), 32));
        let quiet = |x: NetId| Expr::bin(BinOp::Or, Expr::Net(x), Expr::lit(32, 1 << 22));
        let inf = |x: NetId| Expr::land(Self::exp_ones(x, 32), Self::mant_zero(x, 32));
        let zero = |x: NetId| {
            Expr::bin(
                BinOp::Eq,
                Expr::Slice {
                    net: x,
                    hi: 30,
                    lo: 0,
                },
                Expr::lit(31, 0),
            )
        };
        let invalid_mul = Expr::lor(Expr::land(inf(a), zero(b)), Expr::land(zero(a), inf(b)));
        // With no NaN operand and no inf * 0, an infinite operand of the product makes it
        // infinite, with the sign of a * b.
        let p_inf = Expr::lor(inf(a), inf(b));
        let p_sign = Expr::bin(BinOp::Xor, Expr::bit(a, 31), Expr::bit(b, 31));
        let invalid_add = Expr::land(
            Expr::land(p_inf, inf(c)),
            Expr::bin(BinOp::Ne, p_sign, Expr::bit(c, 31)),
        );
        let default_nan = || Expr::lit(32, 0xFFC0_0000);
        vec![
            (self.is_nan(a, 32), quiet(a)),
            (self.is_nan(b, 32), quiet(b)),
            (invalid_mul, default_nan()),
            (self.is_nan(c, 32), quiet(c)),
            (invalid_add, default_nan()),
        ]
    }

    /// The NaN the interpreter's f64 `sqrt` gives, as rules for `nan_override` on lane
    /// `i`: a NaN input quieted, the negative default NaN for a negative input below -0
    /// (the unit returns the canonical +NaN for both).
    fn sqrt_nan(&mut self, a: Arg, i: u32) -> Vec<(Expr, Expr)> {
        let x = self.held(a.at(i), 32);
        let below_zero = Expr::land(
            Expr::bit(x, 31),
            Expr::bin(
                BinOp::Ne,
                Expr::Slice {
                    net: x,
                    hi: 30,
                    lo: 0,
                },
                Expr::lit(31, 0),
            ),
        );
        vec![
            (
                self.is_nan(x, 32),
                Expr::bin(BinOp::Or, Expr::Net(x), Expr::lit(32, 1 << 22)),
            ),
            (below_zero, Expr::lit(32, 0xFFC0_0000)),
        ]
    }

    fn exp_ones(x: NetId, w: u32) -> Expr {
        let ew = if w == 64 { 11 } else { 8 };
        Expr::un(
            UnOp::RedAnd,
            Expr::Slice {
                net: x,
                hi: w - 2,
                lo: w - 1 - ew,
            },
        )
    }

    fn mant_zero(x: NetId, w: u32) -> Expr {
        let mw = if w == 64 { 52 } else { 23 };
        Expr::bin(
            BinOp::Eq,
            Expr::Slice {
                net: x,
                hi: mw - 1,
                lo: 0,
            },
            Expr::lit(mw, 0),
        )
    }

    fn is_nan(&self, x: NetId, w: u32) -> Expr {
        Expr::land(Self::exp_ones(x, w), Expr::lnot(Self::mant_zero(x, w)))
    }

    fn both_zero(&self, x: NetId, y: NetId, w: u32) -> Expr {
        let mag = |n| Expr::Slice {
            net: n,
            hi: w - 2,
            lo: 0,
        };
        Expr::bin(
            BinOp::Eq,
            Expr::bin(BinOp::Or, mag(x), mag(y)),
            Expr::lit(w - 1, 0),
        )
    }

    /// An unsigned key ordering non-NaN floats by value (-0 just below +0).
    fn key(&self, x: NetId, w: u32) -> Expr {
        Expr::mux(
            Expr::bit(x, w - 1),
            Expr::un(UnOp::Not, Expr::Net(x)),
            Expr::bin(BinOp::Or, Expr::Net(x), Expr::lit(w, 1 << (w - 1))),
        )
    }

    /// Relational built-ins (`interp::relational`); `None` for other names.
    fn relational(
        &mut self,
        name: &str,
        args: &[Arg],
        lanes: u32,
        rw: u32,
        tys: &[Ty],
    ) -> Option<Expr> {
        let a = args[0];
        // Scalar results are 1/0, vector results all ones/0 per lane.
        let truth = |t: Expr| {
            if lanes > 1 {
                Expr::Repeat(rw, Box::new(t))
            } else {
                Expr::zext(t, rw - 1)
            }
        };
        match (name, args.len()) {
            ("any" | "all", 1) => {
                let n = a.lanes;
                let bits: Vec<Expr> = (0..n).map(|i| a.msb(i)).collect();
                let op = if name == "any" {
                    UnOp::RedOr
                } else {
                    UnOp::RedAnd
                };
                let t = if n == 1 {
                    bits.into_iter().next()?
                } else {
                    Expr::un(op, Expr::Concat(bits))
                };
                return Some(Expr::zext(t, rw - 1));
            }
            ("bitselect", 3) => {
                let v = (0..lanes)
                    .map(|i| {
                        let (x, y, m) = (args[0].at(i), args[1].at(i), args[2].at(i));
                        Expr::bin(
                            BinOp::Or,
                            Expr::bin(BinOp::And, x, Expr::un(UnOp::Not, m.clone())),
                            Expr::bin(BinOp::And, y, m),
                        )
                    })
                    .collect();
                return Some(concat(v));
            }
            ("select", 3) => {
                let c = args[2];
                let v = (0..lanes)
                    .map(|i| {
                        let pick = if c.lanes > 1 {
                            c.msb(i)
                        } else {
                            Expr::bin(BinOp::Ne, c.at(i), Expr::lit(c.w, 0))
                        };
                        Expr::mux(pick, args[1].at(i), args[0].at(i))
                    })
                    .collect();
                return Some(concat(v));
            }
            _ => {}
        }
        let unary = matches!(
            name,
            "isfinite" | "isinf" | "isnan" | "isnormal" | "signbit"
        );
        let binary = matches!(
            name,
            "isequal"
                | "isnotequal"
                | "isgreater"
                | "isgreaterequal"
                | "isless"
                | "islessequal"
                | "islessgreater"
                | "isordered"
                | "isunordered"
        );
        let w = a.w;
        if !tys[0].is_float()
            || !(unary && args.len() == 1 || binary && args.len() == 2)
            || (binary && args[1].w != w)
        {
            return None;
        }
        let ew = if w == 64 { 11 } else { 8 };
        let v = (0..lanes)
            .map(|i| {
                let x = self.held(a.at(i), w);
                let t = match name {
                    "isnan" => self.is_nan(x, w),
                    "isinf" => Expr::land(Self::exp_ones(x, w), Self::mant_zero(x, w)),
                    "isfinite" => Expr::lnot(Self::exp_ones(x, w)),
                    "isnormal" => {
                        let e = Expr::Slice {
                            net: x,
                            hi: w - 2,
                            lo: w - 1 - ew,
                        };
                        Expr::land(
                            Expr::lnot(Self::exp_ones(x, w)),
                            Expr::bin(BinOp::Ne, e, Expr::lit(ew, 0)),
                        )
                    }
                    "signbit" => Expr::bit(x, w - 1),
                    _ => {
                        let y = self.held(args[1].at(i), w);
                        let ordered = Expr::lnot(Expr::lor(self.is_nan(x, w), self.is_nan(y, w)));
                        let bz = self.both_zero(x, y, w);
                        let eq = Expr::land(
                            ordered.clone(),
                            Expr::lor(bz.clone(), Expr::bin(BinOp::Eq, Expr::Net(x), Expr::Net(y))),
                        );
                        let (kx, ky) = (self.key(x, w), self.key(y, w));
                        let lt = Expr::land(
                            ordered.clone(),
                            Expr::land(
                                Expr::lnot(bz.clone()),
                                Expr::bin(BinOp::Lt, kx.clone(), ky.clone()),
                            ),
                        );
                        let gt = Expr::land(
                            ordered.clone(),
                            Expr::land(Expr::lnot(bz), Expr::bin(BinOp::Gt, kx, ky)),
                        );
                        match name {
                            "isequal" => eq,
                            "isnotequal" => Expr::lnot(eq),
                            "isless" => lt,
                            "isgreater" => gt,
                            "islessequal" => Expr::lor(lt, eq),
                            "isgreaterequal" => Expr::lor(gt, eq),
                            "islessgreater" => Expr::lor(lt, gt),
                            "isordered" => ordered,
                            _ => Expr::lnot(ordered),
                        }
                    }
                };
                truth(t)
            })
            .collect();
        Some(concat(v))
    }

    /// Integer built-ins (`interp::integer`) on `w`-bit lanes of the first argument's
    /// signedness, truncated to the `rw`-bit result; `None` for other names.
    fn integer(&mut self, name: &str, args: &[Arg], lanes: u32, rw: u32, s: bool) -> Option<Expr> {
        let n = args.len();
        let w = args[0].w;
        let need = match name {
            "abs" | "clz" | "ctz" | "popcount" => 1,
            "abs_diff" | "add_sat" | "sub_sat" | "hadd" | "rhadd" | "max" | "min" | "mul_hi"
            | "rotate" | "upsample" | "mul24" => 2,
            "clamp" | "mad_hi" | "mad_sat" | "mad24" => 3,
            _ => return None,
        };
        // OpenCL integers are 8 to 64 bits; narrower lanes (conditions) are not arguments.
        if n != need || !(8..=64).contains(&w) || args.iter().any(|a| a.w != w) {
            return None;
        }
        if name == "upsample" {
            if rw != 2 * w {
                return None;
            }
        } else if rw != w {
            return None;
        }
        if name == "rotate" && !w.is_power_of_two() {
            return None;
        }
        let mut v = Vec::new();
        for i in 0..lanes {
            let a = args[0].at(i);
            let b = || args[1].at(i);
            let e = match name {
                "abs" if s => Expr::mux(
                    args[0].msb(i),
                    Expr::bin(BinOp::Sub, Expr::lit(w, 0), a),
                    args[0].at(i),
                ),
                "abs" => a,
                "abs_diff" => Expr::mux(
                    less(a.clone(), b(), w, s, false),
                    Expr::bin(BinOp::Sub, b(), a.clone()),
                    Expr::bin(BinOp::Sub, a, b()),
                ),
                "add_sat" | "sub_sat" => {
                    self.sat_add(&args[0], &args[1], i, w, s, name == "sub_sat")
                }
                "hadd" | "rhadd" => {
                    let mut sum = Expr::bin(
                        BinOp::Add,
                        args[0].ext(i, w + 1, s),
                        args[1].ext(i, w + 1, s),
                    );
                    if name == "rhadd" {
                        sum = Expr::bin(BinOp::Add, sum, Expr::lit(w + 1, 1));
                    }
                    let t = self.held(sum, w + 1);
                    Expr::Slice {
                        net: t,
                        hi: w,
                        lo: 1,
                    }
                }
                "max" => Expr::mux(less(a.clone(), b(), w, s, false), b(), a),
                "min" => Expr::mux(less(b(), a.clone(), w, s, false), b(), a),
                "clamp" => {
                    let c = args[2].at(i);
                    let hi = Expr::mux(less(a.clone(), b(), w, s, false), b(), a);
                    let hi = self.held(hi, w);
                    Expr::mux(
                        less(c.clone(), Expr::Net(hi), w, s, false),
                        c,
                        Expr::Net(hi),
                    )
                }
                "clz" | "ctz" => {
                    let t = self.held(a, w);
                    // A chain of muxes: the last bit tested (the one nearest the
                    // counted end) decides.
                    let mut e = Expr::lit(w, w as u64);
                    for k in 0..w {
                        let (bit, count) = if name == "clz" {
                            (k, w - 1 - k)
                        } else {
                            (w - 1 - k, w - 1 - k)
                        };
                        e = Expr::mux(Expr::bit(t, bit), Expr::lit(w, count as u64), e);
                    }
                    e
                }
                "popcount" => {
                    let t = self.held(a, w);
                    (0..w)
                        .map(|k| Expr::zext(Expr::bit(t, k), w - 1))
                        .reduce(|x, y| Expr::bin(BinOp::Add, x, y))?
                }
                "rotate" => {
                    let k = w.trailing_zeros();
                    let r = self.held(b(), w);
                    let amt = Expr::Slice {
                        net: r,
                        hi: k - 1,
                        lo: 0,
                    };
                    let back = Expr::bin(BinOp::Sub, Expr::lit(k, 0), amt.clone());
                    Expr::bin(
                        BinOp::Or,
                        Expr::bin(BinOp::Shl, a.clone(), amt),
                        Expr::bin(BinOp::Shr, a, back),
                    )
                }
                "mul_hi" | "mad_hi" => {
                    let p = Expr::bin(
                        BinOp::Mul,
                        args[0].ext(i, 2 * w, s),
                        args[1].ext(i, 2 * w, s),
                    );
                    let p = self.held(p, 2 * w);
                    let hi = Expr::Slice {
                        net: p,
                        hi: 2 * w - 1,
                        lo: w,
                    };
                    if name == "mad_hi" {
                        Expr::bin(BinOp::Add, hi, args[2].at(i))
                    } else {
                        hi
                    }
                }
                "mad_sat" => self.mad_sat(args, i, w, s),
                "mul24" => Expr::bin(BinOp::Mul, a, b()),
                "mad24" => Expr::bin(BinOp::Add, Expr::bin(BinOp::Mul, a, b()), args[2].at(i)),
                "upsample" => Expr::Concat(vec![a, b()]),
                _ => return None,
            };
            v.push(e);
        }
        Some(concat(v))
    }

    /// `add_sat`/`sub_sat`: the exact sum in `w + 1` bits, clamped to the lane's range.
    fn sat_add(&mut self, x: &Arg, y: &Arg, i: u32, w: u32, s: bool, sub: bool) -> Expr {
        let op = if sub { BinOp::Sub } else { BinOp::Add };
        let t = self.held(Expr::bin(op, x.ext(i, w + 1, s), y.ext(i, w + 1, s)), w + 1);
        let low = Expr::Slice {
            net: t,
            hi: w - 1,
            lo: 0,
        };
        if s {
            // Overflow when the two top bits of the exact sum differ; its sign says which.
            let over = Expr::bin(BinOp::Ne, Expr::bit(t, w), Expr::bit(t, w - 1));
            let limit = Expr::mux(
                Expr::bit(t, w),
                Expr::lit(w, 1 << (w - 1)),
                Expr::lit(w, ones(w - 1)),
            );
            Expr::mux(over, limit, low)
        } else {
            // The carry (add) or borrow (sub) bit.
            let limit = if sub { 0 } else { ones(w) };
            Expr::mux(Expr::bit(t, w), Expr::lit(w, limit), low)
        }
    }

    /// `mad_sat`: a * b + c exact in `2w + 2` bits, clamped to the lane's range.
    fn mad_sat(&mut self, args: &[Arg], i: u32, w: u32, s: bool) -> Expr {
        let ww = 2 * w + 2;
        let p = Expr::bin(BinOp::Mul, args[0].ext(i, ww, s), args[1].ext(i, ww, s));
        let t = self.held(Expr::bin(BinOp::Add, p, args[2].ext(i, ww, s)), ww);
        let low = Expr::Slice {
            net: t,
            hi: w - 1,
            lo: 0,
        };
        let (lo, hi) = if s {
            (1u64 << (w - 1), ones(w - 1))
        } else {
            (0, ones(w))
        };
        // Compared as `ww`-bit values, wider than `flip_sign` takes: signed values with
        // their sign bit flipped (written out for the two limits), so that an unsigned
        // compare orders them.
        let rep = |n: u32, b: u64| Expr::Repeat(n, Box::new(Expr::lit(1, b)));
        if !s {
            // An unsigned sum cannot fall below zero: only the upper limit applies.
            let whi = Expr::Concat(vec![rep(ww - w, 0), Expr::lit(w, hi)]);
            let over = Expr::bin(BinOp::Gt, Expr::Net(t), whi);
            return Expr::mux(over, Expr::lit(w, hi), low);
        }
        let tk = Expr::Concat(vec![
            Expr::un(UnOp::Not, Expr::bit(t, ww - 1)),
            Expr::Slice {
                net: t,
                hi: ww - 2,
                lo: 0,
            },
        ]);
        let wlo = Expr::Concat(vec![Expr::lit(1, 0), rep(ww - w - 1, 1), Expr::lit(w, lo)]);
        let whi = Expr::Concat(vec![Expr::lit(1, 1), rep(ww - w - 1, 0), Expr::lit(w, hi)]);
        let under = Expr::bin(BinOp::Lt, tk.clone(), wlo);
        let over = Expr::bin(BinOp::Gt, tk, whi);
        Expr::mux(
            under,
            Expr::lit(w, lo),
            Expr::mux(over, Expr::lit(w, hi), low),
        )
    }
}

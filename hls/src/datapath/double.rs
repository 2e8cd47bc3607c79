//! Double precision (binary64) in the datapath: `+ - * /`, compares, negation, and the
//! conversions from or to f64 (integers of 8..64 bits, f32; f64 to f16 for vstore_half;
//! f16 to f64 is refused), lane by lane through the `ohls_dp_*` templates. Those units
//! already give the interpreter's (x86 SSE) NaN bits and out-of-range integer results,
//! so no fix-up logic is needed here.
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
            // vstore_half of a double: rounded once, straight from binary64.
            Conv::Float { round } if from.elem() == &Ty::F64 && to.elem() == &Ty::F16 => {
                let ins = (0..lanes)
                    .map(|i| vec![("a", 64, lane(a, i, 64, lanes)), ("rm", 2, rm(round))])
                    .collect();
                self.unit(s, "ohls_dp_to_half", &[], ins, &[("result", 16)], &one)
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

#[cfg(test)]
mod tests {
    //! Every f64 operation of the generator in Verilator against the interpreter, on
    //! operand pairs crossing the special values (NaNs with payloads, infinities, zeros,
    //! subnormals, ties, integer-range limits) plus random bit patterns.

    use crate::engine::{run_file, Engine, RunOptions};

    const KERNEL: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void dp_ops(__global const double *a, __global const double *b,
                     __global const long *k, __global double *r, __global long *n,
                     __global float *f, __global int *c, __global half *h)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    long q = k[i];
    r[10 * i + 0] = x + y;
    r[10 * i + 1] = x - y;
    r[10 * i + 2] = x * y;
    r[10 * i + 3] = x / y;
    r[10 * i + 4] = -x;
    r[10 * i + 5] = (double)q;
    r[10 * i + 6] = convert_double_rtp((ulong)q) + (double)(uint)q;
    r[10 * i + 7] = convert_double_rtn((short)q) + (double)(float)y;
    double2 v = (double2)(x, y) * (double2)(y, 3.0);
    r[10 * i + 8] = v.s0;
    r[10 * i + 9] = v.s1;
    n[10 * i + 0] = (long)x;
    n[10 * i + 1] = (long)convert_ulong_sat_rtn(x);
    n[10 * i + 2] = convert_int_rte(y);
    n[10 * i + 3] = convert_uint(x);
    n[10 * i + 4] = convert_char_sat(x);
    n[10 * i + 5] = convert_ushort_rtp(y);
    n[10 * i + 6] = convert_short(x);
    n[10 * i + 7] = convert_uchar(y);
    n[10 * i + 8] = (long)convert_ulong(y);
    n[10 * i + 9] = convert_long_sat_rtz(y);
    f[4 * i + 0] = (float)x;
    f[4 * i + 1] = convert_float_rtz(y);
    f[4 * i + 2] = convert_float_rtp(x);
    f[4 * i + 3] = convert_float_rtn(y);
    vstore_half_rtz(x, 2 * i, h);
    vstore_half_rte(y, 2 * i + 1, h);
    c[i] = (x < y) | (x <= y) << 1 | (x == y) << 2 | (x != y) << 3 | (x > y) << 4 |
           (x >= y) << 5;
}
"#;

    const SPECIAL: &[u64] = &[
        0x0000_0000_0000_0000,
        0x8000_0000_0000_0000,
        0x3FF0_0000_0000_0000, // 1
        0xC004_0000_0000_0000, // -2.5
        0x7FF0_0000_0000_0000, // inf
        0xFFF0_0000_0000_0000, // -inf
        0x7FF8_0000_0000_0000, // qNaN
        0xFFF4_0000_DEAD_BEEF, // negative signalling NaN with a payload
        0x0000_0000_0000_0001, // smallest subnormal
        0x000F_FFFF_FFFF_FFFF, // largest subnormal
        0x7FEF_FFFF_FFFF_FFFF, // largest finite
        0x41E0_0000_0000_0000, // 2^31
        0xC3E0_0000_0000_0000, // -2^63
        0x43F0_0000_0000_0000, // 2^64
        0x406F_F000_0000_0000, // 255.5
        0x3FF0_0000_1000_0000, // a binary32 tie
        0x36A0_0000_0000_0000, // smallest binary32 subnormal
    ];

    fn operands(n: usize) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let (mut a, mut b, mut k) = (Vec::new(), Vec::new(), Vec::new());
        let ns = SPECIAL.len();
        for i in 0..n {
            let (x, y) = if i < ns * ns {
                (SPECIAL[i / ns], SPECIAL[i % ns])
            } else {
                // Random magnitudes around the integer and binary32 ranges, or raw bits.
                let mut pick = || {
                    let bits = next();
                    if bits % 3 == 0 {
                        next()
                    } else {
                        (bits & 0x800F_FFFF_FFF0_0000) | ((900 + next() % 250) << 52)
                    }
                };
                (pick(), pick())
            };
            a.push(x);
            b.push(y);
            k.push(if i % 2 == 0 {
                next()
            } else {
                next() >> (next() % 64)
            });
        }
        (a, b, k)
    }

    fn bytes(v: &[u64]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn double_ops_match_the_interpreter_in_verilator() {
        let n = 400;
        let dir = std::env::temp_dir().join(format!("ohls_double_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (a, b, k) = operands(n);
        std::fs::write(dir.join("a.bin"), bytes(&a)).expect("write a");
        std::fs::write(dir.join("b.bin"), bytes(&b)).expect("write b");
        std::fs::write(dir.join("k.bin"), bytes(&k)).expect("write k");
        let cl = dir.join("dp_ops.cl");
        std::fs::write(&cl, KERNEL).expect("write kernel");
        let spec = dir.join("dp_ops.yaml");
        let yaml = format!(
            "kernel: dp_ops\nglobal: [{n}]\nlocal: [16]\nargs:\n\
             \x20 - {{name: a, buffer: {{type: double, count: {n}, init: {{file: a.bin}}}}}}\n\
             \x20 - {{name: b, buffer: {{type: double, count: {n}, init: {{file: b.bin}}}}}}\n\
             \x20 - {{name: k, buffer: {{type: long, count: {n}, init: {{file: k.bin}}}}}}\n\
             \x20 - {{name: r, buffer: {{type: double, count: {}, init: zero}}}}\n\
             \x20 - {{name: n, buffer: {{type: long, count: {}, init: zero}}}}\n\
             \x20 - {{name: f, buffer: {{type: float, count: {}, init: zero}}}}\n\
             \x20 - {{name: c, buffer: {{type: int, count: {n}, init: zero}}}}\n\
             \x20 - {{name: h, buffer: {{type: half, count: {}, init: zero}}}}\n",
            10 * n,
            10 * n,
            4 * n,
            2 * n
        );
        std::fs::write(&spec, yaml).expect("write spec");
        let run = |engine| {
            run_file(
                &cl,
                &spec,
                &RunOptions {
                    engine,
                    ..RunOptions::default()
                },
            )
        };
        let int = run(Engine::Interp).unwrap_or_else(|e| panic!("interp: {e}"));
        let sim = run(Engine::Sim).unwrap_or_else(|e| {
            panic!("sim (needs verilator: `bash scripts/install-deps.sh`): {e}")
        });
        let _ = std::fs::remove_dir_all(&dir);
        let mut bad = Vec::new();
        for ((name, s), (_, i)) in sim.buffers.iter().zip(&int.buffers) {
            let w = match name.as_str() {
                "f" | "c" => 4,
                "h" => 2,
                _ => 8,
            };
            for (j, (x, y)) in s.chunks(w).zip(i.chunks(w)).enumerate() {
                if x != y && bad.len() < 20 {
                    bad.push(format!("{name}[{j}]: sim {x:02x?} interp {y:02x?}"));
                }
            }
        }
        assert_eq!(sim.buffers.len(), int.buffers.len());
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}

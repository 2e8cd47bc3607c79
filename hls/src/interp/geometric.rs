//! Geometric built-ins (OpenCL C 1.2 section 6.12.5). `dot` rounds like POCL (see `dot`);
//! lengths and normalisation are accumulated in f64 and rounded once, so no intermediate
//! overflows (within the spec's error bounds).

use super::builtins::Call;
use super::math::put;
use super::memory::LaneBuf;
use super::value::float_of;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    Dot,
    Cross,
    Length,
    Distance,
    Normalize,
}

pub fn lookup(name: &str) -> Option<F> {
    Some(match name.strip_prefix("fast_").unwrap_or(name) {
        "dot" => F::Dot,
        "cross" => F::Cross,
        "length" => F::Length,
        "distance" => F::Distance,
        "normalize" => F::Normalize,
        _ => return None,
    })
}

/// POCL's order: products rounded each, then summed in pairs: `(p0 + p1) + (p2 + p3)`
/// (measured: no fused multiply-add).
fn dot(ek: super::value::Ek, n: usize, prod: impl Fn(usize) -> f64) -> f64 {
    let r = |v: f64| super::value::float_of(ek, put(ek, v));
    let p: Vec<f64> = (0..n).map(|i| r(prod(i))).collect();
    match n {
        1 => p[0],
        2 => r(p[0] + p[1]),
        3 => r(r(p[0] + p[1]) + p[2]),
        _ => r(r(p[0] + p[1]) + r(p[2] + p[3])),
    }
}

pub fn eval(f: F, c: &Call, res: &mut LaneBuf) -> Result<(), String> {
    let ek = c.ret_ek();
    let a0 = c.arg(0);
    let n = a0.sh.lanes as usize;
    let x = |a: usize, i: usize| float_of(c.arg(a).sh.ek, c.lane(a, i));
    // Distance subtracts in the lane precision first, as `length(p0 - p1)` does.
    let v = |i: usize| -> f64 {
        match (f, ek) {
            (F::Distance, super::value::Ek::F32) => (x(0, i) as f32 - x(1, i) as f32) as f64,
            (F::Distance, _) => x(0, i) - x(1, i),
            _ => x(0, i),
        }
    };
    match f {
        F::Dot => res[0] = put(ek, dot(ek, n, |i| x(0, i) * x(1, i))),
        F::Length | F::Distance => {
            let s: f64 = (0..n).map(|i| v(i) * v(i)).sum();
            res[0] = put(ek, s.sqrt());
        }
        F::Normalize => {
            let s: f64 = (0..n).map(|i| v(i) * v(i)).sum::<f64>().sqrt();
            let any_inf = (0..n).any(|i| v(i).is_infinite());
            for (i, r) in res.iter_mut().enumerate().take(n) {
                let e = v(i);
                *r = put(
                    ek,
                    if any_inf {
                        if e.is_infinite() {
                            1f64.copysign(e)
                        } else {
                            0f64.copysign(e)
                        }
                    } else if s == 0.0 {
                        e
                    } else {
                        e / s
                    },
                );
            }
        }
        F::Cross => {
            let (ax, ay, az) = (x(0, 0), x(0, 1), x(0, 2));
            let (bx, by, bz) = (x(1, 0), x(1, 1), x(1, 2));
            // Each product rounded, then the difference (as POCL).
            let r = |v: f64| super::value::float_of(ek, put(ek, v));
            res[0] = put(ek, r(ay * bz) - r(az * by));
            res[1] = put(ek, r(az * bx) - r(ax * bz));
            res[2] = put(ek, r(ax * by) - r(ay * bx));
            if n == 4 {
                res[3] = put(ek, 0.0);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::value::Ek;

    #[test]
    fn dot_sums_rounded_products_in_pairs() {
        // Values from a POCL run: (x, 1/3, 0.1, 7) . itself with x = -1 gives 50.121109,
        // where f64 accumulation would give 50.121113.
        let v = [-1.0f32 as f64, (1.0f32 / 3.0) as f64, 0.1f32 as f64, 7.0];
        let d = dot(Ek::F32, 4, |i| v[i] * v[i]);
        assert_eq!((d as f32).to_bits(), 0x4248_7C04);
        let d = dot(Ek::F32, 4, |i| [300.0f64, v[1], v[2], v[3]][i].powi(2));
        assert_eq!((d as f32).to_bits(), 0x47AF_E08F);
    }
}

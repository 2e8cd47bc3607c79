//! Common built-ins (OpenCL C 1.2 section 6.12.4) on float lanes: each step rounded in the
//! lane's precision, as the spec's formulas are written.

use super::builtins::Call;
use super::math::put;
use super::memory::LaneBuf;
use super::value::{float_of, Ek};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    Clamp,
    Degrees,
    Max,
    Min,
    Mix,
    Radians,
    Step,
    Smoothstep,
    Sign,
}

pub fn lookup(name: &str) -> Option<F> {
    Some(match name {
        "clamp" => F::Clamp,
        "degrees" => F::Degrees,
        "max" => F::Max,
        "min" => F::Min,
        "mix" => F::Mix,
        "radians" => F::Radians,
        "step" => F::Step,
        "smoothstep" => F::Smoothstep,
        "sign" => F::Sign,
        _ => return None,
    })
}

/// Rounds an f64 that holds an exact intermediate to the lane precision.
fn r(ek: Ek, x: f64) -> f64 {
    if ek == Ek::F32 {
        x as f32 as f64
    } else {
        x
    }
}

/// POCL's `max`/`min` on floats: plain comparisons, so a NaN `y` wins (measured).
fn max(x: f64, y: f64) -> f64 {
    if x > y {
        x
    } else {
        y
    }
}

fn min(x: f64, y: f64) -> f64 {
    if x < y {
        x
    } else {
        y
    }
}

/// One lane; `a`, `b`, `c` are the arguments in order.
pub fn lane(f: F, ek: Ek, a: f64, b: f64, c: f64) -> f64 {
    match f {
        F::Clamp => min(max(a, b), c),
        F::Degrees => r(ek, a * (180.0 / std::f64::consts::PI)),
        F::Radians => r(ek, a * (std::f64::consts::PI / 180.0)),
        F::Max => max(a, b),
        F::Min => min(a, b),
        F::Mix => {
            let d = r(ek, b - a);
            let m = r(ek, d * c);
            r(ek, a + m)
        }
        F::Step => {
            if b < a {
                0.0
            } else {
                1.0
            }
        }
        F::Smoothstep => {
            let t = r(ek, r(ek, c - a) / r(ek, b - a));
            let t = min(max(t, 0.0), 1.0);
            let k = r(ek, 3.0 - r(ek, 2.0 * t));
            r(ek, r(ek, t * t) * k)
        }
        F::Sign => {
            if a.is_nan() {
                0.0
            } else if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                a
            }
        }
    }
}

pub fn eval(f: F, c: &Call, res: &mut LaneBuf) -> Result<(), String> {
    let ek = c.ret_ek();
    let get = |a: usize, i: usize| {
        if a < c.b.args.len() {
            float_of(c.arg(a).sh.ek, c.lane(a, i))
        } else {
            0.0
        }
    };
    for (i, out) in res.iter_mut().enumerate().take(c.n()) {
        *out = put(ek, lane(f, ek, get(0, i), get(1, i), get(2, i)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_edges() {
        assert_eq!(lane(F::Clamp, Ek::F32, 2.0, -1.5, 1.5), 1.5);
        assert_eq!(lane(F::Step, Ek::F32, 1.0, 0.5, 0.0), 0.0);
        assert_eq!(lane(F::Step, Ek::F32, 1.0, 1.0, 0.0), 1.0);
        assert_eq!(
            lane(F::Sign, Ek::F32, -0.0, 0.0, 0.0).to_bits(),
            (-0.0f64).to_bits()
        );
        assert_eq!(lane(F::Sign, Ek::F32, f64::NAN, 0.0, 0.0), 0.0);
        assert_eq!(lane(F::Mix, Ek::F32, 1.0, 3.0, 0.5), 2.0);
        assert_eq!(lane(F::Smoothstep, Ek::F32, 0.0, 1.0, 0.5), 0.5);
        assert_eq!(lane(F::Max, Ek::F32, 1.0, 2.0, 0.0), 2.0);
    }
}

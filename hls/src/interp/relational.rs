//! Relational built-ins (OpenCL C 1.2 section 6.12.6): scalar results are `int` 1/0,
//! vector results -1/0 lanes; `any`/`all`/vector `select` look at each lane's most
//! significant bit, scalar `select` at `c != 0`.

use super::builtins::Call;
use super::memory::LaneBuf;
use super::value::{float_of, mask, Ek};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    IsEqual,
    IsNotEqual,
    IsGreater,
    IsGreaterEqual,
    IsLess,
    IsLessEqual,
    IsLessGreater,
    IsFinite,
    IsInf,
    IsNan,
    IsNormal,
    IsOrdered,
    IsUnordered,
    Signbit,
    Any,
    All,
    Bitselect,
    Select,
}

pub fn lookup(name: &str) -> Option<F> {
    use F::*;
    Some(match name {
        "isequal" => IsEqual,
        "isnotequal" => IsNotEqual,
        "isgreater" => IsGreater,
        "isgreaterequal" => IsGreaterEqual,
        "isless" => IsLess,
        "islessequal" => IsLessEqual,
        "islessgreater" => IsLessGreater,
        "isfinite" => IsFinite,
        "isinf" => IsInf,
        "isnan" => IsNan,
        "isnormal" => IsNormal,
        "isordered" => IsOrdered,
        "isunordered" => IsUnordered,
        "signbit" => Signbit,
        "any" => Any,
        "all" => All,
        "bitselect" => Bitselect,
        "select" => Select,
        _ => return None,
    })
}

fn test(f: F, ek: Ek, xb: u64, y: f64) -> bool {
    use F::*;
    let x = float_of(ek, xb);
    match f {
        IsEqual => x == y,
        IsNotEqual => x != y,
        IsGreater => x > y,
        IsGreaterEqual => x >= y,
        IsLess => x < y,
        IsLessEqual => x <= y,
        IsLessGreater => x
            .partial_cmp(&y)
            .is_some_and(|o| o != std::cmp::Ordering::Equal),
        IsFinite => x.is_finite(),
        IsInf => x.is_infinite(),
        IsNan => x.is_nan(),
        IsNormal => match ek {
            Ek::F32 => (x as f32).is_normal(),
            _ => x.is_normal(),
        },
        IsOrdered => !x.is_nan() && !y.is_nan(),
        IsUnordered => x.is_nan() || y.is_nan(),
        _ => xb >> (ek.bits() - 1) & 1 == 1,
    }
}

pub fn eval(f: F, c: &Call, res: &mut LaneBuf) -> Result<(), String> {
    let ret = c.ret_ek();
    let rbits = ret.bits();
    let a0 = c.arg(0);
    let vector = a0.sh.lanes > 1;
    let msb = |a: usize, i: usize| {
        let bits = c.arg(a).sh.ek.bits();
        c.lane(a, i) >> (bits - 1) & 1 == 1
    };
    match f {
        F::Any | F::All => {
            let n = a0.sh.lanes as usize;
            let r = if f == F::Any {
                (0..n).any(|i| msb(0, i))
            } else {
                (0..n).all(|i| msb(0, i))
            };
            res[0] = r as u64;
        }
        F::Bitselect => {
            for (i, r) in res.iter_mut().enumerate().take(c.n()) {
                let (a, b, m) = (c.lane(0, i), c.lane(1, i), c.lane(2, i));
                *r = ((a & !m) | (b & m)) & mask(rbits);
            }
        }
        F::Select => {
            let vec_c = c.arg(2).sh.lanes > 1;
            for (i, r) in res.iter_mut().enumerate().take(c.n()) {
                let pick = if vec_c { msb(2, i) } else { c.lane(2, i) != 0 };
                *r = if pick { c.lane(1, i) } else { c.lane(0, i) };
            }
        }
        _ => {
            let two = c.b.args.len() > 1;
            for (i, r) in res.iter_mut().enumerate().take(c.n()) {
                let y = if two {
                    float_of(c.arg(1).sh.ek, c.lane(1, i))
                } else {
                    0.0
                };
                let t = test(f, a0.sh.ek, c.lane(0, i), y);
                *r = match (t, vector) {
                    (false, _) => 0,
                    (true, false) => 1,
                    (true, true) => mask(rbits),
                };
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_tests() {
        let nan = f32::NAN.to_bits() as u64;
        assert!(test(F::IsNan, Ek::F32, nan, 0.0));
        assert!(test(F::IsUnordered, Ek::F32, nan, 1.0));
        assert!(!test(F::IsLessGreater, Ek::F32, nan, 1.0));
        assert!(test(F::Signbit, Ek::F32, (-0.0f32).to_bits() as u64, 0.0));
        assert!(!test(F::IsNormal, Ek::F32, 1, 0.0), "f32 subnormal");
        assert!(test(F::IsNotEqual, Ek::F32, nan, f64::NAN));
    }
}

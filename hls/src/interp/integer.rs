//! Integer built-ins (OpenCL C 1.2 section 6.12.3), computed exactly in i128 on the
//! argument's width and signedness.

use super::builtins::Call;
use super::convert::{int_range, int_value};
use super::memory::LaneBuf;
use super::value::mask;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    Abs,
    AbsDiff,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    Clamp,
    Clz,
    Ctz,
    Popcount,
    MadHi,
    MadSat,
    Max,
    Min,
    MulHi,
    Rotate,
    Upsample,
    Mad24,
    Mul24,
}

pub fn lookup(name: &str) -> Option<F> {
    use F::*;
    Some(match name {
        "abs" => Abs,
        "abs_diff" => AbsDiff,
        "add_sat" => AddSat,
        "sub_sat" => SubSat,
        "hadd" => Hadd,
        "rhadd" => Rhadd,
        "clamp" => Clamp,
        "clz" => Clz,
        "ctz" => Ctz,
        "popcount" => Popcount,
        "mad_hi" => MadHi,
        "mad_sat" => MadSat,
        "max" => Max,
        "min" => Min,
        "mul_hi" => MulHi,
        "rotate" => Rotate,
        "upsample" => Upsample,
        "mad24" => Mad24,
        "mul24" => Mul24,
        _ => return None,
    })
}

/// One lane of a function on integers of `bits` bits (`s`: signed); returns the result
/// as an i128 (truncated to the result width by the caller).
pub fn lane(f: F, bits: u32, s: bool, a: i128, b: i128, c: i128) -> i128 {
    use F::*;
    let (lo, hi) = int_range(bits, s);
    let u = |v: i128| v & ((1i128 << bits) - 1);
    match f {
        Abs => a.abs(),
        AbsDiff => (a - b).abs(),
        AddSat => (a + b).clamp(lo, hi),
        SubSat => (a - b).clamp(lo, hi),
        Hadd => (a + b) >> 1,
        Rhadd => (a + b + 1) >> 1,
        Clamp => a.max(b).min(c),
        Clz => (u(a) as u128).leading_zeros() as i128 - (128 - bits as i128),
        Ctz => {
            let v = u(a) as u128;
            if v == 0 {
                bits as i128
            } else {
                v.trailing_zeros() as i128
            }
        }
        Popcount => (u(a) as u128).count_ones() as i128,
        MulHi => mul_hi(a, b, bits, s),
        MadHi => mul_hi(a, b, bits, s) + c,
        MadSat => {
            if s {
                (a * b + c).clamp(lo, hi)
            } else {
                ((a as u128 * b as u128).saturating_add(c as u128)).min(hi as u128) as i128
            }
        }
        Max => a.max(b),
        Min => a.min(b),
        Rotate => {
            let r = (u(b) % bits as i128) as u32;
            let v = u(a) as u128;
            let m = (1u128 << bits) - 1;
            (((v << r) | (v >> ((bits - r) % bits))) & m) as i128
        }
        // 24-bit multiplies: the spec leaves results for wider inputs undefined; the low
        // 32 bits of the full product are what the hardware gives.
        Mad24 => a * b + c,
        Mul24 => a * b,
        Upsample => (a << bits) | u(b),
    }
}

/// The high half of the full product (a 64x64-bit unsigned product can exceed i128, so
/// it is formed in u128).
fn mul_hi(a: i128, b: i128, bits: u32, signed: bool) -> i128 {
    if signed {
        (a * b) >> bits
    } else {
        ((a as u128 * b as u128) >> bits) as i128
    }
}

pub fn eval(f: F, c: &Call, res: &mut LaneBuf) -> Result<(), String> {
    let a0 = c.arg(0);
    let bits = a0.sh.ek.bits();
    let s = a0.signed;
    let rbits = c.ret_ek().bits();
    let get = |a: usize, i: usize| -> i128 {
        if a < c.b.args.len() {
            let arg = c.arg(a);
            int_value(c.lane(a, i), arg.sh.ek.bits(), arg.signed)
        } else {
            0
        }
    };
    for (i, r) in res.iter_mut().enumerate().take(c.n()) {
        let v = lane(f, bits, s, get(0, i), get(1, i), get(2, i));
        *r = (v as u64) & mask(rbits);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use F::*;

    #[test]
    fn edge_values() {
        let imin = i32::MIN as i128;
        let imax = i32::MAX as i128;
        assert_eq!(
            lane(Abs, 32, true, imin, 0, 0) as u64 & 0xFFFF_FFFF,
            0x8000_0000
        );
        assert_eq!(lane(AbsDiff, 32, true, imin, imax, 0), 0xFFFF_FFFF);
        assert_eq!(lane(AddSat, 32, true, imax, 1, 0), imax);
        assert_eq!(lane(SubSat, 32, true, imin, 1, 0), imin);
        assert_eq!(lane(AddSat, 8, false, 200, 100, 0), 255);
        assert_eq!(lane(SubSat, 8, false, 1, 2, 0), 0);
        assert_eq!(
            lane(Hadd, 32, false, 0xFFFF_FFFF, 0xFFFF_FFFF, 0),
            0xFFFF_FFFF
        );
        assert_eq!(lane(Rhadd, 32, true, -1, -2, 0), -1);
        assert_eq!(lane(Hadd, 32, true, -1, -2, 0), -2);
        assert_eq!(lane(Clz, 32, false, 0, 0, 0), 32);
        assert_eq!(lane(Clz, 8, true, -1, 0, 0), 0);
        assert_eq!(lane(Clz, 16, false, 1, 0, 0), 15);
        assert_eq!(lane(Ctz, 64, false, 0, 0, 0), 64);
        assert_eq!(lane(Popcount, 32, true, -1, 0, 0), 32);
        assert_eq!(lane(MulHi, 32, true, -1, 1, 0), -1);
        assert_eq!(
            lane(MulHi, 32, false, 0xFFFF_FFFF, 0xFFFF_FFFF, 0),
            0xFFFF_FFFE
        );
        assert_eq!(lane(MulHi, 64, false, u64::MAX as i128, 2, 0), 1);
        assert_eq!(
            lane(MulHi, 64, false, u64::MAX as i128, u64::MAX as i128, 0),
            u64::MAX as i128 - 1
        );
        assert_eq!(
            lane(MadSat, 64, false, u64::MAX as i128, u64::MAX as i128, 1),
            u64::MAX as i128
        );
        assert_eq!(
            lane(MulHi, 64, true, i64::MIN as i128, i64::MIN as i128, 0),
            1 << 62
        );
        assert_eq!(lane(Rotate, 32, false, 0x8000_0001, 1, 0), 3);
        assert_eq!(lane(Rotate, 8, false, 0x81, 9, 0), 3);
        assert_eq!(lane(Rotate, 32, false, 0x1234, 0, 0), 0x1234);
        assert_eq!(lane(MadSat, 32, true, imax, 2, 5,), imax);
        assert_eq!(lane(Upsample, 8, false, 0x12, 0x34, 0), 0x1234);
        assert_eq!(lane(Upsample, 16, true, -1, 0xFFFF, 0), -1);
        assert_eq!(lane(Clamp, 32, true, 5, -1, 3), 3);
    }
}

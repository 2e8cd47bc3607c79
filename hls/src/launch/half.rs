//! IEEE binary16 (`half`) conversions: f64 -> half rounded to nearest even, and back.
//!
//! Written out rather than taken from a crate so that the rounding is visible: a value is
//! rounded once, directly from f64 (going through f32 first would round twice).

/// Rounds `x` to the nearest binary16 value, ties to even; overflow goes to infinity,
/// values below half the smallest subnormal go to a signed zero, NaN stays NaN (quiet).
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return if frac == 0 {
            sign | 0x7c00
        } else {
            // Keep the top payload bits and force the quiet bit so the result stays a NaN.
            sign | 0x7e00 | ((frac >> 42) as u16 & 0x3ff)
        };
    }
    if exp == 0 {
        // f64 zeros and subnormals are far below half the smallest half subnormal.
        return sign;
    }
    let e = exp - 1023;
    if e > 15 {
        return sign | 0x7c00;
    }
    let m = frac | (1u64 << 52);
    // Half normals keep 11 significant bits; below 2^-14 the grid is fixed at 2^-24, so
    // the shift grows and the result lands in the subnormal encoding (or rounds up into
    // the smallest normal, whose encoding follows on naturally).
    let shift = if e >= -14 { 42 } else { (28 - e) as u32 };
    if shift >= 54 {
        return sign;
    }
    let mut q = m >> shift;
    let rem = m & ((1u64 << shift) - 1);
    let halfway = 1u64 << (shift - 1);
    if rem > halfway || (rem == halfway && q & 1 == 1) {
        q += 1;
    }
    let mag = if e >= -14 {
        // q is in [0x400, 0x800]; 0x800 carries into the exponent by itself.
        (((e + 15) as u64) << 10) + q - 0x400
    } else {
        q
    };
    if mag >= 0x7c00 {
        sign | 0x7c00
    } else {
        sign | mag as u16
    }
}

/// The exact value of a binary16 encoding.
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    let mag = match exp {
        0 => frac * 2f64.powi(-24),
        0x1f if frac == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        _ => (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    };
    sign * mag
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_values() {
        assert_eq!(f64_to_f16_bits(0.0), 0x0000);
        assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(6.103515625e-05), 0x0400); // smallest normal
        assert_eq!(f64_to_f16_bits(5.960464477539063e-08), 0x0001); // smallest subnormal
        assert_eq!(f64_to_f16_bits(6.097555160522461e-05), 0x03ff); // largest subnormal
    }

    #[test]
    fn overflow_to_infinity() {
        assert_eq!(f64_to_f16_bits(65519.99), 0x7bff);
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00); // tie, rounds to even = inf
        assert_eq!(f64_to_f16_bits(-1e300), 0xfc00);
        assert_eq!(f64_to_f16_bits(f64::INFINITY), 0x7c00);
        assert_eq!(f64_to_f16_bits(f64::NEG_INFINITY), 0xfc00);
    }

    #[test]
    fn ties_to_even() {
        // 1 + 2^-11 lies halfway between 1.0 (even) and 1 + 2^-10 (odd): rounds down.
        assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3c00);
        // 1 + 3*2^-11 lies between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
        assert_eq!(f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // A hair above the tie rounds up.
        assert_eq!(
            f64_to_f16_bits(1.0 + 2f64.powi(-11) + 2f64.powi(-40)),
            0x3c01
        );
        // 2049 is not representable (11 bits): tie between 2048 and 2050, 2048 is even.
        assert_eq!(f64_to_f16_bits(2049.0), 0x6800);
        assert_eq!(f64_to_f16_bits(2051.0), 0x6802);
    }

    #[test]
    fn subnormals_and_underflow() {
        let tiny = 2f64.powi(-24);
        assert_eq!(f64_to_f16_bits(tiny * 1.5), 0x0002); // tie 1.5 -> 2 (even)
        assert_eq!(f64_to_f16_bits(tiny * 2.5), 0x0002); // tie 2.5 -> 2 (even)
        assert_eq!(f64_to_f16_bits(tiny * 0.5), 0x0000); // tie to zero (even)
        assert_eq!(f64_to_f16_bits(tiny * 0.5000001), 0x0001);
        assert_eq!(f64_to_f16_bits(-tiny * 0.25), 0x8000);
        assert_eq!(f64_to_f16_bits(f64::MIN_POSITIVE), 0x0000);
        assert_eq!(f64_to_f16_bits(-5e-324), 0x8000);
        // The largest subnormal plus half a step rounds up into the smallest normal.
        assert_eq!(f64_to_f16_bits(tiny * 1023.5), 0x0400);
    }

    #[test]
    fn nan_stays_nan() {
        let h = f64_to_f16_bits(f64::NAN);
        assert_eq!(h & 0x7c00, 0x7c00);
        assert_ne!(h & 0x3ff, 0);
    }

    #[test]
    fn round_trip_every_half() {
        for h in 0..=u16::MAX {
            let v = f16_bits_to_f64(h);
            if v.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16_bits(v), h, "half {h:#06x} = {v}");
        }
    }

    #[test]
    fn result_is_a_nearest_half() {
        for i in 0..20000u32 {
            let f = f32::from_bits(0x3380_0000 + i * 7919);
            let via = f64_to_f16_bits(f64::from(f));
            let back = f16_bits_to_f64(via);
            let next_up = f16_bits_to_f64(via + 1);
            let prev = f16_bits_to_f64(via.wrapping_sub(1));
            let x = f64::from(f);
            // The nearest half is within half a step on the side x lies on.
            let ok = if x >= back {
                x - back <= (next_up - back) / 2.0
            } else {
                back - x <= (back - prev) / 2.0
            };
            assert!(ok, "{x} -> {via:#06x}");
        }
    }
}

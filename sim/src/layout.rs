//! Where buffers go in the simulated memory: 4 KiB aligned, one after another, with an
//! unmapped guard gap after each so that a stray address hits nothing.

use serde::{Deserialize, Serialize};

/// Alignment of every buffer's base address.
pub const ALIGN: u64 = 4096;
/// Unmapped bytes between two buffers (at least one 4 KiB page, so a burst never spans two).
pub const GUARD: u64 = 4096;
/// First buffer when every master has 32 address bits: nonzero, so a null pointer is caught.
pub const BASE32: u64 = 0x1000_0000;
/// First buffer when every master has 64 address bits: above 4 GiB, so a core that drops
/// the high address word is caught.
pub const BASE64: u64 = 0x1_1000_0000;

/// One buffer's place in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub base: u64,
    pub len: u64,
}

/// Places buffers of the given lengths for masters whose narrowest address is `addr_width`
/// bits.
pub fn place(lens: &[u64], addr_width: u32) -> Result<Vec<Placement>, String> {
    let mut cursor = if addr_width >= 64 { BASE64 } else { BASE32 };
    let limit = if addr_width >= 64 {
        u64::MAX
    } else {
        1u64 << addr_width
    };
    let mut out = Vec::with_capacity(lens.len());
    for &len in lens {
        let base = align_up(cursor, ALIGN)?;
        let end = base
            .checked_add(len)
            .and_then(|e| e.checked_add(GUARD))
            .ok_or("buffers do not fit the address space")?;
        if end > limit {
            return Err(format!(
                "buffers ({} bytes in all) do not fit a {addr_width}-bit address space",
                lens.iter().sum::<u64>()
            ));
        }
        out.push(Placement { base, len });
        cursor = end;
    }
    Ok(out)
}

fn align_up(x: u64, a: u64) -> Result<u64, String> {
    x.checked_add(a - 1)
        .map(|v| v & !(a - 1))
        .ok_or_else(|| "address overflow".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_aligned_and_separated() {
        let p = place(&[10, 0, 8192, 1], 32).unwrap();
        assert_eq!(p[0].base, BASE32);
        for w in p.windows(2) {
            assert_eq!(w[1].base % ALIGN, 0);
            assert!(w[1].base >= w[0].base + w[0].len + GUARD);
        }
        assert_eq!(place(&[4], 64).unwrap()[0].base, BASE64);
    }

    #[test]
    fn too_large_for_32_bits_is_an_error() {
        assert!(place(&[1 << 31, 1 << 31], 32).is_err());
    }
}

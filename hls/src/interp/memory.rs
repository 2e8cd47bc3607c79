//! Byte-addressed memory regions (buffers, `__local` arguments, objects) with bounds
//! checks and, for private and local memory, tracking of which bytes were ever written.

use super::value::{base_of_word, pack_ptr, unpack_ptr, Ek, Shape, MAX_LANES};
use crate::ir::{Base, Kernel};

/// How the message of a read of never-written bytes starts.
pub const UNWRITTEN: &str = "read of uninitialised ";

#[derive(Clone, Debug, Default)]
pub struct MemRegion {
    pub bytes: Vec<u8>,
    /// One flag per byte: written (or initialised). `None`: every byte counts as written.
    pub written: Option<Vec<bool>>,
    /// How errors name it: "buffer 'out'", "__local memory 'tile'"...
    pub label: String,
}

impl MemRegion {
    pub fn new(label: String, bytes: Vec<u8>, tracked: bool) -> MemRegion {
        let written = tracked.then(|| vec![false; bytes.len()]);
        MemRegion {
            bytes,
            written,
            label,
        }
    }

    /// Checks `[off, off + size)` is inside the region; returns the start index.
    #[inline]
    pub fn range(&self, off: u64, size: usize, what: &str) -> Result<usize, String> {
        let o = off as i64;
        if o < 0
            || (o as u64)
                .checked_add(size as u64)
                .is_none_or(|e| e > self.bytes.len() as u64)
        {
            return Err(format!(
                "out-of-bounds {what} of {size} bytes at byte {o} of {} ({} bytes)",
                self.label,
                self.bytes.len()
            ));
        }
        Ok(o as usize)
    }

    #[inline]
    pub fn check_written(&self, at: usize, size: usize) -> Result<(), String> {
        if let Some(w) = &self.written {
            if let Some(i) = w[at..at + size].iter().position(|b| !b) {
                return Err(format!("{UNWRITTEN}{} at byte {}", self.label, at + i));
            }
        }
        Ok(())
    }

    #[inline]
    pub fn mark_written(&mut self, at: usize, size: usize) {
        if let Some(w) = &mut self.written {
            w[at..at + size].fill(true);
        }
    }
}

/// Bytes a load or store of `shape` moves: 3-lane vectors move 3 lanes (vload3).
#[inline]
pub fn access_size(shape: Shape) -> usize {
    shape.ek.store_size()
        * if shape.ek == Ek::Ptr {
            1
        } else {
            shape.lanes as usize
        }
}

#[inline(always)]
fn read_lane(b: &[u8], es: usize) -> u64 {
    match es {
        1 => b[0] as u64,
        2 => u16::from_le_bytes([b[0], b[1]]) as u64,
        4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64,
        _ => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
    }
}

#[inline(always)]
fn write_lane(b: &mut [u8], es: usize, v: u64) {
    match es {
        1 => b[0] = v as u8,
        2 => b[..2].copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b[..4].copy_from_slice(&(v as u32).to_le_bytes()),
        _ => b[..8].copy_from_slice(&v.to_le_bytes()),
    }
}

/// Decodes `shape` from little-endian bytes into frame words.
// Inlined: it sits on every load's path and its shape is usually known at the call.
#[inline(always)]
pub fn decode(bytes: &[u8], shape: Shape, out: &mut [u64]) {
    let es = shape.ek.store_size();
    if shape.ek == Ek::Ptr {
        let (off, base) = unpack_ptr(read_lane(bytes, 8));
        out[0] = off;
        out[1] = base;
        return;
    }
    let m = super::value::mask(shape.ek.bits());
    for (l, o) in out.iter_mut().enumerate().take(shape.lanes as usize) {
        *o = read_lane(&bytes[l * es..], es) & m;
    }
}

/// Encodes frame words of `shape` into little-endian bytes.
#[inline(always)]
pub fn encode(words: &[u64], shape: Shape, bytes: &mut [u8]) {
    let es = shape.ek.store_size();
    if shape.ek == Ek::Ptr {
        write_lane(bytes, 8, pack_ptr(words[0], words[1]));
        return;
    }
    for (l, w) in words.iter().enumerate().take(shape.lanes as usize) {
        write_lane(&mut bytes[l * es..], es, *w);
    }
}

/// Memory shared by the work-items of a group (buffers, local memory, constants) and the
/// private memory of one work-item; `private[o]` is used for private objects only.
pub struct Spaces<'a> {
    pub shared_params: &'a mut [MemRegion],
    pub shared_objects: &'a mut [MemRegion],
    pub private: &'a mut [MemRegion],
    pub is_private: &'a [bool],
}

impl Spaces<'_> {
    #[inline(always)]
    pub fn region(&mut self, base: u64) -> Result<&mut MemRegion, String> {
        match base_of_word(base) {
            None => Err("access through a null pointer".to_string()),
            Some(Base::Param(i)) => self
                .shared_params
                .get_mut(i as usize)
                .ok_or_else(|| format!("pointer to parameter {i}, which is not a buffer")),
            Some(Base::Object(o)) => {
                let i = o.0 as usize;
                if self.is_private.get(i).copied().unwrap_or(false) {
                    self.private.get_mut(i)
                } else {
                    self.shared_objects.get_mut(i)
                }
                .ok_or_else(|| format!("pointer to missing object {i}"))
            }
        }
    }

    /// Loads `shape` at pointer `(off, base)` into `out`.
    #[inline(always)]
    pub fn load(
        &mut self,
        off: u64,
        base: u64,
        shape: Shape,
        out: &mut [u64],
    ) -> Result<(), String> {
        let size = access_size(shape);
        let r = self.region(base)?;
        let at = r.range(off, size, "load")?;
        r.check_written(at, size)?;
        decode(&r.bytes[at..at + size], shape, out);
        Ok(())
    }

    /// Like [`Self::load`], without the check that the bytes were written.
    pub fn load_unchecked(
        &mut self,
        off: u64,
        base: u64,
        shape: Shape,
        out: &mut [u64],
    ) -> Result<(), String> {
        let size = access_size(shape);
        let r = self.region(base)?;
        let at = r.range(off, size, "load")?;
        decode(&r.bytes[at..at + size], shape, out);
        Ok(())
    }

    #[inline(always)]
    pub fn store(
        &mut self,
        off: u64,
        base: u64,
        shape: Shape,
        words: &[u64],
    ) -> Result<(), String> {
        let size = access_size(shape);
        let r = self.region(base)?;
        let at = r.range(off, size, "store")?;
        encode(words, shape, &mut r.bytes[at..at + size]);
        r.mark_written(at, size);
        Ok(())
    }
}

/// Fresh private regions for one work-item (objects with `init` bytes start written;
/// struct parameter copies start with the argument's bytes).
pub fn private_template(k: &Kernel, struct_args: &[(usize, Vec<u8>)]) -> Vec<MemRegion> {
    use crate::frontend::types::AddrSpace;
    let mut v: Vec<MemRegion> = k
        .objects
        .iter()
        .map(|o| {
            if o.space != AddrSpace::Private {
                return MemRegion::default();
            }
            let label = format!("__private memory '{}'", o.name);
            match &o.init {
                Some(b) => {
                    let mut bytes = b.clone();
                    bytes.resize(o.size as usize, 0);
                    MemRegion::new(label, bytes, false)
                }
                None => MemRegion::new(label, vec![0; o.size as usize], true),
            }
        })
        .collect();
    for (o, bytes) in struct_args {
        if let Some(r) = v.get_mut(*o) {
            let n = bytes.len().min(r.bytes.len());
            r.bytes[..n].copy_from_slice(&bytes[..n]);
            r.written = None;
        }
    }
    v
}

/// Resets a work-item's private regions to the template without reallocating.
pub fn reset_private(regions: &mut [MemRegion], template: &[MemRegion]) {
    for (r, t) in regions.iter_mut().zip(template) {
        r.bytes.copy_from_slice(&t.bytes);
        match (&mut r.written, &t.written) {
            (Some(w), Some(_)) => w.fill(false),
            (w, t) => *w = t.clone(),
        }
    }
}

/// Scratch for gathering up to 16 lanes (or a pointer) without allocating.
pub type LaneBuf = [u64; MAX_LANES];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_and_uninitialised_bytes() {
        let mut r = MemRegion::new("__local memory 'tile'".into(), vec![0; 16], true);
        assert!(r.range(12, 4, "load").is_ok());
        let e = r.range(13, 4, "store").unwrap_err();
        assert!(e.contains("byte 13") && e.contains("16 bytes"), "{e}");
        assert!(r.range((-4i64) as u64, 4, "load").is_err());
        r.mark_written(0, 8);
        assert!(r.check_written(4, 4).is_ok());
        let e = r.check_written(4, 8).unwrap_err();
        assert_eq!(e, "read of uninitialised __local memory 'tile' at byte 8");
    }

    #[test]
    fn vec3_moves_three_lanes() {
        let s = Shape {
            ek: Ek::F32,
            lanes: 3,
        };
        assert_eq!(access_size(s), 12);
        let mut b = [0u8; 12];
        encode(&[1, 2, 3], s, &mut b);
        let mut out = [0u64; 3];
        decode(&b, s, &mut out);
        assert_eq!(out, [1, 2, 3]);
    }
}

//! Reading and writing places: variables, memory (an aggregate is used through its
//! address and copied byte-wise), and vector lanes (a lane of a vector in memory is
//! written alone, so neighbouring lanes another work-item may write are left alone).

use crate::diag::Span;
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{BinOp, CmpOp, Conv, OpKind, Ty};

use super::memory::Place;
use super::types::{align_after, elem, is_aggregate, is_signed, layout, scalar_ty};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    /// Reads a place. Aggregates give their address.
    pub fn load(&mut self, place: &Place, span: Span) -> R<Val> {
        match place {
            Place::Var(v, _) => Ok(self.read_var(*v, span)),
            Place::Param(i, t) => {
                let ty = self.ir_type(t, span)?;
                Ok(self.op(OpKind::Param(*i), ty, span, &[]))
            }
            Place::Mem {
                ptr,
                space,
                ty,
                align,
            } => {
                if is_aggregate(ty) {
                    return Ok(ptr.clone());
                }
                let ity = self.ir_type(ty, span)?;
                let kind = OpKind::Load {
                    space: *space,
                    base: None,
                    align: (*align).min(1 << 16) as u32,
                };
                Ok(self.op(kind, ity, span, &[ptr]))
            }
            Place::Lanes { inner, lanes, ty } => {
                let v = self.load(inner, span)?;
                let ity = self.ir_type(ty, span)?;
                Ok(self.pick_lanes(&v, lanes, ity, span))
            }
            Place::BitField {
                ptr,
                space,
                ty,
                bit,
                width,
            } => {
                let (unit, _) = self.bit_unit(ptr, *space, *bit, *width, span);
                let ity = self.ir_type(ty, span)?;
                let shifted = self.shift_const(BinOp::LShr, &unit, *bit, span);
                let signed = is_signed(ty);
                let field = self.resize(&shifted, *width, false, span);
                Ok(self.resize(&field, ity.bits(), signed, span))
            }
            Place::DynLane { inner, index, ty } => {
                let v = self.load(inner, span)?;
                let ity = self.ir_type(ty, span)?;
                let mut acc = self.op(OpKind::Extract(0), ity.clone(), span, &[&v]);
                for k in 1..v.ty.lanes() {
                    let lane = self.op(OpKind::Extract(k), ity.clone(), span, &[&v]);
                    let hit = self.index_is(index, k, span);
                    acc = self.op(OpKind::Select, ity.clone(), span, &[&hit, &lane, &acc]);
                }
                Ok(acc)
            }
        }
    }

    /// Lanes `lanes` of vector `v` (lanes past the end of a 3-lane vector read as zero).
    pub fn pick_lanes(&mut self, v: &Val, lanes: &[u8], ty: Ty, span: Span) -> Val {
        let n = v.ty.lanes();
        if lanes.iter().all(|l| *l < n) {
            if lanes.len() == 1 {
                return self.op(OpKind::Extract(lanes[0]), ty, span, &[v]);
            }
            return self.op(OpKind::Shuffle(lanes.to_vec()), ty, span, &[v]);
        }
        let et = v.ty.elem().clone();
        let mut parts = Vec::new();
        for l in lanes {
            parts.push(if *l < n {
                self.op(OpKind::Extract(*l), et.clone(), span, &[v])
            } else {
                self.konst(et.clone(), 0, span)
            });
        }
        if parts.len() == 1 {
            return parts.remove(0);
        }
        let refs: Vec<&Val> = parts.iter().collect();
        self.op(OpKind::Build, ty, span, &refs)
    }

    /// `index == k` as an `i1`, for a run-time lane index.
    fn index_is(&mut self, index: &Val, k: u8, span: Span) -> Val {
        let c = self.konst(index.ty.clone(), k as u64, span);
        self.op(OpKind::Cmp(CmpOp::Eq), Ty::I(1), span, &[index, &c])
    }

    /// Writes `v` (already of the place's type) to a place.
    pub fn store(&mut self, place: &Place, v: &Val, span: Span) -> R<()> {
        match place {
            Place::Var(var, _) => {
                self.write_var(*var, v, span);
                Ok(())
            }
            Place::Param(..) => self.fail(span, "internal error: store to a read-only parameter"),
            Place::Mem {
                ptr,
                space,
                ty,
                align,
            } => self.store_typed(ptr, *space, ty, v, *align, span),
            Place::Lanes { inner, lanes, .. } => {
                if let Place::Mem {
                    ptr,
                    space,
                    ty: vty,
                    align,
                } = &**inner
                {
                    // Lane by lane: other lanes of the vector in memory are left alone.
                    let et = elem(vty).map(scalar_ty).unwrap_or(Ty::I(8));
                    let size = et.store_size();
                    for (i, l) in lanes.iter().enumerate() {
                        let x = if v.ty.lanes() > 1 {
                            self.op(OpKind::Extract(i as u8), et.clone(), span, &[v])
                        } else {
                            v.clone()
                        };
                        let off = *l as u64 * size;
                        let p = self.ptr_add_const(ptr, off as i64, span);
                        let kind = OpKind::Store {
                            space: *space,
                            base: None,
                            align: align_after(*align, off) as u32,
                        };
                        self.effect(kind, span, &[&p, &x]);
                    }
                    return Ok(());
                }
                let old = self.load(inner, span)?;
                let n = old.ty.lanes();
                let new = if lanes.len() == 1 {
                    self.op(OpKind::Insert(lanes[0]), old.ty.clone(), span, &[&old, v])
                } else {
                    let mut pick: Vec<u8> = (0..n).collect();
                    for (i, l) in lanes.iter().enumerate() {
                        if let Some(p) = pick.get_mut(*l as usize) {
                            *p = n + i as u8;
                        }
                    }
                    self.op(OpKind::Shuffle(pick), old.ty.clone(), span, &[&old, v])
                };
                self.store(inner, &new, span)
            }
            Place::BitField {
                ptr,
                space,
                bit,
                width,
                ..
            } => {
                let (unit, n) = self.bit_unit(ptr, *space, *bit, *width, span);
                let ut = unit.ty.clone();
                let ones = if *width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                let v = self.resize(v, n * 8, false, span);
                let m = self.konst(ut.clone(), ones, span);
                let v = self.op(OpKind::Binary(BinOp::And), ut.clone(), span, &[&v, &m]);
                let v = self.shift_const(BinOp::Shl, &v, *bit, span);
                let keep = !(ones << bit)
                    & if n >= 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * n)) - 1
                    };
                let k = self.konst(ut.clone(), keep, span);
                let old = self.op(OpKind::Binary(BinOp::And), ut.clone(), span, &[&unit, &k]);
                let new = self.op(OpKind::Binary(BinOp::Or), ut, span, &[&old, &v]);
                let kind = OpKind::Store {
                    space: *space,
                    base: None,
                    align: 1,
                };
                self.effect(kind, span, &[ptr, &new]);
                Ok(())
            }
            Place::DynLane { inner, index, .. } => {
                let old = self.load(inner, span)?;
                let mut acc = old.clone();
                for k in 0..old.ty.lanes() {
                    let cand = self.op(OpKind::Insert(k), old.ty.clone(), span, &[&old, v]);
                    let hit = self.index_is(index, k, span);
                    acc = self.op(OpKind::Select, old.ty.clone(), span, &[&hit, &cand, &acc]);
                }
                self.store(inner, &acc, span)
            }
        }
    }

    /// Stores a value of frontend type `ty` at `ptr`; an aggregate value is an address
    /// whose bytes are copied.
    pub fn store_typed(
        &mut self,
        ptr: &Val,
        space: AddrSpace,
        ty: &Type,
        v: &Val,
        align: u64,
        span: Span,
    ) -> R<()> {
        if is_aggregate(ty) {
            let size = layout(self.p, ty).map_or(0, |l| l.size);
            return self.copy_bytes(ptr, space, v, size, align, span);
        }
        let kind = OpKind::Store {
            space,
            base: None,
            align: align.min(1 << 16) as u32,
        };
        self.effect(kind, span, &[ptr, v]);
        Ok(())
    }

    /// The bytes holding a bit-field, loaded as one integer, and their count.
    fn bit_unit(
        &mut self,
        ptr: &Val,
        space: AddrSpace,
        bit: u32,
        width: u32,
        span: Span,
    ) -> (Val, u32) {
        let n = (bit + width).div_ceil(8).max(1);
        let kind = OpKind::Load {
            space,
            base: None,
            align: 1,
        };
        (self.op(kind, Ty::I((8 * n) as u8), span, &[ptr]), n)
    }

    fn shift_const(&mut self, k: BinOp, v: &Val, by: u32, span: Span) -> Val {
        if by == 0 {
            return v.clone();
        }
        let c = self.konst(v.ty.clone(), by as u64, span);
        self.op(OpKind::Binary(k), v.ty.clone(), span, &[v, &c])
    }

    /// An integer truncated or extended (by `signed`) to `bits` bits.
    fn resize(&mut self, v: &Val, bits: u32, signed: bool, span: Span) -> Val {
        if v.ty.bits() == bits {
            return v.clone();
        }
        let conv = Conv::Int {
            from_signed: signed,
            to_signed: signed,
            sat: false,
        };
        self.op(OpKind::Conv(conv), Ty::I(bits as u8), span, &[v])
    }
}

//! Work-item functions in group form: local ids are the work-item loop counters, local
//! sizes constants or hidden parameters, and global ids and sizes are computed from the
//! group's ids (which, like `get_work_dim`, keep their meaning in a launch of one
//! work-item per group).

use crate::diag::Span;
use crate::ir::{BinOp, Block, CmpOp, Conv, OpId, OpKind, Ty, VarId, WorkItemFn};

/// Where a dimension's local size comes from.
#[derive(Clone, Copy, Debug)]
pub enum Size {
    Const(u64),
    /// A hidden `i64` parameter.
    Param(u32),
}

/// The work-item loop state a segment's code sees.
pub struct IdEnv {
    /// Loop counter per dimension; `None` where the size is a constant 1 (no loop).
    pub lid: [Option<VarId>; 3],
    pub size: [Size; 3],
    /// The local linear id, computed at the top of each work-item.
    pub lin: VarId,
}

const I64: Ty = Ty::I(64);

/// Builds ops into one block for one original op.
pub struct Expander<'a> {
    pub b: &'a mut Block,
    pub env: &'a IdEnv,
    pub span: Span,
    /// Set when the local linear id was read.
    pub used_lin: bool,
}

impl Expander<'_> {
    pub fn add(&mut self, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        self.b.add(kind, ty, self.span, args)
    }

    pub fn c64(&mut self, v: u64) -> OpId {
        self.add(OpKind::Const(vec![v]), Some(I64), &[])
    }

    fn bin(&mut self, op: BinOp, a: OpId, b: OpId) -> OpId {
        self.add(OpKind::Binary(op), Some(I64), &[a, b])
    }

    /// The launch-level function `f` of constant dimension `d`, kept as an op.
    fn kept(&mut self, f: WorkItemFn, d: u64) -> OpId {
        let dim = self.add(OpKind::Const(vec![d]), Some(Ty::I(32)), &[]);
        self.add(OpKind::WorkItem(f), Some(I64), &[dim])
    }

    pub fn local_id(&mut self, d: usize) -> OpId {
        match self.env.lid[d] {
            Some(v) => self.add(OpKind::ReadVar(v), Some(I64), &[]),
            None => self.c64(0),
        }
    }

    pub fn local_size(&mut self, d: usize) -> OpId {
        match self.env.size[d] {
            Size::Const(n) => self.c64(n),
            Size::Param(p) => self.add(OpKind::Param(p), Some(I64), &[]),
        }
    }

    pub fn lin(&mut self) -> OpId {
        if self.env.lid[1].is_none() && self.env.lid[2].is_none() {
            return self.local_id(0);
        }
        self.used_lin = true;
        self.add(OpKind::ReadVar(self.env.lin), Some(I64), &[])
    }

    /// `lx + lsx * (ly + lsy * lz)`: the value stored in the linear id variable.
    pub fn compute_lin(&mut self) -> OpId {
        let (x, y, z) = (self.local_id(0), self.local_id(1), self.local_id(2));
        let (sx, sy) = (self.local_size(0), self.local_size(1));
        let t = self.bin(BinOp::Mul, sy, z);
        let t = self.bin(BinOp::Add, y, t);
        let t = self.bin(BinOp::Mul, sx, t);
        self.bin(BinOp::Add, x, t)
    }

    /// Global id without the offset: `group_id * local_size + local_id`.
    fn global_id0(&mut self, d: usize) -> OpId {
        let g = self.kept(WorkItemFn::GroupId, d as u64);
        let s = self.local_size(d);
        let l = self.local_id(d);
        let t = self.bin(BinOp::Mul, g, s);
        self.bin(BinOp::Add, t, l)
    }

    fn global_size(&mut self, d: usize) -> OpId {
        let n = self.kept(WorkItemFn::NumGroups, d as u64);
        let s = self.local_size(d);
        self.bin(BinOp::Mul, n, s)
    }

    /// Function `f` of dimension `d` (0..3) as i64.
    fn per_dim(&mut self, f: WorkItemFn, d: usize) -> OpId {
        match f {
            WorkItemFn::LocalId => self.local_id(d),
            WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => self.local_size(d),
            WorkItemFn::GlobalSize => self.global_size(d),
            _ => {
                let g = self.global_id0(d);
                let off = self.kept(WorkItemFn::GlobalOffset, d as u64);
                self.bin(BinOp::Add, g, off)
            }
        }
    }

    /// The replacement of `WorkItem(f)` with dimension operand `dim` (already in this
    /// block) and result type `ty`; `None` when the op stays as it is.
    pub fn work_item(&mut self, f: WorkItemFn, dim: Option<OpId>, ty: &Ty) -> Option<OpId> {
        use WorkItemFn::*;
        let v = match f {
            WorkDim | NumGroups | GroupId | GlobalOffset => return None,
            LocalLinearId => self.lin(),
            GlobalLinearId => {
                // OpenCL: (gz - oz) * gsy * gsx + (gy - oy) * gsx + (gx - ox).
                let (x, y, z) = (self.global_id0(0), self.global_id0(1), self.global_id0(2));
                let (gx, gy) = (self.global_size(0), self.global_size(1));
                let t = self.bin(BinOp::Mul, gy, z);
                let t = self.bin(BinOp::Add, y, t);
                let t = self.bin(BinOp::Mul, gx, t);
                self.bin(BinOp::Add, x, t)
            }
            LocalId | LocalSize | EnqueuedLocalSize | GlobalId | GlobalSize => {
                let dim = dim?;
                self.by_dim(f, dim)
            }
        };
        Some(self.convert(v, ty))
    }

    /// Selects among the three dimensions; out-of-range dimensions give 1 for sizes and 0
    /// for ids, as OpenCL says.
    fn by_dim(&mut self, f: WorkItemFn, dim: OpId) -> OpId {
        let outside = match f {
            WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize | WorkItemFn::GlobalSize => 1,
            _ => 0,
        };
        if let OpKind::Const(v) = &self.b.op(dim).kind {
            return match v.first().copied() {
                Some(d) if d < 3 => self.per_dim(f, d as usize),
                _ => self.c64(outside),
            };
        }
        let dty = self.b.op(dim).ty.clone().unwrap_or(Ty::I(32));
        let mut r = self.c64(outside);
        for d in (0..3).rev() {
            let v = self.per_dim(f, d);
            let c = self.add(OpKind::Const(vec![d as u64]), Some(dty.clone()), &[]);
            let is = self.add(OpKind::Cmp(CmpOp::Eq), Some(Ty::I(1)), &[dim, c]);
            r = self.add(OpKind::Select, Some(I64), &[is, v, r]);
        }
        r
    }

    fn convert(&mut self, v: OpId, ty: &Ty) -> OpId {
        if *ty == I64 {
            return v;
        }
        let conv = Conv::Int {
            from_signed: false,
            to_signed: false,
            sat: false,
        };
        self.add(OpKind::Conv(conv), Some(ty.clone()), &[v])
    }
}

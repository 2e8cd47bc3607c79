//! IR operations to netlist expressions (integer arithmetic, logic, compares, lanes) and
//! to template instances (float units), placed in the controller state of their cycle.

use super::fsm::StateId;
use super::{port, Gen};
use crate::diag::Diagnostic;
use crate::ir::{BinOp as IB, BlockId, CmpOp, OpId, OpKind, Ty, UnOp as IU, WorkItemFn};
use crate::rtl::expr::{BinOp, Expr, UnOp};
use crate::rtl::netlist::{Instance, NetId, SrcLoc};

// Built-in calls live beside this file; declared here, as a child of `ops`, so they
// share its private lane helpers and units.

/// Bits `i` of `lanes` lanes of `w` bits each in `net`.
pub fn lane(net: NetId, i: u32, w: u32, lanes: u32) -> Expr {
    if lanes == 1 {
        Expr::Net(net)
    } else {
        Expr::Slice {
            net,
            hi: (i + 1) * w - 1,
            lo: i * w,
        }
    }
}

/// Lanes in Verilog order (lane 0 last).
pub fn concat(mut lanes: Vec<Expr>) -> Expr {
    if lanes.len() == 1 {
        return lanes.remove(0);
    }
    lanes.reverse();
    Expr::Concat(lanes)
}

/// `e` (of width `from`) sign- or zero-extended or truncated to `to` bits; `e` must be a
/// net or slice when truncating or sign-extending.
pub(super) fn resize(net: NetId, lo: u32, from: u32, to: u32, signed: bool) -> Expr {
    let whole = Expr::Slice {
        net,
        hi: lo + from.min(to) - 1,
        lo,
    };
    if to <= from {
        return whole;
    }
    let top = if signed {
        Expr::Repeat(to - from, Box::new(Expr::bit(net, lo + from - 1)))
    } else {
        Expr::lit(to - from, 0)
    };
    Expr::Concat(vec![top, whole])
}

pub(super) fn flip_sign(e: Expr, w: u32) -> Expr {
    Expr::bin(BinOp::Xor, e, Expr::lit(w, 1u64 << (w - 1)))
}

pub fn unsupported(what: &str, span: crate::diag::Span, sm: &crate::diag::SourceMap) -> Diagnostic {
    Diagnostic::error(
        span,
        format!(
            "{what} ({}) has no hardware implementation yet",
            SrcLoc::of_span(sm, span)
        ),
    )
}

/// What an op computes: an expression ready this cycle, or a unit's result when `done`.
pub(super) enum Computed {
    Comb(Expr),
    Unit { done: Expr, value: Expr },
}

/// Where an op placed in a cycle's state ended up.
pub(super) enum Placed {
    /// A variable write, made when the state leaves.
    Write,
    /// A combinational value on wire `0`, valid in the states of its cycle.
    Comb(NetId),
    /// A unit started in the state: `value` is its result while `done` holds; `reg` is
    /// the register the state captures it in.
    Unit { done: Expr, value: Expr, reg: NetId },
}

/// When an op uses a shared unit: the cycle it starts it, the cycles its operands are
/// on the inputs (a superset), and the unit's enable.
pub(super) struct Use {
    start: Expr,
    operands: Expr,
    en: Expr,
}

/// What a unit template instance is: module, parameters and per lane its input ports.
#[derive(Clone, PartialEq, Eq)]
struct Signature {
    module: String,
    params: Vec<(String, i64)>,
    ports: Vec<Vec<(String, u32)>>,
}

impl Signature {
    fn of(module: &str, params: &[(&str, i64)], lanes: &[Vec<(&str, u32, Expr)>]) -> Signature {
        Signature {
            module: module.to_string(),
            params: params.iter().map(|(p, v)| (p.to_string(), *v)).collect(),
            ports: lanes
                .iter()
                .map(|l| l.iter().map(|(p, w, _)| (p.to_string(), *w)).collect())
                .collect(),
        }
    }
}

/// A unit that several ops share (`Gen::shared_unit`): its template, the nets its ops
/// drive and read.
#[derive(Clone)]
pub(super) struct SharedUnit {
    sig: Signature,
    in_valid: NetId,
    valid: NetId,
    inputs: Vec<Vec<NetId>>,
    outputs: Vec<Vec<NetId>>,
}

impl Gen<'_> {
    fn ty_of(&self, b: BlockId, o: OpId) -> Ty {
        self.k.block(b).op(o).ty.clone().unwrap_or(Ty::I(1))
    }

    /// Ops that are wires valid in every state (constants, parameters, work-item values)
    /// or vanish (barriers and fences: one work-item runs at a time); returns whether `o`
    /// was one of them.
    pub(super) fn op_free(&mut self, b: BlockId, o: OpId) -> Result<bool, Diagnostic> {
        let op = self.k.block(b).op(o).clone();
        let args = self.k.block(b).operands(o);
        let loc = SrcLoc::of_span(self.sm, op.span);
        let width = op.ty.as_ref().map(|t| t.bits()).unwrap_or(1);
        let e = match &op.kind {
            OpKind::Const(lanes) => {
                let t = op.ty.clone().unwrap_or(Ty::I(1));
                let ew = t.elem().bits();
                concat(lanes.iter().map(|v| Expr::lit(ew, *v)).collect())
            }
            OpKind::Param(i) => self.param(*i as usize, width, op.span)?,
            OpKind::ObjectAddr(_) => Expr::lit(64, 0),
            OpKind::WorkItem(f) => self.work_item(*f, b, &args, width, op.span)?,
            OpKind::Barrier { .. } | OpKind::MemFence { .. } => return Ok(true),
            _ => return Ok(false),
        };
        let name = self.fresh("w");
        let n = self.m.wire(&name, width);
        self.m.set_loc(n, loc);
        self.m.assign(n, e);
        self.vals.insert((b, o), n);
        Ok(true)
    }

    /// Op `o` (neither free nor a memory access) in its cycle's state `s`.
    pub(super) fn op_in_state(
        &mut self,
        b: BlockId,
        o: OpId,
        s: StateId,
    ) -> Result<Placed, Diagnostic> {
        let op = self.k.block(b).op(o).clone();
        let args = self.k.block(b).operands(o);
        let loc = SrcLoc::of_span(self.sm, op.span);
        let width = op.ty.as_ref().map(|t| t.bits()).unwrap_or(1);
        if let OpKind::WriteVar(v) = op.kind {
            let a = self.value(b, args[0])?;
            let reg = self.vars[v.0 as usize];
            self.fsm.set(s, reg, Expr::Net(a));
            return Ok(Placed::Write);
        }
        let c = match &op.kind {
            OpKind::ReadVar(v) => Computed::Comb(Expr::Net(self.vars[v.0 as usize])),
            _ => self.compute(s, b, o)?,
        };
        match c {
            Computed::Comb(e) => {
                let name = self.fresh("w");
                let n = self.m.wire(&name, width);
                self.m.set_loc(n, loc);
                self.m.assign(n, e);
                Ok(Placed::Comb(n))
            }
            Computed::Unit { done, value } => {
                let name = self.fresh("r");
                let reg = self.m.reg(&name, width);
                self.m.set_loc(reg, loc);
                self.vals.insert((b, o), reg);
                Ok(Placed::Unit { done, value, reg })
            }
        }
    }

    fn param(&self, i: usize, width: u32, span: crate::diag::Span) -> Result<Expr, Diagnostic> {
        let Some(p) = self.k.params.get(i) else {
            return Err(Diagnostic::error(span, "parameter out of range"));
        };
        if i >= self.host_params {
            // A hidden local-size parameter.
            let d = i - self.host_params;
            return Ok(Expr::zext(self.size_field("local_size", d)?, width - 32));
        }
        match &p.kind {
            crate::ir::ParamKind::Buffer { .. } => {
                let net = port(&self.m, &format!("{}_base", p.name))?;
                let aw = self.m.net(net).width;
                Ok(Expr::zext(Expr::Net(net), width - aw))
            }
            // A pointer into the datapath's own RAM (see `objects.rs`): offset 0.
            crate::ir::ParamKind::LocalBuffer | crate::ir::ParamKind::Struct { .. } => {
                Ok(Expr::lit(width, 0))
            }
            crate::ir::ParamKind::Value => {
                let net = port(&self.m, &format!("arg_{}", p.name))?;
                let w = self.m.net(net).width;
                Ok(if w == width {
                    Expr::Net(net)
                } else {
                    Expr::Slice {
                        net,
                        hi: width - 1,
                        lo: 0,
                    }
                })
            }
        }
    }

    fn work_item(
        &self,
        f: WorkItemFn,
        b: BlockId,
        args: &[OpId],
        width: u32,
        span: crate::diag::Span,
    ) -> Result<Expr, Diagnostic> {
        let d = match args.first().map(|a| &self.k.block(b).op(*a).kind) {
            Some(OpKind::Const(v)) => v.first().copied().unwrap_or(0),
            None => 0,
            _ => {
                return Err(unsupported(
                    "a work-item function of a computed dimension",
                    span,
                    self.sm,
                ))
            }
        };
        let fit = |e: Expr| Expr::zext(e, width.saturating_sub(32));
        if d > 2 {
            let one = matches!(
                f,
                WorkItemFn::NumGroups
                    | WorkItemFn::GlobalSize
                    | WorkItemFn::LocalSize
                    | WorkItemFn::EnqueuedLocalSize
            );
            return Ok(Expr::lit(width, one as u64));
        }
        let d = d as usize;
        Ok(match f {
            WorkItemFn::GroupId => fit(Expr::Net(self.group[d])),
            WorkItemFn::NumGroups => match self.ngroups {
                Some(n) => fit(Expr::Net(n[d])),
                None => {
                    return Err(unsupported(
                        "get_num_groups without its counts",
                        span,
                        self.sm,
                    ))
                }
            },
            WorkItemFn::GlobalSize => fit(self.size_field("global_size", d)?),
            WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => {
                fit(self.size_field("local_size", d)?)
            }
            WorkItemFn::GlobalOffset => Expr::lit(width, 0),
            _ => return Err(unsupported(&format!("{f:?}"), span, self.sm)),
        })
    }

    pub(super) fn compute(
        &mut self,
        s: StateId,
        b: BlockId,
        o: OpId,
    ) -> Result<Computed, Diagnostic> {
        let op = self.k.block(b).op(o).clone();
        let args = self.k.block(b).operands(o);
        let nets: Vec<NetId> = args
            .iter()
            .map(|a| self.value(b, *a))
            .collect::<Result<_, _>>()?;
        let ty = op.ty.clone().unwrap_or(Ty::I(1));
        let aty = args.first().map(|a| self.ty_of(b, *a)).unwrap_or(Ty::I(1));
        let lanes = ty.lanes() as u32;
        let ew = ty.elem().bits();
        let aw = aty.elem().bits();
        let nope = |g: &Gen, what: &str| Err(unsupported(what, op.span, g.sm));
        if let OpKind::Builtin(call) = &op.kind {
            let tys: Vec<Ty> = args.iter().map(|a| self.ty_of(b, *a)).collect();
            return self.builtin(s, call, &nets, &tys, op.ty.as_ref(), op.span);
        }
        if ty.elem() == &Ty::F64 || aty.elem() == &Ty::F64 {
            if let Some(c) = self.double(s, &op.kind, &nets, &aty, &ty, op.span)? {
                return Ok(c);
            }
        }
        if (ty.elem() == &Ty::F64 || aty.elem() == &Ty::F64)
            && !matches!(
                op.kind,
                OpKind::Bitcast
                    | OpKind::Extract(_)
                    | OpKind::Insert(_)
                    | OpKind::Shuffle(_)
                    | OpKind::Splat
                    | OpKind::Build
                    | OpKind::Select
            )
        {
            return nope(self, "double-precision arithmetic");
        }
        let per_lane = |f: &dyn Fn(u32) -> Expr| concat((0..lanes).map(f).collect());
        let e = match &op.kind {
            OpKind::Unary(u) => {
                let a = nets[0];
                match u {
                    IU::Neg => per_lane(&|i| {
                        Expr::bin(BinOp::Sub, Expr::lit(ew, 0), lane(a, i, ew, lanes))
                    }),
                    IU::Not => Expr::un(UnOp::Not, Expr::Net(a)),
                    IU::FNeg => per_lane(&|i| flip_sign(lane(a, i, ew, lanes), ew)),
                }
            }
            OpKind::Binary(bop) if !ty.is_float() => {
                let (a, c) = (nets[0], nets[1]);
                let l = |i| lane(a, i, ew, lanes);
                let r = |i| lane(c, i, ew, lanes);
                let simple = |op| per_lane(&|i| Expr::bin(op, l(i), r(i)));
                let pow2 = self.pow2_lanes(b, args[1]);
                match bop {
                    IB::Add => simple(BinOp::Add),
                    IB::Sub => simple(BinOp::Sub),
                    IB::Mul => simple(BinOp::Mul),
                    IB::And => match self.mask_bits(b, &args, ew, lanes) {
                        // A mask with clear high bits leaves them constant zero in the
                        // netlist, where synthesis sees them: a multiplier reading the
                        // result is built for the low bits only (Yosys does not narrow
                        // a multiplier through `&`).
                        Some((keep, k, i)) => {
                            let x = nets[1 - i];
                            Expr::Concat(vec![
                                Expr::lit(ew - keep, 0),
                                Expr::bin(
                                    BinOp::And,
                                    Expr::Slice {
                                        net: x,
                                        hi: keep - 1,
                                        lo: 0,
                                    },
                                    Expr::lit(keep, k),
                                ),
                            ])
                        }
                        None => simple(BinOp::And),
                    },
                    IB::Or => simple(BinOp::Or),
                    IB::Xor => simple(BinOp::Xor),
                    IB::Shl => simple(BinOp::Shl),
                    IB::LShr => simple(BinOp::Shr),
                    IB::AShr => per_lane(&|i| {
                        Expr::mux(
                            Expr::bit(a, i * ew + ew - 1),
                            Expr::un(
                                UnOp::Not,
                                Expr::bin(BinOp::Shr, Expr::un(UnOp::Not, l(i)), r(i)),
                            ),
                            Expr::bin(BinOp::Shr, l(i), r(i)),
                        )
                    }),
                    // By a power of two (the scheduler's wiring): a shift or a mask.
                    IB::UDiv | IB::URem if pow2.is_some() => {
                        let p = pow2.as_deref().unwrap_or_default();
                        let k = |i: u32| p.get(i as usize).or(p.first()).copied().unwrap_or(1);
                        if *bop == IB::UDiv {
                            per_lane(&|i| {
                                let sh = k(i).trailing_zeros() as u64;
                                Expr::bin(BinOp::Shr, l(i), Expr::lit(ew, sh))
                            })
                        } else {
                            per_lane(&|i| Expr::bin(BinOp::And, l(i), Expr::lit(ew, k(i) - 1)))
                        }
                    }
                    IB::UDiv | IB::SDiv | IB::URem | IB::SRem => {
                        return self.divide(s, *bop, a, c, ew, lanes, op.span)
                    }
                    _ => return nope(self, &format!("{bop:?}")),
                }
            }
            OpKind::Binary(bop) => {
                let (module, sub) = match bop {
                    IB::FAdd => ("ohls_fp_add", Some(0)),
                    IB::FSub => ("ohls_fp_add", Some(1)),
                    IB::FMul => ("ohls_fp_mul", None),
                    IB::FDiv => ("ohls_fp_div", None),
                    _ => return nope(self, &format!("{bop:?}")),
                };
                self.require_f32(&ty, op.span)?;
                let (a, c) = (nets[0], nets[1]);
                let mut ins = Vec::new();
                for i in 0..lanes {
                    let mut v = vec![
                        ("a", 32, lane(a, i, 32, lanes)),
                        ("b", 32, lane(c, i, 32, lanes)),
                    ];
                    if let Some(x) = sub {
                        v.push(("sub", 1, Expr::lit(1, x)));
                    }
                    ins.push(v);
                }
                let r = self.unit(s, module, &[], ins, &[("result", 32)], &|o| Expr::Net(o[0]));
                return Ok(self.fp_nan_fix(*bop, a, c, lanes, r));
            }
            OpKind::Cmp(c) if aty.is_float() => {
                self.require_f32(&aty, op.span)?;
                let (a, bb) = (nets[0], nets[1]);
                let lanes = aty.lanes() as u32;
                let swap = matches!(c, CmpOp::FGt | CmpOp::FGe);
                let ins = (0..lanes)
                    .map(|i| {
                        let (x, y) = (lane(a, i, 32, lanes), lane(bb, i, 32, lanes));
                        let (x, y) = if swap { (y, x) } else { (x, y) };
                        vec![("a", 32, x), ("b", 32, y)]
                    })
                    .collect();
                let c = *c;
                let pick = move |o: &[NetId]| match c {
                    CmpOp::FEq => Expr::Net(o[0]),
                    CmpOp::FLt | CmpOp::FGt => Expr::Net(o[1]),
                    CmpOp::FLe | CmpOp::FGe => Expr::Net(o[2]),
                    _ => Expr::lnot(Expr::Net(o[0])),
                };
                if !matches!(
                    c,
                    CmpOp::FEq | CmpOp::FLt | CmpOp::FGt | CmpOp::FLe | CmpOp::FGe | CmpOp::FNe
                ) {
                    return nope(self, &format!("{c:?} on floats"));
                }
                return Ok(self.unit(
                    s,
                    "ohls_fp_cmp",
                    &[],
                    ins,
                    &[("eq", 1), ("lt", 1), ("le", 1), ("unordered", 1)],
                    &pick,
                ));
            }
            OpKind::Cmp(c) => {
                let (a, bb) = (nets[0], nets[1]);
                let lanes = aty.lanes() as u32;
                let signed = matches!(c, CmpOp::SLt | CmpOp::SLe | CmpOp::SGt | CmpOp::SGe);
                let op2 = match c {
                    CmpOp::Eq => BinOp::Eq,
                    CmpOp::Ne => BinOp::Ne,
                    CmpOp::SLt | CmpOp::ULt => BinOp::Lt,
                    CmpOp::SLe | CmpOp::ULe => BinOp::Le,
                    CmpOp::SGt | CmpOp::UGt => BinOp::Gt,
                    CmpOp::SGe | CmpOp::UGe => BinOp::Ge,
                    _ => return nope(self, &format!("{c:?}")),
                };
                concat(
                    (0..lanes)
                        .map(|i| {
                            let (x, y) = (lane(a, i, aw, lanes), lane(bb, i, aw, lanes));
                            if signed {
                                Expr::bin(op2, flip_sign(x, aw), flip_sign(y, aw))
                            } else {
                                Expr::bin(op2, x, y)
                            }
                        })
                        .collect(),
                )
            }
            OpKind::Select => {
                let (c, t, f) = (nets[0], nets[1], nets[2]);
                let cl = self.ty_of(b, args[0]).lanes() as u32;
                if cl == 1 {
                    let cw = self.m.net(c).width;
                    let cond = if cw == 1 {
                        Expr::Net(c)
                    } else {
                        Expr::bin(BinOp::Ne, Expr::Net(c), Expr::lit(cw, 0))
                    };
                    Expr::mux(cond, Expr::Net(t), Expr::Net(f))
                } else {
                    let cw = self.ty_of(b, args[0]).elem().bits();
                    per_lane(&|i| {
                        Expr::mux(
                            Expr::bin(BinOp::Ne, lane(c, i, cw, cl), Expr::lit(cw, 0)),
                            lane(t, i, ew, lanes),
                            lane(f, i, ew, lanes),
                        )
                    })
                }
            }
            OpKind::Conv(cv) => return self.convert(s, *cv, nets[0], &aty, &ty, op.span),
            OpKind::Bitcast => Expr::Net(nets[0]),
            OpKind::Extract(i) => lane(nets[0], *i as u32, ew, aty.lanes() as u32),
            OpKind::Insert(k) => {
                let a = nets[0];
                per_lane(&|i| {
                    if i == *k as u32 {
                        Expr::Net(nets[1])
                    } else {
                        lane(a, i, ew, lanes)
                    }
                })
            }
            OpKind::Shuffle(idx) => {
                let n0 = aty.lanes() as u32;
                let src = |j: u32| {
                    if j < n0 {
                        lane(nets[0], j, ew, n0)
                    } else {
                        let n1 = self.ty_of(b, args[1]).lanes() as u32;
                        lane(nets[1], j - n0, ew, n1)
                    }
                };
                concat(idx.iter().map(|j| src(*j as u32)).collect())
            }
            OpKind::Splat => Expr::Repeat(lanes, Box::new(Expr::Net(nets[0]))),
            OpKind::Build => concat(nets.iter().map(|n| Expr::Net(*n)).collect()),
            OpKind::PtrAdd => Expr::bin(BinOp::Add, Expr::Net(nets[0]), Expr::Net(nets[1])),
            OpKind::PtrDiff => Expr::bin(BinOp::Sub, Expr::Net(nets[0]), Expr::Net(nets[1])),
            other => return nope(self, &format!("{other:?}")),
        };
        Ok(Computed::Comb(e))
    }

    fn require_f32(&self, ty: &Ty, span: crate::diag::Span) -> Result<(), Diagnostic> {
        if ty.elem() == &Ty::F32 {
            Ok(())
        } else {
            Err(unsupported(&format!("{ty} arithmetic"), span, self.sm))
        }
    }

    /// One template instance per lane, started in the first cycle of `s`; the op is done
    /// when lane 0's `out_valid` rises (every lane has the same latency).
    pub(super) fn unit(
        &mut self,
        s: StateId,
        module: &str,
        params: &[(&str, i64)],
        lanes: Vec<Vec<(&str, u32, Expr)>>,
        outs: &[(&str, u32)],
        pick: &dyn Fn(&[NetId]) -> Expr,
    ) -> Computed {
        // In a pipeline: the op's unit as bound, started in the op's slot, moving with the
        // pipeline; its fixed latency tells when the result is there.
        let pipe = self.pipe.clone();
        if let Some(c) = self.pipe.as_mut() {
            c.latency = super::pipe::unit_latency(module, params);
        }
        let bound = self.cur_op.and_then(|(b, o)| match pipe {
            Some(_) => self.binding.pipe_unit(b, o),
            None => self.binding.unit(b, o),
        });
        // A unit several ops share: in a pipeline each drives it in its own slot; in the
        // FSM in its own state (which waits for the result before the next one starts).
        if let Some((_, u)) = bound.filter(|(_, u)| u.ops.len() > 1) {
            let name = u.name.clone();
            let when = match &pipe {
                Some(ctx) => Use {
                    start: ctx.issue.clone(),
                    operands: ctx.issue.clone(),
                    en: ctx.en.clone(),
                },
                None => Use {
                    start: self.issue(s, &name),
                    operands: self.fsm.active(s),
                    en: Expr::lit(1, 1),
                },
            };
            return self.shared_unit(&name, module, params, lanes, outs, pick, when);
        }
        let bound = bound.map(|(_, u)| u.name.clone());
        let in_valid = {
            let n = self.fresh("go");
            self.m.wire(&n, 1)
        };
        let (base, en) = match &pipe {
            Some(ctx) => {
                self.m.assign(in_valid, ctx.issue.clone());
                let name = bound.unwrap_or_else(|| self.fresh("pu"));
                (name, ctx.en.clone())
            }
            None => {
                let base = self.bound_unit(module);
                let first = self.issue(s, &base);
                self.fsm.drive(in_valid, first, Expr::lit(1, 1));
                (base, Expr::lit(1, 1))
            }
        };
        let mut done = None;
        let mut values = Vec::new();
        let many = lanes.len() > 1;
        for (lane, ins) in lanes.into_iter().enumerate() {
            let name = if many {
                format!("{base}_l{lane}")
            } else {
                base.clone()
            };
            let valid = self.m.wire(&format!("{name}_valid"), 1);
            let mut inst = Instance::new(module, &name);
            for (p, v) in params {
                inst = inst.param(p, *v);
            }
            inst = inst
                .input("clk", 1, self.clk)
                .input("rst", 1, self.rst)
                .input("en", 1, en.clone())
                .input("in_valid", 1, in_valid);
            for (p, w, e) in ins {
                inst = inst.input(p, w, e);
            }
            inst = inst.output("out_valid", 1, valid);
            let mut onets = Vec::new();
            for (p, w) in outs {
                let n = self.m.wire(&format!("{name}_{p}"), *w);
                inst = inst.output(p, *w, n);
                onets.push(n);
            }
            self.m.instance(inst);
            done.get_or_insert(valid);
            values.push(pick(&onets));
        }
        Computed::Unit {
            done: Expr::Net(done.unwrap_or(in_valid)),
            value: concat(values),
        }
    }

    /// A unit several ops share (a pipelined loop's ops in different slots, or FSM ops in
    /// different states): built by the first of them with its inputs as wires; each op
    /// drives them (and `in_valid`) only when it is its turn (`when`), which the binding
    /// makes exclusive, and reads the outputs its latency later, which the slots (or the
    /// state waiting for the result) keep apart as well.
    #[allow(clippy::too_many_arguments)]
    fn shared_unit(
        &mut self,
        name: &str,
        module: &str,
        params: &[(&str, i64)],
        lanes: Vec<Vec<(&str, u32, Expr)>>,
        outs: &[(&str, u32)],
        pick: &dyn Fn(&[NetId]) -> Expr,
        when: Use,
    ) -> Computed {
        let sig = Signature::of(module, params, &lanes);
        match self.shared.get(name).map(|u| u.sig == sig) {
            // Two ops the binding paired need different templates: a binder bug, which
            // fails the generation with this message.
            Some(false) => {
                self.unbound.get_or_insert(Diagnostic::error(
                    self.k.span,
                    format!("internal error: ops bound to {name} need different units"),
                ));
            }
            Some(true) => {}
            None => {
                let u = self.build_shared(name, sig, params, &lanes, outs, when.en.clone());
                self.shared.insert(name.to_string(), u);
            }
        }
        let u = self.shared[name].clone();
        self.fsm.drive(u.in_valid, when.start, Expr::lit(1, 1));
        let mut values = Vec::new();
        for (lane, ins) in lanes.into_iter().enumerate() {
            for ((_, _, e), n) in ins.into_iter().zip(&u.inputs[lane]) {
                self.fsm.drive(*n, when.operands.clone(), e);
            }
            values.push(pick(&u.outputs[lane]));
        }
        Computed::Unit {
            done: Expr::Net(u.valid),
            value: concat(values),
        }
    }

    /// The instances (one per lane) of a shared unit, their inputs as wires to drive.
    fn build_shared(
        &mut self,
        name: &str,
        sig: Signature,
        params: &[(&str, i64)],
        lanes: &[Vec<(&str, u32, Expr)>],
        outs: &[(&str, u32)],
        en: Expr,
    ) -> SharedUnit {
        let in_valid = self.m.wire(&format!("{name}_go"), 1);
        let many = lanes.len() > 1;
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let mut valid = None;
        for (lane, ins) in lanes.iter().enumerate() {
            let inst_name = if many {
                format!("{name}_l{lane}")
            } else {
                name.to_string()
            };
            let v = self.m.wire(&format!("{inst_name}_valid"), 1);
            valid.get_or_insert(v);
            let mut inst = Instance::new(&sig.module, &inst_name);
            for (p, v) in params {
                inst = inst.param(p, *v);
            }
            inst = inst
                .input("clk", 1, self.clk)
                .input("rst", 1, self.rst)
                .input("en", 1, en.clone())
                .input("in_valid", 1, in_valid);
            let mut lane_in = Vec::new();
            for (p, w, _) in ins {
                let n = self.m.wire(&format!("{inst_name}_{p}_in"), *w);
                inst = inst.input(p, *w, n);
                lane_in.push(n);
            }
            inst = inst.output("out_valid", 1, v);
            let mut onets = Vec::new();
            for (p, w) in outs {
                let n = self.m.wire(&format!("{inst_name}_{p}"), *w);
                inst = inst.output(p, *w, n);
                onets.push(n);
            }
            self.m.instance(inst);
            inputs.push(lane_in);
            outputs.push(onets);
        }
        SharedUnit {
            sig,
            in_valid,
            valid: valid.unwrap_or(in_valid),
            inputs,
            outputs,
        }
    }

    /// The lanes of constant `o` when every one is a power of two (as the scheduler's
    /// classification sees a divisor it builds as wiring).
    /// For a scalar `and` with a constant operand whose high bits are clear: the bits
    /// the mask keeps, the mask, and the constant's operand position.
    fn mask_bits(
        &self,
        b: BlockId,
        args: &[OpId],
        ew: u32,
        lanes: u32,
    ) -> Option<(u32, u64, usize)> {
        if lanes != 1 || args.len() != 2 {
            return None;
        }
        let blk = self.k.block(b);
        let (i, k) = args
            .iter()
            .enumerate()
            .find_map(|(i, o)| match &blk.op(*o).kind {
                OpKind::Const(v) if v.len() == 1 => Some((i, v[0])),
                _ => None,
            })?;
        let keep = 64 - k.leading_zeros();
        (keep > 0 && keep < ew).then_some((keep, k, i))
    }

    fn pow2_lanes(&self, b: BlockId, o: OpId) -> Option<Vec<u64>> {
        match &self.k.block(b).op(o).kind {
            OpKind::Const(v) if !v.is_empty() && v.iter().all(|x| x.is_power_of_two()) => {
                Some(v.clone())
            }
            _ => None,
        }
    }

    /// The instance name the binding gives the op being generated; an op the binding
    /// left out is a compiler bug, reported once the datapath is built.
    fn bound_unit(&mut self, module: &str) -> String {
        let unit = self.cur_op.and_then(|(b, o)| self.binding.unit(b, o));
        let missing = match (unit, self.cur_op) {
            (Some((_, u)), _) => return u.name.clone(),
            (None, Some((b, o))) => Diagnostic::error(
                self.k.block(b).op(o).span,
                format!(
                    "internal error: the binding has no unit for this op ({module}, class {})",
                    crate::schedule::classify(o, self.k.block(b))
                ),
            ),
            (None, None) => Diagnostic::error(
                self.k.span,
                format!("internal error: a {module} unit outside any op"),
            ),
        };
        self.unbound.get_or_insert(missing);
        self.fresh("u")
    }

    #[allow(clippy::too_many_arguments)]
    fn divide(
        &mut self,
        s: StateId,
        op: IB,
        a: NetId,
        c: NetId,
        w: u32,
        lanes: u32,
        span: crate::diag::Span,
    ) -> Result<Computed, Diagnostic> {
        let signed = matches!(op, IB::SDiv | IB::SRem);
        let rem = matches!(op, IB::URem | IB::SRem);
        // ohls_div takes 8..64 bits: narrower operands are extended.
        let dw = w.max(8);
        if w > 64 {
            return Err(unsupported("division wider than 64 bits", span, self.sm));
        }
        let ins = (0..lanes)
            .map(|i| {
                let ext = |n: NetId| resize(n, i * w, w, dw, signed);
                vec![("dividend", dw, ext(a)), ("divisor", dw, ext(c))]
            })
            .collect();
        let pick = move |o: &[NetId]| {
            let n = if rem { o[1] } else { o[0] };
            if dw == w {
                Expr::Net(n)
            } else {
                Expr::Slice {
                    net: n,
                    hi: w - 1,
                    lo: 0,
                }
            }
        };
        let params = [("WIDTH", dw as i64), ("SIGNED", signed as i64)];
        Ok(self.unit(
            s,
            "ohls_div",
            &params,
            ins,
            &[("quotient", dw), ("remainder", dw)],
            &pick,
        ))
    }
}

//! Built-in functions to IR ops: work-item queries, barriers and fences, atomics,
//! vector and half loads/stores, `convert_*` and `as_*`; the rest become `Builtin` calls
//! with their arguments converted to the chosen overload's parameter types.

use crate::diag::Span;
use crate::frontend::ast::Expr;
use crate::frontend::builtins::{BuiltinSig, Family};
use crate::frontend::types::{Scalar, Type};
use crate::ir::{AtomicOp, BuiltinCall, CmpOp, Conv, OpKind, Round, Ty, WorkItemFn};

use super::types::{elem, ir_ty, layout, scalar_ty};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    pub fn call_builtin(&mut self, e: &Expr, sig: &BuiltinSig, args: &[Expr]) -> R<Option<Val>> {
        let span = e.span;
        let name = sig.name.as_str();
        if super::async_copy::is_async_builtin(name) {
            return self.async_builtin(e, sig, args);
        }
        match sig.family {
            Family::WorkItem => self.work_item(e, sig, args).map(Some),
            Family::Sync => {
                let Some(flags) = args.first().and_then(|a| self.p.expr(a.id).value) else {
                    return self.fail(
                        span,
                        format!("the flags of '{name}' must be a constant expression"),
                    );
                };
                for a in args.iter().skip(1) {
                    self.effect_expr(a)?;
                }
                let flags = flags as u32;
                let kind = if name == "barrier" || name == "work_group_barrier" {
                    OpKind::Barrier { flags }
                } else {
                    OpKind::MemFence { flags }
                };
                self.emit(kind, None, span, &[]);
                Ok(None)
            }
            Family::Atomic => self.atomic(e, sig, args),
            Family::VectorLoadStore => self.vector_mem(e, sig, args),
            Family::Convert => {
                let v = self.arg(args, 0, span)?;
                let from = sig.params.first().cloned().unwrap_or(Type::Void);
                self.explicit_convert(v, &from, &sig.ret, name, span)
                    .map(Some)
            }
            Family::Reinterpret => {
                let v = self.arg(args, 0, span)?;
                let ty = self.ir_type(&sig.ret, span)?;
                Ok(Some(self.op(OpKind::Bitcast, ty, span, &[&v])))
            }
            _ => {
                let mut vals = Vec::new();
                for i in 0..args.len() {
                    vals.push(self.arg(args, i, span)?);
                }
                let refs: Vec<&Val> = vals.iter().collect();
                let call = OpKind::Builtin(BuiltinCall {
                    name: name.to_string(),
                    params: sig.params.clone(),
                    ret: sig.ret.clone(),
                });
                match ir_ty(&sig.ret) {
                    Some(ty) => Ok(Some(self.op(call, ty, span, &refs))),
                    None => {
                        self.effect(call, span, &refs);
                        Ok(None)
                    }
                }
            }
        }
    }

    fn arg(&mut self, args: &[Expr], i: usize, span: Span) -> R<Val> {
        match args.get(i) {
            Some(a) => self.rvalue(a),
            None => self.fail(span, "a built-in call is missing an argument"),
        }
    }

    fn work_item(&mut self, e: &Expr, sig: &BuiltinSig, args: &[Expr]) -> R<Val> {
        use WorkItemFn::*;
        let f = match sig.name.as_str() {
            "get_work_dim" => WorkDim,
            "get_global_size" => GlobalSize,
            "get_global_id" => GlobalId,
            "get_local_size" => LocalSize,
            "get_enqueued_local_size" => EnqueuedLocalSize,
            "get_local_id" => LocalId,
            "get_num_groups" => NumGroups,
            "get_group_id" => GroupId,
            "get_global_offset" => GlobalOffset,
            "get_global_linear_id" => GlobalLinearId,
            "get_local_linear_id" => LocalLinearId,
            other => return self.fail(e.span, format!("unknown work-item function '{other}'")),
        };
        let ty = self.ir_type(&sig.ret, e.span)?;
        let mut ops = Vec::new();
        if !args.is_empty() {
            ops.push(self.arg(args, 0, e.span)?);
        }
        let refs: Vec<&Val> = ops.iter().collect();
        Ok(self.op(OpKind::WorkItem(f), ty, e.span, &refs))
    }

    fn atomic(&mut self, e: &Expr, sig: &BuiltinSig, args: &[Expr]) -> R<Option<Val>> {
        let span = e.span;
        let base = sig.name.trim_end_matches("_explicit");
        let stem = base
            .trim_start_matches("atomic_fetch_")
            .trim_start_matches("atomic_")
            .trim_start_matches("atom_");
        let pointee = sig
            .params
            .first()
            .and_then(|t| t.pointer())
            .map(|p| p.pointee.clone())
            .unwrap_or(Type::Void);
        let signed = elem(&pointee).is_some_and(|s| s.is_signed());
        if stem.starts_with("compare_exchange") {
            return self.compare_exchange(e, args, &pointee).map(Some);
        }
        let (op, n) = match stem {
            "add" => (AtomicOp::Add, 2),
            "sub" => (AtomicOp::Sub, 2),
            "xchg" | "exchange" => (AtomicOp::Xchg, 2),
            "inc" => (AtomicOp::Inc, 1),
            "dec" => (AtomicOp::Dec, 1),
            "cmpxchg" => (AtomicOp::CmpXchg, 3),
            "min" if signed => (AtomicOp::SMin, 2),
            "min" => (AtomicOp::UMin, 2),
            "max" if signed => (AtomicOp::SMax, 2),
            "max" => (AtomicOp::UMax, 2),
            "and" => (AtomicOp::And, 2),
            "or" => (AtomicOp::Or, 2),
            "xor" => (AtomicOp::Xor, 2),
            "load" => (AtomicOp::Load, 1),
            "store" | "init" => (AtomicOp::Store, 2),
            _ => {
                return self.fail(
                    span,
                    format!("atomic function '{}' is not supported", sig.name),
                )
            }
        };
        let mut vals = Vec::new();
        for i in 0..n {
            vals.push(self.arg(args, i, span)?);
        }
        // Memory order and scope arguments: evaluated, but every atomic here is seq_cst.
        for a in args.iter().skip(n) {
            self.effect_expr(a)?;
        }
        let Ty::Ptr(space) = vals[0].ty else {
            return self.fail(span, "an atomic function needs a pointer");
        };
        let kind = OpKind::Atomic {
            op,
            space,
            base: None,
        };
        let refs: Vec<&Val> = vals.iter().collect();
        if op == AtomicOp::Store {
            self.effect(kind, span, &refs);
            return Ok(None);
        }
        let ty = self.ir_type(&pointee, span)?;
        Ok(Some(self.op(kind, ty, span, &refs)))
    }

    /// `atomic_compare_exchange_*(obj, expected, desired)`: swaps when `*obj == *expected`,
    /// otherwise stores the value found into `*expected`; returns whether it swapped.
    fn compare_exchange(&mut self, e: &Expr, args: &[Expr], pointee: &Type) -> R<Val> {
        let span = e.span;
        let obj = self.arg(args, 0, span)?;
        let expp = self.arg(args, 1, span)?;
        let desired = self.arg(args, 2, span)?;
        for a in args.iter().skip(3) {
            self.effect_expr(a)?;
        }
        let (Ty::Ptr(space), Ty::Ptr(espace)) = (obj.ty.clone(), expp.ty.clone()) else {
            return self.fail(span, "an atomic function needs a pointer");
        };
        let ty = self.ir_type(pointee, span)?;
        let align = layout(self.p, pointee).map_or(4, |l| l.align) as u32;
        let exp = self.op(
            OpKind::Load {
                space: espace,
                base: None,
                align,
            },
            ty.clone(),
            span,
            &[&expp],
        );
        let old = self.op(
            OpKind::Atomic {
                op: AtomicOp::CmpXchg,
                space,
                base: None,
            },
            ty.clone(),
            span,
            &[&obj, &exp, &desired],
        );
        let (a, b) = if ty.is_float() {
            let it = Ty::I(ty.bits() as u8);
            (
                self.op(OpKind::Bitcast, it.clone(), span, &[&old]),
                self.op(OpKind::Bitcast, it, span, &[&exp]),
            )
        } else {
            (old.clone(), exp.clone())
        };
        let ok = self.op(OpKind::Cmp(CmpOp::Eq), Ty::I(1), span, &[&a, &b]);
        let back = self.op(OpKind::Select, ty, span, &[&ok, &exp, &old]);
        self.effect(
            OpKind::Store {
                space: espace,
                base: None,
                align,
            },
            span,
            &[&expp, &back],
        );
        Ok(ok)
    }

    /// `convert_T[_sat][_rXX](v)` from type `from` to `to`.
    pub fn explicit_convert(
        &mut self,
        v: Val,
        from: &Type,
        to: &Type,
        name: &str,
        span: Span,
    ) -> R<Val> {
        let (Some(fe), Some(te)) = (elem(from), elem(to)) else {
            return self.fail(span, format!("'{name}' on a non-arithmetic type"));
        };
        let sat = name.contains("_sat");
        let round = rounding(name);
        let target = Ty::vec(scalar_ty(te), to.lanes());
        let conv = match (fe.is_float(), te.is_float()) {
            (false, false) => {
                // Same type: nothing to do; same width without saturation: the same bits.
                if fe == te || (fe.bits() == te.bits() && !sat) {
                    return Ok(v);
                }
                Conv::Int {
                    from_signed: fe.is_signed(),
                    to_signed: te.is_signed(),
                    sat,
                }
            }
            (true, false) => Conv::FloatToInt {
                to_signed: te.is_signed(),
                round: round.unwrap_or(Round::Rtz),
                sat,
            },
            (false, true) => Conv::IntToFloat {
                from_signed: fe.is_signed(),
                round: round.unwrap_or(Round::Rte),
            },
            (true, true) => {
                if fe == te {
                    return Ok(v);
                }
                Conv::Float {
                    round: round.unwrap_or(Round::Rte),
                }
            }
        };
        Ok(self.op(OpKind::Conv(conv), target, span, &[&v]))
    }

    /// `vloadN`, `vstoreN` and the half forms.
    fn vector_mem(&mut self, e: &Expr, sig: &BuiltinSig, args: &[Expr]) -> R<Option<Val>> {
        let span = e.span;
        let name = sig.name.as_str();
        let store = name.starts_with("vstore");
        let (rest, half, aligned) = [
            "vloada_half",
            "vstorea_half",
            "vload_half",
            "vstore_half",
            "vload",
            "vstore",
        ]
        .iter()
        .find_map(|p| {
            name.strip_prefix(p)
                .map(|r| (r, p.contains("half"), p.contains("a_half")))
        })
        .unwrap_or((name, false, false));
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        let n: u8 = if digits.is_empty() {
            1
        } else {
            digits.parse().unwrap_or(1)
        };
        let ptr_i = if store { 2 } else { 1 };
        let pointee = sig
            .params
            .get(ptr_i)
            .and_then(|t| t.pointer())
            .map(|p| p.pointee.clone())
            .unwrap_or(Type::Void);
        let Some(es) = elem(&pointee) else {
            return self.fail(span, format!("'{name}' needs a pointer to a scalar type"));
        };
        let esize = es.size() as u64;
        // vloada_half3/vstorea_half3 step over 4 halves; vload3/vstore3 over 3 elements.
        let step = if aligned && n == 3 { 4 } else { n as u64 } * esize;
        let align = if aligned { step.min(16 * esize) } else { esize };
        let data = if store {
            Some(self.arg(args, 0, span)?)
        } else {
            None
        };
        let off_i = if store { 1 } else { 0 };
        let offset = self.arg(args, off_i, span)?;
        let ptr = self.arg(args, ptr_i, span)?;
        let Ty::Ptr(space) = ptr.ty else {
            return self.fail(span, format!("'{name}' needs a pointer"));
        };
        let off = self.scaled_offset(&offset, &Type::Scalar(Scalar::ULong), step, span);
        let addr = self.op(OpKind::PtrAdd, ptr.ty.clone(), span, &[&ptr, &off]);
        let mem_ty = Ty::vec(scalar_ty(es), n);
        if let Some(data) = data {
            let value = if half {
                let round = rounding(name).unwrap_or(Round::Rte);
                self.op(
                    OpKind::Conv(Conv::Float { round }),
                    Ty::vec(Ty::F16, n),
                    span,
                    &[&data],
                )
            } else {
                data
            };
            self.effect(
                OpKind::Store {
                    space,
                    base: None,
                    align: align as u32,
                },
                span,
                &[&addr, &value],
            );
            return Ok(None);
        }
        let v = self.op(
            OpKind::Load {
                space,
                base: None,
                align: align as u32,
            },
            mem_ty,
            span,
            &[&addr],
        );
        if half {
            return Ok(Some(self.widen_half(&v, span)));
        }
        Ok(Some(v))
    }
}

/// The rounding-mode suffix of a conversion or half store name.
fn rounding(name: &str) -> Option<Round> {
    [
        ("_rte", Round::Rte),
        ("_rtz", Round::Rtz),
        ("_rtp", Round::Rtp),
        ("_rtn", Round::Rtn),
    ]
    .iter()
    .find(|(s, _)| name.ends_with(s))
    .map(|(_, r)| *r)
}

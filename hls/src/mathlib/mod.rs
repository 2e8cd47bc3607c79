//! Math built-ins as IR: before the datapath is generated, each call of exp, exp2,
//! exp10, log, log2, log10, pow, sin, cos or tan on binary32 is replaced by integer,
//! binary64 and conversion ops computing it within OpenCL's ULP bounds (see `explog`
//! and `trig` for the methods), and `mad` of floats or doubles by a multiply and an add.
//! The interpreter keeps its own implementation for
//! `--engine interp`; tests run the expansion in the interpreter to measure it.

mod build;
mod explog;
mod trig;

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::diag::Diagnostic;
use crate::ir::{BinOp, Block, Kernel, OpId, OpKind, Ty};
use build::B;
use explog::Base;
use trig::Fun;

/// The built-ins this module expands.
pub const EXPANDED: &[&str] = &[
    "exp", "exp2", "exp10", "log", "log2", "log10", "pow", "sin", "cos", "tan",
];

/// `k` with every binary32 call of an [`EXPANDED`] built-in replaced by its expansion.
pub fn expand(k: &Kernel) -> Result<Kernel, Diagnostic> {
    let mut out = k.clone();
    for blk in &mut out.blocks {
        expand_block(blk)?;
    }
    Ok(out)
}

/// Whether op `o` is a call this module replaces, with its lane count.
fn target(blk: &Block, o: OpId) -> Option<u8> {
    let op = blk.op(o);
    let OpKind::Builtin(call) = &op.kind else {
        return None;
    };
    let ty = op.ty.as_ref()?;
    let args = blk.operands(o);
    let arity = if call.name == "pow" { 2 } else { 1 };
    let f32_of =
        |t: Option<&Ty>| t.is_some_and(|t| t.elem() == &Ty::F32 && t.lanes() == ty.lanes());
    let ok = EXPANDED.contains(&call.name.as_str())
        && args.len() == arity
        && f32_of(Some(ty))
        && args.iter().all(|a| f32_of(blk.op(*a).ty.as_ref()));
    ok.then_some(ty.lanes())
}

/// `mad(a, b, c)` of float or double lanes as a multiply, then an add: two roundings, as
/// the interpreter computes it and as POCL does with contraction off (OpenCL lets `mad`
/// be computed any way, "with reduced accuracy"; the hardware has no unit of its own
/// for it, and the binary64 units have no fma).
fn expand_mad(blk: &mut Block) {
    let mads: Vec<OpId> = blk
        .order
        .iter()
        .copied()
        .filter(|&o| {
            let op = blk.op(o);
            matches!(&op.kind, OpKind::Builtin(c) if c.name == "mad")
                && op
                    .ty
                    .as_ref()
                    .is_some_and(|t| matches!(t.elem(), Ty::F32 | Ty::F64))
                && blk.operands(o).len() == 3
        })
        .collect();
    for o in mads {
        let (ty, span) = (blk.op(o).ty.clone(), blk.op(o).span);
        let args = blk.operands(o);
        let before = blk.order.len();
        let p = blk.add(
            OpKind::Binary(BinOp::FMul),
            ty.clone(),
            span,
            &[args[0], args[1]],
        );
        let s = blk.add(OpKind::Binary(BinOp::FAdd), ty, span, &[p, args[2]]);
        splice(blk, o, s, before);
    }
}

fn expand_block(blk: &mut Block) -> Result<(), Diagnostic> {
    expand_mad(blk);
    let targets: Vec<OpId> = blk
        .order
        .iter()
        .copied()
        .filter(|o| target(blk, *o).is_some())
        .collect();
    for o in targets {
        let Some(lanes) = target(blk, o) else {
            continue;
        };
        let OpKind::Builtin(call) = blk.op(o).kind.clone() else {
            continue;
        };
        let span = blk.op(o).span;
        let args = blk.operands(o);
        let before = blk.order.len();
        let mut b = B {
            blk: &mut *blk,
            span,
            lanes,
        };
        let r = match call.name.as_str() {
            "exp" => explog::exp(&mut b, args[0], Base::E),
            "exp2" => explog::exp(&mut b, args[0], Base::Two),
            "exp10" => explog::exp(&mut b, args[0], Base::Ten),
            "log" => explog::log(&mut b, args[0], Base::E),
            "log2" => explog::log(&mut b, args[0], Base::Two),
            "log10" => explog::log(&mut b, args[0], Base::Ten),
            "pow" => explog::pow(&mut b, args[0], args[1]),
            "sin" => trig::trig(&mut b, args[0], Fun::Sin),
            "cos" => trig::trig(&mut b, args[0], Fun::Cos),
            "tan" => trig::trig(&mut b, args[0], Fun::Tan),
            other => {
                return Err(Diagnostic::error(
                    span,
                    format!("mathlib: no expansion for `{other}`"),
                ))
            }
        };
        splice(blk, o, r, before);
    }
    Ok(())
}

/// Moves the ops appended since `before` to where `old` stands in the block's order,
/// gives `old`'s users `new` instead and removes `old`.
fn splice(blk: &mut Block, old: OpId, new: OpId, before: usize) {
    let added: Vec<OpId> = blk.order.split_off(before);
    match blk.order.iter().position(|x| *x == old) {
        Some(at) => {
            blk.order.splice(at..=at, added);
        }
        None => blk.order.extend(added),
    }
    let outs: Vec<_> = blk
        .graph
        .edges_directed(old.0, Direction::Outgoing)
        .map(|e| (e.target(), *e.weight()))
        .collect();
    for (t, w) in outs {
        blk.graph.add_edge(new.0, t, w);
    }
    blk.graph.remove_node(old.0);
}

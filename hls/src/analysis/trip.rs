//! Trip counts of source loops, found by running the loop's counter alone: the values
//! its condition and latch need (constants, scalar arguments, work-group sizes and the
//! variables set before the loop) are evaluated, the latch applied until the condition
//! fails. Anything else the loop depends on (loads, work-item ids, values its body
//! changes) leaves the trip count unknown.

use std::collections::HashMap;

use crate::ir::{
    BinOp, Block, BlockId, CmpOp, Conv, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region, Ty,
    VarId, WorkItemFn,
};

/// Launch facts the trip counts may depend on; `None` for what is not known.
#[derive(Clone, Debug, Default)]
pub struct LaunchValues {
    /// Per kernel parameter, its scalar value (bits, zero-extended); `None` for buffers.
    pub scalars: Vec<Option<u64>>,
    pub global: Option<[u64; 3]>,
    pub local: Option<[u64; 3]>,
    /// Per loop of the NDRange kernel, (entries, iterations) the interpreter counted
    /// (see `counts`): the average fills in trip counts that depend on data.
    pub measured: Option<super::counts::Counts>,
}

/// Iterations counted before giving up (a loop that long is reported unknown).
const MAX_TRIPS: u64 = 50_000_000;

type Vars = HashMap<VarId, Option<u64>>;

/// The iterations of loop `id` (of the NDRange kernel) per entry, when they follow from
/// what is known before the loop; else the average of its `xcl_loop_tripcount`, which
/// the designer wrote for exactly this case (a count that depends on data).
pub fn trip_count(k: &Kernel, id: LoopId, env: &LaunchValues) -> Option<u64> {
    counted(k, id, env).or_else(|| k.lp(id).hints.tripcount.map(|t| t.avg))
}

fn counted(k: &Kernel, id: LoopId, env: &LaunchValues) -> Option<u64> {
    let mut vars = Vars::new();
    if !before(k, &k.body, id, env, &mut vars) {
        return None;
    }
    let l = k.lp(id);
    let (cb, co) = l.cond?;
    let mut changed = Vec::new();
    written(k, &l.body, &mut changed);
    let mut needs = Vec::new();
    reads(k, cb, &mut needs);
    for n in &l.latch.0 {
        match n {
            Node::Block(b) => reads(k, *b, &mut needs),
            _ => return None,
        }
    }
    if needs.iter().any(|v| changed.contains(v)) {
        return None;
    }
    let mut n = 0u64;
    if l.kind == LoopKind::DoWhile {
        n += 1;
        latch(k, &l.latch, env, &mut vars);
    }
    loop {
        let c = eval(k.block(cb), co, env, &mut vars.clone())?;
        if c & 1 == 0 {
            return Some(n);
        }
        n += 1;
        if n > MAX_TRIPS {
            return None;
        }
        latch(k, &l.latch, env, &mut vars);
    }
}

/// Runs the straight-line blocks before loop `id` on the way down to it; forgets the
/// variables that ifs and other loops on the way may change. False if `id` is not in `r`.
fn before(k: &Kernel, r: &Region, id: LoopId, env: &LaunchValues, vars: &mut Vars) -> bool {
    for n in &r.0 {
        match n {
            Node::Block(b) => run_block(k, *b, env, vars),
            Node::Loop(l) if *l == id => return true,
            Node::Loop(l) => {
                let lp = k.lp(*l);
                let mut w = Vec::new();
                written(k, &Region(vec![n.clone()]), &mut w);
                let inside = {
                    let mut v = vars.clone();
                    forget(&mut v, &w);
                    before(k, &lp.body, id, env, &mut v) || before(k, &lp.latch, id, env, &mut v)
                };
                if inside {
                    // Entered from the enclosing loop: values it changes are unknown.
                    forget(vars, &w);
                    let found =
                        before(k, &lp.body, id, env, vars) || before(k, &lp.latch, id, env, vars);
                    return found;
                }
                forget(vars, &w);
            }
            Node::If {
                cond, then, els, ..
            } => {
                run_block(k, cond.0, env, vars);
                for arm in [then, els] {
                    let mut v = vars.clone();
                    if before(k, arm, id, env, &mut v) {
                        *vars = v;
                        return true;
                    }
                }
                let mut w = Vec::new();
                written(k, then, &mut w);
                written(k, els, &mut w);
                forget(vars, &w);
            }
            _ => {}
        }
    }
    false
}

fn forget(vars: &mut Vars, w: &[VarId]) {
    for v in w {
        vars.insert(*v, None);
    }
}

fn latch(k: &Kernel, r: &Region, env: &LaunchValues, vars: &mut Vars) {
    for n in &r.0 {
        if let Node::Block(b) = n {
            run_block(k, *b, env, vars);
        }
    }
}

/// Applies a block's variable writes (unknown values where an operand is unknown).
fn run_block(k: &Kernel, b: BlockId, env: &LaunchValues, vars: &mut Vars) {
    let block = k.block(b);
    let mut vals: HashMap<OpId, Option<u64>> = HashMap::new();
    for &id in &block.order {
        let v = match &block.op(id).kind {
            OpKind::WriteVar(v) => {
                let x = block
                    .operands(id)
                    .first()
                    .and_then(|o| vals.get(o).copied().flatten());
                vars.insert(*v, x);
                None
            }
            _ => value(block, id, env, vars, &vals),
        };
        vals.insert(id, v);
    }
}

/// The value of op `id` of a block without writes, operands first.
fn eval(block: &Block, id: OpId, env: &LaunchValues, vars: &mut Vars) -> Option<u64> {
    let mut vals: HashMap<OpId, Option<u64>> = HashMap::new();
    for &o in &block.order {
        if matches!(block.op(o).kind, OpKind::WriteVar(_)) {
            return None;
        }
        let v = value(block, o, env, vars, &vals);
        vals.insert(o, v);
        if o == id {
            return v;
        }
    }
    None
}

fn width(t: &Option<Ty>) -> Option<u32> {
    match t {
        Some(Ty::I(n)) => Some(*n as u32),
        _ => None,
    }
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

/// One integer scalar op on known operand values.
fn value(
    block: &Block,
    id: OpId,
    env: &LaunchValues,
    vars: &Vars,
    vals: &HashMap<OpId, Option<u64>>,
) -> Option<u64> {
    let op = block.op(id);
    let w = width(&op.ty)?;
    let args: Vec<OpId> = block.operands(id);
    let arg = |i: usize| args.get(i).and_then(|o| vals.get(o).copied().flatten());
    let arg_w = |i: usize| args.get(i).and_then(|o| width(&block.op(*o).ty));
    let v = match &op.kind {
        OpKind::Const(l) => *l.first()?,
        OpKind::Param(i) => env.scalars.get(*i as usize).copied().flatten()?,
        OpKind::ReadVar(v) => vars.get(v).copied().flatten()?,
        OpKind::Conv(Conv::Int {
            from_signed,
            sat: false,
            ..
        }) => {
            let (x, fw) = (arg(0)?, arg_w(0)?);
            if *from_signed {
                sext(x, fw) as u64
            } else {
                x
            }
        }
        OpKind::Binary(b) => {
            let (x, y, aw) = (arg(0)?, arg(1)?, arg_w(0)?);
            let (sx, sy) = (sext(x, aw), sext(y, aw));
            match b {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::UDiv => x.checked_div(y)?,
                BinOp::SDiv => sx.checked_div(sy)? as u64,
                BinOp::URem => x.checked_rem(y)?,
                BinOp::SRem => sx.checked_rem(sy)? as u64,
                BinOp::Shl => x.checked_shl(y as u32)?,
                BinOp::LShr => x.checked_shr(y as u32)?,
                BinOp::AShr => sx.checked_shr(y as u32)? as u64,
                BinOp::And => x & y,
                BinOp::Or => x | y,
                BinOp::Xor => x ^ y,
                _ => return None,
            }
        }
        OpKind::Cmp(c) => {
            let (x, y, aw) = (arg(0)?, arg(1)?, arg_w(0)?);
            let (sx, sy) = (sext(x, aw), sext(y, aw));
            let r = match c {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::SLt => sx < sy,
                CmpOp::SLe => sx <= sy,
                CmpOp::SGt => sx > sy,
                CmpOp::SGe => sx >= sy,
                CmpOp::ULt => x < y,
                CmpOp::ULe => x <= y,
                CmpOp::UGt => x > y,
                CmpOp::UGe => x >= y,
                _ => return None,
            };
            r as u64
        }
        OpKind::Select => {
            if arg(0)? & 1 == 1 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        OpKind::WorkItem(f) => {
            let d = match args.first() {
                Some(_) => arg(0)? as usize,
                None => 0,
            };
            let (g, l) = (env.global, env.local);
            let dim = |s: Option<[u64; 3]>| {
                s.and_then(|s| s.get(d).copied())
                    .or(if d > 2 { Some(1) } else { None })
            };
            match f {
                WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => dim(l)?,
                WorkItemFn::GlobalSize => dim(g)?,
                WorkItemFn::NumGroups => dim(g)?.checked_div(dim(l)?)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(mask(v, w))
}

/// Variables a region writes, nested control included.
fn written(k: &Kernel, r: &Region, out: &mut Vec<VarId>) {
    let mut blocks = Vec::new();
    super::loops::all_blocks(k, r, &mut blocks);
    for b in blocks {
        for o in k.block(b).graph.node_weights() {
            if let OpKind::WriteVar(v) = o.kind {
                out.push(v);
            }
        }
    }
}

fn reads(k: &Kernel, b: BlockId, out: &mut Vec<VarId>) {
    for o in k.block(b).graph.node_weights() {
        if let OpKind::ReadVar(v) = o.kind {
            out.push(v);
        }
    }
}

impl LaunchValues {
    /// The scalar arguments and sizes of a resolved launch (arguments in parameter order).
    pub fn of_launch(l: &crate::launch::Launch) -> LaunchValues {
        let dims = |v: &[u64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1));
        let scalars = l
            .args
            .iter()
            .map(|a| match &a.value {
                crate::launch::ArgValue::Scalar { bytes, .. } if bytes.len() <= 8 => {
                    let mut w = [0u8; 8];
                    w[..bytes.len()].copy_from_slice(bytes);
                    Some(u64::from_le_bytes(w))
                }
                _ => None,
            })
            .collect();
        LaunchValues {
            scalars,
            global: Some(dims(&l.global)),
            local: Some(dims(&l.local)),
            measured: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{check_source, Options};

    fn trips(src: &str) -> Vec<Option<u64>> {
        let c = check_source("k.cl", src, &Options::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let m =
            crate::lower::lower(c.program.as_ref().expect("program"), &c.sources).expect("lowers");
        let k = &m.kernels[0];
        (0..k.loops.len() as u32)
            .map(|i| trip_count(k, LoopId(i), &LaunchValues::default()))
            .collect()
    }

    #[test]
    fn xcl_loop_tripcount_fills_in_only_what_cannot_be_counted() {
        let src = "__kernel void k(__global int *a, int n) {\n\
            __attribute__((xcl_loop_tripcount(2, 10))) l1: for (int i = 0; i < n; i++) a[i] = 0;\n\
            __attribute__((xcl_loop_tripcount(1, 64, 9))) while (a[0] > 3) a[0]--;\n\
            __attribute__((xcl_loop_tripcount(1, 64, 9))) for (int i = 0; i < 5; i++) a[i] = 1;\n\
            for (int i = 0; i < n; i++) a[i] = 2;\n}";
        assert_eq!(trips(src), [Some(6), Some(9), Some(5), None]);
    }
}

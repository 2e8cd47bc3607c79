//! Trip counts measured by the interpreter, for loops whose count depends on data: a
//! copy of the kernel gets a hidden counter buffer, one atomic add per loop entry and
//! per iteration, and runs the launch.

use crate::diag::Span;
use crate::frontend::types::AddrSpace;
use crate::interp;
use crate::ir::{AtomicOp, Base, Kernel, Node, OpKind, Param, ParamKind, Region, Ty};
use crate::launch;

/// Per loop of the NDRange kernel (by `LoopId` index): (entries, iterations) summed over
/// every work-item of the launch.
pub type Counts = Vec<(u64, u64)>;

/// Runs `kernel` in the interpreter with counters on every loop.
pub fn measure(kernel: &Kernel, l: &launch::Launch) -> Result<Counts, String> {
    let mut k = kernel.clone();
    let param = k.params.len() as u32;
    k.params.push(Param {
        name: "__loop_counts".into(),
        ty: Ty::Ptr(AddrSpace::Global),
        kind: ParamKind::Buffer {
            space: AddrSpace::Global,
        },
        span: kernel.span,
    });
    let body = std::mem::take(&mut k.body);
    k.body = instrument(&mut k, body, param);
    let n = kernel.loops.len();
    let mut args: Vec<interp::ArgValue> = l
        .args
        .iter()
        .map(|a| match &a.value {
            launch::ArgValue::Buffer(b) => interp::ArgValue::Buffer(b.bytes.clone()),
            launch::ArgValue::Scalar { bytes, .. } => interp::ArgValue::Value(bytes.clone()),
            launch::ArgValue::Local { ty, count } => {
                interp::ArgValue::Local(ty.size() as u64 * count)
            }
        })
        .collect();
    args.push(interp::ArgValue::Buffer(vec![0; n * 16]));
    let dims = |v: &[u64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1));
    let launch = interp::Launch {
        work_dim: l.global.len() as u32,
        global: dims(&l.global),
        local: dims(&l.local),
        args,
    };
    let out = interp::run(&k, &launch, &interp::Options::default())
        .map_err(|e| format!("counting loop trips: {}", e.message))?;
    let bytes = out
        .buffers
        .get(param as usize)
        .cloned()
        .flatten()
        .ok_or("counting loop trips: the counter buffer did not come back")?;
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
        u64::from_le_bytes(w)
    };
    Ok((0..n).map(|i| (word(2 * i), word(2 * i + 1))).collect())
}

/// `r` with a counter before each loop (entries) and at the top of its body (iterations).
fn instrument(k: &mut Kernel, r: Region, param: u32) -> Region {
    let mut out = Vec::new();
    for n in r.0 {
        match n {
            Node::Loop(id) => {
                out.push(Node::Block(counter(k, param, 2 * id.0 as u64)));
                let body = std::mem::take(&mut k.loops[id.0 as usize].body);
                let latch = std::mem::take(&mut k.loops[id.0 as usize].latch);
                let mut body = instrument(k, body, param);
                body.0
                    .insert(0, Node::Block(counter(k, param, 2 * id.0 as u64 + 1)));
                let latch = instrument(k, latch, param);
                let l = &mut k.loops[id.0 as usize];
                l.body = body;
                l.latch = latch;
                out.push(Node::Loop(id));
            }
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let then = instrument(k, then, param);
                let els = instrument(k, els, param);
                out.push(Node::If {
                    cond,
                    then,
                    els,
                    span,
                });
            }
            other => out.push(other),
        }
    }
    Region(out)
}

/// A block adding 1 to 64-bit counter `slot` of the counter buffer.
fn counter(k: &mut Kernel, param: u32, slot: u64) -> crate::ir::BlockId {
    let b = k.new_block();
    let s = Span::default();
    let blk = k.block_mut(b);
    let ptr = Some(Ty::Ptr(AddrSpace::Global));
    let base = blk.add(OpKind::Param(param), ptr.clone(), s, &[]);
    let off = blk.add(OpKind::Const(vec![slot * 8]), Some(Ty::I(64)), s, &[]);
    let at = blk.add(OpKind::PtrAdd, ptr, s, &[base, off]);
    let one = blk.add(OpKind::Const(vec![1]), Some(Ty::I(64)), s, &[]);
    blk.add(
        OpKind::Atomic {
            op: AtomicOp::Add,
            space: AddrSpace::Global,
            base: Some(Base::Param(param)),
        },
        Some(Ty::I(64)),
        s,
        &[at, one],
    );
    b
}

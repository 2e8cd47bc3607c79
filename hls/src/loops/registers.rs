//! Scalar replacement: a private array whose every access has a constant address (after
//! unrolling) becomes one variable per accessed element, so the hardware keeps it in
//! registers, wired to its readers, instead of a RAM that serves one byte per cycle.
//! FIR windows, shift registers and small accumulator arrays are the usual case.
//!
//! An array stays in memory, with the reason reported, when its address escapes (stored,
//! passed to a built-in, kept in a variable, compared), when an access's address is not a
//! constant, when accesses of different widths overlap, or when it is too large for
//! registers. An array with initial bytes gets its variables written with them where the
//! kernel starts (where the interpreter fills the array).

use std::collections::{BTreeMap, HashMap, HashSet};

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::copy::rebuild;
use super::fold::Consts;
use super::{KeptArray, Options, RegisterArray};
use crate::diag::SourceMap;
use crate::frontend::types::AddrSpace;
use crate::ir::{
    Base, BinOp, Block, BlockId, Edge, Kernel, Node, ObjectId, OpId, OpKind, ParamKind, Ty, VarId,
};

/// One access of an object: where, at which byte offset, of which type.
#[derive(Clone, Debug)]
pub struct Access {
    pub block: BlockId,
    pub op: OpId,
    pub offset: u64,
    pub ty: Ty,
    pub store: bool,
}

/// Every access of every object reached from its `ObjectAddr`, or why an object's
/// accesses cannot all be named (keyed by object).
pub fn accesses(
    k: &Kernel,
    blocks: &[BlockId],
    consts: &HashMap<BlockId, Consts>,
) -> BTreeMap<ObjectId, Result<Vec<Access>, String>> {
    let mut out: BTreeMap<ObjectId, Result<Vec<Access>, String>> = BTreeMap::new();
    for &b in blocks {
        let blk = k.block(b);
        let cs = &consts[&b];
        for &o in &blk.order {
            let OpKind::ObjectAddr(obj) = blk.op(o).kind else {
                continue;
            };
            let entry = out.entry(obj).or_insert_with(|| Ok(Vec::new()));
            let Ok(list) = entry else { continue };
            if let Err(e) = walk(blk, b, o, obj, cs, list) {
                *entry = Err(e);
            }
        }
    }
    out
}

/// Follows the pointer `start` through `PtrAdd`s to the loads and stores using it.
fn walk(
    blk: &Block,
    b: BlockId,
    start: OpId,
    obj: ObjectId,
    cs: &Consts,
    list: &mut Vec<Access>,
) -> Result<(), String> {
    let mut todo = vec![start];
    let mut seen = HashSet::new();
    while let Some(p) = todo.pop() {
        if !seen.insert(p) {
            continue;
        }
        for e in blk.graph.edges_directed(p.0, Direction::Outgoing) {
            let Edge::Data(i) = *e.weight() else { continue };
            let user = OpId(e.target());
            let op = blk.op(user);
            let at = || match cs.ptrs.get(&p) {
                Some((o, off)) if *o == obj && *off >= 0 => Ok(*off as u64),
                _ => Err(format!(
                    "an access at a variable address (b{}, {:?})",
                    b.0, op.kind
                )),
            };
            match (&op.kind, i) {
                (OpKind::PtrAdd, 0) => todo.push(user),
                (OpKind::Load { .. }, 0) => list.push(Access {
                    block: b,
                    op: user,
                    offset: at()?,
                    ty: op.ty.clone().ok_or("a load without a type")?,
                    store: false,
                }),
                (OpKind::Store { .. }, 0) => {
                    let value = blk
                        .operands(user)
                        .get(1)
                        .copied()
                        .ok_or("a store without a value")?;
                    list.push(Access {
                        block: b,
                        op: user,
                        offset: at()?,
                        ty: blk.op(value).ty.clone().ok_or("a store of no value")?,
                        store: true,
                    })
                }
                (kind, _) => return Err(format!("its address is used by {}", describe(kind))),
            }
        }
    }
    Ok(())
}

fn describe(kind: &OpKind) -> String {
    match kind {
        OpKind::Store { .. } => "a store (the pointer itself is stored)".into(),
        OpKind::WriteVar(_) => "a pointer variable".into(),
        OpKind::Builtin(c) => format!("the built-in `{}`", c.name),
        OpKind::Atomic { .. } => "an atomic".into(),
        other => format!("{other:?}")
            .split(['(', ' ', '{'])
            .next()
            .unwrap_or("an op")
            .to_lowercase(),
    }
}

/// One variable of a replaced array: its byte range and type.
struct Slot {
    offset: u64,
    ty: Ty,
    var: VarId,
}

/// The slots of an array from its accesses: one per (offset, size); different types of
/// one size share a slot through bitcasts; accesses that overlap otherwise refuse.
fn slots(accs: &[Access], size: u64) -> Result<BTreeMap<u64, Ty>, String> {
    let mut by: BTreeMap<u64, Ty> = BTreeMap::new();
    for a in accs {
        let n = a.ty.store_size();
        if a.offset.checked_add(n).is_none_or(|end| end > size) {
            return Err("an access falls outside the array".into());
        }
        match by.get(&a.offset) {
            None => {
                by.insert(a.offset, a.ty.clone());
            }
            Some(t) if *t == a.ty => {}
            Some(t) if t.store_size() == n && castable(t) && castable(&a.ty) => {}
            Some(_) => return Err("accesses of different widths overlap".into()),
        }
    }
    let mut end = 0;
    for (off, t) in &by {
        if *off < end {
            return Err("accesses of different widths overlap".into());
        }
        end = off + t.store_size();
    }
    Ok(by)
}

/// An access byte registers can serve: an integer, float or vector of them, of at most
/// 8 bytes (assembled in a 64-bit integer).
fn byte_addressable(a: &Access) -> bool {
    castable(&a.ty) && (a.ty.elem().is_int() || a.ty.elem().is_float()) && a.ty.store_size() <= 8
}

/// One `i8` slot per byte some access touches.
fn byte_slots(accs: &[Access]) -> Option<BTreeMap<u64, Ty>> {
    let mut by = BTreeMap::new();
    for a in accs {
        for j in 0..a.ty.store_size() {
            by.insert(a.offset.checked_add(j)?, Ty::I(8));
        }
    }
    Some(by)
}

/// A type whose bits fill its bytes exactly (so a bitcast keeps memory's meaning).
fn castable(t: &Ty) -> bool {
    !t.is_ptr() && t.lanes() != 3 && t.bits() as u64 == t.store_size() * 8
}

/// The constant lanes of `ty` stored little-endian at `bytes[at..]`.
pub fn lanes(bytes: &[u8], at: u64, ty: &Ty) -> Option<Vec<u64>> {
    let e = ty.elem();
    if e.is_ptr() {
        return None;
    }
    let size = e.store_size();
    (0..ty.lanes() as u64)
        .map(|i| {
            let from = at.checked_add(i * size)? as usize;
            let chunk = bytes.get(from..from.checked_add(size as usize)?)?;
            let mut w = [0u8; 8];
            w.get_mut(..chunk.len())?.copy_from_slice(chunk);
            Some(super::fold::mask(u64::from_le_bytes(w), e.bits()))
        })
        .collect()
}

/// Replaces the private arrays whose accesses all sit at constant addresses. Returns the
/// arrays replaced and those kept (with why), and adds the blocks it changed to `made`.
pub fn run(
    k: &mut Kernel,
    sm: &SourceMap,
    opts: &Options,
    made: &mut Vec<BlockId>,
) -> (Vec<RegisterArray>, Vec<KeptArray>) {
    let blocks: Vec<BlockId> = super::placed(k).into_iter().collect();
    let consts: HashMap<BlockId, Consts> = blocks
        .iter()
        .map(|b| (*b, Consts::of(k.block(*b))))
        .collect();
    let found = accesses(k, &blocks, &consts);
    let struct_params: HashSet<ObjectId> = k
        .params
        .iter()
        .filter_map(|p| match p.kind {
            ParamKind::Struct { object } => Some(object),
            _ => None,
        })
        .collect();
    let (mut done, mut kept) = (Vec::new(), Vec::new());
    let mut plan: HashMap<ObjectId, (Vec<Access>, Vec<Slot>)> = HashMap::new();
    for (obj, accs) in found {
        let o = k.object(obj).clone();
        if o.space != AddrSpace::Private {
            continue;
        }
        let refuse = |why: String| KeptArray {
            name: o.name.clone(),
            location: sm.location(o.span),
            reason: why,
        };
        let accs = match accs {
            _ if struct_params.contains(&obj) => {
                Err("it holds a by-value struct argument".to_string())
            }
            Ok(a) if unreached(k, &blocks, obj, &a) => {
                Err("it is accessed through a pointer the analysis cannot follow".into())
            }
            other => other,
        };
        let result = accs.and_then(|a| {
            if o.size > opts.max_register_bytes {
                return Err(format!(
                    "{} bytes is more than the {} kept in registers",
                    o.size, opts.max_register_bytes
                ));
            }
            // Overlapping accesses of different widths: one register per byte, each
            // access split into or assembled from its bytes (a struct copied in as
            // one wide load and read field by field).
            let s = match slots(&a, o.size) {
                Err(e) if a.iter().all(byte_addressable) => byte_slots(&a).ok_or(e)?,
                other => other?,
            };
            if s.len() > opts.max_register_slots {
                return Err(format!(
                    "{} elements is more than the {} kept in registers",
                    s.len(),
                    opts.max_register_slots
                ));
            }
            if o.init.is_some() && s.values().any(|t| t.is_ptr()) {
                return Err("it holds initialised pointers".into());
            }
            Ok((a, s))
        });
        match result {
            Err(why) => kept.push(refuse(why)),
            Ok((a, s)) if a.is_empty() => drop(s),
            Ok((a, s)) => {
                let same = s.values().map(Ty::store_size).collect::<HashSet<_>>();
                let elem = (same.len() == 1)
                    .then(|| *same.iter().next().unwrap_or(&1))
                    .filter(|n| *n > 0);
                let mut list = Vec::new();
                for (off, ty) in &s {
                    let name = match elem {
                        Some(n) if off % n == 0 => format!("{}[{}]", o.name, off / n),
                        _ => format!("{}+{off}", o.name),
                    };
                    let var = k.new_var(&name, ty.clone(), o.span);
                    list.push(Slot {
                        offset: *off,
                        ty: ty.clone(),
                        var,
                    });
                }
                let tys: Vec<String> = s
                    .values()
                    .map(|t| t.to_string())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                done.push(RegisterArray {
                    name: o.name.clone(),
                    location: sm.location(o.span),
                    bytes: o.size,
                    registers: list.len(),
                    types: tys.join(", "),
                });
                if let Some(init) = &o.init {
                    initialise(k, &list, init, o.span, made);
                }
                plan.insert(obj, (a, list));
            }
        }
    }
    rewrite(k, &plan, made);
    (done, kept)
}

/// Whether some load or store names `obj` as its base without being reached from an
/// `ObjectAddr` of it (then not every access is known).
fn unreached(k: &Kernel, blocks: &[BlockId], obj: ObjectId, accs: &[Access]) -> bool {
    let known: HashSet<(BlockId, OpId)> = accs.iter().map(|a| (a.block, a.op)).collect();
    blocks.iter().any(|b| {
        let blk = k.block(*b);
        blk.order.iter().any(|o| match &blk.op(*o).kind {
            OpKind::Load { base, .. }
            | OpKind::Store { base, .. }
            | OpKind::Atomic { base, .. } => {
                *base == Some(Base::Object(obj)) && !known.contains(&(*b, *o))
            }
            _ => false,
        })
    })
}

/// Writes an array's initial bytes into its variables where the kernel starts.
fn initialise(
    k: &mut Kernel,
    slots: &[Slot],
    init: &[u8],
    span: crate::diag::Span,
    made: &mut Vec<BlockId>,
) {
    let b = k.new_block();
    let blk = k.block_mut(b);
    for s in slots {
        let Some(l) = lanes(init, s.offset, &s.ty) else {
            continue;
        };
        let c = blk.add(OpKind::Const(l), Some(s.ty.clone()), span, &[]);
        blk.add(OpKind::WriteVar(s.var), None, span, &[c]);
    }
    k.body.0.insert(0, Node::Block(b));
    made.push(b);
}

/// Loads and stores of the replaced arrays become variable reads and writes.
fn rewrite(
    k: &mut Kernel,
    plan: &HashMap<ObjectId, (Vec<Access>, Vec<Slot>)>,
    made: &mut Vec<BlockId>,
) {
    let mut per_block: HashMap<BlockId, HashMap<OpId, (&Access, Vec<&Slot>)>> = HashMap::new();
    for (accs, slots) in plan.values() {
        for a in accs {
            let end = a.offset + a.ty.store_size();
            let mine: Vec<&Slot> = match slots.iter().find(|s| s.offset == a.offset) {
                // Its own slot, or the bytes it covers.
                Some(s) if s.ty.store_size() == a.ty.store_size() => vec![s],
                _ => slots
                    .iter()
                    .filter(|s| s.offset >= a.offset && s.offset < end)
                    .collect(),
            };
            if !mine.is_empty() {
                per_block
                    .entry(a.block)
                    .or_default()
                    .insert(a.op, (a, mine));
            }
        }
    }
    let mut ids: Vec<BlockId> = per_block.keys().copied().collect();
    ids.sort();
    for b in ids {
        let subs = &per_block[&b];
        let old = k.block(b);
        let (new, map) = rebuild(old, |out, id, args| {
            let (a, mine) = subs.get(&id)?;
            let span = old.op(id).span;
            if mine.len() > 1 || mine[0].ty.store_size() != a.ty.store_size() {
                return Some(by_bytes(out, a, mine, args, span));
            }
            let s = mine[0];
            if a.store {
                let mut v = *args.get(1)?;
                if a.ty != s.ty {
                    v = out.add(OpKind::Bitcast, Some(s.ty.clone()), span, &[v]);
                }
                Some(out.add(OpKind::WriteVar(s.var), None, span, &[v]))
            } else {
                let r = out.add(OpKind::ReadVar(s.var), Some(s.ty.clone()), span, &[]);
                Some(if a.ty != s.ty {
                    out.add(OpKind::Bitcast, Some(a.ty.clone()), span, &[r])
                } else {
                    r
                })
            }
        });
        *k.block_mut(b) = new;
        super::remap_conditions(k, b, &map);
        made.push(b);
    }
}

/// Access `a` over the byte registers `bytes` (in address order): a store writes each
/// byte of its value, a load ORs the bytes it reads into place (little-endian).
fn by_bytes(
    out: &mut Block,
    a: &Access,
    bytes: &[&Slot],
    args: &[OpId],
    span: crate::diag::Span,
) -> OpId {
    let w = (a.ty.store_size() * 8) as u8;
    let int = Ty::I(w);
    let zext = OpKind::Conv(crate::ir::Conv::Int {
        from_signed: false,
        to_signed: false,
        sat: false,
    });
    let shift = |out: &mut Block, op: BinOp, v: OpId, by: u64| -> OpId {
        if by == 0 {
            return v;
        }
        let c = out.add(OpKind::Const(vec![by]), Some(int.clone()), span, &[]);
        out.add(OpKind::Binary(op), Some(int.clone()), span, &[v, c])
    };
    if a.store {
        let mut v = args[1];
        if a.ty != int {
            v = out.add(OpKind::Bitcast, Some(int.clone()), span, &[v]);
        }
        let mut last = v;
        for s in bytes {
            let at = (s.offset - a.offset) * 8;
            let moved = shift(out, BinOp::LShr, v, at);
            let byte = if w == 8 {
                moved
            } else {
                out.add(zext.clone(), Some(Ty::I(8)), span, &[moved])
            };
            last = out.add(OpKind::WriteVar(s.var), None, span, &[byte]);
        }
        last
    } else {
        let mut acc: Option<OpId> = None;
        for s in bytes {
            let r = out.add(OpKind::ReadVar(s.var), Some(Ty::I(8)), span, &[]);
            let wide = if w == 8 {
                r
            } else {
                out.add(zext.clone(), Some(int.clone()), span, &[r])
            };
            let placed = shift(out, BinOp::Shl, wide, (s.offset - a.offset) * 8);
            acc = Some(match acc {
                None => placed,
                Some(x) => out.add(
                    OpKind::Binary(BinOp::Or),
                    Some(int.clone()),
                    span,
                    &[x, placed],
                ),
            });
        }
        let v =
            acc.unwrap_or_else(|| out.add(OpKind::Const(vec![0]), Some(int.clone()), span, &[]));
        if a.ty != int {
            out.add(OpKind::Bitcast, Some(a.ty.clone()), span, &[v])
        } else {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(offset: u64, ty: Ty) -> Access {
        Access {
            block: BlockId(0),
            op: OpId(petgraph::graph::NodeIndex::new(0)),
            offset,
            ty,
            store: false,
        }
    }

    #[test]
    fn equal_sizes_share_a_slot_and_overlaps_refuse() {
        let s = slots(&[acc(0, Ty::F32), acc(0, Ty::I(32)), acc(4, Ty::F32)], 8).expect("slots");
        assert_eq!(s.len(), 2);
        assert!(slots(&[acc(0, Ty::I(64)), acc(4, Ty::F32)], 8).is_err());
        assert!(slots(&[acc(6, Ty::F32)], 8).is_err());
        assert!(slots(
            &[
                acc(0, Ty::Vec(Box::new(Ty::F32), 3)),
                acc(0, Ty::Vec(Box::new(Ty::I(32)), 4))
            ],
            16
        )
        .is_err());
    }

    #[test]
    fn lanes_read_little_endian_bytes() {
        let bytes = [1, 0, 0, 0, 0, 0, 0x80, 0x3f];
        assert_eq!(lanes(&bytes, 0, &Ty::I(32)), Some(vec![1]));
        assert_eq!(lanes(&bytes, 4, &Ty::F32), Some(vec![0x3f80_0000]));
        assert_eq!(
            lanes(&bytes, 0, &Ty::Vec(Box::new(Ty::I(16)), 2)),
            Some(vec![1, 0])
        );
        assert_eq!(lanes(&bytes, 6, &Ty::F32), None);
    }
}

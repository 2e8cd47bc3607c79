//! SIMD lanes: how many work-items of a group start every cycle. The work-item loop over
//! x is unrolled by the lane count (`emit.rs`), so neighbouring work-items' loads and
//! stores become one wide access of the memory port.
//!
//! The count comes from `num_simd_work_items(N)` when the kernel gives it (`(1)` keeps one
//! lane and turns the tool's choice off), else from an explicit `vec_type_hint(T)`, which
//! OpenCL defines as the kernel's computational width, the basis for how many work-items
//! fill the processor's width: here as many `T`s as fill the board's memory port (`float4`
//! on a 32-byte port: 2 lanes). Otherwise the tool chooses lanes itself where one
//! work-item per cycle would leave the memory port idle: a kernel without loops or early
//! returns whose every memory access is a global one streaming with its x id (a
//! buffer's accesses tile the bytes `get_global_id(0)` steps by; `if`s are fine, each
//! lane keeps its guard), with as few lanes as fill the port (one port serves every
//! buffer) and no more than the busiest buffer's unit moves in a cycle. Lanes never
//! change results (each lane is a work-item as before), only speed and area, so the
//! choice may be a heuristic; the report shows the II it reaches.

use std::collections::{BTreeMap, HashMap};

use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BinOp, Kernel, Node, OpId, OpKind, Region, VarId, WorkItemFn};

/// The most lanes any source asks for or the tool picks.
pub const MAX_LANES: u64 = 16;

/// Where the lane count came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum From {
    /// `num_simd_work_items(N)`.
    Attribute,
    /// An explicit `vec_type_hint(T)`.
    TypeHint,
    /// The tool's own choice.
    Tool,
}

/// The lanes of a kernel: N work-items per cycle (1: one), where from, and why that many.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Lanes {
    pub n: u64,
    pub from: From,
    pub why: String,
}

impl Lanes {
    /// How reports and the unrolling decision name the request.
    pub fn spelling(&self, k: &Kernel) -> String {
        match self.from {
            From::Attribute => format!("num_simd_work_items({})", self.n),
            From::TypeHint => format!("vec_type_hint({}): {} lanes", k.attrs.vec_type_hint, self.n),
            From::Tool => format!("lanes chosen by ocl-hls ({})", self.n),
        }
    }
}

/// Only what `num_simd_work_items` asks (no type hint, no choice of the tool's).
pub fn asked(k: &Kernel) -> Option<Lanes> {
    k.attrs.num_simd_work_items.map(|n| Lanes {
        n,
        from: From::Attribute,
        why: format!("asked by num_simd_work_items({n})"),
    })
}

/// The lanes of NDRange kernel `k` on a board whose memory port moves `port_bytes` per
/// cycle; `max_ops` bounds the unrolled work-item loop (the `loops` stage's limit).
pub fn choose(k: &Kernel, port_bytes: u64, max_ops: usize) -> Option<Lanes> {
    if let Some(l) = asked(k) {
        return Some(l);
    }
    // Lanes unroll a work-item loop of a known count: they must divide a required
    // work-group size of shape (X, 1, 1), as `loops/unroll.rs` needs.
    let x = match k.attrs.reqd_work_group_size {
        Some([x, 1, 1]) => Some(x),
        _ => None,
    };
    let fit = |most: u64| {
        let Some(x) = x else { return 1 };
        let mut n = most.clamp(1, MAX_LANES).next_power_of_two();
        while n > 1 && (n > most || x % n != 0) {
            n /= 2;
        }
        n
    };
    let shape = streaming_bytes(k);
    let widest = shape
        .as_ref()
        .ok()
        .and_then(|s| s.iter().max_by_key(|(_, b)| **b));
    let ops: usize = k.blocks.iter().map(|b| b.len()).sum();
    let by_size = (max_ops / ops.max(1)) as u64;
    let port = format!("the {port_bytes}-byte memory port");
    if k.attrs.vec_type_hint_explicit {
        // The hint sizes the lanes; they still need accesses that merge across lanes.
        let t = &k.attrs.vec_type_hint;
        let bytes = type_bytes(t)?;
        let hint = format!(
            "asked by vec_type_hint({t}), which fits {} lanes in {port}",
            port_bytes / bytes
        );
        let (n, why) = match (&shape, widest) {
            _ if x.is_none() => (
                1,
                format!("{hint}, but lanes need reqd_work_group_size(X, 1, 1): one lane"),
            ),
            (Err(e), _) => (1, format!("{hint}, but {e}: one lane")),
            (Ok(_), Some(((p, store), w))) => {
                let n = fit((port_bytes / bytes).min(port_bytes / w).min(by_size));
                let busiest = busiest(k, *p, *store, *w);
                (
                    n,
                    format!("{hint}; {n} with its busiest access ({busiest})"),
                )
            }
            (Ok(_), None) => return None,
        };
        return Some(Lanes {
            n,
            from: From::TypeHint,
            why,
        });
    }
    let x = x?;
    let ((p, store), widest) = widest?;
    // One port serves every buffer: lanes past filling it only add area.
    let total: u64 = shape.as_ref().ok()?.values().sum();
    let fills = port_bytes.div_ceil(total).next_power_of_two();
    let n = fit(fills.min(port_bytes / widest).min(by_size));
    if n < 2 {
        return None;
    }
    Some(Lanes {
        n,
        from: From::Tool,
        why: format!(
            "chosen by ocl-hls: every access streams with the x id, {total} bytes per \
             work-item over all buffers (the busiest: {}), so {n} work-items per cycle \
             fill {port} (the work-group has {x}); num_simd_work_items(1) keeps one",
            busiest(k, *p, *store, *widest)
        ),
    })
}

/// Names the busiest buffer's accesses: `loads from a, 4 bytes per work-item`.
fn busiest(k: &Kernel, p: u32, store: bool, bytes: u64) -> String {
    format!(
        "{} {} at {bytes} bytes per work-item",
        if store { "stores to" } else { "loads from" },
        k.params[p as usize].name
    )
}

/// Bytes of a built-in scalar or vector type named as in `vec_type_hint` (3 lanes take 4).
fn type_bytes(t: &str) -> Option<u64> {
    let digits = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let scalar = &t[..t.len() - digits.len()];
    let lanes: u64 = match digits {
        "" => 1,
        "3" => 4,
        d => d.parse().ok()?,
    };
    let size = match scalar {
        "char" | "uchar" | "bool" => 1,
        "short" | "ushort" | "half" => 2,
        "int" | "uint" | "float" => 4,
        "long" | "ulong" | "double" => 8,
        _ => return None,
    };
    Some(size * lanes)
}

/// An integer or pointer value in units of the x id: `coef x get_global_id(0)` plus a
/// part every work-item of the launch shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Affine { coef: i64, konst: Option<i64> },
    Other,
}

const UNIFORM: Val = Val::Affine {
    coef: 0,
    konst: None,
};

/// Per buffer and kind (`true`: stores), the bytes one work-item moves, when the kernel
/// has no loops and every memory access is a global one at `size x x-id` + uniform
/// (behind `if`s or not: lanes keep each one's guard); else what breaks that.
fn streaming_bytes(k: &Kernel) -> Result<BTreeMap<(u32, bool), u64>, String> {
    let mut w = Walk {
        k,
        vars: HashMap::new(),
        accesses: BTreeMap::new(),
    };
    w.region(&k.body)?;
    if w.accesses.is_empty() {
        return Err("it has no global memory accesses".into());
    }
    // Per buffer and direction, the accesses of one work-item must tile the bytes it
    // steps by (`in[2 * i]` and `in[2 * i + 1]`: 8 bytes), so lanes read one run.
    let mut bytes = BTreeMap::new();
    for ((p, store), mut xs) in w.accesses {
        let step = xs[0].0;
        xs.sort_by_key(|x| x.1);
        let total: u64 = xs.iter().map(|x| x.2).sum();
        let tiles = xs.windows(2).all(|w| {
            w[0].1
                .zip(w[1].1)
                .is_some_and(|(a, b)| b == a + w[0].2 as i64)
        });
        if xs.iter().any(|x| x.0 != step) || step != total as i64 || !tiles {
            return Err(format!(
                "its {} {} do not step by their size with the x id",
                if store { "stores to" } else { "loads from" },
                k.params[p as usize].name
            ));
        }
        bytes.insert((p, store), total);
    }
    Ok(bytes)
}

/// Whether region `r` can end the work-item (`return`, at any depth).
fn returns(r: &Region) -> bool {
    r.0.iter().any(|n| match n {
        Node::Return => true,
        Node::If { then, els, .. } => returns(then) || returns(els),
        _ => false,
    })
}

/// An access's step with the x id, its offset from the buffer's start where known, and
/// its size.
type Step = (i64, Option<i64>, u64);

/// The kernel's values in units of the x id, in program order.
struct Walk<'a> {
    k: &'a Kernel,
    vars: HashMap<VarId, Val>,
    /// Per buffer and direction, each access's step with the x id, offset (where known)
    /// and size.
    accesses: BTreeMap<(u32, bool), Vec<Step>>,
}

impl Walk<'_> {
    fn region(&mut self, r: &Region) -> Result<(), String> {
        for n in &r.0 {
            match n {
                Node::Block(b) => self.block(*b)?,
                Node::If {
                    cond, then, els, ..
                } => {
                    self.block(cond.0)?;
                    if [then, els].iter().any(|r| returns(r)) {
                        return Err("a work-item can return early".into());
                    }
                    let before = self.vars.clone();
                    self.region(then)?;
                    let after_then = std::mem::replace(&mut self.vars, before);
                    self.region(els)?;
                    // A variable either arm writes is known after the `if` only where
                    // both leave it the same.
                    let after_else = std::mem::take(&mut self.vars);
                    let keys: std::collections::BTreeSet<VarId> = after_then
                        .keys()
                        .chain(after_else.keys())
                        .copied()
                        .collect();
                    for v in keys {
                        let same = after_then.get(&v) == after_else.get(&v);
                        let val = if same { after_then[&v] } else { Val::Other };
                        self.vars.insert(v, val);
                    }
                }
                Node::Return => {}
                Node::Loop(_) | Node::Break(_) | Node::Continue(_) => {
                    return Err("the kernel has loops".into())
                }
            }
        }
        Ok(())
    }

    fn block(&mut self, b: crate::ir::BlockId) -> Result<(), String> {
        let k = self.k;
        let blk = k.block(b);
        let mut vals: HashMap<OpId, Val> = HashMap::new();
        for &o in &blk.order {
            let op = blk.op(o);
            let args = blk.operands(o);
            let arg = |i: usize| args.get(i).and_then(|a| vals.get(a)).copied();
            let v = match &op.kind {
                OpKind::Const(c) if c.len() == 1 => Val::Affine {
                    coef: 0,
                    konst: Some(c[0] as i64),
                },
                // A buffer's accesses are offsets from its start; other arguments are
                // some uniform value.
                OpKind::Param(_) if op.ty.as_ref().is_some_and(|t| t.is_ptr()) => Val::Affine {
                    coef: 0,
                    konst: Some(0),
                },
                OpKind::Param(_) => UNIFORM,
                // The x id is the unit; the local id steps with it, from another start.
                OpKind::WorkItem(f @ (WorkItemFn::GlobalId | WorkItemFn::LocalId)) => {
                    match arg(0) {
                        Some(Val::Affine { konst: Some(0), .. }) => Val::Affine {
                            coef: 1,
                            konst: (*f == WorkItemFn::GlobalId).then_some(0),
                        },
                        _ => Val::Other,
                    }
                }
                OpKind::WorkItem(f) => match f {
                    WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId => Val::Other,
                    _ => UNIFORM,
                },
                OpKind::ReadVar(v) => self.vars.get(v).copied().unwrap_or(Val::Other),
                OpKind::WriteVar(v) => {
                    self.vars.insert(*v, arg(0).unwrap_or(Val::Other));
                    continue;
                }
                OpKind::PtrAdd => add(arg(0), arg(1), 1),
                OpKind::Binary(BinOp::Add) => add(arg(0), arg(1), 1),
                OpKind::Binary(BinOp::Sub) => add(arg(0), arg(1), -1),
                OpKind::Binary(BinOp::Mul) => match (arg(0), arg(1)) {
                    (
                        Some(a),
                        Some(Val::Affine {
                            konst: Some(c),
                            coef: 0,
                        }),
                    )
                    | (
                        Some(Val::Affine {
                            konst: Some(c),
                            coef: 0,
                        }),
                        Some(a),
                    ) => scale(a, c),
                    (Some(a), Some(b)) => uniform2(a, b),
                    _ => Val::Other,
                },
                OpKind::Binary(BinOp::Shl) => match arg(1) {
                    Some(Val::Affine {
                        konst: Some(s),
                        coef: 0,
                    }) if (0..32).contains(&s) => scale(arg(0).unwrap_or(Val::Other), 1 << s),
                    _ => Val::Other,
                },
                // Widths change, the x id's step does not (ids fit every index type).
                OpKind::Conv(crate::ir::Conv::Int { sat: false, .. }) => {
                    arg(0).unwrap_or(Val::Other)
                }
                OpKind::Load { space, base, .. } | OpKind::Store { space, base, .. } => {
                    let store = matches!(op.kind, OpKind::Store { .. });
                    let (Some(Base::Param(p)), AddrSpace::Global | AddrSpace::Constant) =
                        (base, space)
                    else {
                        return Err("it accesses on-chip memory".into());
                    };
                    let ty = if store {
                        args.get(1).and_then(|v| blk.op(*v).ty.as_ref())
                    } else {
                        op.ty.as_ref()
                    };
                    let size = ty.map_or(0, |t| t.store_size());
                    let Some(Val::Affine { coef, konst }) = arg(0).filter(|_| size > 0) else {
                        return Err(format!(
                            "its {} {} do not step with the x id",
                            if store { "stores to" } else { "loads from" },
                            self.k.params[*p as usize].name
                        ));
                    };
                    self.accesses
                        .entry((*p, store))
                        .or_default()
                        .push((coef, konst, size));
                    Val::Other
                }
                OpKind::Atomic { .. }
                | OpKind::Barrier { .. }
                | OpKind::MemFence { .. }
                | OpKind::ObjectAddr(_) => {
                    return Err("it has atomics, barriers or private arrays".into())
                }
                OpKind::Builtin(_) if op.kind.is_memory() => {
                    return Err("a built-in writes through a pointer".into())
                }
                _ => args
                    .iter()
                    .map(|a| vals.get(a).copied().unwrap_or(Val::Other))
                    .fold(UNIFORM, uniform2),
            };
            vals.insert(o, v);
        }
        Ok(())
    }
}

fn add(a: Option<Val>, b: Option<Val>, sign: i64) -> Val {
    match (a, b) {
        (
            Some(Val::Affine {
                coef: c1,
                konst: k1,
            }),
            Some(Val::Affine {
                coef: c2,
                konst: k2,
            }),
        ) => Val::Affine {
            coef: c1 + sign * c2,
            konst: k1
                .zip(k2)
                .map(|(a, b)| a.wrapping_add(sign.wrapping_mul(b))),
        },
        _ => Val::Other,
    }
}

fn scale(a: Val, c: i64) -> Val {
    match a {
        Val::Affine { coef, konst } => Val::Affine {
            coef: coef.saturating_mul(c),
            konst: konst.map(|k| k.wrapping_mul(c)),
        },
        Val::Other => Val::Other,
    }
}

/// A value computed from `a` and `b` by anything but a sum or scaling: uniform when both
/// are, else not affine.
fn uniform2(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Affine { coef: 0, .. }, Val::Affine { coef: 0, .. }) => UNIFORM,
        _ => Val::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{check_source, Options};

    /// The lanes of the first kernel of `src` on a 32-byte port.
    fn lanes(src: &str) -> Option<Lanes> {
        let c = check_source("k.cl", src, &Options::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let m =
            crate::lower::lower(c.program.as_ref().expect("program"), &c.sources).expect("lowers");
        let k = crate::mathlib::expand(&m.kernels[0]).expect("mathlib");
        choose(&k, 32, 8192)
    }

    const VADD: &str = "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) ATTR
        void k(__global const float *a, __global const float *b, __global float *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }";

    #[test]
    fn a_streaming_kernel_gets_as_few_lanes_as_fill_the_port() {
        // 12 bytes per work-item: 2 lanes move 24 of 32 bytes, 4 fill the port.
        let l = lanes(&VADD.replace("ATTR", "")).expect("lanes");
        assert_eq!((l.n, l.from.clone()), (4, From::Tool), "{}", l.why);
        assert!(l.why.contains("12 bytes per work-item"), "{}", l.why);
        // Accesses behind an `if` stream too (each lane keeps its guard).
        let guarded = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const float *a, __global float *c, int n) {
                size_t i = get_global_id(0);
                if (i < n) c[i] = a[i];
            }";
        assert_eq!(lanes(guarded).map(|l| l.n), Some(4));
        // Two loads that tile 8 bytes per work-item stream as one run.
        let pairs = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const int *a, __global int *c) {
                size_t i = get_global_id(0);
                c[i] = a[2 * i] + a[2 * i + 1];
            }";
        assert_eq!(lanes(pairs).map(|l| l.n), Some(4));
        // More bytes per work-item than the port moves: one lane.
        let wide = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const int16 *a, __global int16 *c) {
                size_t i = get_global_id(0);
                c[i] = a[i] + 1;
            }";
        assert_eq!(lanes(wide), None);
        // Lanes divide the work-group: 50 work-items take 2.
        let l = lanes(&VADD.replace("(64, 1, 1))) ATTR", "(50, 1, 1)))"));
        assert_eq!(l.map(|l| l.n), Some(2));
        // 20 bytes per work-item: 2 lanes fill the port.
        let wide = "__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
            void k(__global const float4 *a, __global float *o) {
                int i = get_global_id(0);
                float4 v = a[i];
                o[i] = dot(v, v);
            }";
        assert_eq!(lanes(wide).map(|l| l.n), Some(2));
        // 32 bytes per work-item: one work-item fills the port already.
        let full = wide
            .replace("float *o", "float4 *o")
            .replace("dot(v, v)", "v * 2.0f");
        assert_eq!(lanes(&full), None);
    }

    #[test]
    fn the_source_decides_before_the_tool() {
        let one = lanes(&VADD.replace("ATTR", "__attribute__((num_simd_work_items(1)))"));
        assert_eq!(one.map(|l| (l.n, l.from)), Some((1, From::Attribute)));
        let hint =
            lanes(&VADD.replace("ATTR", "__attribute__((vec_type_hint(float)))")).expect("lanes");
        assert_eq!((hint.n, hint.from), (8, From::TypeHint), "{}", hint.why);
        let hint = lanes(&VADD.replace("ATTR", "__attribute__((vec_type_hint(double2)))"));
        assert_eq!(hint.map(|l| l.n), Some(2));
    }

    #[test]
    fn lanes_need_streaming_accesses_and_a_known_group() {
        let none = |src: &str| {
            let l = lanes(src);
            assert!(l.is_none(), "{src}: {l:?}");
        };
        // No required size, one lane dividing it, an early return, a stride, local memory.
        none(&VADD.replace("__attribute__((reqd_work_group_size(64, 1, 1))) ATTR", ""));
        none(&VADD.replace("(64, 1, 1))) ATTR", "(63, 1, 1)))"));
        none(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const float *a, __global float *c, int n) {
                size_t i = get_global_id(0);
                if (i >= n) return;
                c[i] = a[i];
            }",
        );
        none(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const float *a, __global float *c) {
                size_t i = get_global_id(0);
                c[i] = a[2 * i];
            }",
        );
        none(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global const int *a, __global int *c, __local int *t) {
                size_t i = get_global_id(0);
                t[get_local_id(0)] = a[i];
                c[i] = t[get_local_id(0)];
            }",
        );
        // The hint's lanes need the same: they come back as one lane, saying why.
        let hint = lanes(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            __attribute__((vec_type_hint(float4)))
            void k(__global const float *a, __global float *c) {
                size_t i = get_global_id(0);
                c[i] = a[3 * i];
            }",
        )
        .expect("a decision");
        assert_eq!(hint.n, 1);
        assert!(
            hint.why.contains("loads from a do not step by their size"),
            "{}",
            hint.why
        );
    }

    #[test]
    fn type_sizes() {
        assert_eq!(type_bytes("float4"), Some(16));
        assert_eq!(type_bytes("uchar3"), Some(4));
        assert_eq!(type_bytes("double"), Some(8));
        assert_eq!(type_bytes("int16"), Some(64));
        assert_eq!(type_bytes("size_t"), None);
    }
}

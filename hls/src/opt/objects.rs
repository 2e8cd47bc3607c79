//! Kernel objects whose contents the range analysis can bound: an object (`__private` or
//! `__local`) that the kernel only loads and stores as one integer type, each access
//! aligned to its size, holds in each slot one stored value, a value of its initial
//! bytes, or zero (never written: the interpreter reads zero bytes, as for variables).
//! So a load from it is bounded by the largest value stored to it or there initially.
//! The group form keeps every work-item's values that live across a barrier in such
//! objects (`__wi_lx`...), and the address arithmetic after the barrier reads them.
//!
//! Any access of another type or width, an atomic, or a write whose object is unknown
//! (a store without a base, a built-in writing through a pointer) leaves the object, or
//! every object, unbounded, as does a struct argument's object (the host's bytes).

use crate::ir::{Base, Kernel, Object, ObjectId, OpKind, Ty};

/// The integer width each object is accessed at, when the object qualifies.
pub fn slots(k: &Kernel) -> Vec<Option<u32>> {
    let mut width: Vec<Option<Option<u32>>> = vec![None; k.objects.len()];
    let mut unknown_write = false;
    for b in &k.blocks {
        for &o in &b.order {
            let op = b.op(o);
            let (obj, ty, align) = match &op.kind {
                OpKind::Load {
                    base: Some(Base::Object(obj)),
                    align,
                    ..
                } => (*obj, op.ty.clone(), *align),
                OpKind::Store {
                    base: Some(Base::Object(obj)),
                    align,
                    ..
                } => {
                    let v = b.operands(o).get(1).copied();
                    (*obj, v.and_then(|v| b.op(v).ty.clone()), *align)
                }
                OpKind::Atomic {
                    base: Some(Base::Object(obj)),
                    ..
                } => (*obj, None, 0),
                OpKind::Store { base: None, .. } | OpKind::Atomic { base: None, .. } => {
                    unknown_write = true;
                    continue;
                }
                kind if kind.is_memory() && !matches!(kind, OpKind::Load { .. }) => {
                    if matches!(kind, OpKind::Builtin(_)) {
                        unknown_write = true;
                    }
                    continue;
                }
                _ => continue,
            };
            let Some(slot) = width.get_mut(obj.0 as usize) else {
                continue;
            };
            let bits = match ty {
                Some(Ty::I(w)) if matches!(w, 8 | 16 | 32 | 64) && align * 8 >= w as u32 => {
                    Some(w as u32)
                }
                _ => None,
            };
            *slot = match *slot {
                None => Some(bits),
                Some(prev) if prev == bits => Some(prev),
                Some(_) => Some(None),
            };
        }
    }
    // A struct argument's object holds the host's bytes, which no store wrote.
    let from_host: Vec<ObjectId> = k
        .params
        .iter()
        .filter_map(|p| match p.kind {
            crate::ir::ParamKind::Struct { object } => Some(object),
            _ => None,
        })
        .collect();
    width
        .into_iter()
        .zip(&k.objects)
        .enumerate()
        .map(|(i, (w, obj))| {
            let w = w.flatten()?;
            let host = from_host.contains(&ObjectId(i as u32));
            (!unknown_write && !host && obj.align * 8 >= w as u64).then_some(w)
        })
        .collect()
}

/// The largest value of `bits` the initial bytes of `obj` hold (0 without them).
pub fn initial_max(obj: &Object, bits: u32) -> u64 {
    let Some(init) = &obj.init else {
        return 0;
    };
    let n = (bits / 8) as usize;
    init.chunks(n)
        .map(|c| {
            c.iter()
                .rev()
                .fold(0u64, |acc, byte| (acc << 8) | *byte as u64)
        })
        .max()
        .unwrap_or(0)
}

/// The object of a load the analysis bounds, if it is one.
pub fn loaded(kind: &OpKind) -> Option<ObjectId> {
    match kind {
        OpKind::Load {
            base: Some(Base::Object(obj)),
            ..
        } => Some(*obj),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(src: &str) -> Kernel {
        let c = crate::frontend::check_source("k.cl", src, &Default::default());
        let m = crate::lower::lower(c.program.as_ref().expect("program"), &c.sources)
            .expect("lowering");
        crate::workitems::to_group_form(&m.kernels[0])
            .expect("group form")
            .kernel
    }

    fn slot(k: &Kernel, name: &str) -> Option<u32> {
        let i = k.objects.iter().position(|o| o.name == name).expect(name);
        slots(k)[i]
    }

    #[test]
    fn values_kept_across_a_barrier_are_in_objects_of_one_type() {
        let k = kernel(
            "__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
            void k(__global int *a) {
                __local int t[16];
                int lx = get_local_id(0) + 1;
                int v = a[lx];
                t[lx - 1] = v;
                barrier(CLK_LOCAL_MEM_FENCE);
                a[lx] = t[16 - lx] + v;
            }",
        );
        // (`lx`, a cheap function of the ids, is computed again after the barrier.)
        assert_eq!(slot(&k, "__wi_v"), Some(32));
        assert_eq!(slot(&k, "t"), Some(32));
    }

    #[test]
    fn a_byte_view_leaves_an_object_unbounded_a_lowered_atomic_does_not() {
        let k = kernel(
            "__kernel void k(__global int *a) {
                int p[4];
                __local int c;
                p[0] = a[0];
                ((char *)p)[1] = 7;
                if (get_local_id(0) == 0) c = 0;
                barrier(CLK_LOCAL_MEM_FENCE);
                atomic_inc(&c);
                a[1] = p[0] + c;
            }",
        );
        assert_eq!(slot(&k, "p"), None);
        // The atomic is a load, an add and a store in group form (workitems/atomics.rs):
        // the counter keeps its full width.
        assert_eq!(slot(&k, "c"), Some(32));
    }

    #[test]
    fn initial_bytes_are_read_little_endian() {
        let obj = Object {
            name: "t".into(),
            space: crate::frontend::types::AddrSpace::Constant,
            size: 8,
            align: 4,
            init: Some(vec![1, 0, 0, 0, 0, 2, 0, 0]),
            span: Default::default(),
            hints: Default::default(),
        };
        assert_eq!(initial_max(&obj, 32), 0x200);
        assert_eq!(initial_max(&obj, 8), 2);
    }
}

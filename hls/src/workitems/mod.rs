//! The work-item loop transformation (DESIGN.md "NDRange kernels become loops"): an
//! NDRange kernel becomes a kernel in *group form*, one execution of which does the work
//! of a whole work-group by looping over its work-items, so the rest of the backend sees
//! one kind of kernel.
//!
//! Group form, as run by the interpreter with one work-item per group ([`group_launch`]):
//! - barrier-free regions are `while` loop nests over the local ids (z outer, x inner: the
//!   NDRange order of work-items); a barrier ends one nest and starts the next and is
//!   itself dropped (the nests run one after another);
//! - an `if` or loop holding a barrier becomes group-level control; its condition is
//!   computed by every work-item at the end of the segment before it and the value of
//!   the *last* work-item (highest local linear id) decides. OpenCL requires it to be the
//!   same for all; a condition that visibly depends on the work-item id (a conservative
//!   dataflow check, `uniform.rs`) is rejected as a divergent barrier;
//! - `get_local_id` is the loop counters (`__lid_x/y/z`, i64 variables), the local linear
//!   id the variable `__lid_linear`; `get_local_size` a constant under
//!   `reqd_work_group_size`, else one of three hidden `i64` value parameters appended after
//!   the kernel's own, in order `__local_size_x`, `__local_size_y`, `__local_size_z`;
//!   global ids and sizes are computed from group ids, local sizes and offsets;
//! - variables read in a segment before being written there (their value crosses a
//!   barrier) live in a private array `__wi_NAME` of `max_items` slots, indexed by the
//!   local linear id; private objects used by several segments (or in a group-level
//!   loop) get one copy per work-item likewise; single private objects with initial bytes
//!   are stored again at the start of every work-item; a by-value struct parameter the
//!   kernel writes to is copied into a private working copy by every work-item;
//! - `return` where no barrier can follow ends the current work-item (a `continue` of the
//!   innermost work-item loop); elsewhere it must be taken by every work-item (checked
//!   like barrier conditions) and ends the group after the segment. `break`/`continue` of
//!   a loop holding a barrier from work-item code likewise: a flag variable per way out
//!   (`__leave_*`) is set, and the group follows it after the segment.
//! - statements ending a segment under `if (get_local_id(d) == c)` get loops of their own
//!   over the other dimensions (`guards.rs`), and a grid-stride loop runs in rounds over
//!   the work-items under a group-level loop (`interchange.rs`): each work-item keeps its
//!   program order, only the interleaving of work-items changes.
//!
//! The result keeps `reqd_work_group_size(1, 1, 1)`: one group-form work-item per group.

mod atomics;
mod compact;
mod emit;
mod guards;
mod ids;
mod interchange;
pub mod lanes;
mod liveness;
mod once;
mod regions;
mod remat;
mod rewrite;
mod split;
mod structs;
mod uniform;

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::frontend::types::AddrSpace;
use crate::interp;
use crate::ir::{self, Object, Param, ParamKind, Ty, VarId};

pub use ids::Size;

/// Names of the hidden local-size parameters, appended in this order when the kernel has
/// no `reqd_work_group_size`.
pub const HIDDEN_PARAMS: [&str; 3] = ["__local_size_x", "__local_size_y", "__local_size_z"];

/// Work-group size assumed when the kernel names none (the hardware rejects more).
pub const DEFAULT_MAX_GROUP: u64 = 256;

/// The largest work-group whose values can be kept per work-item across barriers.
pub const MAX_STORED_ITEMS: u64 = 1 << 16;

pub struct GroupForm {
    pub kernel: ir::Kernel,
    /// Largest local size per dimension a launch may use.
    pub max_local: [u64; 3],
    /// Largest number of work-items per group (the slots of per-work-item storage).
    pub max_items: u64,
    /// Parameters appended at the end of `kernel.params` (0 or 3, see [`HIDDEN_PARAMS`]).
    pub hidden_params: usize,
    /// Work-items per cycle, and why (`lanes.rs`); `None` or 1: one.
    pub lanes: Option<lanes::Lanes>,
}

/// The work-group size bounds: `reqd_work_group_size` exactly, else the total of
/// `work_group_size_hint`, else of `max_work_group_size`, else [`DEFAULT_MAX_GROUP`]
/// work-items in any shape.
pub fn limits(attrs: &crate::frontend::sema::summary::KernelAttrs) -> ([u64; 3], u64) {
    if let Some(r) = attrs.reqd_work_group_size {
        return (r, r.iter().product());
    }
    let total = attrs
        .work_group_size_hint
        .or(attrs.max_work_group_size)
        .map(|s| s.iter().product())
        .unwrap_or(DEFAULT_MAX_GROUP)
        .max(1);
    ([total; 3], total)
}

/// Transforms an NDRange kernel into group form with the lanes `num_simd_work_items` asks
/// for (the compile pipeline chooses them with [`lanes::choose`] and calls
/// [`to_group_form_with`]).
pub fn to_group_form(k: &ir::Kernel) -> Result<GroupForm, Diagnostic> {
    to_group_form_with(k, lanes::asked(k))
}

/// Transforms an NDRange kernel into group form, `lanes` work-items per cycle. Errors
/// carry spans (unsupported barrier placement, `return` before a barrier...).
pub fn to_group_form_with(
    k: &ir::Kernel,
    lanes: Option<lanes::Lanes>,
) -> Result<GroupForm, Diagnostic> {
    let n_lanes = lanes.as_ref().map_or(1, |l| l.n);
    let (max_local, max_items) = limits(&k.attrs);
    let mut out = k.clone();
    structs::private_copies(&mut out);
    let barriers = split::split_barriers(&mut out)?;
    let mut tree = regions::build(&mut out, &barriers)?;
    let shared = interchange::run(&mut out, &mut tree);
    let recomputable = remat::find(&out, &tree).vars;
    guards::split(&out, &mut tree, &recomputable, n_lanes);
    let mut once = once::find(&out, &tree);
    once.scalars.extend(shared);
    let mut plan = liveness::plan(&out, &tree, &once.scalars);
    // Only what would otherwise be kept per work-item is computed again.
    let mut remat = remat::find(&out, &tree);
    remat.vars.retain(|v, _| plan.promoted.contains(v));
    plan.promoted.retain(|v| !remat.vars.contains_key(v));
    if max_items > MAX_STORED_ITEMS && !(plan.promoted.is_empty() && plan.replicated.is_empty()) {
        return Err(Diagnostic::error(
            k.span,
            format!(
                "work-groups of up to {max_items} work-items need too much per-work-item \
                 storage (at most {MAX_STORED_ITEMS}); give the kernel a smaller \
                 reqd_work_group_size or max_work_group_size"
            ),
        ));
    }
    let st = storage(&mut out, &plan, max_items);
    let (env, hidden_params) = id_env(&mut out);
    let em = emit::Emitter {
        env: &env,
        st: &st,
        reinit: &plan.reinit,
        once: &once.segs,
        remat: &remat.vars,
        lanes: lanes
            .as_ref()
            .filter(|l| l.n > 1)
            .map(|l| (l.n, l.spelling(k))),
    };
    out.body = em.body(&mut out, &tree)?;
    atomics::lower_group_atomics(&mut out);
    compact::compact(&mut out);
    out.attrs.reqd_work_group_size = Some([1, 1, 1]);
    #[cfg(debug_assertions)]
    if let Err(e) = ir::verify::verify_kernel(&out) {
        panic!(
            "work-item loops broke kernel {}:\n{}\n{}",
            out.name,
            e.join("\n"),
            ir::print::print_kernel(&out, None)
        );
    }
    Ok(GroupForm {
        kernel: out,
        max_local,
        max_items,
        hidden_params,
        lanes,
    })
}

/// Creates the per-work-item arrays of promoted variables and widens replicated objects.
fn storage(k: &mut ir::Kernel, plan: &liveness::Plan, items: u64) -> rewrite::Storage {
    let mut vars = HashMap::new();
    let mut tys = HashMap::new();
    for &v in &plan.promoted {
        let var = k.var(v).clone();
        tys.insert(v, var.ty.clone());
        let stride = var.ty.store_size().next_power_of_two();
        let object = k.new_object(Object {
            name: format!("__wi_{}", var.name),
            space: AddrSpace::Private,
            size: stride * items,
            align: stride,
            init: None,
            span: var.span,
            hints: Default::default(),
        });
        let slot = rewrite::Slot {
            object,
            stride,
            align: stride.min(u32::MAX as u64) as u32,
        };
        vars.insert(v, slot);
    }
    let mut objects = HashMap::new();
    for &o in &plan.replicated {
        let obj = &mut k.objects[o.0 as usize];
        let stride = obj.size.div_ceil(obj.align.max(1)) * obj.align.max(1);
        obj.size = stride * items;
        if let Some(init) = &mut obj.init {
            init.resize(stride as usize, 0);
            *init = init.repeat(items as usize);
        }
        objects.insert(o, stride);
    }
    rewrite::Storage { vars, tys, objects }
}

/// The loop counters and local sizes; appends the hidden parameters when the sizes are
/// not fixed. Returns the number of hidden parameters.
fn id_env(k: &mut ir::Kernel) -> (ids::IdEnv, usize) {
    let span = k.span;
    let (size, hidden) = match k.attrs.reqd_work_group_size {
        Some(r) => (r.map(Size::Const), 0),
        None => {
            let first = k.params.len() as u32;
            for name in HIDDEN_PARAMS {
                k.params.push(Param {
                    name: name.to_string(),
                    ty: Ty::I(64),
                    kind: ParamKind::Value,
                    span,
                });
            }
            ([0, 1, 2].map(|d| Size::Param(first + d)), 3)
        }
    };
    let names = ["__lid_x", "__lid_y", "__lid_z"];
    let lid: [Option<VarId>; 3] = [0, 1, 2].map(|d| {
        // Dimensions of constant size 1 need no loop (x keeps one: `return` continues it).
        let single = matches!(size[d], Size::Const(1)) && d > 0;
        (!single).then(|| k.new_var(names[d], Ty::I(64), span))
    });
    let lin = k.new_var("__lid_linear", Ty::I(64), span);
    (ids::IdEnv { lid, size, lin }, hidden)
}

/// The launch that runs a group-form kernel in the interpreter for `original`: one
/// work-item per group (global = number of groups, local = 1), hidden parameters
/// appended. Errors when the local size exceeds `max_local`/`max_items` or differs from
/// a required one.
pub fn group_launch(g: &GroupForm, original: &interp::Launch) -> Result<interp::Launch, String> {
    let dims = original.work_dim as usize;
    if !(1..=3).contains(&dims) {
        return Err(format!("work_dim must be 1, 2 or 3, not {dims}"));
    }
    let own = g.kernel.params.len() - g.hidden_params;
    if original.args.len() != own {
        return Err(format!(
            "kernel '{}' takes {own} arguments but the launch gives {}",
            g.kernel.name,
            original.args.len()
        ));
    }
    let (mut groups, mut local) = ([1u64; 3], [1u64; 3]);
    for d in 0..dims {
        let (gl, l) = (original.global[d], original.local[d]);
        if l == 0 || gl % l != 0 {
            return Err(format!(
                "local size {l} does not divide global size {gl} in dimension {d}"
            ));
        }
        // The core's size registers are 32 bits wide (and the opt stage's range analysis
        // bounds work-item ids by them).
        if gl > u32::MAX as u64 {
            return Err(format!(
                "global size {gl} in dimension {d} exceeds the core's 32-bit size registers"
            ));
        }
        if l > g.max_local[d] {
            return Err(format!(
                "local size {l} in dimension {d} exceeds the maximum {} of kernel '{}'",
                g.max_local[d], g.kernel.name
            ));
        }
        groups[d] = gl / l;
        local[d] = l;
    }
    let items: u64 = local.iter().product();
    if items > g.max_items {
        return Err(format!(
            "work-group of {items} work-items exceeds the maximum {} of kernel '{}'",
            g.max_items, g.kernel.name
        ));
    }
    if g.hidden_params == 0 && local != g.max_local {
        return Err(format!(
            "kernel '{}' requires work-group size ({}, {}, {}) but the launch uses ({}, {}, {})",
            g.kernel.name,
            g.max_local[0],
            g.max_local[1],
            g.max_local[2],
            local[0],
            local[1],
            local[2]
        ));
    }
    let mut args: Vec<interp::ArgValue> = original.args.clone();
    if g.hidden_params == HIDDEN_PARAMS.len() {
        args.extend(local.map(|l| interp::ArgValue::Value(l.to_le_bytes().to_vec())));
    }
    Ok(interp::Launch {
        work_dim: original.work_dim,
        global: groups,
        local: [1; 3],
        args,
    })
}

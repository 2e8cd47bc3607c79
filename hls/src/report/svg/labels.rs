//! Short op labels for the dataflow graph's boxes (names of arguments, variables and
//! objects instead of indices), and the colour class of each op.

use crate::ir::{AtomicOp, Base, Conv, Kernel, Op, OpKind, Ty, WorkItemFn};

/// The name of the argument or object a memory access goes to, with a leading space.
fn target(k: &Kernel, base: &Option<Base>) -> String {
    match base {
        Some(Base::Param(i)) => k
            .params
            .get(*i as usize)
            .map(|p| format!(" {}", p.name))
            .unwrap_or_default(),
        Some(Base::Object(o)) => k
            .objects
            .get(o.0 as usize)
            .map(|x| format!(" {}", x.name))
            .unwrap_or_default(),
        None => String::new(),
    }
}

pub fn op_label(k: &Kernel, op: &Op) -> String {
    let space = |s: &crate::frontend::types::AddrSpace| s.name().trim_start_matches("__");
    match &op.kind {
        OpKind::Const(v) => format!("const {}", const_text(v, op.ty.as_ref())),
        OpKind::Param(i) => match k.params.get(*i as usize) {
            Some(p) => format!("arg {}", p.name),
            None => format!("arg {i}"),
        },
        OpKind::ReadVar(v) => format!("read {}", var(k, v.0)),
        OpKind::WriteVar(v) => format!("write {}", var(k, v.0)),
        OpKind::ObjectAddr(o) => match k.objects.get(o.0 as usize) {
            Some(x) => format!("&{}", x.name),
            None => format!("&o{}", o.0),
        },
        OpKind::PtrAdd => "ptr +".into(),
        OpKind::PtrDiff => "ptr -".into(),
        OpKind::Unary(u) => format!("{u:?}").to_lowercase(),
        OpKind::Binary(b) => format!("{b:?}").to_lowercase(),
        OpKind::Cmp(c) => format!("cmp {}", format!("{c:?}").to_lowercase()),
        OpKind::Select => "select".into(),
        OpKind::Conv(c) => conv_text(c, op.ty.as_ref()),
        OpKind::Bitcast => "bitcast".into(),
        OpKind::Extract(i) => format!("extract .{i}"),
        OpKind::Insert(i) => format!("insert .{i}"),
        OpKind::Shuffle(_) => "shuffle".into(),
        OpKind::Splat => "splat".into(),
        OpKind::Build => "build vector".into(),
        OpKind::Load { space: s, base, .. } => {
            format!("load {}{}", space(s), target(k, base))
        }
        OpKind::Store { space: s, base, .. } => {
            format!("store {}{}", space(s), target(k, base))
        }
        OpKind::Atomic { op: a, base, .. } => {
            format!("atomic {}{}", atomic_text(*a), target(k, base))
        }
        OpKind::Barrier { .. } => "barrier".into(),
        OpKind::MemFence { .. } => "mem_fence".into(),
        OpKind::WorkItem(f) => work_item_text(*f).into(),
        OpKind::Builtin(call) => call.name.clone(),
    }
}

fn var(k: &Kernel, v: u32) -> String {
    k.vars
        .get(v as usize)
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("v{v}"))
}

/// The CSS class of an op and the word its collapsed count uses.
pub fn category(k: &OpKind) -> (&'static str, &'static str) {
    match k {
        OpKind::Const(_) => ("k", "constants"),
        OpKind::Param(_) | OpKind::WorkItem(_) => ("a", "arguments/ids"),
        OpKind::ReadVar(_) | OpKind::WriteVar(_) => ("v", "variable accesses"),
        OpKind::Load { .. } | OpKind::Store { .. } | OpKind::Atomic { .. } => {
            ("m", "memory accesses")
        }
        OpKind::Barrier { .. } | OpKind::MemFence { .. } => ("s", "barriers/fences"),
        OpKind::Builtin(_) => ("f", "built-in calls"),
        _ => ("x", "operations"),
    }
}

fn const_text(v: &[u64], ty: Option<&Ty>) -> String {
    let lane = |x: u64| match ty.map(Ty::elem) {
        Some(Ty::F32) => format!("{}", f32::from_bits(x as u32)),
        Some(Ty::F64) => format!("{}", f64::from_bits(x)),
        _ if x < 1 << 16 => format!("{x}"),
        _ => format!("{x:#x}"),
    };
    match v {
        [x] => lane(*x),
        _ if v.iter().all(|x| *x == v[0]) && !v.is_empty() => {
            format!("({})x{}", lane(v[0]), v.len())
        }
        _ => format!("<{} lanes>", v.len()),
    }
}

fn conv_text(c: &Conv, ty: Option<&Ty>) -> String {
    let to = ty.map(|t| t.to_string()).unwrap_or_default();
    let what = match c {
        Conv::Int { sat: true, .. } | Conv::FloatToInt { sat: true, .. } => "convert_sat",
        Conv::Int { .. } => "int conv",
        Conv::FloatToInt { .. } => "float→int",
        Conv::IntToFloat { .. } => "int→float",
        Conv::Float { .. } => "float conv",
    };
    format!("{what} {to}")
}

fn atomic_text(a: AtomicOp) -> String {
    format!("{a:?}").to_lowercase()
}

fn work_item_text(f: WorkItemFn) -> &'static str {
    match f {
        WorkItemFn::WorkDim => "get_work_dim",
        WorkItemFn::GlobalSize => "get_global_size",
        WorkItemFn::GlobalId => "get_global_id",
        WorkItemFn::LocalSize => "get_local_size",
        WorkItemFn::EnqueuedLocalSize => "get_enqueued_local_size",
        WorkItemFn::LocalId => "get_local_id",
        WorkItemFn::NumGroups => "get_num_groups",
        WorkItemFn::GroupId => "get_group_id",
        WorkItemFn::GlobalOffset => "get_global_offset",
        WorkItemFn::GlobalLinearId => "get_global_linear_id",
        WorkItemFn::LocalLinearId => "get_local_linear_id",
    }
}

//! What serves each memory access of a pipelined loop, for the report: the buffer's load
//! or store unit and whether it streams (prefetched bursts for a load walking one element
//! per iteration, combined bursts for stores to consecutive bytes) or serves each access
//! on its own, with the burst size the bus allows; an on-chip memory's RAM and ports.

use serde::Serialize;

use crate::analysis::affine::AffineLoop;
use crate::analysis::loops::LoopShape;
use crate::diag::SourceMap;
use crate::ir::{Base, Kernel, OpKind};
use crate::memory::MemoryPlan;
use crate::pipeline::{PipeLoop, PipelinePlan};
use crate::rtl::netlist::SrcLoc;
use crate::rtl::shell::ShellConfig;

/// One access of a pipelined loop (a wide group once).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccessReport {
    /// The buffer argument or on-chip memory.
    pub memory: String,
    /// "load", "store" or "atomic".
    pub op: &'static str,
    pub location: String,
    /// "load unit", "store unit", "on-chip RAM".
    pub unit: &'static str,
    /// Bytes per access (a wide group's whole width).
    pub bytes: u32,
    /// A global access served as a stream of bursts (one element per iteration).
    pub streams: bool,
    /// Stride in bytes between iterations, when the affine analysis knows it.
    pub stride: Option<i64>,
    /// How the unit serves it, in words.
    pub how: String,
}

impl std::fmt::Display for AccessReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} at {}: {} ({} bytes), {}",
            self.memory, self.op, self.location, self.unit, self.bytes, self.how
        )
    }
}

/// The accesses of pipelined loop `s`, in program order.
pub fn describe(
    g: &Kernel,
    sm: &SourceMap,
    s: &LoopShape,
    pl: &PipeLoop,
    plan: &PipelinePlan,
    memory: &MemoryPlan,
    cfg: &ShellConfig,
) -> Vec<AccessReport> {
    let aff = AffineLoop::new(g, s, Some(&memory.ranges));
    let beat = cfg.data_width / 8;
    let burst = format!("bursts of up to {} x {beat}-byte beats", cfg.max_burst);
    let mut out = Vec::new();
    for &m in &pl.ops {
        if memory.wide.rides_along(m) {
            continue;
        }
        let blk = g.block(m.0);
        let op = blk.op(m.1);
        let (what, base) = match &op.kind {
            OpKind::Load { base, .. } => ("load", *base),
            OpKind::Store { base, .. } => ("store", *base),
            OpKind::Atomic { base, .. } => ("atomic", *base),
            _ => continue,
        };
        // The bytes moved: the loaded value, the stored one (operand 1), a wide group's.
        let value = match what {
            "store" => blk.operands(m.1).get(1).and_then(|v| blk.op(*v).ty.clone()),
            _ => op.ty.clone(),
        };
        let bytes = memory
            .wide
            .group(m)
            .map(|w| w.bytes())
            .or(value.map(|t| t.store_size() as u32))
            .unwrap_or(0);
        let name = |b: Base| match b {
            Base::Object(o) => g.objects[o.0 as usize].name.clone(),
            Base::Param(p) => g.params[p as usize].name.clone(),
        };
        let stride = aff.stride(m);
        let mut a = AccessReport {
            memory: base.map_or_else(|| "?".to_string(), name),
            op: what,
            location: SrcLoc::of_span(sm, op.span).to_string(),
            unit: "",
            bytes,
            streams: false,
            stride,
            how: String::new(),
        };
        match base {
            Some(b) if memory.layout(b).is_some() => {
                let ports = memory.layout(b).map_or(1, |l| l.replicas);
                a.unit = "on-chip RAM";
                a.how = format!(
                    "{ports} read port{} and 1 write port, one access each per cycle",
                    if ports == 1 { "" } else { "s" }
                );
            }
            Some(Base::Param(p)) => {
                let paths = plan.buffers.get(&p);
                match what {
                    "load" => {
                        a.unit = "load unit";
                        a.streams = paths.is_some_and(|x| !x.load_scattered);
                        a.how = if a.streams {
                            format!("streams: prefetched in {burst}")
                        } else {
                            "scattered: each access fetches its own beats".to_string()
                        };
                        if let Some(w) = pl.ordered_loads.get(&m).and_then(|w| w.first()) {
                            let at = SrcLoc::of_span(sm, g.block(w.store.0).op(w.store.1).span);
                            a.how = format!(
                                "ordered: waits until the store at {at} of {} iteration{} \
                                 before is acknowledged, then fetches its own beat",
                                w.distance,
                                if w.distance == 1 { "" } else { "s" }
                            );
                        }
                    }
                    "store" => {
                        a.unit = "store unit";
                        a.streams = stride == Some(i64::from(bytes));
                        a.how = if a.streams {
                            format!("streams: combined into {burst}")
                        } else {
                            "scattered: a write of its own unless the next store is to the same or the following beat".to_string()
                        };
                    }
                    _ => {
                        a.unit = "buffer port";
                        a.how = "ordered with the buffer's other accesses".to_string();
                    }
                }
            }
            _ => {
                a.unit = "memory";
                a.how = "served in order".to_string();
            }
        }
        out.push(a);
    }
    out
}

//! What serves each memory access of a pipelined loop, for the report: the buffer's load
//! or store unit and whether it streams (prefetched bursts for a load walking one element
//! per iteration, combined bursts for stores to consecutive bytes) or serves each access
//! on its own, with the burst size the bus allows; an on-chip memory's RAM and port.

use crate::analysis::affine::AffineLoop;
use crate::analysis::loops::LoopShape;
use crate::diag::SourceMap;
use crate::ir::{Base, Kernel, OpKind};
use crate::memory::MemoryPlan;
use crate::pipeline::{PipeLoop, PipelinePlan};
use crate::rtl::netlist::SrcLoc;
use crate::rtl::shell::ShellConfig;

/// One line per access of pipelined loop `s` (a wide group once, at its issuer).
pub fn describe(
    g: &Kernel,
    sm: &SourceMap,
    s: &LoopShape,
    pl: &PipeLoop,
    plan: &PipelinePlan,
    memory: &MemoryPlan,
    cfg: &ShellConfig,
) -> Vec<String> {
    let aff = AffineLoop::new(g, s, Some(&memory.ranges));
    let beat = cfg.data_width / 8;
    let burst = format!("bursts of up to {} x {beat}-byte beats", cfg.max_burst);
    let mut out = Vec::new();
    for &m in &pl.ops {
        if memory.wide.rides_along(m) {
            continue;
        }
        let op = g.block(m.0).op(m.1);
        let (what, base, space) = match &op.kind {
            OpKind::Load { base, space, .. } => ("load", *base, *space),
            OpKind::Store { base, space, .. } => ("store", *base, *space),
            OpKind::Atomic { base, space, .. } => ("atomic", *base, *space),
            _ => continue,
        };
        let loc = SrcLoc::of_span(sm, op.span);
        let wide = memory.wide.group(m).map(|w| w.bytes());
        let size = |bytes: Option<u32>| match (wide, bytes) {
            (Some(w), _) => format!("{w}-byte wide access"),
            (None, Some(b)) => format!("{b}-byte element"),
            (None, None) => "element".to_string(),
        };
        let line = match base {
            Some(b) if memory.layout(b).is_some() => {
                let l = memory.layout(b).copied();
                let name = match b {
                    Base::Object(o) => &g.objects[o.0 as usize].name,
                    Base::Param(p) => &g.params[p as usize].name,
                };
                let ports = l.map_or(1, |l| l.replicas);
                format!(
                    "{name}: {what} at {loc}: on-chip RAM ({} {}-byte words, {} read port{}), one access per port per cycle",
                    l.map_or(0, |l| l.depth),
                    l.map_or(0, |l| l.word),
                    ports,
                    if ports == 1 { "" } else { "s" }
                )
            }
            Some(Base::Param(p)) => {
                let name = &g.params[p as usize].name;
                let paths = plan.buffers.get(&p);
                let stride = aff.stride(m);
                match what {
                    "load" => {
                        let bytes = paths.and_then(|x| x.pipe_load);
                        let streams = paths.is_some_and(|x| !x.load_scattered);
                        let how = if streams {
                            format!(
                                "streams (stride {} bytes): prefetched in {burst}",
                                stride.unwrap_or(0)
                            )
                        } else {
                            "scattered: each access fetches its own beats (one request per cycle at best)"
                                .to_string()
                        };
                        format!(
                            "{name}: {what} at {loc}: load unit of {name} ({}), {how}",
                            size(bytes)
                        )
                    }
                    "store" => {
                        let bytes = paths.and_then(|x| x.pipe_store);
                        let step = wide.or(bytes).map(i64::from);
                        let how = match stride {
                            Some(st) if Some(st) == step => {
                                format!("streams (stride {st} bytes): combined into {burst}")
                            }
                            _ => "scattered: a write of its own beat unless the next store is to the same or the following beat".to_string(),
                        };
                        format!(
                            "{name}: {what} at {loc}: store unit of {name} ({}), {how}",
                            size(bytes)
                        )
                    }
                    _ => format!("{name}: {what} at {loc}: ordered through the buffer's port"),
                }
            }
            _ => format!("{what} at {loc}: {}", space.name()),
        };
        out.push(line);
    }
    out
}

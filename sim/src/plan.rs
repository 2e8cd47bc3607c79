//! Turns a launch into what the harness does: where each buffer goes and which control
//! registers get which values, checked against the core's description.

use crate::desc::{regs, ArgKind, CoreDesc};
use crate::launch::{SimArg, SimLaunch};
use crate::layout::{self, Placement};

/// The launch laid out for one core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Per argument: where its buffer lives (`None` for scalars and local sizes).
    pub placements: Vec<Option<Placement>>,
    /// Register writes before START, in order: (byte offset, value).
    pub csr: Vec<(u32, u32)>,
}

/// Checks `launch` against `desc` and lays it out.
pub fn plan(desc: &CoreDesc, launch: &SimLaunch) -> Result<Plan, String> {
    if launch.args.len() != desc.args.len() {
        return Err(format!(
            "core {} takes {} arguments, the launch gives {}",
            desc.top,
            desc.args.len(),
            launch.args.len()
        ));
    }
    let lens: Vec<u64> = launch
        .args
        .iter()
        .filter_map(|a| match a {
            SimArg::Buffer(b) => Some(b.len() as u64),
            _ => None,
        })
        .collect();
    let addr_width = desc
        .masters
        .iter()
        .map(|m| m.addr_width)
        .min()
        .unwrap_or(32);
    let mut places = layout::place(&lens, addr_width)?.into_iter();
    let mut csr = Vec::new();
    for d in 0..3u32 {
        csr.push((regs::GLOBAL_SIZE0 + 4 * d, launch.global[d as usize]));
        csr.push((regs::LOCAL_SIZE0 + 4 * d, launch.local[d as usize]));
    }
    let mut placements = Vec::with_capacity(desc.args.len());
    for (a, v) in desc.args.iter().zip(&launch.args) {
        let (value, place): (Vec<u8>, Option<Placement>) = match (&a.kind, v) {
            (ArgKind::Buffer { .. }, SimArg::Buffer(_)) => {
                let p = places
                    .next()
                    .ok_or("internal: fewer placements than buffers")?;
                (p.base.to_le_bytes().to_vec(), Some(p))
            }
            (ArgKind::Scalar { bytes }, SimArg::Scalar(v)) => {
                if v.len() != *bytes as usize {
                    return Err(format!(
                        "argument {} is {} bytes, the launch gives {}",
                        a.name,
                        bytes,
                        v.len()
                    ));
                }
                (v.clone(), None)
            }
            (ArgKind::Local { max_bytes }, SimArg::Local(n)) => {
                if n > max_bytes {
                    return Err(format!(
                        "local argument {} asks for {n} bytes, the core has {max_bytes}",
                        a.name
                    ));
                }
                (n.to_le_bytes().to_vec(), None)
            }
            (kind, _) => {
                return Err(format!(
                    "argument {} is a {}, the launch gives a {}",
                    a.name,
                    kind_name(kind),
                    value_name(v)
                ))
            }
        };
        if let Some(p) = place {
            let fits = a.words >= 2 || p.base >> 32 == 0;
            if !fits {
                return Err(format!(
                    "argument {}: address {:#x} does not fit one register",
                    a.name, p.base
                ));
            }
        }
        for w in 0..a.words {
            let word = (0..4).fold(0u32, |acc, b| {
                let byte = value.get((4 * w + b) as usize).copied().unwrap_or(0);
                acc | u32::from(byte) << (8 * b)
            });
            csr.push((a.offset + 4 * w, word));
        }
        placements.push(place);
    }
    Ok(Plan { placements, csr })
}

fn kind_name(k: &ArgKind) -> &'static str {
    match k {
        ArgKind::Buffer { .. } => "buffer",
        ArgKind::Scalar { .. } => "scalar",
        ArgKind::Local { .. } => "local size",
    }
}

fn value_name(v: &SimArg) -> &'static str {
    match v {
        SimArg::Buffer(_) => "buffer",
        SimArg::Scalar(_) => "scalar",
        SimArg::Local(_) => "local size",
    }
}

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
            // Inside another argument's buffer: no place of its own.
            SimArg::SameAs { .. } => None,
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
    let mut placements: Vec<Option<Placement>> = Vec::with_capacity(desc.args.len());
    for (a, v) in desc.args.iter().zip(&launch.args) {
        let (value, place): (Vec<u8>, Option<Placement>) = match (&a.kind, v) {
            (ArgKind::Buffer { size_word, .. }, SimArg::Buffer(_) | SimArg::SameAs { .. }) => {
                let (seen, own) = match v {
                    SimArg::SameAs { arg, offset } => {
                        let target = placements.get(*arg).copied().flatten().ok_or_else(|| {
                            format!(
                                "argument {} is the same buffer as argument {arg}, which is \
                                 not an earlier buffer of its own",
                                a.name
                            )
                        })?;
                        if *offset > target.len {
                            return Err(format!(
                                "argument {}: offset {offset} is past the {} bytes of \
                                 argument {arg}",
                                a.name, target.len
                            ));
                        }
                        let seen = Placement {
                            base: target.base + offset,
                            len: target.len - offset,
                        };
                        (seen, None)
                    }
                    _ => {
                        let p = places
                            .next()
                            .ok_or("internal: fewer placements than buffers")?;
                        (p, Some(p))
                    }
                };
                // The address takes the words before the size word.
                let addr_words = a.words - u32::from(*size_word);
                if addr_words < 2 && seen.base >> 32 != 0 {
                    return Err(format!(
                        "argument {}: address {:#x} does not fit one register",
                        a.name, seen.base
                    ));
                }
                let mut value = seen.base.to_le_bytes().to_vec();
                value.resize(4 * addr_words as usize, 0);
                if *size_word {
                    let len = u32::try_from(seen.len).map_err(|_| {
                        format!(
                            "argument {}: {} bytes do not fit the size register",
                            a.name, seen.len
                        )
                    })?;
                    value.extend(len.to_le_bytes());
                }
                (value, own)
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
        SimArg::SameAs { .. } => "buffer (same as another)",
        SimArg::Scalar(_) => "scalar",
        SimArg::Local(_) => "local size",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::{ArgDesc, MasterDesc, MasterId};

    fn desc() -> CoreDesc {
        let arg = |name: &str, kind, offset, words| ArgDesc {
            name: name.into(),
            kind,
            offset,
            words,
        };
        CoreDesc {
            error_codes: Vec::new(),
            counters: Vec::new(),
            top: "k".into(),
            rtl: vec!["k.v".into()],
            csr_addr_width: 8,
            args: vec![
                arg(
                    "p",
                    ArgKind::Buffer {
                        master: MasterId(0),
                        size_word: false,
                    },
                    0x40,
                    2,
                ),
                arg("x", ArgKind::Scalar { bytes: 8 }, 0x48, 2),
                arg("tmp", ArgKind::Local { max_bytes: 1024 }, 0x60, 1),
            ],
            masters: vec![MasterDesc {
                name: "p".into(),
                data_width: 64,
                addr_width: 64,
            }],
        }
    }

    fn launch(local: u64) -> SimLaunch {
        SimLaunch {
            global: [16, 2, 1],
            local: [4, 1, 1],
            args: vec![
                SimArg::Buffer(vec![0; 64]),
                SimArg::Scalar(0x1122_3344_5566_7788u64.to_le_bytes().to_vec()),
                SimArg::Local(local),
            ],
        }
    }

    #[test]
    fn registers_get_sizes_addresses_and_values_low_word_first() {
        let p = plan(&desc(), &launch(256)).unwrap();
        let base = p.placements[0].unwrap().base;
        assert_eq!(base, layout::BASE64);
        let has = |r: u32, v: u32| p.csr.contains(&(r, v));
        assert!(has(0x10, 16) && has(0x14, 2) && has(0x18, 1));
        assert!(has(0x1C, 4) && has(0x20, 1) && has(0x24, 1));
        assert!(has(0x40, base as u32) && has(0x44, (base >> 32) as u32));
        assert!(has(0x48, 0x5566_7788) && has(0x4C, 0x1122_3344));
        assert!(has(0x60, 256));
        assert_eq!(p.placements[1], None);
    }

    #[test]
    fn mismatched_launches_are_refused() {
        assert!(plan(&desc(), &launch(2048))
            .unwrap_err()
            .contains("asks for 2048 bytes"));
        let mut l = launch(0);
        l.args[1] = SimArg::Scalar(vec![1, 2, 3, 4]);
        assert!(plan(&desc(), &l).unwrap_err().contains("is 8 bytes"));
        l.args[1] = SimArg::Buffer(vec![]);
        assert!(plan(&desc(), &l).unwrap_err().contains("is a scalar"));
    }

    #[test]
    fn descriptions_round_trip_through_json_and_are_validated() {
        let d = desc();
        let json = serde_json::to_string(&d).unwrap();
        assert!(
            json.contains("\"buffer\":{\"master\":0,\"size_word\":false}"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<CoreDesc>(&json).unwrap(), d);
        assert_eq!(d.validate(), Ok(()));
        let mut bad = d.clone();
        bad.args[0].words = 1;
        assert!(bad.validate().unwrap_err().contains("64-bit address"));
        let mut bad = d.clone();
        bad.masters[0].name = "p__q".into();
        assert!(bad.validate().is_err());
        let mut bad = d;
        bad.masters[0].data_width = 48;
        assert!(bad.validate().unwrap_err().contains("power of two"));
    }
}

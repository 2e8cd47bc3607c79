//! Running the NDRange: work-groups one after another; inside a group, work-items one
//! after another, each until it ends or reaches a barrier. When every work-item waits at
//! the same barrier all resume; any other mix is a divergence error, never a hang.

use super::exec::{Env, Stop, WorkItem};
use super::hints::IvdepState;
use super::memory::{reset_private, MemRegion};
use super::InterpError;

/// Per-launch templates a fresh work-item is made from.
pub struct Fresh<'a> {
    pub private: &'a [MemRegion],
    pub hints: Option<&'a IvdepState>,
    pub has_private: bool,
}

fn new_item(env: &Env, fresh: &Fresh) -> WorkItem {
    WorkItem {
        frame: env.prog.frame.clone(),
        private: fresh.private.to_vec(),
        pc: 0,
        gid: [0; 3],
        lid: [0; 3],
        grp: [0; 3],
        hints: fresh.hints.cloned(),
    }
}

/// Makes `wi` a fresh work-item with these ids.
#[inline(always)]
fn reset(env: &Env, fresh: &Fresh, wi: &mut WorkItem, grp: [u64; 3], lid: [u64; 3]) {
    let n = env.prog.var_words;
    if n > 0 {
        wi.frame[..n].copy_from_slice(&env.prog.frame[..n]);
    }
    if fresh.has_private {
        reset_private(&mut wi.private, fresh.private);
    }
    if let Some(h) = &mut wi.hints {
        h.reset();
    }
    wi.pc = 0;
    wi.grp = grp;
    wi.lid = lid;
    for d in 0..3 {
        wi.gid[d] = grp[d] * env.local[d] + lid[d];
    }
}

fn fmt_id(v: [u64; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

/// Runs every work-group; returns the number of work-items run.
pub fn run_all(
    env: &mut Env,
    fresh: &Fresh,
    local_regions: &[(bool, usize)],
    has_barrier: bool,
) -> Result<u64, InterpError> {
    let groups = [0, 1, 2].map(|d| env.global[d] / env.local[d]);
    let size = env.local[0] * env.local[1] * env.local[2];
    let mut items: Vec<WorkItem> = Vec::new();
    let count = if has_barrier { size as usize } else { 1 };
    for _ in 0..count {
        items.push(new_item(env, fresh));
    }
    let mut done = 0u64;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let grp = [gx, gy, gz];
                // Local memory is fresh (uninitialised) for each group.
                for &(is_param, i) in local_regions {
                    let r = if is_param {
                        &mut env.params[i]
                    } else {
                        &mut env.objects[i]
                    };
                    if let Some(w) = &mut r.written {
                        w.fill(false);
                    }
                }
                if has_barrier {
                    run_group(env, fresh, &mut items, grp)?;
                } else {
                    let wi = &mut items[0];
                    for lz in 0..env.local[2] {
                        for ly in 0..env.local[1] {
                            for lx in 0..env.local[0] {
                                reset(env, fresh, wi, grp, [lx, ly, lz]);
                                if let Stop::Barrier(_) = env.run(wi)? {
                                    return Err(InterpError::plain(
                                        "barrier in a kernel compiled without barriers",
                                    ));
                                }
                            }
                        }
                    }
                }
                done += size;
            }
        }
    }
    Ok(done)
}

fn run_group(
    env: &mut Env,
    fresh: &Fresh,
    items: &mut [WorkItem],
    grp: [u64; 3],
) -> Result<(), InterpError> {
    let (lx, ly) = (env.local[0], env.local[1]);
    for (i, wi) in items.iter_mut().enumerate() {
        let i = i as u64;
        reset(env, fresh, wi, grp, [i % lx, (i / lx) % ly, i / (lx * ly)]);
    }
    loop {
        let mut first: Option<(usize, Stop)> = None;
        for i in 0..items.len() {
            let stop = env.run(&mut items[i])?;
            match (&first, &stop) {
                (None, _) => first = Some((i, stop)),
                (Some((_, Stop::Done)), Stop::Done) => {}
                (Some((_, Stop::Barrier(a))), Stop::Barrier(b)) if a == b => {}
                (Some((j, other)), _) => {
                    return Err(divergence(env, items, grp, (*j, other), (i, &stop)))
                }
            }
        }
        match first {
            Some((_, Stop::Barrier(_))) => continue,
            _ => return Ok(()),
        }
    }
}

fn divergence(
    env: &Env,
    items: &[WorkItem],
    grp: [u64; 3],
    a: (usize, &Stop),
    b: (usize, &Stop),
) -> InterpError {
    let name = |i: usize| {
        format!(
            "work-item {} of group {}",
            fmt_id(items[i].lid),
            fmt_id(grp)
        )
    };
    let span = |id: u32| env.prog.barrier_spans.get(id as usize).copied();
    // Point at a barrier: the one someone waits at.
    let (wait, other) = match (a.1, b.1) {
        (Stop::Barrier(_), _) => (a, b),
        _ => (b, a),
    };
    let Stop::Barrier(id) = wait.1 else {
        return InterpError::plain("divergent barrier");
    };
    match other.1 {
        Stop::Done => InterpError {
            message: format!(
                "divergent barrier: {} waits at this barrier but {} ended without reaching it",
                name(wait.0),
                name(other.0)
            ),
            span: span(*id),
            notes: Vec::new(),
        },
        Stop::Barrier(o) => InterpError {
            message: format!(
                "divergent barrier: {} waits at this barrier but {} waits at another barrier",
                name(wait.0),
                name(other.0)
            ),
            span: span(*id),
            notes: vec![(span(*o), "the other barrier".to_string())],
        },
    }
}

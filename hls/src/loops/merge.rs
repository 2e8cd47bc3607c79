//! Joining straight-line code: where unrolling left a run of blocks one after another (the
//! copies, and the blocks around a loop that became straight-line), they become one
//! block, so the scheduler, the `opt` stage and variable forwarding see the whole run
//! as one dataflow graph instead of stopping at every copy's edge. The same holds for
//! every run the earlier stages left (a work-item loop's id block and the body after
//! it, the code before an `if`, which joins the block computing its condition): a value
//! such as `gy * width + gx` is then computed from the ids where it is used instead of
//! riding the pipeline from the block that wrote `gx`.

use super::copy::append;
use crate::ir::{Block, BlockId, Kernel, Node, Region};

/// Joins every run of consecutive blocks of the kernel (the body, every loop's body and
/// latch, both arms of every `if`), and each run just before an `if` with the block that
/// computes its condition; the blocks made are noted in `made`. Returns how many runs
/// were joined.
pub fn join_all(k: &mut Kernel, made: &mut Vec<BlockId>) -> usize {
    let before = made.len();
    let body = std::mem::take(&mut k.body);
    k.body = join_region(k, body, made);
    for i in 0..k.loops.len() {
        let body = std::mem::take(&mut k.loops[i].body);
        let body = join_region(k, body, made);
        let latch = std::mem::take(&mut k.loops[i].latch);
        let latch = join_region(k, latch, made);
        k.loops[i].body = body;
        k.loops[i].latch = latch;
    }
    made.len() - before
}

fn join_region(k: &mut Kernel, r: Region, made: &mut Vec<BlockId>) -> Region {
    let nodes =
        r.0.into_iter()
            .map(|n| match n {
                Node::If {
                    cond,
                    then,
                    els,
                    span,
                } => Node::If {
                    cond,
                    then: join_region(k, then, made),
                    els: join_region(k, els, made),
                    span,
                },
                other => other,
            })
            .collect::<Vec<_>>();
    // A run of blocks before an `if` runs just before its condition block: one block.
    let mut out: Vec<Node> = Vec::new();
    for n in nodes {
        match n {
            Node::If {
                cond,
                then,
                els,
                span,
            } if matches!(out.last(), Some(Node::Block(_))) => {
                let mut run = Vec::new();
                while let Some(Node::Block(b)) = out.last() {
                    run.push(*b);
                    out.pop();
                }
                run.reverse();
                let mut joined = Block::default();
                for b in &run {
                    append(&mut joined, k.block(*b), None);
                }
                let map = append(&mut joined, k.block(cond.0), None);
                let id = k.new_block();
                *k.block_mut(id) = joined;
                made.push(id);
                out.push(Node::If {
                    cond: (id, map[&cond.1]),
                    then,
                    els,
                    span,
                });
            }
            other => out.push(other),
        }
    }
    Region(join_runs(k, out, made))
}

/// Joins each run of two or more consecutive blocks of `nodes` into one new block (noted
/// in `made`).
pub fn join_runs(k: &mut Kernel, nodes: Vec<Node>, made: &mut Vec<BlockId>) -> Vec<Node> {
    let mut out = Vec::new();
    let mut run: Vec<BlockId> = Vec::new();
    for n in nodes {
        match n {
            Node::Block(b) => run.push(b),
            other => {
                flush(k, &mut run, &mut out, made);
                out.push(other);
            }
        }
    }
    flush(k, &mut run, &mut out, made);
    out
}

fn flush(k: &mut Kernel, run: &mut Vec<BlockId>, out: &mut Vec<Node>, made: &mut Vec<BlockId>) {
    match run.len() {
        0 => {}
        1 => out.push(Node::Block(run[0])),
        _ => {
            let mut joined = Block::default();
            for b in run.iter() {
                append(&mut joined, k.block(*b), None);
            }
            let id = k.new_block();
            *k.block_mut(id) = joined;
            made.push(id);
            out.push(Node::Block(id));
        }
    }
    run.clear();
}

//! Joining straight-line code: where unrolling left a run of blocks one after another (the
//! copies, and the blocks around a loop that became straight-line), they become one
//! block, so the scheduler, the `opt` stage and variable forwarding see the whole run
//! as one dataflow graph instead of stopping at every copy's edge.

use super::copy::append;
use crate::ir::{Block, BlockId, Kernel, Node};

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

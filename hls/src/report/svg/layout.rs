//! Layered drawing of one acyclic graph: longest-path layers (sources pulled down next
//! to their first user), long edges split by dummy points, barycentric ordering sweeps
//! that keep the order with the fewest crossings, and x positions pulled towards the
//! neighbours' centres.

/// Height of every node.
pub const NODE_H: i32 = 22;
const H_GAP: i32 = 12;
const V_GAP: i32 = 24;
const MARGIN: i32 = 4;
const DUMMY_W: i32 = 2;
const SWEEPS: usize = 8;

/// Nodes by index with their widths; edges from a node to one that depends on it.
pub struct Graph {
    pub widths: Vec<i32>,
    pub edges: Vec<(usize, usize)>,
}

/// Positions of a [`Graph`]'s nodes (top-left corners) and routes of its edges.
#[derive(Debug)]
pub struct Layout {
    pub layer: Vec<usize>,
    pub x: Vec<i32>,
    pub y: Vec<i32>,
    pub w: Vec<i32>,
    /// Points of each kept edge from the source's bottom to the target's top.
    pub routes: Vec<Vec<(i32, i32)>>,
    /// Index into `Graph::edges` of each route (self-loops, out-of-range ends and
    /// edges closing a cycle are left out).
    pub kept: Vec<usize>,
    pub width: i32,
    pub height: i32,
}

/// A node of the layered graph: a real node or a bend point of a long edge.
struct Slot {
    w: i32,
    layer: usize,
    preds: Vec<usize>,
    succs: Vec<usize>,
}

pub fn layout(g: &Graph) -> Layout {
    let n = g.widths.len();
    let topo = topo_order(n, &g.edges);
    let mut rank = vec![0; n];
    for (i, v) in topo.iter().enumerate() {
        rank[*v] = i;
    }
    let kept: Vec<usize> = (0..g.edges.len())
        .filter(|e| {
            let (s, t) = g.edges[*e];
            s < n && t < n && rank[s] < rank[t]
        })
        .collect();
    let layer = layers(
        n,
        &topo,
        &kept.iter().map(|e| g.edges[*e]).collect::<Vec<_>>(),
    );
    let mut slots: Vec<Slot> = (0..n)
        .map(|v| Slot {
            w: g.widths[v].max(1),
            layer: layer[v],
            preds: Vec::new(),
            succs: Vec::new(),
        })
        .collect();
    let mut chains = Vec::new();
    for e in &kept {
        let (s, t) = g.edges[*e];
        let mut chain = vec![s];
        for l in layer[s] + 1..layer[t] {
            slots.push(Slot {
                w: DUMMY_W,
                layer: l,
                preds: Vec::new(),
                succs: Vec::new(),
            });
            chain.push(slots.len() - 1);
        }
        chain.push(t);
        for p in chain.windows(2) {
            slots[p[0]].succs.push(p[1]);
            slots[p[1]].preds.push(p[0]);
        }
        chains.push(chain);
    }
    let depth = layer.iter().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for v in topo.iter().copied().chain(n..slots.len()) {
        rows[slots[v].layer].push(v);
    }
    let rows = order(&slots, rows);
    let x = place(&slots, &rows);
    let y: Vec<i32> = slots
        .iter()
        .map(|s| MARGIN + s.layer as i32 * (NODE_H + V_GAP))
        .collect();
    let routes = chains
        .iter()
        .map(|c| {
            let centre = |v: usize| x[v] + slots[v].w / 2;
            let mut pts = vec![(centre(c[0]), y[c[0]] + NODE_H)];
            for d in &c[1..c.len() - 1] {
                pts.push((centre(*d), y[*d] + NODE_H / 2));
            }
            let last = c[c.len() - 1];
            pts.push((centre(last), y[last]));
            pts
        })
        .collect();
    let width = (0..slots.len())
        .map(|v| x[v] + slots[v].w)
        .max()
        .unwrap_or(0)
        + MARGIN;
    Layout {
        layer,
        x: x[..n].to_vec(),
        y: y[..n].to_vec(),
        w: slots[..n].iter().map(|s| s.w).collect(),
        routes,
        kept,
        width,
        height: depth as i32 * (NODE_H + V_GAP) - V_GAP + 2 * MARGIN,
    }
}

/// Kahn's algorithm taking the lowest-numbered ready node first (the IR's creation
/// order when that is already topological); nodes on a cycle follow in index order.
fn topo_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut indeg = vec![0usize; n];
    let mut succs = vec![Vec::new(); n];
    for (s, t) in edges
        .iter()
        .copied()
        .filter(|(s, t)| s < &n && t < &n && s != t)
    {
        indeg[t] += 1;
        succs[s].push(t);
    }
    let mut ready: std::collections::BTreeSet<usize> = (0..n).filter(|v| indeg[*v] == 0).collect();
    let mut out = Vec::with_capacity(n);
    let mut done = vec![false; n];
    while let Some(v) = ready.pop_first() {
        out.push(v);
        done[v] = true;
        for t in &succs[v] {
            indeg[*t] -= 1;
            if indeg[*t] == 0 {
                ready.insert(*t);
            }
        }
    }
    out.extend((0..n).filter(|v| !done[*v]));
    out
}

/// Longest path from the sources, then each source moved down to just above its
/// nearest user so constants sit beside the op that takes them.
fn layers(n: usize, topo: &[usize], edges: &[(usize, usize)]) -> Vec<usize> {
    let mut preds = vec![Vec::new(); n];
    let mut succs = vec![Vec::new(); n];
    for (s, t) in edges {
        preds[*t].push(*s);
        succs[*s].push(*t);
    }
    let mut layer = vec![0usize; n];
    for v in topo {
        layer[*v] = preds[*v].iter().map(|p| layer[*p] + 1).max().unwrap_or(0);
    }
    for v in 0..n {
        if preds[v].is_empty() {
            if let Some(m) = succs[v].iter().map(|s| layer[*s]).min() {
                layer[v] = m - 1;
            }
        }
    }
    layer
}

/// Alternating down and up barycentre sweeps; the ordering with the fewest crossings
/// seen wins.
fn order(slots: &[Slot], mut rows: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut pos = vec![0.0f64; slots.len()];
    let set_pos = |rows: &[Vec<usize>], pos: &mut Vec<f64>| {
        for r in rows {
            for (i, v) in r.iter().enumerate() {
                pos[*v] = i as f64;
            }
        }
    };
    set_pos(&rows, &mut pos);
    let mut best = rows.clone();
    let mut best_x = crossings(slots, &rows, &pos);
    for sweep in 0..SWEEPS {
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for l in order {
            let key = |v: usize| {
                let nb = if down {
                    &slots[v].preds
                } else {
                    &slots[v].succs
                };
                if nb.is_empty() {
                    pos[v]
                } else {
                    nb.iter().map(|u| pos[*u]).sum::<f64>() / nb.len() as f64
                }
            };
            let mut keyed: Vec<(f64, usize)> = rows[l].iter().map(|v| (key(*v), *v)).collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            rows[l] = keyed.into_iter().map(|(_, v)| v).collect();
            for (i, v) in rows[l].iter().enumerate() {
                pos[*v] = i as f64;
            }
        }
        let c = crossings(slots, &rows, &pos);
        if c < best_x {
            best_x = c;
            best = rows.clone();
        }
    }
    best
}

/// Edge crossings between consecutive layers for the positions in `pos`.
fn crossings(slots: &[Slot], rows: &[Vec<usize>], pos: &[f64]) -> usize {
    let mut total = 0;
    for r in rows {
        let segs: Vec<(f64, f64)> = r
            .iter()
            .flat_map(|u| slots[*u].succs.iter().map(move |v| (pos[*u], pos[*v])))
            .collect();
        for (i, a) in segs.iter().enumerate() {
            for b in &segs[i + 1..] {
                if (a.0 - b.0) * (a.1 - b.1) < 0.0 {
                    total += 1;
                }
            }
        }
    }
    total
}

/// Left edges: each layer packed in its order, then a few passes pulling every node
/// towards the mean centre of its neighbours without breaking the order or the gap.
fn place(slots: &[Slot], rows: &[Vec<usize>]) -> Vec<i32> {
    let mut x = vec![0i32; slots.len()];
    for r in rows {
        let mut cx = 0;
        for v in r {
            x[*v] = cx;
            cx += slots[*v].w + H_GAP;
        }
    }
    for pass in 0..4 {
        let down = pass % 2 == 0;
        let order: Vec<usize> = if down {
            (1..rows.len()).collect()
        } else {
            (0..rows.len().saturating_sub(1)).rev().collect()
        };
        for l in order {
            let want: Vec<Option<i32>> = rows[l]
                .iter()
                .map(|v| {
                    let nb = if down {
                        &slots[*v].preds
                    } else {
                        &slots[*v].succs
                    };
                    let sum: i32 = nb.iter().map(|u| x[*u] + slots[*u].w / 2).sum();
                    (!nb.is_empty()).then(|| sum / nb.len() as i32 - slots[*v].w / 2)
                })
                .collect();
            let mut prev_right = i32::MIN / 2;
            let mut shift = 0i64;
            let mut counted = 0i64;
            for (v, w) in rows[l].iter().zip(&want) {
                let target = w.unwrap_or(x[*v]);
                x[*v] = target.max(prev_right + H_GAP);
                if w.is_some() {
                    shift += (x[*v] - target) as i64;
                    counted += 1;
                }
                prev_right = x[*v] + slots[*v].w;
            }
            // Pushing right to make room skews the layer; move it back by the mean
            // overshoot (the whole layer moves, so its gaps stay).
            if counted > 0 {
                let back = (shift / counted) as i32;
                for v in &rows[l] {
                    x[*v] -= back;
                }
            }
        }
    }
    let min = x.iter().copied().min().unwrap_or(0);
    for v in x.iter_mut() {
        *v += MARGIN - min;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(g: &Graph) -> Layout {
        let l = layout(g);
        let n = g.widths.len();
        for a in 0..n {
            assert!(
                l.x[a] >= 0 && l.x[a] + l.w[a] <= l.width,
                "node {a} outside"
            );
            assert!(
                l.y[a] >= 0 && l.y[a] + NODE_H <= l.height,
                "node {a} outside"
            );
            for b in a + 1..n {
                let apart_x = l.x[a] + l.w[a] <= l.x[b] || l.x[b] + l.w[b] <= l.x[a];
                let apart_y = l.y[a] + NODE_H <= l.y[b] || l.y[b] + NODE_H <= l.y[a];
                assert!(apart_x || apart_y, "nodes {a} and {b} overlap: {l:?}");
            }
        }
        for (k, e) in l.kept.iter().enumerate() {
            let (s, t) = g.edges[*e];
            assert!(l.layer[t] > l.layer[s], "edge {s}->{t} does not go down");
            let r = &l.routes[k];
            assert_eq!(r[0], (l.x[s] + l.w[s] / 2, l.y[s] + NODE_H));
            assert_eq!(*r.last().unwrap(), (l.x[t] + l.w[t] / 2, l.y[t]));
            assert!(r.windows(2).all(|p| p[1].1 > p[0].1), "route climbs: {r:?}");
        }
        l
    }

    #[test]
    fn diamond_with_a_long_edge() {
        // 0 -> 1 -> 2 -> 4, 0 -> 3 -> 4, 0 -> 4
        let g = Graph {
            widths: vec![40, 60, 30, 80, 50],
            edges: vec![(0, 1), (1, 2), (2, 4), (0, 3), (3, 4), (0, 4)],
        };
        let l = check(&g);
        assert_eq!(l.layer, vec![0, 1, 2, 1, 3]);
        assert_eq!(l.kept.len(), 6);
        // The long edge 0->4 bends through two dummy points.
        assert_eq!(l.routes[5].len(), 4);
    }

    #[test]
    fn sources_sit_just_above_their_first_user() {
        // A chain 0->1->2->3 and a constant 4 used only by 3.
        let g = Graph {
            widths: vec![30; 5],
            edges: vec![(0, 1), (1, 2), (2, 3), (4, 3)],
        };
        let l = check(&g);
        assert_eq!(l.layer[4], 2);
    }

    #[test]
    fn wide_layers_and_many_edges_never_overlap() {
        // 40 sources feeding 20 sums feeding one op: a wide, crossing-heavy graph.
        let mut edges = Vec::new();
        for i in 0..20 {
            edges.push((2 * i, 40 + i));
            edges.push((39 - 2 * i, 40 + i));
            edges.push((40 + i, 60));
        }
        let widths = (0..61).map(|i: i32| 20 + i * 7 % 50).collect();
        check(&Graph { widths, edges });
    }

    #[test]
    fn cycles_and_bad_edges_are_dropped_not_fatal() {
        let g = Graph {
            widths: vec![30; 3],
            edges: vec![(0, 1), (1, 2), (2, 0), (1, 1), (0, 7)],
        };
        let l = check(&g);
        assert_eq!(l.kept, vec![0, 1]);
    }

    #[test]
    fn barycentre_ordering_removes_a_needless_crossing() {
        // Layer 0: 0, 1; layer 1: 2 (fed by 1), 3 (fed by 0). Creation order crosses.
        let g = Graph {
            widths: vec![30; 4],
            edges: vec![(1, 2), (0, 3), (2, 4), (3, 4)],
        };
        let mut gw = g;
        gw.widths.push(30);
        let l = check(&gw);
        let left_of = |a: usize, b: usize| l.x[a] < l.x[b];
        assert_eq!(left_of(0, 1), left_of(3, 2), "{l:?}");
    }
}

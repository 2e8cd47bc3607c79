//! The dataflow graph of a kernel as inline SVG for `report.html`: each block's ops laid
//! out in layers (longest-path layering, barycentric ordering), the structured control
//! around them (loops, ifs) as nested frames; kernels with many ops collapse to one box
//! per block with its op counts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::html::escape;
use crate::diag::{SourceMap, Span};
use crate::ir::{
    AtomicOp, Base, BlockId, Conv, Edge, Kernel, LoopKind, Node, Op, OpKind, Region, Ty, WorkItemFn,
};
use layout::{Graph, Layout, NODE_H};

/// Above this many ops a kernel is drawn one box per block: a layered picture of more
/// stops being readable.
pub const MAX_DRAWN_OPS: usize = 200;

/// Approximate advance of one character of the 11px monospace labels.
const CHAR_W: i32 = 7;
/// Longest op label drawn (the full text is in the tooltip).
const MAX_LABEL: usize = 24;
const PAD: i32 = 8;
/// Height of a frame's or block's caption line.
const CAPTION_H: i32 = 16;
const GAP: i32 = 10;

/// The kernel's dataflow graph as one `<svg>` element; `id` makes its marker ids unique
/// within the page.
pub fn kernel_svg(k: &Kernel, sm: &SourceMap, id: usize) -> String {
    let collapse = k.blocks.iter().map(|b| b.len()).sum::<usize>() > MAX_DRAWN_OPS;
    let ctx = Ctx { k, sm, collapse };
    let shape = ctx.region(&k.body);
    let (w, h) = shape.size();
    let (w, h) = (w.max(120) + 2 * PAD, h.max(CAPTION_H) + 2 * PAD);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"dfg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"dataflow graph of {}\">",
        escape(&k.name)
    );
    let _ = writeln!(
        out,
        "<defs><marker id=\"ah{id}\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" \
         markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" \
         class=\"ah\"/></marker></defs>"
    );
    shape.draw(PAD, PAD, id, &mut out);
    out.push_str("</svg>\n");
    out
}

/// Whether [`kernel_svg`] draws `k` one box per block.
pub fn collapsed(k: &Kernel) -> bool {
    k.blocks.iter().map(|b| b.len()).sum::<usize>() > MAX_DRAWN_OPS
}

struct Ctx<'a> {
    k: &'a Kernel,
    sm: &'a SourceMap,
    collapse: bool,
}

/// One drawable piece: sized bottom-up, drawn top-down at absolute positions.
enum Shape {
    Block(Box<BlockDraw>),
    /// A collapsed block, a `break`, `continue` or `return`.
    Pill {
        label: String,
        title: String,
        class: &'static str,
    },
    Stack(Vec<Shape>),
    Row(Vec<Shape>),
    Frame {
        label: String,
        title: String,
        class: &'static str,
        inner: Box<Shape>,
    },
}

/// One block's ops placed by [`layout::layout`].
struct BlockDraw {
    caption: String,
    nodes: Vec<NodeView>,
    /// Per drawn edge: whether it is an ordering (not data) edge.
    order: Vec<bool>,
    lay: Layout,
}

struct NodeView {
    label: String,
    title: String,
    class: &'static str,
}

impl Shape {
    fn size(&self) -> (i32, i32) {
        match self {
            Shape::Block(b) => (
                b.lay.width.max(text_w(&b.caption)),
                b.lay.height + CAPTION_H,
            ),
            Shape::Pill { label, .. } => (text_w(label) + 2 * PAD, NODE_H),
            Shape::Stack(v) => {
                let w = v.iter().map(|s| s.size().0).max().unwrap_or(0);
                let h: i32 = v.iter().map(|s| s.size().1).sum();
                (w, h + GAP * (v.len() as i32 - 1).max(0))
            }
            Shape::Row(v) => {
                let w: i32 = v.iter().map(|s| s.size().0).sum();
                let h = v.iter().map(|s| s.size().1).max().unwrap_or(0);
                (w + GAP * (v.len() as i32 - 1).max(0), h)
            }
            Shape::Frame { label, inner, .. } => {
                let (w, h) = inner.size();
                (w.max(text_w(label)) + 2 * PAD, h + CAPTION_H + 2 * PAD)
            }
        }
    }

    fn draw(&self, x: i32, y: i32, id: usize, out: &mut String) {
        match self {
            Shape::Block(b) => b.draw(x, y, id, out),
            Shape::Pill {
                label,
                title,
                class,
            } => {
                let (w, h) = self.size();
                let _ = writeln!(
                    out,
                    "<g class=\"{class}\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" \
                     width=\"{w}\" height=\"{h}\" rx=\"11\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
                    escape(title),
                    x + w / 2,
                    y + h / 2 + 4,
                    escape(label)
                );
            }
            Shape::Stack(v) => {
                let mut cy = y;
                for s in v {
                    s.draw(x, cy, id, out);
                    cy += s.size().1 + GAP;
                }
            }
            Shape::Row(v) => {
                let mut cx = x;
                for s in v {
                    s.draw(cx, y, id, out);
                    cx += s.size().0 + GAP;
                }
            }
            Shape::Frame {
                label,
                title,
                class,
                inner,
            } => {
                let (w, h) = self.size();
                let _ = writeln!(
                    out,
                    "<g class=\"{class}\"><title>{}</title><rect x=\"{x}\" y=\"{y}\" \
                     width=\"{w}\" height=\"{h}\" rx=\"4\"/><text class=\"cap\" x=\"{}\" \
                     y=\"{}\">{}</text></g>",
                    escape(title),
                    x + PAD,
                    y + PAD + 10,
                    escape(label)
                );
                inner.draw(x + PAD, y + PAD + CAPTION_H, id, out);
            }
        }
    }
}

impl BlockDraw {
    fn draw(&self, x: i32, y: i32, id: usize, out: &mut String) {
        let _ = writeln!(
            out,
            "<text class=\"bcap\" x=\"{x}\" y=\"{}\">{}</text>",
            y + 11,
            escape(&self.caption)
        );
        let y = y + CAPTION_H;
        for (route, order) in self.lay.routes.iter().zip(&self.order) {
            let pts: Vec<String> = route
                .iter()
                .map(|(px, py)| format!("{},{}", x + px, y + py))
                .collect();
            let _ = writeln!(
                out,
                "<polyline class=\"{}\" points=\"{}\" marker-end=\"url(#ah{id})\"/>",
                if *order { "eo" } else { "ed" },
                pts.join(" ")
            );
        }
        for (i, n) in self.nodes.iter().enumerate() {
            let (nx, ny, w) = (x + self.lay.x[i], y + self.lay.y[i], self.lay.w[i]);
            let _ = writeln!(
                out,
                "<g class=\"op {}\"><title>{}</title><rect x=\"{nx}\" y=\"{ny}\" width=\"{w}\" \
                 height=\"{NODE_H}\" rx=\"3\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
                n.class,
                escape(&n.title),
                nx + w / 2,
                ny + NODE_H / 2 + 4,
                escape(&n.label)
            );
        }
    }
}

fn text_w(s: &str) -> i32 {
    s.chars().count() as i32 * CHAR_W
}

fn short(s: &str) -> String {
    if s.chars().count() <= MAX_LABEL {
        return s.to_string();
    }
    let mut t: String = s.chars().take(MAX_LABEL - 1).collect();
    t.push('…');
    t
}

impl Ctx<'_> {
    /// `file:line` of a span's use site and that line's text, for tooltips.
    fn source(&self, span: Span) -> String {
        if self.sm.files().next().is_none() || (span.file.0 as usize) >= self.sm.files().count() {
            return String::new();
        }
        let s = self.sm.use_site(span);
        let f = self.sm.file(s.file);
        let (line, _) = f.line_col(s.lo);
        format!("{}:{line}: {}", f.name, f.line_text(line).trim())
    }

    fn line(&self, span: Span) -> String {
        if (span.file.0 as usize) >= self.sm.files().count() {
            return String::new();
        }
        format!("line {}", self.sm.line_col(span).0)
    }

    fn region(&self, r: &Region) -> Shape {
        Shape::Stack(r.0.iter().filter_map(|n| self.node(n)).collect())
    }

    fn node(&self, n: &Node) -> Option<Shape> {
        match n {
            Node::Block(b) => self.block(*b),
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let mut parts: Vec<Shape> = self.block(cond.0).into_iter().collect();
                let mut arms = vec![frame("then", String::new(), "arm", self.region(then))];
                if !els.0.is_empty() {
                    arms.push(frame("else", String::new(), "arm", self.region(els)));
                }
                parts.push(Shape::Row(arms));
                Some(frame(
                    &format!("if · {}", self.line(*span)),
                    self.source(*span),
                    "fif",
                    Shape::Stack(parts),
                ))
            }
            Node::Loop(id) => {
                let l = self.k.lp(*id);
                let cond = l.cond.and_then(|(b, _)| self.block(b));
                let mut parts = Vec::new();
                if l.kind == LoopKind::While {
                    parts.extend(cond);
                    parts.push(self.region(&l.body));
                } else {
                    parts.push(self.region(&l.body));
                }
                if !l.latch.0.is_empty() {
                    parts.push(frame("latch", String::new(), "arm", self.region(&l.latch)));
                }
                if l.kind == LoopKind::DoWhile {
                    if let Some((b, _)) = l.cond {
                        parts.extend(self.block(b));
                    }
                }
                let kind = match l.kind {
                    LoopKind::While => "while/for",
                    LoopKind::DoWhile => "do-while",
                    LoopKind::Once => "switch",
                };
                let mut label = format!("loop L{} {kind} · {}", id.0, self.line(l.span));
                if let Some(u) = &l.hints.unroll {
                    match u.factor {
                        Some(n) => {
                            let _ = write!(label, " · unroll {n}");
                        }
                        None => label.push_str(" · unroll"),
                    }
                }
                Some(frame(
                    &label,
                    self.source(l.span),
                    "floop",
                    Shape::Stack(parts),
                ))
            }
            Node::Break(l) => Some(pill(&format!("break L{}", l.0))),
            Node::Continue(l) => Some(pill(&format!("continue L{}", l.0))),
            Node::Return => Some(pill("return")),
        }
    }

    fn block(&self, id: BlockId) -> Option<Shape> {
        let b = self.k.blocks.get(id.0 as usize)?;
        if b.is_empty() {
            return None;
        }
        let caption = format!(
            "b{} · {} op{}",
            id.0,
            b.len(),
            if b.len() == 1 { "" } else { "s" }
        );
        if self.collapse {
            let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
            for o in &b.order {
                *counts.entry(category(&b.op(*o).kind).1).or_default() += 1;
            }
            let title: Vec<String> = counts.iter().map(|(c, n)| format!("{n} {c}")).collect();
            return Some(Shape::Pill {
                label: caption,
                title: title.join(", "),
                class: "blk",
            });
        }
        let index: BTreeMap<_, usize> = b.order.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let nodes: Vec<NodeView> = b
            .order
            .iter()
            .enumerate()
            .map(|(i, o)| self.op_view(id, i, b.op(*o)))
            .collect();
        let mut edges = Vec::new();
        let mut order = Vec::new();
        for e in b.graph.edge_indices() {
            let (Some((s, t)), Some(w)) = (b.graph.edge_endpoints(e), b.graph.edge_weight(e))
            else {
                continue;
            };
            let (Some(s), Some(t)) = (
                index.get(&crate::ir::OpId(s)),
                index.get(&crate::ir::OpId(t)),
            ) else {
                continue;
            };
            edges.push((*s, *t));
            order.push(*w == Edge::Order);
        }
        let widths = nodes.iter().map(|n| text_w(&n.label) + 12).collect();
        let lay = layout::layout(&Graph { widths, edges });
        // The layout drops edges it cannot draw downwards (none in a valid block); keep
        // the kinds aligned with the routes it returns.
        let order = lay.kept.iter().map(|e| order[*e]).collect();
        Some(Shape::Block(Box::new(BlockDraw {
            caption,
            nodes,
            order,
            lay,
        })))
    }

    fn op_view(&self, b: BlockId, i: usize, op: &Op) -> NodeView {
        let label = self.op_label(op);
        let ty = op.ty.as_ref().map(|t| format!("{t} ")).unwrap_or_default();
        let mut title = format!("%{}.{i} = {ty}{label}", b.0);
        let src = self.source(op.span);
        if !src.is_empty() {
            title.push('\n');
            title.push_str(&src);
        }
        NodeView {
            label: short(&label),
            title,
            class: category(&op.kind).0,
        }
    }

    fn base(&self, base: &Option<Base>) -> String {
        match base {
            Some(Base::Param(i)) => self
                .k
                .params
                .get(*i as usize)
                .map(|p| format!(" {}", p.name))
                .unwrap_or_default(),
            Some(Base::Object(o)) => self
                .k
                .objects
                .get(o.0 as usize)
                .map(|x| format!(" {}", x.name))
                .unwrap_or_default(),
            None => String::new(),
        }
    }

    fn op_label(&self, op: &Op) -> String {
        let space = |s: &crate::frontend::types::AddrSpace| s.name().trim_start_matches("__");
        match &op.kind {
            OpKind::Const(v) => format!("const {}", const_text(v, op.ty.as_ref())),
            OpKind::Param(i) => match self.k.params.get(*i as usize) {
                Some(p) => format!("arg {}", p.name),
                None => format!("arg {i}"),
            },
            OpKind::ReadVar(v) => format!("read {}", self.var(v.0)),
            OpKind::WriteVar(v) => format!("write {}", self.var(v.0)),
            OpKind::ObjectAddr(o) => match self.k.objects.get(o.0 as usize) {
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
                format!("load {}{}", space(s), self.base(base))
            }
            OpKind::Store { space: s, base, .. } => {
                format!("store {}{}", space(s), self.base(base))
            }
            OpKind::Atomic { op: a, base, .. } => {
                format!("atomic {}{}", atomic_text(*a), self.base(base))
            }
            OpKind::Barrier { .. } => "barrier".into(),
            OpKind::MemFence { .. } => "mem_fence".into(),
            OpKind::WorkItem(f) => work_item_text(*f).into(),
            OpKind::Builtin(call) => call.name.clone(),
        }
    }

    fn var(&self, v: u32) -> String {
        self.k
            .vars
            .get(v as usize)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("v{v}"))
    }
}

fn frame(label: &str, title: String, class: &'static str, inner: Shape) -> Shape {
    Shape::Frame {
        label: label.to_string(),
        title: if title.is_empty() {
            label.to_string()
        } else {
            title
        },
        class,
        inner: Box::new(inner),
    }
}

fn pill(label: &str) -> Shape {
    Shape::Pill {
        label: label.to_string(),
        title: label.to_string(),
        class: "ctl",
    }
}

/// The CSS class of an op and the word its collapsed count uses.
fn category(k: &OpKind) -> (&'static str, &'static str) {
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

/// Layered drawing of one acyclic graph: longest-path layers (sources pulled down next
/// to their first user), long edges split by dummy points, barycentric ordering sweeps
/// that keep the order with the fewest crossings, and x positions pulled towards the
/// neighbours' centres.
pub mod layout {
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
        let mut ready: std::collections::BTreeSet<usize> =
            (0..n).filter(|v| indeg[*v] == 0).collect();
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
}

//! The dataflow graph of a kernel as inline SVG for `report.html`: each block's ops laid
//! out in layers (longest-path layering, barycentric ordering), the structured control
//! around them (loops, ifs) as nested frames; kernels with many ops collapse to one box
//! per block with its op counts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::html::escape;
use crate::diag::{SourceMap, Span};
use crate::ir::{BlockId, Edge, Kernel, LoopKind, Node, Op, Region};
use layout::{Graph, Layout, NODE_H};

mod labels;
pub mod layout;

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
/// within the page; `notes` (by source line) are added to the labels of loop frames.
pub fn kernel_svg(k: &Kernel, sm: &SourceMap, id: usize, notes: &BTreeMap<u32, String>) -> String {
    let collapse = k.blocks.iter().map(|b| b.len()).sum::<usize>() > MAX_DRAWN_OPS;
    let ctx = Ctx {
        k,
        sm,
        collapse,
        notes,
    };
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
    notes: &'a BTreeMap<u32, String>,
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
                if (l.span.file.0 as usize) < self.sm.files().count() {
                    if let Some(n) = self.notes.get(&self.sm.line_col(l.span).0) {
                        let _ = write!(label, " · {n}");
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
                *counts
                    .entry(labels::category(&b.op(*o).kind).1)
                    .or_default() += 1;
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
        let label = labels::op_label(self.k, op);
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
            class: labels::category(&op.kind).0,
        }
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

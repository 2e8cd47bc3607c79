//! The IR as text (`ocl-hls check --emit ir`): one line per op, regions indented, source
//! positions as trailing comments.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::*;
use crate::diag::SourceMap;

struct Printer<'a> {
    k: &'a Kernel,
    sm: Option<&'a SourceMap>,
    out: String,
}

/// Prints every kernel of a module.
pub fn print_module(m: &Module, sm: Option<&SourceMap>) -> String {
    m.kernels
        .iter()
        .map(|k| print_kernel(k, sm))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn print_kernel(k: &Kernel, sm: Option<&SourceMap>) -> String {
    let mut p = Printer {
        k,
        sm,
        out: String::new(),
    };
    p.kernel();
    p.out
}

fn op_name(b: BlockId, index: usize) -> String {
    format!("%{}.{}", b.0, index)
}

impl Printer<'_> {
    fn loc(&self, span: Span) -> String {
        match self.sm {
            Some(sm) if sm.files().next().is_some() => format!("  ; {}", sm.location(span)),
            _ => String::new(),
        }
    }

    fn kernel(&mut self) {
        let k = self.k;
        let _ = writeln!(self.out, "kernel {}{}", k.name, self.loc(k.span));
        if let Some([x, y, z]) = k.attrs.reqd_work_group_size {
            let _ = writeln!(self.out, "  reqd_work_group_size({x}, {y}, {z})");
        }
        if !k.shared_rmw.is_empty() {
            let names: Vec<String> = k
                .shared_rmw
                .iter()
                .map(|b| match b {
                    crate::ir::Base::Param(i) => format!("param {i}"),
                    crate::ir::Base::Object(o) => format!("o{}", o.0),
                })
                .collect();
            let _ = writeln!(
                self.out,
                "  read-modify-writes shared by work-items: {}",
                names.join(", ")
            );
        }
        for (i, p) in k.params.iter().enumerate() {
            let kind = match &p.kind {
                ParamKind::Buffer { space } => format!("buffer {}", space.name()),
                ParamKind::LocalBuffer => "local buffer".to_string(),
                ParamKind::Value => "value".to_string(),
                ParamKind::Struct { object } => format!("struct copy in o{}", object.0),
            };
            let _ = writeln!(self.out, "  param {i} {}: {} ({kind})", p.name, p.ty);
        }
        for (i, v) in k.vars.iter().enumerate() {
            let _ = writeln!(
                self.out,
                "  var v{i} {}: {}{}",
                v.name,
                v.ty,
                self.loc(v.span)
            );
        }
        for (i, o) in k.objects.iter().enumerate() {
            let init = if o.init.is_some() {
                ", initialised"
            } else {
                ""
            };
            let _ = writeln!(
                self.out,
                "  object o{i} {}: {} {} bytes, align {}{init}{}",
                o.name,
                o.space.name(),
                o.size,
                o.align,
                self.loc(o.span)
            );
        }
        self.region(&k.body, 1);
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn region(&mut self, r: &Region, depth: usize) {
        for n in &r.0 {
            self.node(n, depth);
        }
    }

    fn node(&mut self, n: &Node, depth: usize) {
        match n {
            Node::Block(b) => self.block(*b, depth),
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                self.block(cond.0, depth);
                let idx = self.index_of(cond.0, cond.1);
                self.indent(depth);
                let _ = writeln!(
                    self.out,
                    "if {} {{{}",
                    op_name(cond.0, idx),
                    self.loc(*span)
                );
                self.region(then, depth + 1);
                if !els.0.is_empty() {
                    self.indent(depth);
                    self.out.push_str("} else {\n");
                    self.region(els, depth + 1);
                }
                self.indent(depth);
                self.out.push_str("}\n");
            }
            Node::Loop(id) => self.lp(*id, depth),
            Node::Break(l) => {
                self.indent(depth);
                let _ = writeln!(self.out, "break L{}", l.0);
            }
            Node::Continue(l) => {
                self.indent(depth);
                let _ = writeln!(self.out, "continue L{}", l.0);
            }
            Node::Return => {
                self.indent(depth);
                self.out.push_str("return\n");
            }
        }
    }

    fn lp(&mut self, id: LoopId, depth: usize) {
        let l = self.k.lp(id);
        let mut hints = Vec::new();
        if let Some(u) = &l.hints.unroll {
            hints.push(match u.factor {
                None => "unroll full".to_string(),
                Some(n) => format!("unroll {n}"),
            });
        }
        if let Some(i) = &l.hints.ivdep {
            hints.push(match i.safelen {
                None => "ivdep".to_string(),
                Some(n) => format!("ivdep({n})"),
            });
        }
        if l.hints.pipeline {
            hints.push("pipeline".to_string());
        }
        let hints = if hints.is_empty() {
            String::new()
        } else {
            format!(" [{}]", hints.join(", "))
        };
        let kind = match l.kind {
            LoopKind::While => "while",
            LoopKind::DoWhile => "do-while",
            LoopKind::Once => "once",
        };
        self.indent(depth);
        let _ = writeln!(
            self.out,
            "loop L{} {kind}{hints} {{{}",
            id.0,
            self.loc(l.span)
        );
        let cond = |p: &mut Self, depth: usize| {
            if let Some((b, op)) = l.cond {
                p.block(b, depth + 1);
                let idx = p.index_of(b, op);
                p.indent(depth + 1);
                let _ = writeln!(p.out, "exit unless {}", op_name(b, idx));
            }
        };
        if l.kind == LoopKind::While {
            cond(self, depth);
        }
        self.region(&l.body, depth + 1);
        if !l.latch.0.is_empty() {
            self.indent(depth + 1);
            self.out.push_str("latch:\n");
            self.region(&l.latch, depth + 2);
        }
        if l.kind == LoopKind::DoWhile {
            cond(self, depth);
        }
        self.indent(depth);
        self.out.push_str("}\n");
    }

    fn index_of(&self, b: BlockId, op: OpId) -> usize {
        self.k
            .block(b)
            .order
            .iter()
            .position(|o| *o == op)
            .unwrap_or(usize::MAX)
    }

    fn block(&mut self, id: BlockId, depth: usize) {
        let b = self.k.block(id);
        let names: HashMap<OpId, usize> =
            b.order.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        self.indent(depth);
        let _ = writeln!(self.out, "b{}:", id.0);
        for (i, o) in b.order.iter().enumerate() {
            let op = b.op(*o);
            let args: Vec<String> = b
                .operands(*o)
                .iter()
                .map(|a| op_name(id, names.get(a).copied().unwrap_or(usize::MAX)))
                .collect();
            self.indent(depth + 1);
            let lhs = match &op.ty {
                Some(t) => format!("{} = ", op_name(id, i)) + &format!("{t} "),
                None => String::new(),
            };
            let _ = writeln!(
                self.out,
                "{lhs}{} {}{}",
                kind_text(&op.kind),
                args.join(", "),
                self.loc(op.span)
            );
        }
    }
}

pub(crate) fn kind_text(k: &OpKind) -> String {
    match k {
        OpKind::Const(v) => {
            let lanes: Vec<String> = v.iter().map(|x| format!("{x:#x}")).collect();
            format!("const [{}]", lanes.join(", "))
        }
        OpKind::Param(i) => format!("param {i}"),
        OpKind::ReadVar(v) => format!("read v{}", v.0),
        OpKind::WriteVar(v) => format!("write v{}", v.0),
        OpKind::ObjectAddr(o) => format!("addr o{}", o.0),
        OpKind::Load { space, base, align } => {
            format!("load {}{} align {align}", space.name(), base_text(base))
        }
        OpKind::Store { space, base, align } => {
            format!("store {}{} align {align}", space.name(), base_text(base))
        }
        OpKind::Atomic { op, space, base } => {
            format!("atomic {op:?} {}{}", space.name(), base_text(base)).to_lowercase()
        }
        OpKind::Builtin(call) => format!("call {}", call.name),
        other => format!("{other:?}").to_lowercase(),
    }
}

fn base_text(b: &Option<Base>) -> String {
    match b {
        Some(Base::Param(i)) => format!(" (param {i})"),
        Some(Base::Object(o)) => format!(" (o{})", o.0),
        None => String::new(),
    }
}

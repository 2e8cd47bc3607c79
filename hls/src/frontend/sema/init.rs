//! Initializers: scalars, string literals for char arrays, and brace lists for arrays,
//! structs, unions and vectors (nested braces, brace elision, designators), flattened
//! into [`InitEntry`] stores at byte offsets.

use crate::frontend::ast::{DeclaratorId, Designator, Expr, ExprKind, Initializer};
use crate::frontend::types::{Scalar, Type};

use super::{Checker, InitEntry};

type Items = [(Vec<Designator>, Initializer)];

/// A sub-object of an aggregate: its type and byte offset.
struct Slot {
    ty: Type,
    offset: u64,
}

/// The sub-objects of an aggregate; array elements are produced on demand so a huge
/// array with a short initializer costs nothing.
enum Slots {
    Elems {
        ty: Type,
        base: u64,
        step: u64,
        count: u64,
    },
    List(Vec<Slot>),
}

impl Slots {
    fn len(&self) -> u64 {
        match self {
            Slots::Elems { count, .. } => *count,
            Slots::List(v) => v.len() as u64,
        }
    }

    fn get(&self, k: u64) -> Option<Slot> {
        match self {
            Slots::Elems {
                ty,
                base,
                step,
                count,
            } => (k < *count).then(|| Slot {
                ty: ty.clone(),
                offset: base.saturating_add(k.saturating_mul(*step)),
            }),
            Slots::List(v) => v.get(k as usize).map(|s| Slot {
                ty: s.ty.clone(),
                offset: s.offset,
            }),
        }
    }
}

impl Checker<'_> {
    /// Checks the initializer of a variable of type `ty`; returns the completed type
    /// (an array declared `[]` takes its length from the initializer).
    pub(super) fn initialize(
        &mut self,
        d: DeclaratorId,
        ty: &Type,
        init: &Initializer,
    ) -> Option<Type> {
        let mut out = Vec::new();
        let done = match init {
            Initializer::Expr(e) => self.init_expr(ty, 0, e, &mut out),
            Initializer::List(items, _) => self.init_list(ty, 0, items, &mut out),
        };
        self.inits.insert(d, out);
        done
    }

    fn init_expr(
        &mut self,
        ty: &Type,
        offset: u64,
        e: &Expr,
        out: &mut Vec<InitEntry>,
    ) -> Option<Type> {
        if let (Type::Array(elem, n), ExprKind::StrLit(bytes)) = (ty, &e.kind) {
            if matches!(**elem, Type::Scalar(Scalar::Char | Scalar::UChar)) {
                self.expr(e);
                let len = bytes.len() as u64;
                if n.is_some_and(|n| len > n) {
                    self.error(e.span, "initializer-string for char array is too long");
                }
                let full = Type::Array(elem.clone(), Some(n.unwrap_or(len + 1)));
                out.push(InitEntry {
                    offset,
                    ty: full.clone(),
                    expr: e.id,
                });
                return Some(full);
            }
        }
        if matches!(ty, Type::Array(..)) {
            self.rvalue(e);
            self.error(
                e.span,
                "array initializer must be an initializer list or a string literal",
            );
            return None;
        }
        let t = self.rvalue(e)?;
        if self.check_assign(ty, e, &t, e.span) {
            out.push(InitEntry {
                offset,
                ty: ty.clone(),
                expr: e.id,
            });
        }
        Some(ty.clone())
    }

    /// The sub-objects of an aggregate in initialization order; `len` for `[]` arrays.
    fn slots(&self, ty: &Type, base: u64, len: u64) -> Slots {
        match ty {
            Type::Array(elem, n) => {
                let step = self.layout_of(elem).map_or(0, |l| l.size);
                Slots::Elems {
                    ty: (**elem).clone(),
                    base,
                    step,
                    count: n.unwrap_or(len),
                }
            }
            Type::Vector(s, n) => Slots::Elems {
                ty: Type::Scalar(*s),
                base,
                step: s.size() as u64,
                count: *n as u64,
            },
            Type::Record(r) => match self.records.get(r.0 as usize) {
                Some(rec) => {
                    let union = rec.kind == crate::frontend::ast::RecordKind::Union;
                    let fields = rec.fields.iter().filter(|f| f.name.is_some());
                    let take = if union { 1 } else { usize::MAX };
                    Slots::List(
                        fields
                            .take(take)
                            .map(|f| Slot {
                                ty: f.ty.clone(),
                                offset: base + f.offset,
                            })
                            .collect(),
                    )
                }
                None => Slots::List(Vec::new()),
            },
            _ => Slots::List(vec![Slot {
                ty: ty.clone(),
                offset: base,
            }]),
        }
    }

    fn is_aggregate(ty: &Type) -> bool {
        matches!(ty, Type::Array(..) | Type::Record(_))
    }

    fn init_list(
        &mut self,
        ty: &Type,
        base: u64,
        items: &Items,
        out: &mut Vec<InitEntry>,
    ) -> Option<Type> {
        let unsized_len = match ty {
            Type::Array(_, None) => self.array_len_from(items),
            _ => 0,
        };
        let slots = self.slots(ty, base, unsized_len);
        let mut i = 0;
        let mut cursor = 0u64;
        let mut max = 0u64;
        while i < items.len() {
            if let Some(first) = items[i].0.first() {
                match self.designate(ty, first, &slots) {
                    Some(k) => cursor = k,
                    None => {
                        i += 1;
                        continue;
                    }
                }
            }
            let Some(slot) = slots.get(cursor) else {
                let span = init_span(&items[i].1);
                self.error(
                    span,
                    format!(
                        "excess elements in initializer of type '{}'",
                        self.type_name(ty)
                    ),
                );
                return None;
            };
            let (sty, soff) = (slot.ty.clone(), slot.offset);
            let desig = &items[i].0;
            if desig.len() > 1 {
                let nested = [(desig[1..].to_vec(), items[i].1.clone())];
                self.init_list(&sty, soff, &nested, out);
                i += 1;
            } else {
                self.init_slot(&sty, soff, items, &mut i, out);
            }
            cursor += 1;
            max = max.max(cursor);
        }
        match ty {
            Type::Array(elem, None) => Some(Type::Array(elem.clone(), Some(max))),
            _ => Some(ty.clone()),
        }
    }

    /// Initializes one sub-object from `items[*i]`, consuming more items when braces are elided.
    fn init_slot(
        &mut self,
        ty: &Type,
        offset: u64,
        items: &Items,
        i: &mut usize,
        out: &mut Vec<InitEntry>,
    ) {
        match &items[*i].1 {
            Initializer::List(sub, _) => {
                self.init_list(ty, offset, sub, out);
                *i += 1;
            }
            Initializer::Expr(e) => {
                let whole = match (ty, &e.kind) {
                    (Type::Array(..), ExprKind::StrLit(_)) => true,
                    (Type::Record(_), _) => {
                        let t = self.rvalue(e);
                        t.is_none() || t.as_ref() == Some(ty)
                    }
                    _ => !Self::is_aggregate(ty),
                };
                if whole {
                    self.init_expr(ty, offset, e, out);
                    *i += 1;
                    return;
                }
                // Brace elision: the aggregate takes as many of the following items as it has slots.
                let slots = self.slots(ty, offset, 0);
                let mut k = 0;
                while let Some(s) = slots.get(k) {
                    if *i >= items.len() || !items[*i].0.is_empty() {
                        break;
                    }
                    self.init_slot(&s.ty, s.offset, items, i, out);
                    k += 1;
                }
            }
        }
    }

    /// The slot index a designator names.
    fn designate(&mut self, ty: &Type, d: &Designator, slots: &Slots) -> Option<u64> {
        match (d, ty) {
            (Designator::Index(e), Type::Array(..) | Type::Vector(..)) => {
                self.rvalue(e)?;
                match self.value_of(e) {
                    Some(v) if v >= 0 && (v as u64) < slots.len() => Some(v as u64),
                    Some(v) => {
                        self.error(
                            e.span,
                            format!("array designator index {v} is out of bounds"),
                        );
                        None
                    }
                    None => {
                        self.error(
                            e.span,
                            "array designator is not an integer constant expression",
                        );
                        None
                    }
                }
            }
            (Designator::Field(f), Type::Record(r)) => {
                let rec = self.records.get(r.0 as usize)?;
                let named: Vec<_> = rec.fields.iter().filter(|x| x.name.is_some()).collect();
                let pos = named
                    .iter()
                    .position(|x| x.name.as_deref() == Some(f.name.as_str()));
                if pos.is_none() {
                    self.error(
                        f.span,
                        format!("field designator '{}' does not refer to any field", f.name),
                    );
                }
                pos.map(|p| p as u64)
            }
            (Designator::Index(e), _) => {
                self.error(e.span, "array designator used on a non-array type");
                None
            }
            (Designator::Field(f), _) => {
                self.error(f.span, "field designator used on a non-struct type");
                None
            }
        }
    }

    /// The length of an unsized array from its list: the number of items, or one past the
    /// highest index designator (brace elision of nested aggregates is ignored here).
    fn array_len_from(&mut self, items: &Items) -> u64 {
        let mut cursor = 0u64;
        let mut max = 0u64;
        for (d, _) in items {
            if let Some(Designator::Index(e)) = d.first() {
                if self.rvalue(e).is_some() {
                    if let Some(v) = self.value_of(e) {
                        cursor = v.max(0) as u64;
                    }
                }
            }
            cursor = cursor.saturating_add(1);
            max = max.max(cursor);
        }
        max
    }
}

fn init_span(i: &Initializer) -> crate::diag::Span {
    match i {
        Initializer::Expr(e) => e.span,
        Initializer::List(_, s) => *s,
    }
}

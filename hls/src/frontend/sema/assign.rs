//! Assignment: modifiable-lvalue rules, plain and compound assignment, and the
//! assignability check (with its implicit conversion) shared by initialization and calls.

use crate::diag::Span;
use crate::frontend::ast::{BinaryOp, Expr};
use crate::frontend::types::{AddrSpace, Endian, Type};

use super::conv::{assignable, is_int, AssignError};
use super::Checker;

impl Checker<'_> {
    /// Errors unless `e` designates an object that may be assigned to.
    pub(super) fn check_modifiable(&mut self, e: &Expr, t: &Type) -> bool {
        let info = self.info_ref(e).cloned().unwrap_or_default();
        let why = if !info.lvalue {
            Some("expression is not assignable".to_string())
        } else if matches!(t, Type::Array(..)) {
            Some(format!(
                "array type '{}' is not assignable",
                self.type_name(t)
            ))
        } else if info.space == Some(AddrSpace::Constant) {
            Some("cannot assign to an object in the __constant address space".to_string())
        } else if info.is_const {
            Some(format!(
                "cannot assign to an object of const-qualified type '{}'",
                self.type_name(t)
            ))
        } else {
            None
        };
        match why {
            Some(m) => {
                self.error(e.span, m);
                false
            }
            None => true,
        }
    }

    pub(super) fn assign(
        &mut self,
        e: &Expr,
        op: Option<BinaryOp>,
        l: &Expr,
        r: &Expr,
    ) -> Option<Type> {
        let tl = self.expr(l);
        let tr = self.rvalue(r);
        let tl = tl?;
        if !self.check_modifiable(l, &tl) {
            return None;
        }
        let tr = tr?;
        let root = self.lvalue_root(l);
        match op {
            None => {
                self.check_assign(&tl, r, &tr, e.span);
                if let Some(sid) = self.info_ref(l).and_then(|i| i.symbol) {
                    if tl.is_pointer() {
                        self.note_alias_expr(sid, r);
                    }
                }
            }
            Some(bop) => {
                if let Some(root) = root {
                    self.access.reads.insert(root);
                }
                let lv = match &tl {
                    Type::Array(..) => tl.clone(),
                    t => t.clone(),
                };
                let (res, _, _) = self.binary_types(e.span, bop, l, r, &lv, &tr)?;
                if assignable(&tl, &res, false).is_err() {
                    let msg = format!(
                        "assigning to '{}' from incompatible type '{}'",
                        self.type_name(&tl),
                        self.type_name(&res)
                    );
                    self.error(e.span, msg);
                    return None;
                }
            }
        }
        if let Some(root) = root {
            self.access.writes.insert(root);
        }
        Some(tl)
    }

    /// Checks that a value of type `from` (expression `src`) may be stored into `to`, and
    /// records the implicit conversion. Used by assignment, initialization and calls.
    pub(super) fn check_assign(&mut self, to: &Type, src: &Expr, from: &Type, at: Span) -> bool {
        if to.is_pointer() && from.is_pointer() && self.is_null_const(src) {
            self.convert(src, from, to);
            return true;
        }
        let null = is_int(from) && self.value_of(src) == Some(0);
        match assignable(to, from, null) {
            Ok(()) => {
                self.convert(src, from, to);
                true
            }
            Err(AssignError::PointerWarning(m)) => {
                self.warning(at, m);
                self.convert(src, from, to);
                true
            }
            Err(err) => {
                let (tn, fnm) = (self.type_name(to), self.type_name(from));
                let msg = match err {
                    AssignError::AddrSpace(..) => {
                        format!("assigning '{fnm}' to '{tn}' changes the address space of the pointer")
                    }
                    AssignError::Endian => format!(
                        "pointers with different endian attributes: cannot assign '{fnm}' (endian {}) to '{tn}' (endian {})",
                        endian_word(from),
                        endian_word(to)
                    ),
                    _ => format!("assigning to '{tn}' from incompatible type '{fnm}'"),
                };
                self.error(at, msg);
                false
            }
        }
    }
}

fn endian_word(t: &Type) -> &'static str {
    match t.pointer().map(|p| p.endian) {
        Some(Endian::Host) => "host",
        _ => "device",
    }
}

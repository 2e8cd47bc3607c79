//! Struct, union and enum definitions: tags, forward references, member checks, and the
//! record layout computed by `layout.rs` with the members' `packed`/`aligned` attributes.

use crate::frontend::ast::{EnumSpec, RecordKind, RecordSpec};
use crate::frontend::layout::{self, FieldSpec, RecordAttrs};
use crate::frontend::types::{EnumId, RecordId, Scalar, Type};

use super::attrs::{AttrSite, DeclAttrs};
use super::scope::Tag;
use super::{Checker, EnumInfo, FieldInfo, RecordInfo, Symbol, SymbolKind};

impl Checker<'_> {
    /// Resolves a struct/union specifier, defining the record when the body is written.
    pub(super) fn record_spec(&mut self, r: &RecordSpec) -> Option<Type> {
        let name = r.name.as_ref().map(|n| n.name.clone());
        let Some(fields) = &r.fields else {
            let n = name.as_deref().unwrap_or("");
            return match self.scopes.lookup_tag(n) {
                Some(Tag::Record(id)) => Some(Type::Record(id)),
                Some(Tag::Enum(_)) => {
                    self.error(
                        r.span,
                        format!(
                            "use of '{n}' with tag type that does not match previous declaration"
                        ),
                    );
                    None
                }
                None => Some(Type::Record(self.new_record(r, name.clone(), false))),
            };
        };
        let id = match name.as_deref().and_then(|n| self.scopes.lookup_tag_here(n)) {
            Some(Tag::Record(id)) if !self.records[id.0 as usize].complete => id,
            Some(_) => {
                self.error(
                    r.span,
                    format!("redefinition of '{}'", name.as_deref().unwrap_or_default()),
                );
                return None;
            }
            None => self.new_record(r, name.clone(), false),
        };
        let mut rattrs = DeclAttrs::default();
        self.decl_attrs(&r.attrs_inside, AttrSite::Record, &mut rattrs);
        self.decl_attrs(&r.attrs_after, AttrSite::Record, &mut rattrs);
        let mut specs = Vec::new();
        let mut infos = Vec::new();
        for fd in fields {
            let Some((base, talign)) = self.base_type(&fd.specs) else {
                continue;
            };
            let mut common = DeclAttrs::default();
            self.decl_attrs(&fd.specs.attrs, AttrSite::Field, &mut common);
            if fd.declarators.is_empty() {
                // C11 anonymous struct/union member: laid out as one unit, its members
                // reachable by name from the enclosing record (flattened below).
                if let Type::Record(inner) = &base {
                    let anon = self
                        .records
                        .get(inner.0 as usize)
                        .is_some_and(|r| r.name.is_none() && r.complete);
                    if let (true, Some(lay)) = (anon, self.layout_of(&base)) {
                        specs.push(FieldSpec {
                            layout: lay,
                            packed: common.packed,
                            aligned: common.aligned,
                            bit_width: None,
                            named: true,
                        });
                        infos.push(FieldInfo {
                            name: None,
                            ty: base.clone(),
                            offset: 0,
                            align: 0,
                            bit_offset: None,
                            bit_width: None,
                        });
                    }
                }
                continue;
            }
            for (d, width) in &fd.declarators {
                let Some(res) = self.derive(base.clone(), talign, &fd.specs, d) else {
                    continue;
                };
                let mut fa = common.clone();
                self.decl_attrs(&d.attrs, AttrSite::Field, &mut fa);
                let fname = d.name.as_ref().map(|n| n.name.clone());
                if let Some(n) = &fname {
                    if infos
                        .iter()
                        .any(|f: &FieldInfo| f.name.as_deref() == Some(n))
                    {
                        self.error(d.span, format!("duplicate member '{n}'"));
                        continue;
                    }
                }
                let Some(mut lay) = self.layout_of(&res.ty) else {
                    self.error(
                        d.span,
                        format!("field has incomplete type '{}'", self.type_name(&res.ty)),
                    );
                    continue;
                };
                if let Some(a) = res.typedef_align {
                    lay.align = a;
                }
                let bit_width = match width {
                    Some(w) => self.bit_width(w, &res.ty, fname.as_deref()),
                    None => None,
                };
                if width.is_some() && bit_width.is_none() {
                    continue;
                }
                specs.push(FieldSpec {
                    layout: lay,
                    packed: fa.packed,
                    aligned: fa.aligned,
                    bit_width,
                    named: fname.is_some(),
                });
                infos.push(FieldInfo {
                    name: fname,
                    ty: res.ty,
                    offset: 0,
                    align: 0,
                    bit_offset: None,
                    bit_width,
                });
            }
        }
        let ra = RecordAttrs {
            packed: rattrs.packed,
            aligned: rattrs.aligned,
        };
        let lay = match r.kind {
            RecordKind::Struct => layout::layout_struct(&specs, ra),
            RecordKind::Union => layout::layout_union(&specs, ra),
        };
        for (f, p) in infos.iter_mut().zip(&lay.fields) {
            f.offset = p.offset;
            f.align = p.align;
            f.bit_offset = p.bit_offset;
        }
        let infos = self.flatten_anonymous(infos, r.span);
        let rec = &mut self.records[id.0 as usize];
        rec.fields = infos;
        rec.size = lay.size;
        rec.align = lay.align;
        rec.complete = true;
        rec.span = r.span;
        Some(Type::Record(id))
    }

    /// Appends the members of anonymous struct/union members after them, at their offsets
    /// in the enclosing record, so they are found by name.
    fn flatten_anonymous(
        &mut self,
        infos: Vec<FieldInfo>,
        span: crate::diag::Span,
    ) -> Vec<FieldInfo> {
        let mut out: Vec<FieldInfo> = Vec::with_capacity(infos.len());
        for f in infos {
            let inner = match (&f.name, &f.ty) {
                (None, Type::Record(rid)) if f.bit_width.is_none() => {
                    self.records.get(rid.0 as usize).map(|r| r.fields.clone())
                }
                _ => None,
            };
            let base = f.offset;
            out.push(f);
            for mut g in inner.unwrap_or_default() {
                if let Some(n) = &g.name {
                    if out.iter().any(|x| x.name.as_deref() == Some(n.as_str())) {
                        self.error(span, format!("duplicate member '{n}'"));
                        continue;
                    }
                }
                g.offset += base;
                out.push(g);
            }
        }
        out
    }

    fn new_record(&mut self, r: &RecordSpec, name: Option<String>, complete: bool) -> RecordId {
        let id = RecordId(self.records.len() as u32);
        self.records.push(RecordInfo {
            name: name.clone(),
            kind: r.kind,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete,
            span: r.span,
        });
        if let Some(n) = name {
            self.scopes.declare_tag(&n, Tag::Record(id));
        }
        id
    }

    fn bit_width(
        &mut self,
        w: &crate::frontend::ast::Expr,
        ty: &Type,
        name: Option<&str>,
    ) -> Option<u32> {
        let bits = match ty {
            Type::Scalar(s) if s.is_integer() => s.bits(),
            Type::Enum(_) => 32,
            _ => {
                self.error(
                    w.span,
                    format!(
                        "bit-field '{}' has non-integral type '{}'",
                        name.unwrap_or(""),
                        self.type_name(ty)
                    ),
                );
                return None;
            }
        };
        self.rvalue(w)?;
        match self.value_of(w) {
            None => {
                self.error(
                    w.span,
                    "bit-field width is not an integer constant expression",
                );
                None
            }
            Some(v) if v < 0 || v > bits as i128 || (v == 0 && name.is_some()) => {
                self.error(
                    w.span,
                    format!("bit-field width {v} is invalid for a field of {bits} bits"),
                );
                None
            }
            Some(v) => Some(v as u32),
        }
    }

    /// Resolves an enum specifier, declaring its constants when the list is written.
    pub(super) fn enum_spec(&mut self, e: &EnumSpec) -> Option<Type> {
        let name = e.name.as_ref().map(|n| n.name.clone());
        let mut attrs = DeclAttrs::default();
        self.decl_attrs(&e.attrs, AttrSite::Record, &mut attrs);
        let Some(variants) = &e.variants else {
            let n = name.as_deref().unwrap_or("");
            if let Some(Tag::Enum(id)) = self.scopes.lookup_tag(n) {
                return Some(Type::Enum(id));
            }
            self.error(e.span, format!("use of undeclared enum '{n}'"));
            return None;
        };
        if let Some(n) = &name {
            if self.scopes.lookup_tag_here(n).is_some() {
                self.error(e.span, format!("redefinition of 'enum {n}'"));
                return None;
            }
        }
        let id = EnumId(self.enums.len() as u32);
        self.enums.push(EnumInfo {
            name: name.clone(),
            variants: Vec::new(),
            span: e.span,
        });
        if let Some(n) = &name {
            self.scopes.declare_tag(n, Tag::Enum(id));
        }
        let mut next: i128 = 0;
        for (ident, value) in variants {
            if let Some(v) = value {
                if self.rvalue(v).is_some() {
                    match self.value_of(v) {
                        Some(x) => next = x,
                        None => self.error(
                            v.span,
                            "enumerator value is not an integer constant expression",
                        ),
                    }
                }
            }
            let val = next as i64;
            self.enums[id.0 as usize]
                .variants
                .push((ident.name.clone(), val));
            if self.scopes.lookup_here(&ident.name).is_some() {
                self.error(ident.span, format!("redefinition of '{}'", ident.name));
            } else {
                let s = self.add_symbol(Symbol {
                    name: ident.name.clone(),
                    ty: Type::Scalar(Scalar::Int),
                    kind: SymbolKind::EnumConst(val),
                    space: crate::frontend::types::AddrSpace::Private,
                    quals: Default::default(),
                    align: 4,
                    span: ident.span,
                });
                self.scopes.declare(&ident.name, s);
            }
            next += 1;
        }
        Some(Type::Enum(id))
    }
}

//! Memory operations: global loads and stores through the shell's command and data
//! streams (one access at a time, the controller waits for each handshake); accesses to
//! kernel objects go to `objects.rs`.

use super::fsm::StateId;
use super::ops::unsupported;
use super::{port, Gen};
use crate::diag::Diagnostic;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BlockId, OpId, OpKind, ParamKind};
use crate::rtl::expr::{BinOp, Expr};
use crate::rtl::netlist::SrcLoc;

impl Gen<'_> {
    /// The buffer name a global access goes through.
    fn buffer(&self, base: Option<Base>, span: crate::diag::Span) -> Result<String, Diagnostic> {
        match base {
            Some(Base::Param(i)) => match self.k.params.get(i as usize) {
                Some(p) if matches!(p.kind, ParamKind::Buffer { .. }) => Ok(p.name.clone()),
                _ => Err(unsupported(
                    "an access through a non-buffer parameter",
                    span,
                    self.sm,
                )),
            },
            _ => Err(unsupported(
                "a memory access whose buffer is not known statically",
                span,
                self.sm,
            )),
        }
    }

    pub fn memory(&mut self, b: BlockId, o: OpId) -> Result<StateId, Diagnostic> {
        let op = self.k.block(b).op(o).clone();
        let args = self.k.block(b).operands(o);
        let loc = SrcLoc::of_span(self.sm, op.span);
        // Kernel objects and `__local` pointer arguments live in the datapath's own RAMs.
        let known = match &op.kind {
            OpKind::Load { base, .. }
            | OpKind::Store { base, .. }
            | OpKind::Atomic { base, .. } => *base,
            _ => None,
        };
        if let Some(base) = known.filter(|x| self.objs.contains_key(x)) {
            return self.object_access(b, o, base);
        }
        let (space, base, store) = match &op.kind {
            OpKind::Load { space, base, .. } => (*space, *base, false),
            OpKind::Store { space, base, .. } => (*space, *base, true),
            _ => return Err(unsupported("atomic operation", op.span, self.sm)),
        };
        if !matches!(space, AddrSpace::Global | AddrSpace::Constant) {
            return Err(unsupported(
                &format!("{} memory", space.name()),
                op.span,
                self.sm,
            ));
        }
        let buf = self.buffer(base, op.span)?;
        let ptr = self.value(b, args[0])?;
        let aw = self.cfg.addr_width;
        let dw = self.cfg.data_width;
        let addr = Expr::Slice {
            net: ptr,
            hi: aw - 1,
            lo: 0,
        };
        let vty = if store {
            self.k.block(b).op(args[1]).ty.clone()
        } else {
            op.ty.clone()
        };
        let bits = vty.map(|t| t.bits()).unwrap_or(8);
        let bytes = bits.div_ceil(8);
        let beats = bytes.div_ceil(dw / 8);
        let s = self.fsm.add();
        self.fsm.locate(s, Some(loc.clone()));
        let act = self.fsm.active(s);
        let first = Expr::land(act.clone(), Expr::lnot(Expr::Net(self.issued)));
        let later = Expr::land(act.clone(), Expr::Net(self.issued));
        let dir = if store { "wr" } else { "rd" };
        let p = |g: &Gen, n: &str| port(&g.m, &format!("{buf}_{dir}_{n}"));
        let (cv, cr, ca, cl) = (
            p(self, "cmd_valid")?,
            p(self, "cmd_ready")?,
            p(self, "cmd_addr")?,
            p(self, "cmd_len")?,
        );
        self.fsm.drive(cv, first.clone(), Expr::lit(1, 1));
        self.fsm.drive(ca, first.clone(), addr);
        self.fsm.drive(cl, first, Expr::lit(32, bytes as u64));
        self.fsm
            .set_when(s, self.issued, Expr::lit(1, 1), Expr::Net(cr));
        let (valid, ready) = (p(self, "valid")?, p(self, "ready")?);
        if store {
            let v = self.value(b, args[1])?;
            let data = p(self, "data")?;
            let strb = p(self, "strb")?;
            let total = beats * dw;
            let word = if beats == 1 {
                Expr::zext(Expr::Net(v), dw - bits)
            } else {
                let name = self.fresh("st");
                let sh = self.m.wire(&name, total);
                let amount = Expr::bin(
                    BinOp::Mul,
                    Expr::zext(Expr::Net(self.beat), total - 8),
                    Expr::lit(total, dw as u64),
                );
                self.m.assign(
                    sh,
                    Expr::bin(BinOp::Shr, Expr::zext(Expr::Net(v), total - bits), amount),
                );
                Expr::Slice {
                    net: sh,
                    hi: dw - 1,
                    lo: 0,
                }
            };
            self.fsm.drive(valid, later.clone(), Expr::lit(1, 1));
            self.fsm.drive(data, later.clone(), word);
            self.fsm
                .drive(strb, later, Expr::lit(dw / 8, (1u64 << (dw / 8)) - 1));
            let hs = Expr::land(Expr::Net(self.issued), Expr::Net(ready));
            let last = Expr::bin(
                BinOp::Eq,
                Expr::Net(self.beat),
                Expr::lit(8, beats as u64 - 1),
            );
            self.fsm.set_when(
                s,
                self.beat,
                Expr::bin(BinOp::Add, Expr::Net(self.beat), Expr::lit(8, 1)),
                hs.clone(),
            );
            self.fsm.wait_for(s, Expr::land(hs, last));
            self.fsm.set(s, self.beat, Expr::lit(8, 0));
        } else {
            let total = beats * dw;
            let name = self.fresh("ld");
            let buf_reg = self.m.reg(&name, total);
            self.m.set_loc(buf_reg, loc.clone());
            let rd = p(self, "data")?;
            let hs = Expr::land(Expr::Net(self.issued), Expr::Net(valid));
            let shifted = if beats == 1 {
                Expr::Net(rd)
            } else {
                Expr::Concat(vec![
                    Expr::Net(rd),
                    Expr::Slice {
                        net: buf_reg,
                        hi: total - 1,
                        lo: dw,
                    },
                ])
            };
            self.fsm.drive(ready, later, Expr::lit(1, 1));
            self.fsm.set_when(s, buf_reg, shifted, hs.clone());
            let last = Expr::bin(
                BinOp::Eq,
                Expr::Net(self.beat),
                Expr::lit(8, beats as u64 - 1),
            );
            self.fsm.set_when(
                s,
                self.beat,
                Expr::bin(BinOp::Add, Expr::Net(self.beat), Expr::lit(8, 1)),
                hs.clone(),
            );
            self.fsm.wait_for(s, Expr::land(hs, last));
            self.fsm.set(s, self.beat, Expr::lit(8, 0));
            let vname = self.fresh("v");
            let val = self.m.wire(&vname, bits);
            self.m.assign(
                val,
                Expr::Slice {
                    net: buf_reg,
                    hi: bits - 1,
                    lo: 0,
                },
            );
            self.vals.insert((b, o), val);
        }
        self.fsm.set(s, self.issued, Expr::lit(1, 0));
        Ok(s)
    }
}

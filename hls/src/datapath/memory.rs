//! Memory operations on global and constant buffers: loads, stores and atomics through
//! the shell's command and data streams (one access at a time, the controller waits for
//! each handshake); accesses to kernel objects go to `objects.rs`.
//!
//! Ordering: AXI does not order a master's reads after its writes, so a read command is
//! issued only once every buffer the kernel writes reports `NAME_wr_idle` (all its writes
//! acknowledged). Buffers may alias (the IR has no `restrict`), hence every written
//! buffer, not only the one read. Writes to one buffer go through one write master with
//! one AXI ID, which keeps them in order; a write to another buffer waits for the other
//! buffers' writes to be acknowledged, since it may alias them.

use super::fsm::StateId;
use super::ops::unsupported;
use super::{port, Gen, Handshake};
use crate::diag::{Diagnostic, Span};
use crate::frontend::types::AddrSpace;
use crate::ir::{AtomicOp, Base, BlockId, OpId, OpKind, ParamKind};
use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{NetId, SrcLoc};

/// One global access: the buffer's stream ports are `{buf}_rd_*` / `{buf}_wr_*`.
struct Access {
    buf: String,
    addr: Expr,
    /// Bits of the value.
    bits: u32,
}

impl Gen<'_> {
    /// The buffer name a global access goes through.
    pub(super) fn buffer(&self, base: Option<Base>, span: Span) -> Result<String, Diagnostic> {
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

    /// The buffers some store or atomic of the kernel writes.
    fn written_buffers(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for blk in &self.k.blocks {
            for op in blk.graph.node_weights() {
                let base = match &op.kind {
                    OpKind::Store { base, .. } => base,
                    OpKind::Atomic { op, base, .. } if *op != AtomicOp::Load => base,
                    _ => continue,
                };
                let Some(Base::Param(i)) = base else { continue };
                let Some(p) = self.k.params.get(*i as usize) else {
                    continue;
                };
                // Only the FSM's writes have a write path with `wr_idle`; a pipeline's
                // stores are acknowledged before it leaves its state.
                let fsm = self.plan.buffers.get(i).is_some_and(|b| b.fsm_write);
                let global = fsm
                    && matches!(
                        p.kind,
                        ParamKind::Buffer {
                            space: AddrSpace::Global
                        }
                    );
                if global && !out.contains(&p.name) {
                    out.push(p.name.clone());
                }
            }
        }
        out.sort();
        out
    }

    /// High when every written buffer but `except` has all its writes acknowledged.
    pub(super) fn writes_done(&self, except: Option<&str>) -> Result<Expr, Diagnostic> {
        let mut e = Expr::lit(1, 1);
        for b in self.written_buffers() {
            if Some(b.as_str()) != except {
                let idle = port(&self.m, &format!("{b}_wr_idle"))?;
                e = Expr::land(e, Expr::Net(idle));
            }
        }
        Ok(e)
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
        let (space, base, atomic) = match &op.kind {
            OpKind::Load { space, base, .. } => (*space, *base, Some(AtomicOp::Load)),
            OpKind::Store { space, base, .. } => (*space, *base, Some(AtomicOp::Store)),
            OpKind::Atomic { op, space, base } => (*space, *base, Some(*op)),
            _ => (AddrSpace::Private, None, None),
        };
        let Some(aop) = atomic else {
            return Err(unsupported("this memory operation", op.span, self.sm));
        };
        let plain = matches!(op.kind, OpKind::Load { .. } | OpKind::Store { .. });
        let ok_space = match space {
            AddrSpace::Global => true,
            AddrSpace::Constant => plain,
            _ => false,
        };
        if !ok_space {
            let what = if plain { "" } else { "atomic on " };
            return Err(unsupported(
                &format!("{what}{} memory", space.name()),
                op.span,
                self.sm,
            ));
        }
        let (read, write) = (aop != AtomicOp::Store, aop != AtomicOp::Load);
        let buf = self.buffer(base, op.span)?;
        let ptr = self.value(b, args[0])?;
        let aw = self.cfg.addr_width;
        let vty = if read {
            op.ty.clone()
        } else {
            match args.get(1) {
                Some(v) => self.k.block(b).op(*v).ty.clone(),
                None => return Err(unsupported("a store without a value", op.span, self.sm)),
            }
        };
        let bits = vty.map(|t| t.bits()).unwrap_or(8);
        if !plain && bits > 64 {
            return Err(unsupported(
                "an atomic wider than 64 bits",
                op.span,
                self.sm,
            ));
        }
        if bits.div_ceil(self.cfg.data_width) > 255 {
            return Err(unsupported("a memory access this wide", op.span, self.sm));
        }
        let acc = Access {
            buf,
            addr: Expr::Slice {
                net: ptr,
                hi: aw - 1,
                lo: 0,
            },
            bits,
        };
        let s = self.fsm.add();
        self.fsm.locate(s, Some(loc.clone()));
        let act = self.fsm.active(s);
        let zero8 = Expr::lit(8, 0);
        // Each stream of the buffer has its own handshake registers.
        let rd_name = format!("{}_rd", acc.buf);
        let wr_name = format!("{}_wr", acc.buf);
        let mut used = Vec::new();
        if read && write {
            // An atomic: read, then write the new value in the same state. The read waits
            // for every write to be acknowledged, and no write can start while this state
            // runs, so nothing reaches the word between the read and the write; any later
            // access to an address this write may alias is ordered after its response
            // (a read waits for `wr_idle`; a write to this buffer follows it in the same
            // write master; a write to another buffer waits for this one's `wr_idle`).
            // One work-item runs at a time and the core is memory's only master here, so
            // the read-modify-write is atomic.
            let pname = self.fresh("aphase");
            let phase = self.m.reg(&pname, 1);
            self.m.set_loc(phase, loc.clone());
            self.resets.push((phase, Const::zero(1)));
            let rph = Expr::land(act.clone(), Expr::lnot(Expr::Net(phase)));
            let wph = Expr::land(act, Expr::Net(phase));
            let gate = self.writes_done(None)?;
            let (rdh, wrh) = (self.handshake(&rd_name), self.handshake(&wr_name));
            used.extend([rdh, wrh]);
            let (rdone, old) = self.read_phase(s, rph, gate, &acc, rdh, &loc)?;
            self.fsm.set_when(s, phase, Expr::lit(1, 1), rdone);
            let new = self.rmw(aop, old, b, &args, bits, op.span)?;
            let nname = self.fresh("anew");
            let nv = self.m.wire(&nname, bits);
            self.m.set_loc(nv, loc);
            self.m.assign(nv, new);
            let wdone = self.write_phase(s, wph, Expr::lit(1, 1), &acc, wrh, nv)?;
            self.fsm.wait_for(s, wdone);
            self.fsm.set(s, phase, Expr::lit(1, 0));
            self.vals.insert((b, o), old);
        } else if read {
            let gate = self.writes_done(None)?;
            let rdh = self.handshake(&rd_name);
            used.push(rdh);
            let (done, val) = self.read_phase(s, act, gate, &acc, rdh, &loc)?;
            self.fsm.wait_for(s, done);
            self.vals.insert((b, o), val);
        } else {
            let gate = self.writes_done(Some(&acc.buf))?;
            let v = self.value(b, args[1])?;
            let wrh = self.handshake(&wr_name);
            used.push(wrh);
            let done = self.write_phase(s, act, gate, &acc, wrh, v)?;
            self.fsm.wait_for(s, done);
        }
        for h in used {
            self.fsm.set(s, h.beat, zero8.clone());
            self.fsm.set(s, h.issued, Expr::lit(1, 0));
        }
        Ok(s)
    }

    /// While `phase` holds in state `s`: once `gate` holds, issue the read command, then
    /// take the data beats (`unit.issued` marks the command taken, `unit.beat` counts beats).
    /// Returns the condition of the last beat's handshake and the value read.
    fn read_phase(
        &mut self,
        s: StateId,
        phase: Expr,
        gate: Expr,
        acc: &Access,
        unit: Handshake,
        loc: &SrcLoc,
    ) -> Result<(Expr, NetId), Diagnostic> {
        let dw = self.cfg.data_width;
        let bits = acc.bits;
        let bytes = bits.div_ceil(8);
        let beats = bytes.div_ceil(dw / 8);
        let p = |g: &Gen, n: &str| port(&g.m, &format!("{}_rd_{n}", acc.buf));
        let (cv, cr, ca, cl) = (
            p(self, "cmd_valid")?,
            p(self, "cmd_ready")?,
            p(self, "cmd_addr")?,
            p(self, "cmd_len")?,
        );
        // `gate` cannot fall once it holds here (only this state could start a write),
        // so the command stays valid until taken, as the stream rules require.
        let first = Expr::land(
            Expr::land(phase.clone(), Expr::lnot(Expr::Net(unit.issued))),
            gate,
        );
        let later = Expr::land(phase, Expr::Net(unit.issued));
        self.fsm.drive(cv, first.clone(), Expr::lit(1, 1));
        self.fsm.drive(ca, first.clone(), acc.addr.clone());
        self.fsm
            .drive(cl, first.clone(), Expr::lit(32, bytes as u64));
        self.fsm.set_when(
            s,
            unit.issued,
            Expr::lit(1, 1),
            Expr::land(first, Expr::Net(cr)),
        );
        let (valid, ready, rd) = (p(self, "valid")?, p(self, "ready")?, p(self, "data")?);
        let total = beats * dw;
        let name = self.fresh("ld");
        let buf_reg = self.m.reg(&name, total);
        self.m.set_loc(buf_reg, loc.clone());
        let hs = Expr::land(later.clone(), Expr::Net(valid));
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
        self.fsm.set_when(
            s,
            unit.beat,
            Expr::bin(BinOp::Add, Expr::Net(unit.beat), Expr::lit(8, 1)),
            hs.clone(),
        );
        let last = Expr::bin(
            BinOp::Eq,
            Expr::Net(unit.beat),
            Expr::lit(8, beats as u64 - 1),
        );
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
        Ok((Expr::land(hs, last), val))
    }

    /// While `phase` holds in state `s`: once `gate` holds, issue the write command, then
    /// hand over `value` in data beats. Returns the condition of the last beat's handshake.
    fn write_phase(
        &mut self,
        s: StateId,
        phase: Expr,
        gate: Expr,
        acc: &Access,
        unit: Handshake,
        value: NetId,
    ) -> Result<Expr, Diagnostic> {
        let dw = self.cfg.data_width;
        let bits = acc.bits;
        let bytes = bits.div_ceil(8);
        let beats = bytes.div_ceil(dw / 8);
        let p = |g: &Gen, n: &str| port(&g.m, &format!("{}_wr_{n}", acc.buf));
        let (cv, cr, ca, cl) = (
            p(self, "cmd_valid")?,
            p(self, "cmd_ready")?,
            p(self, "cmd_addr")?,
            p(self, "cmd_len")?,
        );
        let first = Expr::land(
            Expr::land(phase.clone(), Expr::lnot(Expr::Net(unit.issued))),
            gate,
        );
        let later = Expr::land(phase, Expr::Net(unit.issued));
        self.fsm.drive(cv, first.clone(), Expr::lit(1, 1));
        self.fsm.drive(ca, first.clone(), acc.addr.clone());
        self.fsm
            .drive(cl, first.clone(), Expr::lit(32, bytes as u64));
        self.fsm.set_when(
            s,
            unit.issued,
            Expr::lit(1, 1),
            Expr::land(first, Expr::Net(cr)),
        );
        let (valid, ready, data, strb) = (
            p(self, "valid")?,
            p(self, "ready")?,
            p(self, "data")?,
            p(self, "strb")?,
        );
        let total = beats * dw;
        let word = if beats == 1 {
            Expr::zext(Expr::Net(value), dw - bits)
        } else {
            let name = self.fresh("st");
            let sh = self.m.wire(&name, total);
            let amount = Expr::bin(
                BinOp::Mul,
                Expr::zext(Expr::Net(unit.beat), total - 8),
                Expr::lit(total, dw as u64),
            );
            self.m.assign(
                sh,
                Expr::bin(
                    BinOp::Shr,
                    Expr::zext(Expr::Net(value), total - bits),
                    amount,
                ),
            );
            Expr::Slice {
                net: sh,
                hi: dw - 1,
                lo: 0,
            }
        };
        self.fsm.drive(valid, later.clone(), Expr::lit(1, 1));
        self.fsm.drive(data, later.clone(), word);
        self.fsm.drive(
            strb,
            later.clone(),
            Expr::lit(dw / 8, (1u64 << (dw / 8)) - 1),
        );
        let hs = Expr::land(later, Expr::Net(ready));
        let last = Expr::bin(
            BinOp::Eq,
            Expr::Net(unit.beat),
            Expr::lit(8, beats as u64 - 1),
        );
        self.fsm.set_when(
            s,
            unit.beat,
            Expr::bin(BinOp::Add, Expr::Net(unit.beat), Expr::lit(8, 1)),
            hs.clone(),
        );
        Ok(Expr::land(hs, last))
    }
}

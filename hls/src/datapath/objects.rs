//! Kernel objects (private arrays and structs, the group form's `__wi_*` storage,
//! `__local` arrays and pointer arguments, `__constant` tables) as `ohls_ram_1r1w`
//! instances inside the datapath, shaped by the `memory` stage: words of the widest piece
//! every access is made of, and read replicas (copies every write updates, each with a
//! read port of its own) for pipelines that read a memory several times per iteration,
//! or banks (`ohls_banked_ram`, a read and a write lane per bank) for pipelines
//! whose accesses of one iteration the `memory` stage found in different banks.
//!
//! A pointer into an object is its byte offset: the base is known statically from the
//! access (`Base`), so `ObjectAddr` is 0 and `PtrAdd` adds. On the controller an access
//! holds its state for one cycle per word written, two per word read (the RAM's read is
//! registered), on replica 0; one work-item runs at a time there, so a read-modify-write
//! in one state is atomic. Pipelines read and write single words (`pipe.rs`).

use super::fsm::{Next, StateId};
use super::ops::unsupported;
use super::{port, Gen};
use crate::diag::Diagnostic;
use crate::ir::{AtomicOp, Base, BlockId, ObjectId, OpId, OpKind, ParamKind};
use crate::memory::Layout;
use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{Instance, NetId, SrcLoc};

/// The nets of one object's RAM copies: the write port they share, a read port each; or
/// of its banks (`memory::banks`): a read and a write lane per bank, each taking a whole
/// word address and reaching any bank.
#[derive(Clone, Debug)]
pub struct Ram {
    /// The write port (lane 0 of a banked memory), which the controller uses.
    pub we: NetId,
    pub waddr: NetId,
    pub wdata: NetId,
    /// Per replica or read lane: read enable, address, data (registered: the cycle after
    /// the enable).
    pub reads: Vec<(NetId, NetId, NetId)>,
    /// Per write lane (one unless banked): enable, address, data.
    pub writes: Vec<(NetId, NetId, NetId)>,
    /// Word address bits (`$clog2(DEPTH)` of the template).
    pub aw: u32,
    /// Bytes per word.
    pub word: u32,
}

impl Ram {
    /// log2 of the word's bytes: a byte offset shifted right by it is a word address.
    pub fn word_shift(&self) -> u32 {
        self.word.trailing_zeros()
    }
}

impl Gen<'_> {
    /// One RAM per object and per `__local` pointer argument (sized for the largest
    /// launch the shell accepts), as the memory plan shapes it.
    pub fn objects(&mut self) -> Result<(), Diagnostic> {
        let mut rams = Vec::new();
        for (i, o) in self.k.objects.iter().enumerate() {
            let base = Base::Object(ObjectId(i as u32));
            let name = format!("obj{i}_{}", super::sanitize(&o.name));
            rams.push((base, o.size, name));
        }
        for (i, p) in self.k.params.iter().enumerate() {
            if p.kind == ParamKind::LocalBuffer {
                let name = format!("lbuf_{}", super::sanitize(&p.name));
                rams.push((Base::Param(i as u32), self.cfg.local_max_bytes, name));
            }
        }
        for (base, size, name) in rams {
            let layout = self.memory.layout(base).copied().unwrap_or(Layout {
                word: 1,
                depth: size.max(1),
                replicas: 1,
                banks: 1,
                mapping: crate::memory::BankMapping::Cyclic,
            });
            if layout.banks > 1 {
                self.new_banked_ram(base, layout, &name);
            } else {
                self.new_ram(base, layout, &name);
            }
        }
        Ok(())
    }

    fn new_ram(&mut self, base: Base, l: Layout, name: &str) {
        let depth = l.depth.max(2);
        let aw = 64 - (depth - 1).leading_zeros();
        let ww = 8 * l.word;
        let we = self.m.wire(&format!("{name}_we"), 1);
        let waddr = self.m.wire(&format!("{name}_waddr"), aw);
        let wdata = self.m.wire(&format!("{name}_wdata"), ww);
        let mut reads = Vec::new();
        for r in 0..l.replicas.max(1) {
            let sfx = if r == 0 {
                String::new()
            } else {
                format!("_r{r}")
            };
            let re = self.m.wire(&format!("{name}{sfx}_re"), 1);
            let raddr = self.m.wire(&format!("{name}{sfx}_raddr"), aw);
            let rdata = self.m.wire(&format!("{name}{sfx}_rdata"), ww);
            self.m.instance(
                Instance::new("ohls_ram_1r1w", &format!("u_{name}{sfx}"))
                    .param("WIDTH", ww as i64)
                    .param("DEPTH", depth.min(i64::MAX as u64) as i64)
                    .param("BYTE_EN", 0)
                    .input("clk", 1, self.clk)
                    .input("we", 1, we)
                    .input("waddr", aw, waddr)
                    .input("wdata", ww, wdata)
                    .input("wbe", 1, Expr::lit(1, 1))
                    .input("re", 1, re)
                    .input("raddr", aw, raddr)
                    .output("rdata", ww, rdata),
            );
            // A copy nobody reads still needs its inputs driven: a never-true entry
            // makes each net one the controller drives.
            for (net, w) in [(re, 1), (raddr, aw)] {
                self.fsm.drive(net, Expr::lit(1, 0), Expr::lit(w, 0));
            }
            reads.push((re, raddr, rdata));
        }
        for (net, w) in [(we, 1), (waddr, aw), (wdata, ww)] {
            self.fsm.drive(net, Expr::lit(1, 0), Expr::lit(w, 0));
        }
        self.objs.insert(
            base,
            Ram {
                we,
                waddr,
                wdata,
                reads,
                writes: vec![(we, waddr, wdata)],
                aw,
                word: l.word,
            },
        );
    }

    /// A memory of `l.banks` banks, cyclic or block (`l.mapping`): one `ohls_banked_ram`
    /// whose lanes route each word address to its bank (the schedulers keep two lanes of
    /// a cycle off one bank).
    fn new_banked_ram(&mut self, base: Base, l: Layout, name: &str) {
        let n = l.banks;
        let depth = l.depth.div_ceil(n as u64).max(2) * n as u64;
        let aw = 64 - (depth - 1).leading_zeros();
        let ww = 8 * l.word;
        let rdata_all = self.m.wire(&format!("{name}_rdata_lanes"), n * ww);
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        for i in 0..n {
            let sfx = if i == 0 {
                String::new()
            } else {
                format!("_l{i}")
            };
            let w = |g: &mut Self, what: &str, width: u32| {
                g.m.wire(&format!("{name}{sfx}_{what}"), width)
            };
            let (we, waddr, wdata) = (w(self, "we", 1), w(self, "waddr", aw), w(self, "wdata", ww));
            let (re, raddr, rdata) = (w(self, "re", 1), w(self, "raddr", aw), w(self, "rdata", ww));
            self.m.assign(
                rdata,
                Expr::Slice {
                    net: rdata_all,
                    hi: (i + 1) * ww - 1,
                    lo: i * ww,
                },
            );
            // A lane nobody uses still needs its inputs driven.
            for (net, width) in [(we, 1), (waddr, aw), (wdata, ww), (re, 1), (raddr, aw)] {
                self.fsm.drive(net, Expr::lit(1, 0), Expr::lit(width, 0));
            }
            reads.push((re, raddr, rdata));
            writes.push((we, waddr, wdata));
        }
        // Lane i is bits [i*W +: W] of each vector port: the highest lane comes first.
        let cat = |f: &dyn Fn(&(NetId, NetId, NetId)) -> NetId, lanes: &[(NetId, NetId, NetId)]| {
            Expr::Concat(lanes.iter().rev().map(|l| Expr::Net(f(l))).collect())
        };
        let rd_conflict = self.m.wire(&format!("{name}_rd_conflict"), n);
        let wr_conflict = self.m.wire(&format!("{name}_wr_conflict"), n);
        self.m.instance(
            Instance::new("ohls_banked_ram", &format!("u_{name}"))
                .param("WIDTH", ww as i64)
                .param("DEPTH", depth.min(i64::MAX as u64) as i64)
                .param("NBANKS", n as i64)
                .param("MAPPING", l.mapping.param())
                .input("clk", 1, self.clk)
                .input("wr_en", n, cat(&|l| l.0, &writes))
                .input("wr_addr", n * aw, cat(&|l| l.1, &writes))
                .input("wr_data", n * ww, cat(&|l| l.2, &writes))
                .input("rd_en", n, cat(&|l| l.0, &reads))
                .input("rd_addr", n * aw, cat(&|l| l.1, &reads))
                .output("rd_data", n * ww, rdata_all)
                .output("rd_conflict", n, rd_conflict)
                .output("wr_conflict", n, wr_conflict),
        );
        let (we, waddr, wdata) = writes[0];
        self.objs.insert(
            base,
            Ram {
                we,
                waddr,
                wdata,
                reads,
                writes,
                aw,
                word: l.word,
            },
        );
    }

    /// States at the start of every group writing the objects' initial bytes (constant
    /// tables, initialised private arrays: RAM contents are undefined after configuration)
    /// and the host's bytes of by-value struct arguments; returns the entry, then `next`.
    /// One state per word, except for an image that repeats a short pattern (a private
    /// array's initialiser, one copy per work-item of the group): one state that counts
    /// through the words, so the controller does not grow with the group size.
    pub fn object_inits(&mut self, next: StateId) -> Result<StateId, Diagnostic> {
        let mut writes: Vec<(Ram, u64, Expr)> = Vec::new();
        let mut loops: Vec<(Ram, Vec<Vec<u8>>, usize)> = Vec::new();
        for (i, o) in self.k.objects.iter().enumerate() {
            let Some(init) = &o.init else { continue };
            let ram = self.objs[&Base::Object(ObjectId(i as u32))].clone();
            let wb = ram.word as usize;
            let words: Vec<Vec<u8>> = init
                .chunks(wb)
                .map(|chunk| {
                    let mut word = vec![0u8; wb];
                    word[..chunk.len()].copy_from_slice(chunk);
                    word
                })
                .collect();
            match period(&words).filter(|_| words.len() > INIT_STATES_MAX) {
                Some(p) => loops.push((ram, words, p)),
                None => {
                    for (j, word) in words.iter().enumerate() {
                        writes.push((ram.clone(), j as u64, bytes_lit(word)));
                    }
                }
            }
        }
        for p in &self.k.params {
            let ParamKind::Struct { object } = p.kind else {
                continue;
            };
            let arg = port(&self.m, &format!("arg_{}", p.name))?;
            let bytes = (self.m.net(arg).width / 8).min(self.k.object(object).size as u32);
            let ram = self.objs[&Base::Object(object)].clone();
            let wb = ram.word;
            for j in 0..bytes.div_ceil(wb) {
                let lo = 8 * j * wb;
                let hi = (lo + 8 * wb - 1).min(8 * bytes - 1);
                let e = Expr::Slice { net: arg, hi, lo };
                let e = if hi - lo + 1 < 8 * wb {
                    Expr::zext(e, 8 * wb - (hi - lo + 1))
                } else {
                    e
                };
                writes.push((ram.clone(), j as u64, e));
            }
        }
        let mut entry = next;
        for (ram, j, e) in writes.into_iter().rev() {
            let s = self.fsm.add();
            let act = self.fsm.active(s);
            self.fsm.drive(ram.we, act.clone(), Expr::lit(1, 1));
            self.fsm.drive(ram.waddr, act.clone(), Expr::lit(ram.aw, j));
            self.fsm.drive(ram.wdata, act, e);
            self.fsm.goto(s, Next::Goto(entry));
            entry = s;
        }
        for (ram, words, p) in loops.into_iter().rev() {
            entry = self.init_loop(&ram, &words, p, entry);
        }
        Ok(entry)
    }

    /// One state writing `words` into `ram`, a word per cycle, then going to `next`: an
    /// address counter and a phase counter (wrapping at the period `p`) that selects the
    /// word from a balanced mux over the pattern. Both counters end at zero, where reset
    /// puts them, so the next group starts over.
    fn init_loop(&mut self, ram: &Ram, words: &[Vec<u8>], p: usize, next: StateId) -> StateId {
        let s = self.fsm.add();
        let act = self.fsm.active(s);
        let aw = ram.aw;
        let addr_name = self.fresh("init_addr");
        let addr = self.m.reg(&addr_name, aw);
        let pb = (usize::BITS - (p.max(2) - 1).leading_zeros()).max(1);
        let phase_name = self.fresh("init_phase");
        let phase = self.m.reg(&phase_name, pb);
        self.resets.push((addr, Const::zero(aw)));
        self.resets.push((phase, Const::zero(pb)));
        let last = Expr::bin(
            BinOp::Eq,
            Expr::Net(addr),
            Expr::lit(aw, (words.len() - 1) as u64),
        );
        let wrap = Expr::lor(
            last.clone(),
            Expr::bin(BinOp::Eq, Expr::Net(phase), Expr::lit(pb, (p - 1) as u64)),
        );
        let pattern: Vec<Expr> = words[..p].iter().map(|w| bytes_lit(w)).collect();
        self.fsm.drive(ram.we, act.clone(), Expr::lit(1, 1));
        self.fsm.drive(ram.waddr, act.clone(), Expr::Net(addr));
        self.fsm
            .drive(ram.wdata, act, select_word(phase, pb, &pattern, 0));
        let step = |n: NetId, w: u32| Expr::bin(BinOp::Add, Expr::Net(n), Expr::lit(w, 1));
        self.fsm.set(
            s,
            addr,
            Expr::mux(last.clone(), Expr::lit(aw, 0), step(addr, aw)),
        );
        self.fsm
            .set(s, phase, Expr::mux(wrap, Expr::lit(pb, 0), step(phase, pb)));
        self.fsm.goto(s, Next::Branch(last, next, s));
        s
    }
    /// A load, store or atomic on object memory: one state, word by word (the RAM's
    /// `beat` counts words, its `issued` marks the cycle a read's data arrives).
    pub fn object_access(
        &mut self,
        b: BlockId,
        o: OpId,
        base: Base,
    ) -> Result<StateId, Diagnostic> {
        let ram = self.objs[&base].clone();
        let (re, raddr, rdata) = ram.reads[0];
        let op = self.k.block(b).op(o).clone();
        let args = self.k.block(b).operands(o);
        let loc = SrcLoc::of_span(self.sm, op.span);
        let (read, write, aop) = match &op.kind {
            OpKind::Load { .. } => (true, false, None),
            OpKind::Store { .. } => (false, true, None),
            OpKind::Atomic {
                op: AtomicOp::Load, ..
            } => (true, false, None),
            OpKind::Atomic {
                op: AtomicOp::Store,
                ..
            } => (false, true, None),
            OpKind::Atomic { op: a, .. } => (true, true, Some(*a)),
            _ => return Err(unsupported("an object access", op.span, self.sm)),
        };
        let vty = if read {
            op.ty.clone()
        } else {
            args.get(1).and_then(|a| self.k.block(b).op(*a).ty.clone())
        };
        let bits = vty.map(|t| t.bits()).unwrap_or(8);
        let ww = 8 * ram.word;
        // Words of the access (the memory plan makes every access whole words).
        let n = bits.div_ceil(ww);
        if 2 * n > 255 {
            return Err(unsupported("an object access this wide", op.span, self.sm));
        }
        if aop.is_some() && bits > 64 {
            return Err(unsupported(
                "an atomic wider than 64 bits",
                op.span,
                self.sm,
            ));
        }
        let ptr = self.value(b, args[0])?;
        let pw = self.m.net(ptr).width;
        if pw < 8 {
            return Err(unsupported("a pointer this narrow", op.span, self.sm));
        }
        let s = self.fsm.add();
        self.fsm.locate(s, Some(loc.clone()));
        let act = self.fsm.active(s);
        // The RAM's own handshake registers, named after its read-enable port.
        let unit = self.m.net(re).name.clone();
        let hs = self.handshake(&unit);
        let beat = Expr::Net(hs.beat);
        let lit8 = |v: u32| Expr::lit(8, v as u64);
        // Reads take words 0..n, then writes (of an atomic) words n..2n as words 0..n.
        let in_write = if read && write {
            Expr::bin(BinOp::Ge, beat.clone(), lit8(n))
        } else {
            Expr::lit(1, write as u64)
        };
        let iname = self.fresh("oi");
        let idx = self.m.wire(&iname, 8);
        let idx_e = if read && write {
            Expr::mux(
                in_write.clone(),
                Expr::bin(BinOp::Sub, beat.clone(), lit8(n)),
                beat.clone(),
            )
        } else {
            beat.clone()
        };
        self.m.assign(idx, idx_e);
        // The word address: the byte offset in words, plus the word at hand.
        let aname = self.fresh("oa");
        let addr = self.m.wire(&aname, pw);
        self.m.set_loc(addr, loc.clone());
        let words = Expr::bin(
            BinOp::Shr,
            Expr::Net(ptr),
            Expr::lit(pw, ram.word_shift() as u64),
        );
        self.m.assign(
            addr,
            Expr::bin(BinOp::Add, words, Expr::zext(Expr::Net(idx), pw - 8)),
        );
        let ramaddr = if ram.aw <= pw {
            Expr::Slice {
                net: addr,
                hi: ram.aw - 1,
                lo: 0,
            }
        } else {
            Expr::zext(Expr::Net(addr), ram.aw - pw)
        };
        let issued = Expr::Net(hs.issued);
        let last_word = |k: u32| Expr::bin(BinOp::Eq, beat.clone(), lit8(k));
        let inc = Expr::bin(BinOp::Add, beat.clone(), lit8(1));
        let mut old = None;
        if read {
            let rphase = Expr::land(act.clone(), Expr::lnot(in_write.clone()));
            let first = Expr::land(rphase.clone(), Expr::lnot(issued.clone()));
            self.fsm.drive(re, first.clone(), Expr::lit(1, 1));
            self.fsm.drive(raddr, first, ramaddr.clone());
            let name = self.fresh("old");
            let buf = self.m.reg(&name, ww * n);
            self.m.set_loc(buf, loc.clone());
            let shifted = if n == 1 {
                Expr::Net(rdata)
            } else {
                Expr::Concat(vec![
                    Expr::Net(rdata),
                    Expr::Slice {
                        net: buf,
                        hi: ww * n - 1,
                        lo: ww,
                    },
                ])
            };
            let nrd = Expr::lnot(in_write.clone());
            let got = Expr::land(nrd.clone(), issued.clone());
            self.fsm.set_when(s, buf, shifted, got.clone());
            self.fsm.set_when(s, hs.beat, inc.clone(), got.clone());
            self.fsm.set_when(
                s,
                hs.issued,
                Expr::lit(1, 1),
                Expr::land(nrd, Expr::lnot(issued.clone())),
            );
            self.fsm
                .set_when(s, hs.issued, Expr::lit(1, 0), got.clone());
            let vname = self.fresh("v");
            let val = self.m.wire(&vname, bits);
            self.m.assign(
                val,
                Expr::Slice {
                    net: buf,
                    hi: bits - 1,
                    lo: 0,
                },
            );
            self.vals.insert((b, o), val);
            old = Some(val);
            if !write {
                self.fsm.wait_for(s, Expr::land(got, last_word(n - 1)));
            }
        }
        if write {
            let new = match (aop, old) {
                (Some(a), Some(old)) => self.rmw(a, old, b, &args, bits, op.span)?,
                _ => Expr::Net(self.value(b, args[1])?),
            };
            let wphase = Expr::land(act, in_write.clone());
            let data = if n == 1 {
                Expr::zext(new, ww - bits)
            } else {
                // Word `idx` of the value: shift it down, keep the low word.
                let name = self.fresh("ow");
                let all = ww * n;
                let sh = self.m.wire(&name, all);
                let amount = Expr::bin(
                    BinOp::Mul,
                    Expr::zext(Expr::Net(idx), all - 8),
                    Expr::lit(all, ww as u64),
                );
                self.m.assign(
                    sh,
                    Expr::bin(BinOp::Shr, Expr::zext(new, all - bits), amount),
                );
                Expr::Slice {
                    net: sh,
                    hi: ww - 1,
                    lo: 0,
                }
            };
            self.fsm.drive(ram.we, wphase.clone(), Expr::lit(1, 1));
            self.fsm.drive(ram.waddr, wphase.clone(), ramaddr);
            self.fsm.drive(ram.wdata, wphase, data);
            self.fsm.set_when(s, hs.beat, inc, in_write.clone());
            let end = if read { 2 * n - 1 } else { n - 1 };
            self.fsm.wait_for(s, Expr::land(in_write, last_word(end)));
        }
        self.fsm.set(s, hs.beat, lit8(0));
        self.fsm.set(s, hs.issued, Expr::lit(1, 0));
        Ok(s)
    }

    /// The value an atomic stores, from the old value and its operands.
    pub(super) fn rmw(
        &self,
        a: AtomicOp,
        old: NetId,
        b: BlockId,
        args: &[OpId],
        w: u32,
        span: crate::diag::Span,
    ) -> Result<Expr, Diagnostic> {
        let arg = |i: usize| -> Result<Expr, Diagnostic> {
            match args.get(i) {
                Some(x) => Ok(Expr::Net(self.value(b, *x)?)),
                None => Err(unsupported("an atomic without its operand", span, self.sm)),
            }
        };
        let o = Expr::Net(old);
        // Signed order is unsigned order with the sign bits flipped.
        let flip = |e: Expr| Expr::bin(BinOp::Xor, e, Expr::lit(w, 1u64 << (w - 1)));
        let pick = |lt: Expr, x: Expr, y: Expr| Expr::mux(lt, x, y);
        Ok(match a {
            AtomicOp::Add => Expr::bin(BinOp::Add, o, arg(1)?),
            AtomicOp::Sub => Expr::bin(BinOp::Sub, o, arg(1)?),
            AtomicOp::Xchg | AtomicOp::Store => arg(1)?,
            AtomicOp::Inc => Expr::bin(BinOp::Add, o, Expr::lit(w, 1)),
            AtomicOp::Dec => Expr::bin(BinOp::Sub, o, Expr::lit(w, 1)),
            AtomicOp::CmpXchg => Expr::mux(Expr::bin(BinOp::Eq, o.clone(), arg(1)?), arg(2)?, o),
            AtomicOp::And => Expr::bin(BinOp::And, o, arg(1)?),
            AtomicOp::Or => Expr::bin(BinOp::Or, o, arg(1)?),
            AtomicOp::Xor => Expr::bin(BinOp::Xor, o, arg(1)?),
            AtomicOp::UMin => pick(Expr::bin(BinOp::Lt, o.clone(), arg(1)?), o, arg(1)?),
            AtomicOp::UMax => pick(Expr::bin(BinOp::Gt, o.clone(), arg(1)?), o, arg(1)?),
            AtomicOp::SMin => pick(
                Expr::bin(BinOp::Lt, flip(o.clone()), flip(arg(1)?)),
                o,
                arg(1)?,
            ),
            AtomicOp::SMax => pick(
                Expr::bin(BinOp::Gt, flip(o.clone()), flip(arg(1)?)),
                o,
                arg(1)?,
            ),
            AtomicOp::Load => o,
        })
    }
}

/// `bytes` (little-endian) as a constant of their width.
/// Object images up to this many words are written one state per word.
const INIT_STATES_MAX: usize = 16;

/// The shortest period (up to 64 words) that `words` repeat with, if any.
fn period(words: &[Vec<u8>]) -> Option<usize> {
    (1..=words.len().min(64)).find(|&p| words.iter().enumerate().all(|(j, w)| *w == words[j % p]))
}

/// `pattern[phase]` as a balanced mux over `phase`'s bits below `bit`, the entries from
/// `base` (entries past the pattern, which the phase never reaches, repeat its first).
fn select_word(phase: NetId, bit: u32, pattern: &[Expr], base: usize) -> Expr {
    if bit == 0 {
        return pattern.get(base).unwrap_or(&pattern[0]).clone();
    }
    let half = 1usize << (bit - 1);
    if base + half >= pattern.len() {
        return select_word(phase, bit - 1, pattern, base);
    }
    Expr::mux(
        Expr::bit(phase, bit - 1),
        select_word(phase, bit - 1, pattern, base + half),
        select_word(phase, bit - 1, pattern, base),
    )
}

fn bytes_lit(bytes: &[u8]) -> Expr {
    let chunks: Vec<Expr> = bytes
        .chunks(8)
        .rev()
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            Expr::lit(8 * c.len() as u32, u64::from_le_bytes(w))
        })
        .collect();
    if chunks.len() == 1 {
        chunks.into_iter().next().unwrap_or(Expr::lit(8, 0))
    } else {
        Expr::Concat(chunks)
    }
}

#[cfg(test)]
mod tests {
    use super::period;

    #[test]
    fn an_image_repeating_a_short_pattern_has_that_period() {
        let w = |b: u8| vec![b, 0];
        assert_eq!(period(&[w(1), w(2), w(1), w(2), w(1)]), Some(2));
        assert_eq!(period(&vec![w(0); 40]), Some(1));
        let distinct: Vec<Vec<u8>> = (0..100u8).map(w).collect();
        assert_eq!(period(&distinct), None);
    }

    /// Controller states of the only kernel of `src` on the `sim` board.
    fn states(src: &str) -> usize {
        crate::compile::compile_for_sim(src).datapath.states
    }

    #[test]
    fn a_private_arrays_initialiser_does_not_grow_the_controller_with_the_group() {
        // Each of the group's work-items has its copy of `t`, initialised at the group's
        // start: 256 copies of 8 words are one counting state, not 2,048.
        let src = |n: u32| {
            format!(
                "__kernel __attribute__((reqd_work_group_size({n}, 1, 1)))
                 void k(__global const int *in, __global int *out) {{
                     __local int l[{n}];
                     int t[8] = {{3, 1, 4, 1, 5, 9, 2, 6}};
                     size_t i = get_global_id(0), j = get_local_id(0);
                     t[in[i] & 7] += 1;
                     l[j] = in[i];
                     barrier(CLK_LOCAL_MEM_FENCE);
                     out[i] = t[(l[({n} - 1) - j] >> 3) & 7];
                 }}"
            )
        };
        let (small, large) = (states(&src(4)), states(&src(256)));
        assert!(
            large <= small + 2,
            "{small} states at 4 work-items, {large} at 256"
        );
    }
}

//! The datapath and controller generator: emits the group-form kernel as the schedule
//! (`schedule` stage) and binding (`bind` stage) say, as a finite-state machine over its
//! structured control; `wrap` puts it in the kernel core shell.
//!
//! Scheme (static schedule, dynamic stalls, no pipelining): every straight-line block
//! follows its list schedule from the side table (`sched.rs`). Ops starting in the same
//! cycle share a controller state;
//! combinational ops chained in a cycle are wires between each other, and a value used
//! in a later cycle is captured in a register by its cycle's last state. A state starting
//! float units, f64 units or dividers waits until each has delivered (results captured
//! on the unit's valid); memory accesses keep a state each in front of their cycle's
//! state and stall on their handshakes (one access at a time). Variables live in one
//! register each. Multi-cycle ops run on the unit instance the binding names. Groups run one
//! after another (`gz`, `gy`, `gx` counters), the group-form body once per group.

mod builtins;
mod control;
mod convert;
mod counters;
mod double;
mod fnan;
mod fsm;
mod math_exact;
mod memory;
mod objects;
mod ops;
mod pipe;
mod sched;

pub use pipe::PipeFacts;
pub(crate) use pipe::{DELAY_RAM_MIN_BITS, DELAY_RAM_MIN_DEPTH};

use std::collections::HashMap;

use crate::bind::Binding;
use crate::board::Board;
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::ir::{BlockId, Kernel, OpId, WorkItemFn};
use crate::pipeline::PipelinePlan;
use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{Instance, Module, NetId};
use crate::rtl::regmap::RegisterMap;
use crate::rtl::shell::{self, ShellConfig};
use crate::schedule::loops::LoopSchedules;
use crate::schedule::KernelSchedule;
use crate::workitems::GroupForm;
use fsm::{Fsm, Next, StateId};

/// A generated kernel core: its Verilog, the templates it needs and its register map.
#[derive(Clone, Debug)]
pub struct CoreRtl {
    /// Top module name (`KERNEL_core`).
    pub top: String,
    /// Generated Verilog files: (file name like "vadd_core.v", text), deterministic.
    pub files: Vec<(String, String)>,
    /// Template files the core instantiates (paths from rtl_templates::template).
    pub templates: Vec<std::path::PathBuf>,
    pub regmap: RegisterMap,
    /// Per-block schedule report and FSM size, serialisable into report.json.
    pub report: serde_json::Value,
}

/// The datapath stage's result: the netlist, the register map its ports follow, and the
/// controller facts later stages read.
pub struct Datapath {
    pub module: Module,
    pub regmap: RegisterMap,
    pub facts: Facts,
    /// The memory paths of each buffer the datapath's ports follow.
    pub paths: shell::Paths,
}

/// What the generated controller looks like: its state count and, per group-form block,
/// the states it runs through.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Facts {
    pub states: usize,
    pub blocks: Vec<sched::BlockFacts>,
    /// The loops run as pipelines.
    pub pipelines: Vec<PipeFacts>,
}

impl Facts {
    /// The controller states block `b` runs through (`None` for a block not generated).
    pub fn states_of(&self, b: BlockId) -> Option<u64> {
        self.blocks
            .iter()
            .find(|f| f.block == b.0)
            .map(|f| f.states as u64)
    }
}

/// The generator's state while one kernel's datapath is built.
pub(crate) struct Gen<'a> {
    /// The kernel in group form.
    k: &'a Kernel,
    /// Parameters of the host-visible kernel (the rest are the hidden local sizes).
    host_params: usize,
    sm: &'a SourceMap,
    cfg: &'a ShellConfig,
    m: Module,
    fsm: Fsm,
    clk: NetId,
    rst: NetId,
    /// Per unit (a buffer's read or write stream, a RAM, an arithmetic unit) its own
    /// handshake registers, so that no two units share a flag and two accesses could be in
    /// flight at once.
    handshakes: std::collections::BTreeMap<String, NetId>,
    vals: HashMap<(BlockId, OpId), NetId>,
    vars: Vec<NetId>,
    resets: Vec<(NetId, Const)>,
    group: [NetId; 3],
    /// Per dimension, the number of groups (only where `get_num_groups` reads it).
    ngroups: Option<[NetId; 3]>,
    /// Per dimension, the first global id (without offset) of the next group.
    gnext: [NetId; 3],
    /// Where the group's body ends (`Return` jumps here).
    group_end: StateId,
    names: u32,
    /// The RAM of each kernel object and `__local` pointer argument.
    objs: HashMap<crate::ir::Base, objects::Ram>,
    /// Per block, its checked schedule (the `schedule` stage's side table).
    sched: &'a KernelSchedule,
    /// Which unit instance each multi-cycle op runs on (the `bind` stage's side table).
    binding: &'a Binding,
    /// The op being generated, for its unit in the binding.
    cur_op: Option<(BlockId, OpId)>,
    /// The first unit op the binding left out (a compiler bug).
    unbound: Option<Diagnostic>,
    /// Combinational values: a wire inside their cycle, a register after it.
    comb: HashMap<(BlockId, OpId), sched::CombVal>,
    /// The block and cycle of the op being generated (`None` between blocks).
    cur: Option<(BlockId, u32)>,
    /// Per-block schedule facts for the report.
    blocks: Vec<sched::BlockFacts>,
    /// A state never entered, for ops that cannot start a unit.
    scratch: Option<StateId>,
    /// Which loops run as pipelines (the `pipeline` stage's plan).
    plan: &'a PipelinePlan,
    /// Their modulo schedules (the `modulo` stage's side table).
    pipes: &'a LoopSchedules,
    /// Set while a pipelined loop's op is generated: units follow the pipeline.
    pipe: Option<pipe::PipeCtx>,
    /// The pipelined loops' shared units built so far, by instance name.
    shared: HashMap<String, ops::SharedUnit>,
    pipe_facts: Vec<PipeFacts>,
    /// What each pipelined loop's performance counters count.
    probes: Vec<counters::LoopProbe>,
    /// The NDRange kernel's `reqd_work_group_size`: the launch is checked against it.
    reqd: Option<[u64; 3]>,
    /// The on-chip memories' words and replicas.
    memory: &'a crate::memory::MemoryPlan,
}

/// One unit's handshake registers: `issued` is set once the state using the unit has
/// handed it its command; `beat` counts the data beats (or bytes) moved so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handshake {
    pub issued: NetId,
    pub beat: NetId,
}

fn port(m: &Module, name: &str) -> Result<NetId, Diagnostic> {
    m.port(name)
        .ok_or_else(|| Diagnostic::global(format!("datapath has no port {name}")))
}

fn one(d: Diagnostic) -> Diagnostics {
    let mut ds = Diagnostics::default();
    ds.push(d);
    ds
}

impl Gen<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.names += 1;
        format!("{prefix}_{}", self.names)
    }

    fn value(&self, b: BlockId, o: OpId) -> Result<NetId, Diagnostic> {
        if let Some(c) = self.comb.get(&(b, o)) {
            if self.cur == Some((b, c.cycle)) {
                return Ok(c.wire);
            }
            return c.reg.ok_or_else(|| {
                Diagnostic::error(
                    self.k.block(b).op(o).span,
                    "internal error: a value used after its cycle has no register",
                )
            });
        }
        self.vals.get(&(b, o)).copied().ok_or_else(|| {
            Diagnostic::error(
                self.k.block(b).op(o).span,
                "operand used before it is computed",
            )
        })
    }

    /// A 32-bit field `d` of a 96-bit size port.
    fn size_field(&self, name: &str, d: usize) -> Result<Expr, Diagnostic> {
        let net = port(&self.m, name)?;
        Ok(Expr::Slice {
            net,
            hi: 32 * d as u32 + 31,
            lo: 32 * d as u32,
        })
    }
}

/// Generates the datapath of `group` (the group form of the math-expanded NDRange
/// `kernel`) following `schedule` and `binding`. Unsupported operations are errors naming
/// the operation or built-in and its source line.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    kernel: &Kernel,
    group: &GroupForm,
    schedule: &KernelSchedule,
    pipes: &LoopSchedules,
    plan: &PipelinePlan,
    memory: &crate::memory::MemoryPlan,
    binding: &Binding,
    sm: &SourceMap,
    cfg: &ShellConfig,
) -> Result<Datapath, Diagnostics> {
    let rtl_err = |e: crate::rtl::RtlError| one(Diagnostic::error(kernel.span, e.to_string()));
    let regmap = RegisterMap::for_kernel(kernel, cfg.local_max_bytes).map_err(rtl_err)?;
    let m = shell::datapath_ports_with(kernel, &regmap, cfg, Some(&plan.buffers));
    let sides = Sides {
        sched: schedule,
        pipes,
        plan,
        memory,
        binding,
        reqd: kernel.attrs.reqd_work_group_size,
    };
    let (module, facts, counters) =
        build(&group.kernel, kernel.params.len(), sm, cfg, m, &sides).map_err(one)?;
    let regmap = regmap.with_counters(counters);
    Ok(Datapath {
        module,
        regmap,
        facts,
        paths: plan.buffers.clone(),
    })
}

/// The side tables the generator follows.
struct Sides<'a> {
    sched: &'a KernelSchedule,
    pipes: &'a LoopSchedules,
    plan: &'a PipelinePlan,
    binding: &'a Binding,
    /// The on-chip memories' words and replicas.
    memory: &'a crate::memory::MemoryPlan,
    /// The NDRange kernel's `reqd_work_group_size` (the group form runs one work-item
    /// per group and says (1, 1, 1)).
    reqd: Option<[u64; 3]>,
}

/// The shell stage: wraps datapath `dp` of `kernel` in the kernel core (control block,
/// AXI masters) and emits its Verilog.
pub fn wrap(
    kernel: &Kernel,
    cfg: &ShellConfig,
    dp: Datapath,
    board: &Board,
    group_blocks: usize,
) -> Result<CoreRtl, Diagnostic> {
    let rtl_err = |e: crate::rtl::RtlError| Diagnostic::error(kernel.span, e.to_string());
    let core = shell::build_core_with(kernel, cfg, dp.module, Some(&dp.paths), &dp.regmap.counters)
        .map_err(rtl_err)?;
    let files = core.emit().map_err(rtl_err)?;
    let templates = core.templates().map_err(rtl_err)?;
    let report = serde_json::json!({
        "scheme": "scheduled states",
        "board": board.name,
        "states": dp.facts.states,
        "blocks": group_blocks,
        "block_schedules": dp.facts.blocks,
        "pipelines": dp.facts.pipelines,
        "registers": dp.regmap,
    });
    Ok(CoreRtl {
        top: core.top.name.clone(),
        files,
        templates,
        regmap: dp.regmap,
        report,
    })
}

/// Fills the datapath module `m` of group-form kernel `k` as `sched` and `binding` say;
/// returns it, its state count and each block's schedule facts.
fn build(
    k: &Kernel,
    host_params: usize,
    sm: &SourceMap,
    cfg: &ShellConfig,
    mut m: Module,
    sides: &Sides,
) -> Result<(Module, Facts, Vec<crate::rtl::regmap::RegCounter>), Diagnostic> {
    let clk = port(&m, "clk")?;
    let rst = port(&m, "rst")?;
    let start = port(&m, "start")?;
    let mut fsm = Fsm::new(&mut m);
    let group = [0, 1, 2].map(|d| m.reg(&format!("group_{d}"), 32));
    // The group counts only where the kernel asks for them (`get_num_groups`): stepping
    // through the groups needs no division.
    let counts = k.blocks.iter().any(|b| {
        b.graph
            .node_weights()
            .any(|o| matches!(o.kind, crate::ir::OpKind::WorkItem(WorkItemFn::NumGroups)))
    });
    let ngroups = counts.then(|| [0, 1, 2].map(|d| m.reg(&format!("ngroups_{d}"), 32)));
    let gnext = [0, 1, 2].map(|d| m.reg(&format!("gnext_{d}"), 32));
    // A variable no op writes reads as zero (its value is undefined).
    let written: std::collections::HashSet<crate::ir::VarId> = k
        .blocks
        .iter()
        .flat_map(|b| b.graph.node_weights())
        .filter_map(|o| match o.kind {
            crate::ir::OpKind::WriteVar(v) => Some(v),
            _ => None,
        })
        .collect();
    let vars = k
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let name = format!("v{i}_{}", sanitize(&v.name));
            if written.contains(&crate::ir::VarId(i as u32)) {
                m.reg(&name, v.ty.bits())
            } else {
                let w = m.wire(&name, v.ty.bits());
                m.assign(w, Expr::lit(v.ty.bits(), 0));
                w
            }
        })
        .collect();
    let idle = fsm.add();
    let group_end = fsm.add();
    let done_state = fsm.add();
    let mut g = Gen {
        k,
        host_params,
        sm,
        cfg,
        m,
        fsm,
        clk,
        rst,
        handshakes: Default::default(),
        vals: HashMap::new(),
        vars,
        resets: Vec::new(),
        group,
        ngroups,
        gnext,
        group_end,
        names: 0,
        objs: HashMap::new(),
        sched: sides.sched,
        binding: sides.binding,
        cur_op: None,
        unbound: None,
        comb: HashMap::new(),
        cur: None,
        blocks: Vec::new(),
        scratch: None,
        plan: sides.plan,
        pipes: sides.pipes,
        pipe: None,
        shared: HashMap::new(),
        pipe_facts: Vec::new(),
        probes: Vec::new(),
        reqd: sides.reqd,
        memory: sides.memory,
    };
    g.objects()?;
    let body = g.region(&k.body, group_end, &control::Targets::default())?;
    let body = g.object_inits(body)?;
    let first = match ngroups {
        Some(n) => g.group_counts(body, n)?,
        None => body,
    };
    let launch_err = g.m.reg("launch_err", 8);
    g.resets.push((launch_err, Const::zero(8)));
    let first = g.launch_check(first, done_state, launch_err)?;
    // Idle: wait for start, then check the launch, count the groups and run the first.
    g.fsm.wait_for(idle, Expr::Net(start));
    for d in group {
        g.fsm.set(idle, d, Expr::lit(32, 0));
    }
    for (d, n) in gnext.into_iter().enumerate() {
        let l = g.size_field("local_size", d)?;
        g.fsm.set(idle, n, l);
    }
    g.fsm.set(idle, launch_err, Expr::lit(8, 0));
    g.fsm.goto(idle, Next::Goto(first));
    g.group_next(body, done_state);
    let done = port(&g.m, "done")?;
    let done_q = g.m.reg("done_q", 1);
    g.resets.push((done_q, Const::zero(1)));
    g.fsm.set(done_state, done_q, Expr::lit(1, 1));
    g.fsm.goto(done_state, Next::Goto(idle));
    g.m.assign(done, done_q);
    let err = port(&g.m, "err_code")?;
    g.m.assign(err, Expr::Net(launch_err));
    if let Some(d) = g.unbound.take() {
        return Err(d);
    }
    let states = g.fsm.count();
    let Gen {
        mut m,
        fsm,
        resets,
        blocks,
        pipe_facts,
        probes,
        ..
    } = g;
    let driven = fsm
        .finish(
            &mut m,
            clk,
            rst,
            idle,
            &resets,
            &[(done_q, Expr::lit(1, 0))],
        )
        .map_err(|e| Diagnostic::error(k.span, e))?;
    // Stream outputs no state drives stay idle.
    let idle_outs: Vec<(NetId, u32)> = m
        .ports()
        .filter(|(id, n)| {
            n.dir == Some(crate::rtl::netlist::Dir::Output)
                && !driven.contains(id)
                && *id != done
                && *id != err
        })
        .map(|(id, n)| (id, n.width))
        .collect();
    for (id, w) in idle_outs {
        m.assign(id, Expr::lit(w, 0));
    }
    let counters = counters::add(&mut m, probes);
    Ok((
        m,
        Facts {
            states,
            blocks,
            pipelines: pipe_facts,
        },
        counters,
    ))
}

impl Gen<'_> {
    /// With `reqd_work_group_size`, the state that refuses other local sizes (and global
    /// sizes that are not multiples of them, where a power of two makes that a mask
    /// test): the hardware is sized for the required one. Returns the state to start in.
    fn launch_check(
        &mut self,
        next: StateId,
        done: StateId,
        err: NetId,
    ) -> Result<StateId, Diagnostic> {
        let Some(r) = self.reqd else {
            return Ok(next);
        };
        let mut bad_local = Expr::lit(1, 0);
        let mut bad_global = Expr::lit(1, 0);
        for (d, &want) in r.iter().enumerate() {
            let ls = self.size_field("local_size", d)?;
            let gs = self.size_field("global_size", d)?;
            bad_local = Expr::lor(
                bad_local,
                Expr::bin(BinOp::Ne, ls, Expr::lit(32, want & 0xffff_ffff)),
            );
            if want.is_power_of_two() {
                let low = Expr::bin(BinOp::And, gs, Expr::lit(32, want - 1));
                bad_global = Expr::lor(bad_global, Expr::bin(BinOp::Ne, low, Expr::lit(32, 0)));
            }
        }
        let s = self.fsm.add();
        let code = Expr::mux(
            bad_local.clone(),
            Expr::lit(8, crate::rtl::regmap::error_code::LOCAL_SIZE as u64),
            Expr::lit(8, crate::rtl::regmap::error_code::GLOBAL_SIZE as u64),
        );
        let bad = Expr::lor(bad_local, bad_global);
        self.fsm.set_when(s, err, code, bad.clone());
        self.fsm.goto(s, Next::Branch(bad, done, next));
        Ok(s)
    }

    /// States dividing the global by the local size per dimension; returns the first.
    /// The divider is pipelined: the three divisions enter on consecutive cycles and
    /// their quotients are taken as they come out, in order.
    fn group_counts(&mut self, body: StateId, ngroups: [NetId; 3]) -> Result<StateId, Diagnostic> {
        // A required local size of powers of two (checked at launch): shifts, one state.
        if let Some(r) = self
            .reqd
            .filter(|r| r.iter().all(|x| x.is_power_of_two() && *x <= 1 << 31))
        {
            let s = self.fsm.add();
            for (d, want) in r.iter().enumerate() {
                let gs = self.size_field("global_size", d)?;
                let shift = Expr::lit(32, want.trailing_zeros() as u64);
                self.fsm
                    .set(s, ngroups[d], Expr::bin(BinOp::Shr, gs, shift));
            }
            self.fsm.goto(s, Next::Goto(body));
            return Ok(s);
        }
        let quotient = self.m.wire("div_quotient", 32);
        let valid = self.m.wire("div_valid", 1);
        let dividend = self.m.wire("div_dividend", 32);
        let divisor = self.m.wire("div_divisor", 32);
        let in_valid = self.m.wire("div_in_valid", 1);
        let rem = self.m.wire("div_remainder", 32);
        self.m.instance(
            Instance::new("ohls_div", "u_group_div")
                .param("WIDTH", 32)
                .param("SIGNED", 0)
                .input("clk", 1, self.clk)
                .input("rst", 1, self.rst)
                .input("en", 1, Expr::lit(1, 1))
                .input("in_valid", 1, in_valid)
                .input("dividend", 32, dividend)
                .input("divisor", 32, divisor)
                .output("out_valid", 1, valid)
                .output("quotient", 32, quotient)
                .output("remainder", 32, rem),
        );
        let feed: Vec<StateId> = (0..3).map(|_| self.fsm.add()).collect();
        let wait = self.fsm.add();
        for (d, s) in feed.iter().enumerate() {
            let gs = self.size_field("global_size", d)?;
            let ls = self.size_field("local_size", d)?;
            let act = self.fsm.active(*s);
            self.fsm.drive(dividend, act.clone(), gs);
            self.fsm.drive(divisor, act.clone(), ls);
            self.fsm.drive(in_valid, act, Expr::lit(1, 1));
            self.fsm
                .goto(*s, Next::Goto(feed.get(d + 1).copied().unwrap_or(wait)));
        }
        // Quotients leave the divider in the order they entered: `got` counts them.
        let got = self.m.reg("div_got", 2);
        self.resets.push((got, Const::zero(2)));
        for (d, &n) in ngroups.iter().enumerate() {
            let take = Expr::land(
                Expr::Net(valid),
                Expr::bin(BinOp::Eq, Expr::Net(got), Expr::lit(2, d as u64)),
            );
            self.fsm.set_when(wait, n, Expr::Net(quotient), take);
        }
        self.fsm.set_when(
            wait,
            got,
            Expr::bin(BinOp::Add, Expr::Net(got), Expr::lit(2, 1)),
            Expr::Net(valid),
        );
        self.fsm.wait_for(
            wait,
            Expr::land(
                Expr::Net(valid),
                Expr::bin(BinOp::Eq, Expr::Net(got), Expr::lit(2, 2)),
            ),
        );
        self.fsm.set(wait, got, Expr::lit(2, 0));
        self.fsm.goto(wait, Next::Goto(body));
        Ok(feed[0])
    }

    /// The handshake registers of `unit` (a memory stream or RAM), made on first use.
    fn handshake(&mut self, unit: &str) -> Handshake {
        Handshake {
            issued: self.unit_reg(unit, "issued", 1),
            beat: self.unit_reg(unit, "beat", 8),
        }
    }

    /// Register `UNIT_what` of `width` bits, reset to zero, made on first use.
    fn unit_reg(&mut self, unit: &str, what: &str, width: u32) -> NetId {
        let name = format!("{}_{what}", sanitize(unit));
        if let Some(n) = self.handshakes.get(&name) {
            return *n;
        }
        let n = self.m.reg(&name, width);
        self.resets.push((n, Const::zero(width)));
        self.handshakes.insert(name, n);
        n
    }

    /// True in the first cycle of state `s` only: when unit `unit` is started there (its
    /// `issued` flag marks it done; cleared when the state leaves).
    fn issue(&mut self, s: StateId, unit: &str) -> Expr {
        let issued = self.unit_reg(unit, "issued", 1);
        let act = self.fsm.active(s);
        self.fsm
            .set_when(s, issued, Expr::lit(1, 1), Expr::lit(1, 1));
        self.fsm.set(s, issued, Expr::lit(1, 0));
        Expr::land(act, Expr::lnot(Expr::Net(issued)))
    }

    /// The next group's counters (x fastest), as register updates, and whether this group
    /// is the last. A dimension's group is its last when another whole group would not
    /// fit the global size: `gnext` (the next group's first global id, kept by adding the
    /// local size) plus the local size passes it. No division is needed.
    fn group_step(&self) -> (Vec<(NetId, Expr)>, Expr) {
        let ls = |d: usize| self.size_field("local_size", d).ok();
        let gs = |d: usize| self.size_field("global_size", d).ok();
        let mut last = Vec::new();
        for d in 0..3 {
            let (Some(l), Some(g)) = (ls(d), gs(d)) else {
                last.push(Expr::lit(1, 1));
                continue;
            };
            let beyond = Expr::bin(
                BinOp::Add,
                Expr::zext(Expr::Net(self.gnext[d]), 1),
                Expr::zext(l, 1),
            );
            last.push(Expr::bin(BinOp::Gt, beyond, Expr::zext(g, 1)));
        }
        let mut ups = Vec::new();
        let mut carry = Expr::lit(1, 1);
        for (d, at_end) in last.iter().enumerate() {
            let inc = Expr::bin(BinOp::Add, Expr::Net(self.group[d]), Expr::lit(32, 1));
            let g = Expr::mux(at_end.clone(), Expr::lit(32, 0), inc);
            let l = ls(d).unwrap_or(Expr::lit(32, 1));
            let n = Expr::mux(
                at_end.clone(),
                l.clone(),
                Expr::bin(BinOp::Add, Expr::Net(self.gnext[d]), l),
            );
            if d == 0 {
                ups.push((self.group[d], g));
                ups.push((self.gnext[d], n));
            } else {
                ups.push((
                    self.group[d],
                    Expr::mux(carry.clone(), g, Expr::Net(self.group[d])),
                ));
                ups.push((
                    self.gnext[d],
                    Expr::mux(carry.clone(), n, Expr::Net(self.gnext[d])),
                ));
            }
            carry = if d == 0 {
                at_end.clone()
            } else {
                Expr::land(carry, at_end.clone())
            };
        }
        (ups, carry)
    }

    /// The state after each group: the next group (x fastest) or `done`.
    fn group_next(&mut self, body: StateId, done: StateId) {
        let s = self.group_end;
        let (ups, last) = self.group_step();
        for (net, e) in ups {
            self.fsm.set(s, net, e);
        }
        self.fsm.goto(s, Next::Branch(last, done, body));
    }
}

/// A name usable in Verilog.
fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .trim_matches('_')
        .replace("__", "_")
}

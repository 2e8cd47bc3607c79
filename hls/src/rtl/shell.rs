//! The kernel core shell: the top module around a kernel's datapath, with the AXI4-Lite
//! control port (`ohls_axil_csr`), one AXI4 master per buffer argument (`ohls_axi_rd` and,
//! unless `__constant`, `ohls_axi_wr`), and the datapath interface it instantiates.
//!
//! Datapath interface (module `KERNEL_datapath`, every port named below):
//! - `clk`, `rst`; `start` (in): one-cycle pulse, sizes and arguments are valid and stay
//!   so until `done`; `done` (out): one-cycle pulse, the datapath issued its last command
//!   and handed over its last write word; `err_code` (out, 8 bits): sampled with `done`,
//!   0 for success.
//! - `global_size`, `local_size` (in, 96 bits each): `{dim2, dim1, dim0}`.
//! - Per argument: a buffer `NAME_base` (its byte address, ADDR bits), a scalar or struct
//!   `arg_NAME` (its bytes, little-endian), a `__local` pointer `NAME_local_size` (bytes).
//! - Per buffer, a read command stream `NAME_rd_cmd_{valid,ready,addr,len}` (byte address
//!   and byte length, as `ohls_axi_rd`) and its data stream `NAME_rd_{valid,ready,data,last}`
//!   (DATA bits, aligned to the command's address); unless `__constant`, a write command
//!   stream `NAME_wr_cmd_{valid,ready,addr,len}`, the data stream
//!   `NAME_wr_{valid,ready,data,strb}` (as `ohls_axi_wr`) and `NAME_wr_idle` (in): high
//!   when every write command accepted so far has been written and acknowledged (its B
//!   response received). Valid/ready follow AXI-stream rules.
//! - Ordering: AXI orders nothing between a master's reads and writes, so a read issued
//!   before an earlier write's response may return the old bytes. A datapath that reads
//!   what it may have written waits for `NAME_wr_idle` of every buffer the read may alias
//!   before issuing the read command.
//! - `probes` (out, one bit per loop counter of the register map, the first lowest): high
//!   in the cycles the counter counts; the shell's counters and the control block's
//!   registers hold the counts.
//!
//! The shell reports DONE to the host only once every master is idle after the
//! datapath's `done` (so all writes are acknowledged). The error code is the datapath's if
//! nonzero, else bit 0 for a failed read response, bit 1 for a failed write response
//! (the masters' error flags are sticky until reset).

use super::expr::{Const, Expr};
use super::netlist::{Instance, Module, NetId};
use super::regmap::{hw_name, RegArgKind, RegisterMap};
use super::RtlError;
use crate::ir::Kernel;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Bus and memory choices of the target board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellConfig {
    /// AXI data width in bits: 32..256, a power of two (32 in tests, 256 on the DE10).
    pub data_width: u32,
    /// AXI address width: 32 or 64.
    pub addr_width: u32,
    pub max_burst: u32,
    pub max_outstanding: u32,
    /// Largest `__local` pointer argument the core accepts.
    pub local_max_bytes: u64,
}

impl ShellConfig {
    /// 32-bit data and addresses: the configuration of the simulation tests.
    pub fn sim() -> ShellConfig {
        ShellConfig {
            data_width: 32,
            addr_width: 32,
            max_burst: 16,
            max_outstanding: 4,
            local_max_bytes: 64 * 1024,
        }
    }

    fn validate(&self, kernel: &str) -> Result<(), RtlError> {
        let dw_ok = (32..=256).contains(&self.data_width) && self.data_width.is_power_of_two();
        if !dw_ok || !(self.addr_width == 32 || self.addr_width == 64) {
            return Err(RtlError::new(
                kernel,
                format!(
                    "bus of {} data and {} address bits is not supported",
                    self.data_width, self.addr_width
                ),
            ));
        }
        if !(1..=256).contains(&self.max_burst) || self.max_outstanding == 0 {
            return Err(RtlError::new(kernel, "burst limits out of range"));
        }
        Ok(())
    }
}

/// Width of command lengths in bytes.
pub const LEN_WIDTH: u32 = 32;

/// A kernel's core: the top module and its datapath, with the register map.
#[derive(Clone, Debug)]
pub struct Core {
    pub top: Module,
    pub datapath: Module,
    pub regmap: RegisterMap,
    pub config: ShellConfig,
}

impl Core {
    /// Each module's file name and Verilog text, top first.
    pub fn emit(&self) -> Result<Vec<(String, String)>, RtlError> {
        [&self.top, &self.datapath]
            .into_iter()
            .map(|m| Ok((format!("{}.v", m.name), super::emit(m)?)))
            .collect()
    }

    /// The template files the core instantiates, directly or through other templates.
    pub fn templates(&self) -> Result<Vec<PathBuf>, RtlError> {
        templates(&[&self.top, &self.datapath])
    }

    /// The harness's description, with the core's files in `rtl` (its own files, then
    /// the templates).
    pub fn core_desc(&self, own_files: Vec<PathBuf>) -> Result<ocl_hls_sim::CoreDesc, RtlError> {
        let mut rtl = own_files;
        rtl.extend(self.templates()?);
        Ok(self.regmap.core_desc(
            &self.top.name,
            rtl,
            self.config.data_width,
            self.config.addr_width,
        ))
    }
}

/// The memory paths of one buffer: the FSM's command streams (`ohls_axi_rd`,
/// `ohls_axi_wr`) and the pipelines' element streams (`ohls_mem_load`,
/// `ohls_mem_store`, with their element size in bytes). A path nobody uses is not built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferPaths {
    pub fsm_read: bool,
    pub fsm_write: bool,
    pub pipe_load: Option<u32>,
    pub pipe_store: Option<u32>,
    /// The alignment every access of the pipelines' load (store) unit keeps, in bytes:
    /// smaller than the element where a vector or merged access lies at its scalar's
    /// alignment (the unit then assembles it from two beats). 0: the element size.
    pub load_align: u32,
    pub store_align: u32,
    /// Some store of the pipelines' store unit writes fewer bytes than its element (a
    /// `vstore3`): the unit takes a byte mask per store (`STRB`, `NAME_st_req_strb`).
    pub store_strb: bool,
    /// The most loads of this buffer a pipeline has issued and not yet taken the answers
    /// of (its load latency over its II, times its loads per iteration, and a margin).
    pub load_in_flight: u32,
    /// Some pipelined loop loads this buffer other than as one stride-1 stream (one load
    /// or wide group per iteration, the next element each time): its load unit fetches
    /// each request's own beats instead of prefetching (STREAM = 0).
    pub load_scattered: bool,
    /// Some pipelined load of this buffer must see stores acknowledged since the
    /// previous request (an `ivdep(N)` loop's carried dependence): its load unit fetches
    /// every request's beats afresh, never sharing the previous request's (FRESH = 1).
    pub load_fresh: bool,
    /// A pipelined load waits for stores to this buffer to be acknowledged: the datapath
    /// reads the store unit's count of them (`NAME_st_acked`, 32 bits, wrapping) and has
    /// the unit write out what it holds while the load waits (`NAME_st_flush`).
    pub store_acked: bool,
    /// The datapath reads the buffer's size register (`NAME_size`): a pipelined loop
    /// checks at its entry that this buffer does not overlap another.
    pub size: bool,
}

impl BufferPaths {
    /// Both an FSM path and a pipeline path: the datapath says which one owns the port.
    pub fn shared(&self) -> bool {
        (self.fsm_read || self.fsm_write) && (self.pipe_load.is_some() || self.pipe_store.is_some())
    }
}

/// A unit's ALIGN_BYTES: the alignment its accesses keep (0: the element size).
fn align_of(align: u32, bytes: u32) -> i64 {
    if align == 0 || align > bytes {
        bytes as i64
    } else {
        align as i64
    }
}

/// Per buffer parameter (by its index among the kernel's parameters), its paths;
/// `None` gives every buffer the FSM's paths (no write path for `__constant`).
pub type Paths = std::collections::BTreeMap<u32, BufferPaths>;

/// One buffer argument as the shell sees it.
struct Buffer {
    name: String,
    paths: BufferPaths,
}

fn buffers(map: &RegisterMap, paths: Option<&Paths>) -> Vec<Buffer> {
    map.args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a.kind {
            RegArgKind::Buffer { constant, .. } => Some(Buffer {
                name: a.name.clone(),
                paths: match paths {
                    Some(p) => p.get(&(i as u32)).copied().unwrap_or_default(),
                    None => BufferPaths {
                        fsm_read: true,
                        fsm_write: !constant,
                        ..BufferPaths::default()
                    },
                },
            }),
            _ => None,
        })
        .collect()
}

/// The datapath module's name for kernel `k`.
pub fn datapath_name(k: &Kernel) -> String {
    format!("{}_datapath", hw_name(&k.name))
}

/// A datapath module with its ports declared (see the module documentation) and an
/// empty body for a generator to fill.
pub fn datapath_ports(k: &Kernel, map: &RegisterMap, cfg: &ShellConfig) -> Module {
    datapath_ports_with(k, map, cfg, None)
}

/// [`datapath_ports`] with each buffer's ports as `paths` says: `NAME_rd_*` for the FSM's
/// reads, `NAME_wr_*` for its writes, the load unit's `NAME_ld_{req_valid, req_ready,
/// req_addr, resp_valid, resp_ready, resp_data, flush, idle}` and the store unit's
/// `NAME_st_{req_valid, req_ready, req_addr, req_data, idle}` for pipelines, and
/// `NAME_pipe` (out: the pipeline's units own the AXI port; change it only while every
/// path of the buffer is idle) where FSM and pipeline share the buffer.
pub fn datapath_ports_with(
    k: &Kernel,
    map: &RegisterMap,
    cfg: &ShellConfig,
    paths: Option<&Paths>,
) -> Module {
    let mut m = Module::new(&datapath_name(k));
    m.doc.push(format!("Datapath of kernel {}.", k.name));
    m.input("clk", 1);
    m.input("rst", 1);
    m.input("start", 1);
    m.output("done", 1);
    m.output("err_code", 8);
    m.input("global_size", 96);
    m.input("local_size", 96);
    for a in &map.args {
        match a.kind {
            RegArgKind::Buffer { .. } => m.input(&format!("{}_base", a.name), cfg.addr_width),
            RegArgKind::Scalar { bytes } | RegArgKind::Struct { bytes } => {
                m.input(&format!("arg_{}", a.name), 8 * bytes)
            }
            RegArgKind::Local { .. } => m.input(&format!("{}_local_size", a.name), 32),
        };
    }
    let (dw, aw) = (cfg.data_width, cfg.addr_width);
    for b in buffers(map, paths) {
        let n = &b.name;
        if b.paths.size {
            m.input(&format!("{n}_size"), 32);
        }
        if b.paths.fsm_read {
            m.output(&format!("{n}_rd_cmd_valid"), 1);
            m.input(&format!("{n}_rd_cmd_ready"), 1);
            m.output(&format!("{n}_rd_cmd_addr"), aw);
            m.output(&format!("{n}_rd_cmd_len"), LEN_WIDTH);
            m.input(&format!("{n}_rd_valid"), 1);
            m.output(&format!("{n}_rd_ready"), 1);
            m.input(&format!("{n}_rd_data"), dw);
            m.input(&format!("{n}_rd_last"), 1);
        }
        if let Some(bytes) = b.paths.pipe_load {
            m.output(&format!("{n}_ld_req_valid"), 1);
            m.input(&format!("{n}_ld_req_ready"), 1);
            m.output(&format!("{n}_ld_req_addr"), aw);
            m.input(&format!("{n}_ld_resp_valid"), 1);
            m.output(&format!("{n}_ld_resp_ready"), 1);
            m.input(&format!("{n}_ld_resp_data"), 8 * bytes);
            m.output(&format!("{n}_ld_flush"), 1);
            m.input(&format!("{n}_ld_idle"), 1);
        }
        if let Some(bytes) = b.paths.pipe_store {
            m.output(&format!("{n}_st_req_valid"), 1);
            m.input(&format!("{n}_st_req_ready"), 1);
            m.output(&format!("{n}_st_req_addr"), aw);
            m.output(&format!("{n}_st_req_data"), 8 * bytes);
            if b.paths.store_strb {
                m.output(&format!("{n}_st_req_strb"), bytes);
            }
            m.input(&format!("{n}_st_idle"), 1);
            if b.paths.store_acked {
                m.input(&format!("{n}_st_acked"), 32);
                m.output(&format!("{n}_st_flush"), 1);
            }
        }
        if b.paths.shared() {
            m.output(&format!("{n}_pipe"), 1);
        }
        if b.paths.fsm_write {
            m.output(&format!("{n}_wr_cmd_valid"), 1);
            m.input(&format!("{n}_wr_cmd_ready"), 1);
            m.output(&format!("{n}_wr_cmd_addr"), aw);
            m.output(&format!("{n}_wr_cmd_len"), LEN_WIDTH);
            m.output(&format!("{n}_wr_valid"), 1);
            m.input(&format!("{n}_wr_ready"), 1);
            m.output(&format!("{n}_wr_data"), dw);
            m.output(&format!("{n}_wr_strb"), dw / 8);
            m.input(&format!("{n}_wr_idle"), 1);
        }
    }
    if !map.counters.is_empty() {
        m.output("probes", map.counters.len() as u32);
    }
    m
}

/// A datapath that does nothing: every output tied off, `done` one cycle after `start`.
pub fn stub_datapath(k: &Kernel, map: &RegisterMap, cfg: &ShellConfig) -> Module {
    let mut m = datapath_ports(k, map, cfg);
    m.doc
        .push("Stub: no work, done one cycle after start.".into());
    let outs: Vec<(NetId, u32, String)> = m
        .ports()
        .filter(|(_, n)| n.dir == Some(super::netlist::Dir::Output))
        .map(|(id, n)| (id, n.width, n.name.clone()))
        .collect();
    let done_q = m.reg("done_q", 1);
    let (clk, rst, start) = (port(&m, "clk"), port(&m, "rst"), port(&m, "start"));
    let p = m.process(clk, Some(rst));
    m.reset_value(p, done_q, Const::zero(1));
    m.update(p, done_q, start, None);
    for (id, w, name) in outs {
        if name == "done" {
            m.assign(id, done_q);
        } else {
            m.assign(id, Expr::lit(w, 0));
        }
    }
    m
}

fn port(m: &Module, name: &str) -> NetId {
    // Only called for ports this file declared itself.
    m.port(name).unwrap_or(NetId(u32::MAX))
}

/// AXI4 master port suffixes: (suffix, width, driven by the core).
fn master_ports(dw: u32, aw: u32) -> Vec<(&'static str, u32, bool)> {
    vec![
        ("arvalid", 1, true),
        ("arready", 1, false),
        ("araddr", aw, true),
        ("arlen", 8, true),
        ("arsize", 3, true),
        ("arburst", 2, true),
        ("arid", 1, true),
        ("rvalid", 1, false),
        ("rready", 1, true),
        ("rdata", dw, false),
        ("rresp", 2, false),
        ("rlast", 1, false),
        ("rid", 1, false),
        ("awvalid", 1, true),
        ("awready", 1, false),
        ("awaddr", aw, true),
        ("awlen", 8, true),
        ("awsize", 3, true),
        ("awburst", 2, true),
        ("awid", 1, true),
        ("wvalid", 1, true),
        ("wready", 1, false),
        ("wdata", dw, true),
        ("wstrb", dw / 8, true),
        ("wlast", 1, true),
        ("bvalid", 1, false),
        ("bready", 1, true),
        ("bresp", 2, false),
        ("bid", 1, false),
    ]
}

/// AXI4-Lite slave port suffixes: (suffix, width, driven by the core).
fn lite_ports(aw: u32) -> Vec<(&'static str, u32, bool)> {
    vec![
        ("awvalid", 1, false),
        ("awready", 1, true),
        ("awaddr", aw, false),
        ("wvalid", 1, false),
        ("wready", 1, true),
        ("wdata", 32, false),
        ("wstrb", 4, false),
        ("bvalid", 1, true),
        ("bready", 1, false),
        ("bresp", 2, true),
        ("arvalid", 1, false),
        ("arready", 1, true),
        ("araddr", aw, false),
        ("rvalid", 1, true),
        ("rready", 1, false),
        ("rdata", 32, true),
        ("rresp", 2, true),
    ]
}

/// Builds the core of `k` around `datapath`, whose ports must be those of
/// [`datapath_ports`] (its body is the caller's).
pub fn build_core(k: &Kernel, cfg: &ShellConfig, datapath: Module) -> Result<Core, RtlError> {
    build_core_with(k, cfg, datapath, None, &[])
}

/// [`build_core`] for a datapath whose buffers have the memory paths `paths` (see
/// [`datapath_ports_with`]) and whose `probes` drive the performance `counters`.
pub fn build_core_with(
    k: &Kernel,
    cfg: &ShellConfig,
    datapath: Module,
    paths: Option<&Paths>,
    counters: &[super::regmap::RegCounter],
) -> Result<Core, RtlError> {
    cfg.validate(&k.name)?;
    let regmap = RegisterMap::for_kernel(k, cfg.local_max_bytes)?.with_counters(counters.to_vec());
    let expected = datapath_ports_with(k, &regmap, cfg, paths);
    let want: Vec<_> = expected
        .ports()
        .map(|(_, n)| (&n.name, n.width, n.dir))
        .collect();
    let got: Vec<_> = datapath
        .ports()
        .map(|(_, n)| (&n.name, n.width, n.dir))
        .collect();
    if want != got || datapath.name != expected.name {
        return Err(RtlError::new(
            &datapath.name,
            "the datapath's ports differ from the shell's datapath interface",
        ));
    }
    let top = shell_module(k, cfg, &regmap, &datapath, paths)?;
    Ok(Core {
        top,
        datapath,
        regmap,
        config: cfg.clone(),
    })
}

/// The core of `k` with a [`stub_datapath`].
pub fn stub_core(k: &Kernel, cfg: &ShellConfig) -> Result<Core, RtlError> {
    cfg.validate(&k.name)?;
    let regmap = RegisterMap::for_kernel(k, cfg.local_max_bytes)?;
    build_core(k, cfg, stub_datapath(k, &regmap, cfg))
}

/// The top module's name for kernel `k`.
pub fn core_name(k: &Kernel) -> String {
    format!("{}_core", hw_name(&k.name))
}

fn shell_module(
    k: &Kernel,
    cfg: &ShellConfig,
    map: &RegisterMap,
    dp: &Module,
    paths: Option<&Paths>,
) -> Result<Module, RtlError> {
    let mut m = Module::new(&core_name(k));
    m.doc.push(format!(
        "Kernel core of {}: AXI4-Lite control, one AXI4 master per buffer.",
        k.name
    ));
    for a in &map.args {
        m.doc.push(format!(
            "  register {:#04x}: {}, {} word(s)",
            a.offset, a.name, a.words
        ));
    }
    let clk = m.input("clk", 1);
    let rst = m.input("rst", 1);
    let irq = m.output("irq", 1);
    let bufs = buffers(map, paths);
    let (dw, aw) = (cfg.data_width, cfg.addr_width);
    let mut lite = Vec::new();
    for (s, w, out) in lite_ports(map.addr_width) {
        let id = if out {
            m.output(&format!("s_axil_{s}"), w)
        } else {
            m.input(&format!("s_axil_{s}"), w)
        };
        lite.push((s, w, out, id));
    }
    let mut mports = Vec::new();
    for b in &bufs {
        let mut v = Vec::new();
        for (s, w, out) in master_ports(dw, aw) {
            let name = format!("m_{}_{s}", hw_name(&b.name));
            let id = if out {
                m.output(&name, w)
            } else {
                m.input(&name, w)
            };
            v.push((s, w, out, id));
        }
        mports.push(v);
    }

    // ---- control registers
    m.comment("Control registers");
    let nargs = map.csr_nargs();
    let start = m.wire("start", 1);
    let busy = m.wire("busy", 1);
    let global_size = m.wire("global_size", 96);
    let local_size = m.wire("local_size", 96);
    let args = m.wire("args", 32 * nargs);
    let core_done = m.reg("core_done", 1);
    let err_code = m.wire("err_code", 8);
    // The loop counters, read-only registers of the control block, count the datapath's
    // probes.
    let ncounters = map.counters.len() as u32;
    let counters = (ncounters > 0).then(|| m.wire("dp_counters", 32 * ncounters));
    let probes = (ncounters > 0).then(|| m.wire("dp_probes", ncounters));
    let mut csr = Instance::new("ohls_axil_csr", "u_csr")
        .param("NARGS", nargs as i64)
        .param("NCOUNTERS", ncounters as i64)
        .param("ADDR_WIDTH", map.addr_width as i64)
        .input("clk", 1, clk)
        .input("rst", 1, rst);
    for (s, w, out, id) in &lite {
        csr = if *out {
            csr.output(&format!("s_{s}"), *w, *id)
        } else {
            csr.input(&format!("s_{s}"), *w, *id)
        };
    }
    csr = csr
        .output("start", 1, start)
        .input("done", 1, core_done)
        .input("err_code", 8, err_code)
        .output("busy", 1, busy)
        .output("global_size", 96, global_size)
        .output("local_size", 96, local_size)
        .output("args", 32 * nargs, args)
        .input(
            "counters",
            32 * ncounters.max(1),
            counters.map_or(Expr::lit(32, 0), Expr::Net),
        )
        .output("irq", 1, irq);
    m.instance(csr);

    // ---- the datapath's own nets, named like its ports
    let mut dpn = Vec::new();
    for (_, n) in dp.ports() {
        let id = match n.name.as_str() {
            "clk" => clk,
            "rst" => rst,
            "start" => start,
            "global_size" => global_size,
            "local_size" => local_size,
            "probes" if probes.is_some() => probes.unwrap_or(NetId(u32::MAX)),
            _ => m.wire(&format!("dp_{}", n.name), n.width),
        };
        dpn.push((n.name.clone(), n.width, n.dir, id));
    }
    let dpnet = |name: &str| -> NetId {
        dpn.iter()
            .find(|p| p.0 == name)
            .map(|p| p.3)
            .unwrap_or(NetId(u32::MAX))
    };
    m.comment("Arguments, sliced from the argument registers");
    for a in &map.args {
        let lo = 8 * (a.offset - super::regmap::ARGS_BASE);
        let (net, w) = match a.kind {
            RegArgKind::Buffer { .. } => (dpnet(&format!("{}_base", a.name)), aw),
            RegArgKind::Scalar { bytes } | RegArgKind::Struct { bytes } => {
                (dpnet(&format!("arg_{}", a.name)), 8 * bytes)
            }
            RegArgKind::Local { .. } => (dpnet(&format!("{}_local_size", a.name)), 32),
        };
        m.assign(
            net,
            Expr::Slice {
                net: args,
                hi: lo + w - 1,
                lo,
            },
        );
        // The buffer's size: the word after its two address words.
        let size = dpnet(&format!("{}_size", a.name));
        if matches!(a.kind, RegArgKind::Buffer { .. }) && size != NetId(u32::MAX) {
            m.assign(
                size,
                Expr::Slice {
                    net: args,
                    hi: lo + 95,
                    lo: lo + 64,
                },
            );
        }
    }

    // Where a buffer's bytes end (its base plus the size the host gave): a streaming load
    // unit prefetches up to there and never past it.
    let stream_end = |name: &str| -> Expr {
        let Some(a) = map.args.iter().find(|a| a.name == name) else {
            return Expr::lit(aw, u64::MAX >> (64 - aw));
        };
        let lo = 8 * (a.offset - super::regmap::ARGS_BASE);
        let base = Expr::Slice {
            net: args,
            hi: lo + aw - 1,
            lo,
        };
        let size = if aw >= 32 {
            Expr::zext(
                Expr::Slice {
                    net: args,
                    hi: lo + 95,
                    lo: lo + 64,
                },
                aw - 32,
            )
        } else {
            Expr::Slice {
                net: args,
                hi: lo + 64 + aw - 1,
                lo: lo + 64,
            }
        };
        Expr::bin(super::BinOp::Add, base, size)
    };

    // ---- masters
    let mut idles = Vec::new();
    let mut rd_errs = Vec::new();
    let mut wr_errs = Vec::new();
    for (i, b) in bufs.iter().enumerate() {
        let n = &b.name;
        m.comment(&format!("AXI4 master of buffer {n}"));
        let pipe = if b.paths.shared() {
            Some(dpnet(&format!("{n}_pipe")))
        } else {
            None
        };
        // Each unit gets wires for the channel ports it drives or reads; `share`
        // connects them to the master port, through a mux where FSM and pipeline share it.
        let unit_ports = |m: &mut Module, unit: &str, write: bool| {
            mports[i]
                .iter()
                .filter(|p| is_write_channel(p.0) == write)
                .map(|(s, w, out, _)| (*s, *w, *out, m.wire(&format!("{n}_{unit}_m_{s}"), *w)))
                .collect::<Vec<_>>()
        };
        let mut read_units = Vec::new();
        if b.paths.fsm_read {
            let ports = unit_ports(&mut m, "rd", false);
            let idle = m.wire(&format!("{n}_rd_idle"), 1);
            let err = m.wire(&format!("{n}_rd_err"), 1);
            idles.push(idle);
            rd_errs.push(err);
            let mut rd = Instance::new("ohls_axi_rd", &format!("u_rd_{n}"))
                .param("DATA_WIDTH", dw as i64)
                .param("ADDR_WIDTH", aw as i64)
                .param("LEN_WIDTH", LEN_WIDTH as i64)
                .param("MAX_BURST", cfg.max_burst as i64)
                .param("MAX_OUTSTANDING", cfg.max_outstanding as i64)
                .input("clk", 1, clk)
                .input("rst", 1, rst)
                .input("cmd_valid", 1, dpnet(&format!("{n}_rd_cmd_valid")))
                .output("cmd_ready", 1, dpnet(&format!("{n}_rd_cmd_ready")))
                .input("cmd_addr", aw, dpnet(&format!("{n}_rd_cmd_addr")))
                .input("cmd_len", LEN_WIDTH, dpnet(&format!("{n}_rd_cmd_len")))
                .output("out_valid", 1, dpnet(&format!("{n}_rd_valid")))
                .input("out_ready", 1, dpnet(&format!("{n}_rd_ready")))
                .output("out_data", dw, dpnet(&format!("{n}_rd_data")))
                .output("out_last", 1, dpnet(&format!("{n}_rd_last")));
            rd = with_master(rd, &ports);
            m.instance(rd.output("err", 1, err).output("idle", 1, idle));
            let sel = pipe.map(|p| Expr::lnot(p.into()));
            read_units.push((sel, ports));
        }
        if let Some(bytes) = b.paths.pipe_load {
            // The unit must take every request the pipeline has in flight without one
            // being answered: a pipeline stalled on a full unit cannot take the answers
            // that would empty it. Its data FIFO holds a beat per request at worst.
            let reqs = b.paths.load_in_flight.max(64).next_power_of_two();
            let fifo = reqs.max(cfg.max_burst);
            let ports = unit_ports(&mut m, "ld", false);
            let err = m.wire(&format!("{n}_ld_err"), 1);
            let idle = dpnet(&format!("{n}_ld_idle"));
            idles.push(idle);
            rd_errs.push(err);
            let mut ld = Instance::new("ohls_mem_load", &format!("u_ld_{n}"))
                .param("DATA_WIDTH", dw as i64)
                .param("ADDR_WIDTH", aw as i64)
                .param("ELEM_BYTES", bytes as i64)
                .param("STREAM", i64::from(!b.paths.load_scattered))
                .param("MAX_BURST", cfg.max_burst as i64)
                .param("MAX_OUTSTANDING", reqs as i64)
                .param("FIFO_DEPTH", fifo as i64)
                .param("REQ_DEPTH", reqs as i64)
                .param("ALIGN_BYTES", align_of(b.paths.load_align, bytes));
            if b.paths.load_fresh {
                ld = ld.param("FRESH", 1);
            }
            ld = ld
                .input("clk", 1, clk)
                .input("rst", 1, rst)
                .input("req_valid", 1, dpnet(&format!("{n}_ld_req_valid")))
                .output("req_ready", 1, dpnet(&format!("{n}_ld_req_ready")))
                .input("req_addr", aw, dpnet(&format!("{n}_ld_req_addr")))
                .output("resp_valid", 1, dpnet(&format!("{n}_ld_resp_valid")))
                .input("resp_ready", 1, dpnet(&format!("{n}_ld_resp_ready")))
                .output("resp_data", 8 * bytes, dpnet(&format!("{n}_ld_resp_data")))
                .input("stream_end", aw, stream_end(n))
                .input("flush", 1, dpnet(&format!("{n}_ld_flush")));
            ld = with_master(ld, &ports);
            m.instance(ld.output("err", 1, err).output("idle", 1, idle));
            read_units.push((pipe.map(Expr::from), ports));
        }
        share(&mut m, &mports[i], false, read_units);
        let mut write_units = Vec::new();
        if b.paths.fsm_write {
            let ports = unit_ports(&mut m, "wr", true);
            let idle = m.wire(&format!("{n}_wr_idle"), 1);
            let err = m.wire(&format!("{n}_wr_err"), 1);
            idles.push(idle);
            wr_errs.push(err);
            let mut wr = Instance::new("ohls_axi_wr", &format!("u_wr_{n}"))
                .param("DATA_WIDTH", dw as i64)
                .param("ADDR_WIDTH", aw as i64)
                .param("LEN_WIDTH", LEN_WIDTH as i64)
                .param("MAX_BURST", cfg.max_burst as i64)
                .param("MAX_OUTSTANDING", cfg.max_outstanding as i64)
                .input("clk", 1, clk)
                .input("rst", 1, rst)
                .input("cmd_valid", 1, dpnet(&format!("{n}_wr_cmd_valid")))
                .output("cmd_ready", 1, dpnet(&format!("{n}_wr_cmd_ready")))
                .input("cmd_addr", aw, dpnet(&format!("{n}_wr_cmd_addr")))
                .input("cmd_len", LEN_WIDTH, dpnet(&format!("{n}_wr_cmd_len")))
                .input("in_valid", 1, dpnet(&format!("{n}_wr_valid")))
                .output("in_ready", 1, dpnet(&format!("{n}_wr_ready")))
                .input("in_data", dw, dpnet(&format!("{n}_wr_data")))
                .input("in_strb", dw / 8, dpnet(&format!("{n}_wr_strb")));
            wr = with_master(wr, &ports);
            m.instance(wr.output("err", 1, err).output("idle", 1, idle));
            m.assign(dpnet(&format!("{n}_wr_idle")), idle);
            let sel = pipe.map(|p| Expr::lnot(p.into()));
            write_units.push((sel, ports));
        }
        if let Some(bytes) = b.paths.pipe_store {
            let ports = unit_ports(&mut m, "st", true);
            let err = m.wire(&format!("{n}_st_err"), 1);
            let acked = if b.paths.store_acked {
                dpnet(&format!("{n}_st_acked"))
            } else {
                m.wire(&format!("{n}_st_acked"), 32)
            };
            let idle = dpnet(&format!("{n}_st_idle"));
            idles.push(idle);
            wr_errs.push(err);
            let mut st = Instance::new("ohls_mem_store", &format!("u_st_{n}"))
                .param("DATA_WIDTH", dw as i64)
                .param("ADDR_WIDTH", aw as i64)
                .param("ELEM_BYTES", bytes as i64)
                .param("MAX_BURST", cfg.max_burst as i64)
                .param("MAX_OUTSTANDING", cfg.max_outstanding as i64)
                .param("ALIGN_BYTES", align_of(b.paths.store_align, bytes))
                .param("STRB", b.paths.store_strb as i64)
                .input("clk", 1, clk)
                .input("rst", 1, rst)
                .input("req_valid", 1, dpnet(&format!("{n}_st_req_valid")))
                .output("req_ready", 1, dpnet(&format!("{n}_st_req_ready")))
                .input("req_addr", aw, dpnet(&format!("{n}_st_req_addr")))
                .input("req_data", 8 * bytes, dpnet(&format!("{n}_st_req_data")))
                .input(
                    "req_strb",
                    bytes,
                    if b.paths.store_strb {
                        Expr::Net(dpnet(&format!("{n}_st_req_strb")))
                    } else {
                        Expr::lit(bytes, u64::MAX >> (64 - bytes.min(64)))
                    },
                )
                .input(
                    "flush",
                    1,
                    if b.paths.store_acked {
                        Expr::Net(dpnet(&format!("{n}_st_flush")))
                    } else {
                        Expr::lit(1, 0)
                    },
                );
            st = with_master(st, &ports);
            m.instance(
                st.output("acked", 32, acked)
                    .output("err", 1, err)
                    .output("idle", 1, idle),
            );
            write_units.push((pipe.map(Expr::from), ports));
        }
        share(&mut m, &mports[i], true, write_units);
    }

    // ---- the datapath
    m.comment("Datapath");
    let mut inst = Instance::new(&dp.name, "u_datapath");
    for (name, w, dir, id) in &dpn {
        inst = if *dir == Some(super::netlist::Dir::Input) {
            inst.input(name, *w, *id)
        } else {
            inst.output(name, *w, *id)
        };
    }
    m.instance(inst);

    if let (Some(probes), Some(counters)) = (probes, counters) {
        m.comment("Loop counters: the cycles each datapath probe was high since START");
        loop_counters(&mut m, [clk, rst, start], probes, counters, &map.counters);
    }

    // ---- completion: DONE waits for every master to drain after the datapath's done.
    m.comment("Completion: report done once every master is idle");
    let all_idle = m.wire("all_idle", 1);
    m.assign(all_idle, all_of(&idles));
    let finishing = m.reg("finishing", 1);
    let dp_err = m.reg("dp_err", 8);
    let dp_done = dpnet("done");
    let p = m.process(clk, Some(rst));
    m.reset_value(p, finishing, Const::zero(1));
    m.reset_value(p, core_done, Const::zero(1));
    m.reset_value(p, dp_err, Const::zero(8));
    m.update(
        p,
        core_done,
        Expr::land(finishing.into(), all_idle.into()),
        None,
    );
    m.update(p, finishing, Expr::lit(1, 0), Some(all_idle.into()));
    m.update(p, finishing, Expr::lit(1, 1), Some(dp_done.into()));
    m.update(p, dp_err, dpnet("err_code"), Some(dp_done.into()));
    let bus_err = Expr::Concat(vec![Expr::lit(6, 0), any_of(&wr_errs), any_of(&rd_errs)]);
    let dp_failed = Expr::bin(super::BinOp::Ne, dp_err.into(), Expr::lit(8, 0));
    m.assign(err_code, Expr::mux(dp_failed, dp_err.into(), bus_err));
    Ok(m)
}

/// A 32-bit register per probe bit of `probes` (the register map's `counters`, in order),
/// counting the cycles it is high, wrapping, all of them driving `out`. START clears them
/// through the registers' synchronous reset rather than a mux before the adder: Cyclone V
/// registers have one synchronous clear, and the mux costs a LUT per bit (16 ALMs per
/// counter in Yosys).
fn loop_counters(
    m: &mut Module,
    [clk, rst, start]: [NetId; 3],
    probes: NetId,
    out: NetId,
    counters: &[super::regmap::RegCounter],
) {
    let clear = m.wire("perf_clear", 1);
    m.assign(clear, Expr::lor(rst.into(), start.into()));
    let p = m.process(clk, Some(clear));
    let mut regs = Vec::new();
    for (i, c) in counters.iter().enumerate() {
        let r = m.reg(&format!("perf_l{}_{}", c.lp, c.kind.name()), 32);
        m.reset_value(p, r, Const::zero(32));
        let next = Expr::bin(super::BinOp::Add, r.into(), Expr::lit(32, 1));
        m.update(p, r, next, Some(Expr::bit(probes, i as u32)));
        regs.push(r);
    }
    // The first counter in the low word.
    m.assign(
        out,
        Expr::Concat(regs.iter().rev().map(|r| Expr::Net(*r)).collect()),
    );
}

/// A master port's signals as a unit sees them: (suffix, width, driven by the unit, net).
type UnitPorts = Vec<(&'static str, u32, bool, NetId)>;

/// `inst` with its `m_*` ports on the unit's wires.
fn with_master(mut inst: Instance, ports: &UnitPorts) -> Instance {
    for (s, w, out, id) in ports {
        inst = if *out {
            inst.output(&format!("m_{s}"), *w, *id)
        } else {
            inst.input(&format!("m_{s}"), *w, *id)
        };
    }
    inst
}

/// Connects the read (or write) channels of master port `port` to `units`, each with
/// the condition under which it owns the port (`None`: the only unit). Outputs are
/// muxed by owner; the memory's valid and ready signals reach only the owner; without
/// units the core's outputs are tied off (INCR bursts, BREADY high, all else 0).
fn share(
    m: &mut Module,
    port: &[(&'static str, u32, bool, NetId)],
    write: bool,
    units: Vec<(Option<Expr>, UnitPorts)>,
) {
    for (s, w, out, id) in port.iter().filter(|p| is_write_channel(p.0) == write) {
        if *out {
            let mut e = None;
            for (sel, ports) in units.iter().rev() {
                let net = ports.iter().find(|p| p.0 == *s).map(|p| p.3);
                let Some(net) = net else { continue };
                e = Some(match (e, sel) {
                    (Some(rest), Some(c)) => Expr::mux(c.clone(), net.into(), rest),
                    _ => Expr::from(net),
                });
            }
            let tie = match *s {
                "arburst" | "awburst" => 1,
                "bready" | "rready" => 1,
                _ => 0,
            };
            m.assign(*id, e.unwrap_or_else(|| Expr::lit(*w, tie)));
        } else {
            let handshake = matches!(*s, "arready" | "rvalid" | "awready" | "wready" | "bvalid");
            for (sel, ports) in &units {
                let Some(net) = ports.iter().find(|p| p.0 == *s).map(|p| p.3) else {
                    continue;
                };
                let v = match sel {
                    Some(c) if handshake => Expr::land(c.clone(), (*id).into()),
                    _ => Expr::from(*id),
                };
                m.assign(net, v);
            }
        }
    }
}

fn is_write_channel(s: &str) -> bool {
    s.starts_with("aw") || s.starts_with('w') || s.starts_with('b')
}

fn all_of(nets: &[NetId]) -> Expr {
    if nets.is_empty() {
        Expr::lit(1, 1)
    } else {
        Expr::un(
            super::UnOp::RedAnd,
            Expr::Concat(nets.iter().map(|&n| n.into()).collect()),
        )
    }
}

fn any_of(nets: &[NetId]) -> Expr {
    if nets.is_empty() {
        Expr::lit(1, 0)
    } else {
        Expr::un(
            super::UnOp::RedOr,
            Expr::Concat(nets.iter().map(|&n| n.into()).collect()),
        )
    }
}

/// The template files `modules` instantiate, with the templates those instantiate, sorted.
pub fn templates(modules: &[&Module]) -> Result<Vec<PathBuf>, RtlError> {
    let all: BTreeSet<String> = rtl_templates::template_files()
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    let own: BTreeSet<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    let mut todo: Vec<String> = Vec::new();
    for m in modules {
        for i in m.instances() {
            if own.contains(i.module.as_str()) {
                continue;
            }
            if !all.contains(&i.module) {
                return Err(RtlError::new(
                    &m.name,
                    format!("instance {} of `{}`: no such template", i.name, i.module),
                ));
            }
            todo.push(i.module.clone());
        }
    }
    let mut used = BTreeSet::new();
    while let Some(t) = todo.pop() {
        if !used.insert(t.clone()) {
            continue;
        }
        let path = rtl_templates::template(&format!("{t}.v"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| RtlError::new(&t, format!("cannot read {}: {e}", path.display())))?;
        todo.extend(instantiated(&text, &t, &all));
    }
    Ok(used
        .into_iter()
        .map(|t| rtl_templates::template(&format!("{t}.v")))
        .collect())
}

/// Template names a template's code (comments removed) mentions, other than its own.
fn instantiated(text: &str, own: &str, all: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for word in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if word != own && all.contains(word) {
                out.push(word.to_string());
            }
        }
    }
    out
}

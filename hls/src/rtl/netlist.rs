//! The RTL netlist: modules with ports, local parameters, wires and registers of explicit
//! widths, continuous assigns, clocked processes (enable, synchronous reset) and
//! instances of templates or other modules, each item optionally carrying a source span.

use super::expr::{Const, Expr};
use super::RtlError;

/// A wire or register of one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NetId(pub u32);

/// An instance inside one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

/// A clocked process inside one module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProcId(pub u32);

/// Where a piece of hardware came from: printed as `// kernel.cl:12:5`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl SrcLoc {
    /// The location of `span`'s start, file name without its folders.
    pub fn of_span(sm: &crate::diag::SourceMap, span: crate::diag::Span) -> SrcLoc {
        let (line, col) = sm.line_col(span);
        let name = &sm.file(sm.use_site(span).file).name;
        let file = name.rsplit('/').next().unwrap_or(name).to_string();
        SrcLoc { file, line, col }
    }
}

impl std::fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Input,
    Output,
}

/// Whether a net is driven by assigns and instances (`wire`) or by a process (`reg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NetKind {
    Wire,
    Reg,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    pub name: String,
    pub width: u32,
    pub kind: NetKind,
    /// `Some` for a port of the module.
    pub dir: Option<Dir>,
    pub loc: Option<SrcLoc>,
    pub comment: Option<String>,
}

/// The target of an assignment or of an instance output: a net or some of its bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lhs {
    pub net: NetId,
    /// `Some((hi, lo))` for a part of the net.
    pub range: Option<(u32, u32)>,
}

impl From<NetId> for Lhs {
    fn from(net: NetId) -> Lhs {
        Lhs { net, range: None }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assign {
    pub lhs: Lhs,
    pub rhs: Expr,
    pub loc: Option<SrcLoc>,
}

/// One register update of a process: `if (when) reg <= value;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub reg: NetId,
    pub value: Expr,
    pub when: Option<Expr>,
    pub loc: Option<SrcLoc>,
}

/// `always @(posedge clock)`: on `reset` the registers listed in `reset_values` take
/// them; otherwise, when `enable` holds, the updates run in order (a later one wins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Process {
    pub clock: NetId,
    pub reset: Option<NetId>,
    pub reset_values: Vec<(NetId, Const)>,
    pub enable: Option<Expr>,
    pub updates: Vec<Update>,
    pub comment: Option<String>,
}

/// A parameter override of an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    Int(i64),
    Const(Const),
}

/// One port connection. `width` is the callee's port width, which the emitter checks the
/// connected expression or net against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conn {
    In(Expr),
    Out(Lhs),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortConn {
    pub port: String,
    pub width: u32,
    pub conn: Conn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub module: String,
    pub name: String,
    pub params: Vec<(String, ParamValue)>,
    pub ports: Vec<PortConn>,
    pub loc: Option<SrcLoc>,
    pub comment: Option<String>,
}

impl Instance {
    pub fn new(module: &str, name: &str) -> Instance {
        Instance {
            module: module.into(),
            name: name.into(),
            params: Vec::new(),
            ports: Vec::new(),
            loc: None,
            comment: None,
        }
    }

    pub fn param(mut self, name: &str, value: i64) -> Instance {
        self.params.push((name.into(), ParamValue::Int(value)));
        self
    }

    /// Connects input port `port` of `width` bits to `e`.
    pub fn input(mut self, port: &str, width: u32, e: impl Into<Expr>) -> Instance {
        self.ports.push(PortConn {
            port: port.into(),
            width,
            conn: Conn::In(e.into()),
        });
        self
    }

    /// Connects output port `port` of `width` bits to `lhs`.
    pub fn output(mut self, port: &str, width: u32, lhs: impl Into<Lhs>) -> Instance {
        self.ports.push(PortConn {
            port: port.into(),
            width,
            conn: Conn::Out(lhs.into()),
        });
        self
    }
}

/// Items of a module body, emitted in the order they were added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Assign(Assign),
    Process(ProcId),
    Instance(InstId),
    /// A comment line (a section title).
    Comment(String),
}

/// One Verilog module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    /// Header comment lines.
    pub doc: Vec<String>,
    /// Local parameters (`localparam integer NAME = V;`): widths are fixed at generation.
    pub params: Vec<(String, i64)>,
    nets: Vec<Net>,
    /// Ports in declaration order.
    ports: Vec<NetId>,
    procs: Vec<Process>,
    insts: Vec<Instance>,
    pub items: Vec<Item>,
}

impl Module {
    pub fn new(name: &str) -> Module {
        Module {
            name: name.into(),
            doc: Vec::new(),
            params: Vec::new(),
            nets: Vec::new(),
            ports: Vec::new(),
            procs: Vec::new(),
            insts: Vec::new(),
            items: Vec::new(),
        }
    }

    fn add_net(&mut self, name: &str, width: u32, kind: NetKind, dir: Option<Dir>) -> NetId {
        self.nets.push(Net {
            name: name.into(),
            width,
            kind,
            dir,
            loc: None,
            comment: None,
        });
        NetId(self.nets.len() as u32 - 1)
    }

    pub fn input(&mut self, name: &str, width: u32) -> NetId {
        let id = self.add_net(name, width, NetKind::Wire, Some(Dir::Input));
        self.ports.push(id);
        id
    }

    /// An output driven by assigns or instances.
    pub fn output(&mut self, name: &str, width: u32) -> NetId {
        let id = self.add_net(name, width, NetKind::Wire, Some(Dir::Output));
        self.ports.push(id);
        id
    }

    /// An output driven by a process.
    pub fn output_reg(&mut self, name: &str, width: u32) -> NetId {
        let id = self.add_net(name, width, NetKind::Reg, Some(Dir::Output));
        self.ports.push(id);
        id
    }

    pub fn wire(&mut self, name: &str, width: u32) -> NetId {
        self.add_net(name, width, NetKind::Wire, None)
    }

    pub fn reg(&mut self, name: &str, width: u32) -> NetId {
        self.add_net(name, width, NetKind::Reg, None)
    }

    /// Attaches a source location to a net's declaration.
    pub fn set_loc(&mut self, id: NetId, loc: SrcLoc) {
        if let Some(n) = self.nets.get_mut(id.0 as usize) {
            n.loc = Some(loc);
        }
    }

    /// Turns a register into a wire: for a net created as a register whose driver turns
    /// out, once the module is nearly built, to be an instance output instead.
    pub fn make_wire(&mut self, id: NetId) {
        if let Some(n) = self.nets.get_mut(id.0 as usize) {
            n.kind = NetKind::Wire;
        }
    }

    /// Attaches a comment to a net's declaration.
    pub fn set_comment(&mut self, id: NetId, text: &str) {
        if let Some(n) = self.nets.get_mut(id.0 as usize) {
            n.comment = Some(text.into());
        }
    }

    /// `assign lhs = rhs;`
    pub fn assign(&mut self, lhs: impl Into<Lhs>, rhs: impl Into<Expr>) {
        self.assign_at(lhs, rhs, None);
    }

    pub fn assign_at(&mut self, lhs: impl Into<Lhs>, rhs: impl Into<Expr>, loc: Option<SrcLoc>) {
        self.items.push(Item::Assign(Assign {
            lhs: lhs.into(),
            rhs: rhs.into(),
            loc,
        }));
    }

    pub fn comment(&mut self, text: &str) {
        self.items.push(Item::Comment(text.into()));
    }

    /// A new process on `clock`, with an optional synchronous reset.
    pub fn process(&mut self, clock: NetId, reset: Option<NetId>) -> ProcId {
        self.procs.push(Process {
            clock,
            reset,
            reset_values: Vec::new(),
            enable: None,
            updates: Vec::new(),
            comment: None,
        });
        let id = ProcId(self.procs.len() as u32 - 1);
        self.items.push(Item::Process(id));
        id
    }

    pub fn proc_mut(&mut self, id: ProcId) -> &mut Process {
        &mut self.procs[id.0 as usize]
    }

    /// A register with a reset value, updated to `value` (when `when` holds) by process `p`.
    pub fn update(&mut self, p: ProcId, reg: NetId, value: impl Into<Expr>, when: Option<Expr>) {
        self.procs[p.0 as usize].updates.push(Update {
            reg,
            value: value.into(),
            when,
            loc: None,
        });
    }

    pub fn reset_value(&mut self, p: ProcId, reg: NetId, value: Const) {
        self.procs[p.0 as usize].reset_values.push((reg, value));
    }

    pub fn instance(&mut self, inst: Instance) -> InstId {
        self.insts.push(inst);
        let id = InstId(self.insts.len() as u32 - 1);
        self.items.push(Item::Instance(id));
        id
    }

    pub fn net(&self, id: NetId) -> &Net {
        &self.nets[id.0 as usize]
    }

    /// The net, or an error for an id from another module.
    pub fn net_checked(&self, id: NetId) -> Result<&Net, RtlError> {
        self.nets.get(id.0 as usize).ok_or_else(|| {
            RtlError::new(&self.name, format!("net id {} is not in this module", id.0))
        })
    }

    pub fn nets(&self) -> impl Iterator<Item = (NetId, &Net)> {
        self.nets
            .iter()
            .enumerate()
            .map(|(i, n)| (NetId(i as u32), n))
    }

    pub fn ports(&self) -> impl Iterator<Item = (NetId, &Net)> {
        self.ports.iter().map(|&id| (id, self.net(id)))
    }

    pub fn port(&self, name: &str) -> Option<NetId> {
        self.ports
            .iter()
            .copied()
            .find(|&id| self.net(id).name == name)
    }

    pub fn process_ref(&self, id: ProcId) -> &Process {
        &self.procs[id.0 as usize]
    }

    pub fn processes(&self) -> &[Process] {
        &self.procs
    }

    pub fn inst(&self, id: InstId) -> &Instance {
        &self.insts[id.0 as usize]
    }

    pub fn instances(&self) -> &[Instance] {
        &self.insts
    }

    /// An instance of this module named `name` with no connections yet; connect each
    /// port with [`Instance::input`]/[`Instance::output`] and the widths given by
    /// [`Module::port_width`].
    pub fn port_width(&self, name: &str) -> Option<u32> {
        self.port(name).map(|id| self.net(id).width)
    }

    /// Every expression of the module (assign right-hand sides, process enables, update
    /// values and conditions, instance inputs), in a fixed order.
    pub fn for_each_expr(&self, f: &mut dyn FnMut(&Expr)) {
        for item in &self.items {
            if let Item::Assign(a) = item {
                f(&a.rhs);
            }
        }
        for p in &self.procs {
            p.enable.iter().for_each(&mut *f);
            for u in &p.updates {
                f(&u.value);
                u.when.iter().for_each(&mut *f);
            }
        }
        for i in &self.insts {
            for pc in &i.ports {
                if let Conn::In(e) = &pc.conn {
                    f(e);
                }
            }
        }
    }

    /// [`Module::for_each_expr`] with the expressions open to change, in the same order.
    pub fn for_each_expr_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        for item in &mut self.items {
            if let Item::Assign(a) = item {
                f(&mut a.rhs);
            }
        }
        for p in &mut self.procs {
            p.enable.iter_mut().for_each(&mut *f);
            for u in &mut p.updates {
                f(&mut u.value);
                u.when.iter_mut().for_each(&mut *f);
            }
        }
        for i in &mut self.insts {
            for pc in &mut i.ports {
                if let Conn::In(e) = &mut pc.conn {
                    f(e);
                }
            }
        }
    }
}

//! Built-in calls: resolving a `BuiltinCall` by name into a family function once, at
//! compile time, and the argument access every family shares (lane broadcast of scalar
//! arguments, element kinds and signedness from the OpenCL signature).

use super::inst::Slot;
use super::memory::LaneBuf;
use super::value::{Ek, Shape};
use super::{common, geometric, integer, math, relational};
use crate::frontend::types::{Scalar, Type};
use crate::ir::BuiltinCall;

#[derive(Clone, Copy, Debug)]
pub enum Func {
    Math(math::F),
    Int(integer::F),
    Common(common::F),
    Geo(geometric::F),
    Rel(relational::F),
}

/// One argument: where it is, its IR shape, whether its OpenCL type is signed.
#[derive(Clone, Copy, Debug)]
pub struct BArg {
    pub slot: Slot,
    pub sh: Shape,
    pub signed: bool,
}

#[derive(Clone, Debug)]
pub struct BuiltinInst {
    pub f: Func,
    pub dst: Slot,
    /// The result shape (`None` for a void built-in).
    pub ret: Option<Shape>,
    pub args: Vec<BArg>,
    /// A pointer argument the built-in writes through (`frexp`, `modf`, ...): its index
    /// and the pointee's shape.
    pub out: Option<(usize, Shape)>,
}

/// Argument access during one evaluation.
pub struct Call<'a> {
    pub b: &'a BuiltinInst,
    pub frame: &'a [u64],
}

impl Call<'_> {
    /// Lane `i` of argument `a` (a scalar argument is broadcast).
    #[inline]
    pub fn lane(&self, a: usize, i: usize) -> u64 {
        let arg = &self.b.args[a];
        let l = if arg.sh.lanes > 1 { i } else { 0 };
        self.frame[arg.slot as usize + l]
    }

    pub fn arg(&self, a: usize) -> BArg {
        self.b.args[a]
    }

    /// Lanes of the result (1 for void).
    pub fn n(&self) -> usize {
        self.b.ret.map(|s| s.lanes as usize).unwrap_or(1)
    }

    pub fn ret_ek(&self) -> Ek {
        self.b.ret.map(|s| s.ek).unwrap_or(Ek::I(32))
    }
}

fn scalar_signed(t: &Type) -> bool {
    match t {
        Type::Scalar(s) | Type::Vector(s, _) => s.is_signed(),
        _ => false,
    }
}

fn elem_is_float(t: &Type) -> bool {
    matches!(t, Type::Scalar(s) | Type::Vector(s, _) if s.is_float())
}

fn pointee_shape(t: &Type) -> Option<Shape> {
    let Type::Pointer(p) = t else { return None };
    let (s, n) = match &p.pointee {
        Type::Scalar(s) => (*s, 1),
        Type::Vector(s, n) => (*s, *n),
        _ => return None,
    };
    let ek = match s {
        Scalar::Half => Ek::F16,
        Scalar::Float => Ek::F32,
        Scalar::Double => Ek::F64,
        other => Ek::I(other.bits() as u8),
    };
    Some(Shape { ek, lanes: n })
}

/// Resolves a call into an instruction; `args` are the operands' slots and shapes.
pub fn compile(
    call: &BuiltinCall,
    args: &[(Slot, Shape)],
    dst: Slot,
    ret: Option<Shape>,
) -> Result<BuiltinInst, String> {
    let name = call.name.as_str();
    let float_args = call.params.first().is_some_and(elem_is_float);
    let f = if let Some(f) = relational::lookup(name) {
        Func::Rel(f)
    } else if let Some(f) = geometric::lookup(name) {
        Func::Geo(f)
    } else if !float_args && !call.params.is_empty() && integer::lookup(name).is_some() {
        Func::Int(integer::lookup(name).ok_or("unreachable")?)
    } else if let Some(f) = common::lookup(name) {
        Func::Common(f)
    } else if let Some(f) = math::lookup(name) {
        Func::Math(f)
    } else {
        return Err(format!(
            "the interpreter does not implement built-in '{name}'"
        ));
    };
    if args.len() != call.params.len() {
        return Err(format!(
            "built-in '{name}' called with {} operands for {} parameters",
            args.len(),
            call.params.len()
        ));
    }
    let bargs: Vec<BArg> = args
        .iter()
        .zip(&call.params)
        .map(|((slot, sh), t)| BArg {
            slot: *slot,
            sh: *sh,
            signed: scalar_signed(t),
        })
        .collect();
    let out = call
        .params
        .iter()
        .enumerate()
        .find_map(|(i, t)| pointee_shape(t).map(|s| (i, s)));
    // Lane access broadcasts scalars and indexes vectors up to the widest shape, so all
    // vector operands (and a vector result) must agree.
    let widest = args
        .iter()
        .map(|(_, s)| s.lanes)
        .chain(ret.map(|r| r.lanes))
        .max()
        .unwrap_or(1);
    let agree = |l: u8| l == 1 || l == widest;
    let ptr_ok = |s: &Shape| s.ek == Ek::Ptr;
    if widest as usize > super::value::MAX_LANES
        || !args.iter().all(|(_, s)| ptr_ok(s) || agree(s.lanes))
        || !ret.is_none_or(|r| agree(r.lanes))
    {
        return Err(format!(
            "built-in '{name}' has operands of mismatched vector sizes"
        ));
    }
    Ok(BuiltinInst {
        f,
        dst,
        ret,
        args: bargs,
        out,
    })
}

/// Evaluates a built-in: its result lanes into `res`, lanes to store through its pointer
/// argument (if any) into `side`.
pub fn eval(
    b: &BuiltinInst,
    frame: &[u64],
    res: &mut LaneBuf,
    side: &mut LaneBuf,
) -> Result<(), String> {
    let c = Call { b, frame };
    match b.f {
        Func::Math(f) => math::eval(f, &c, res, side),
        Func::Int(f) => integer::eval(f, &c, res),
        Func::Common(f) => common::eval(f, &c, res),
        Func::Geo(f) => geometric::eval(f, &c, res),
        Func::Rel(f) => relational::eval(f, &c, res),
    }
}

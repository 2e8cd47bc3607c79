//! A generator of random, well-defined OpenCL C kernels and their launch specs (after
//! CLsmith and Csmith): undefined behaviour is excluded by construction (arithmetic that
//! could overflow runs in unsigned types, division and shifts are guarded, indices masked,
//! loops bounded by constants, each work-item writes only its own `out[]` element and
//! local memory only between barriers), so every conforming implementation gives the
//! same bytes.

use std::fmt::Write;

/// SplitMix64: tiny, and the same sequence everywhere for a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5851_f42d_4c95_7f2d)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

/// The integer types of generated values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
}

const TYS: [Ty; 8] = [
    Ty::Char,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
];

impl Ty {
    pub fn name(self) -> &'static str {
        match self {
            Ty::Char => "char",
            Ty::UChar => "uchar",
            Ty::Short => "short",
            Ty::UShort => "ushort",
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Long => "long",
            Ty::ULong => "ulong",
        }
    }

    fn bits(self) -> u32 {
        match self {
            Ty::Char | Ty::UChar => 8,
            Ty::Short | Ty::UShort => 16,
            Ty::Int | Ty::UInt => 32,
            Ty::Long | Ty::ULong => 64,
        }
    }

    fn signed(self) -> bool {
        matches!(self, Ty::Char | Ty::Short | Ty::Int | Ty::Long)
    }

    /// The unsigned type the value's arithmetic runs in after promotion.
    fn arith(self) -> &'static str {
        if self.bits() == 64 {
            "ulong"
        } else {
            "uint"
        }
    }

    /// A literal of this type, within its range.
    fn literal(self, r: &mut Rng) -> String {
        let special = [0u64, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0xffff_ffff, u64::MAX];
        let raw = if r.chance(40) {
            *r.pick(&special)
        } else {
            r.next() >> r.below(64)
        };
        let bits = self.bits();
        let v = if bits == 64 {
            raw
        } else {
            raw & ((1u64 << bits) - 1)
        };
        if self.signed() {
            let s = ((v << (64 - bits)) as i64) >> (64 - bits);
            // The most negative value has no literal of its own type.
            let s = s.max(-(i64::MAX >> (64 - bits)));
            let suffix = if bits == 64 { "L" } else { "" };
            format!("(({}){s}{suffix})", self.name())
        } else {
            let suffix = if bits == 64 { "UL" } else { "u" };
            format!("(({}){v}{suffix})", self.name())
        }
    }
}

/// A statement; compound ones hold nested statements so reduction can drop any of them.
#[derive(Clone, Debug)]
pub enum Stmt {
    Line(String),
    If(String, Vec<Stmt>, Vec<Stmt>),
    For(String, Vec<Stmt>),
    Switch(String, Vec<Vec<Stmt>>),
}

/// A generated kernel: its statements and everything around them.
#[derive(Clone, Debug)]
pub struct Program {
    pub seed: u64,
    head: String,
    pub body: Vec<Stmt>,
    tail: String,
    pub spec: String,
}

const PRELUDE: &str = "\
uint mix(uint h, ulong v)
{
    h = (h ^ (uint)v) * 16777619u;
    h = (h ^ (uint)(v >> 32)) * 16777619u;
    return h ^ (h >> 15);
}

int sdiv32(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
int smod32(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
long sdiv64(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
long smod64(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
uint udiv32(uint a, uint b) { return b == 0 ? a : a / b; }
uint umod32(uint a, uint b) { return b == 0 ? a : a % b; }
ulong udiv64(ulong a, ulong b) { return b == 0 ? a : a / b; }
ulong umod64(ulong a, ulong b) { return b == 0 ? a : a % b; }
";

struct Var {
    name: String,
    ty: Ty,
}

struct Gen {
    r: Rng,
    vars: Vec<Var>,
    /// Private arrays: name, element type (8 elements each).
    arrays: Vec<Var>,
    /// Loop counters in scope (read-only `uint`).
    loops: Vec<String>,
    next_loop: u32,
    stmts: u32,
    /// Statements after which only simple ones are generated.
    limit: u32,
}

impl Gen {
    fn leaf(&mut self, ty: Ty) -> String {
        let n = ty.name();
        match self.r.below(7) {
            0 | 1 => ty.literal(&mut self.r),
            2 | 3 => {
                let v = &self.vars[self.r.below(self.vars.len() as u64) as usize];
                format!("(({n}){})", v.name)
            }
            4 => {
                let i = self.index(1);
                format!("(({n})in0[({i}) & 255u])")
            }
            5 if !self.loops.is_empty() => {
                let l = self.r.pick(&self.loops).clone();
                format!("(({n}){l})")
            }
            5 => format!("(({n})gid)"),
            _ if self.arrays.is_empty() => format!("(({n})gid)"),
            _ => {
                let a = &self.arrays[self.r.below(self.arrays.len() as u64) as usize];
                let (an, _) = (a.name.clone(), a.ty);
                let i = self.index(1);
                format!("(({n}){an}[({i}) & 7u])")
            }
        }
    }

    /// A `uint` index expression (masked by the caller).
    fn index(&mut self, depth: u32) -> String {
        if depth == 0 || self.r.chance(50) {
            let v = &self.vars[self.r.below(self.vars.len() as u64) as usize];
            format!("((uint){})", v.name)
        } else {
            self.expr(Ty::UInt, depth - 1)
        }
    }

    fn cond(&mut self, depth: u32) -> String {
        let s = *self.r.pick(&TYS);
        let op = *self.r.pick(&["<", "<=", ">", ">=", "==", "!="]);
        let (a, b) = (self.expr(s, depth), self.expr(s, depth));
        format!("({a} {op} {b})")
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        if depth == 0 || self.r.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        let n = ty.name();
        let u = ty.arith();
        match self.r.below(12) {
            0..=2 => {
                let op = *self.r.pick(&["+", "-", "*"]);
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                format!("(({n})(({u}){a} {op} ({u}){b}))")
            }
            3 | 4 => {
                let op = *self.r.pick(&["&", "|", "^"]);
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                format!("(({n})({a} {op} {b}))")
            }
            5 => {
                let a = self.expr(ty, d);
                let b = self.expr(Ty::UInt, d);
                let mask = if ty.bits() == 64 { 63 } else { 31 };
                if ty.signed() && self.r.chance(50) {
                    format!("(({n})({a} >> ({b} & {mask}u)))")
                } else {
                    let op = *self.r.pick(&["<<", ">>"]);
                    format!("(({n})(({u}){a} {op} ({b} & {mask}u)))")
                }
            }
            6 => {
                let f = if ty.bits() == 64 { "64" } else { "32" };
                let (k, at) = match (ty.signed(), ty.bits() == 64) {
                    (true, true) => ("s", "long"),
                    (true, false) => ("s", "int"),
                    (false, true) => ("u", "ulong"),
                    (false, false) => ("u", "uint"),
                };
                let op = *self.r.pick(&["div", "mod"]);
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                format!("(({n}){k}{op}{f}(({at}){a}, ({at}){b}))")
            }
            7 => {
                let c = self.cond(d);
                format!("(({n}){c})")
            }
            8 => {
                let c = self.cond(d);
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                format!("(({n})({c} ? {a} : {b}))")
            }
            9 => {
                let a = self.expr(ty, d);
                if self.r.chance(50) {
                    format!("(({n})(~{a}))")
                } else {
                    format!("(({n})(-({u}){a}))")
                }
            }
            10 => {
                let s = *self.r.pick(&TYS);
                let a = self.expr(s, d);
                format!("(({n}){a})")
            }
            _ => {
                let (a, b) = (self.expr(ty, d), self.expr(ty, d));
                match self.r.below(6) {
                    0 => format!("min({a}, {b})"),
                    1 => format!("max({a}, {b})"),
                    2 => format!("(({n})clz({a}))"),
                    3 => format!("(({n})popcount({a}))"),
                    4 => format!("rotate({a}, {b})"),
                    _ => format!("mul_hi({a}, {b})"),
                }
            }
        }
    }

    fn block(&mut self, depth: u32, max: u64) -> Vec<Stmt> {
        let n = 1 + self.r.below(max);
        (0..n).map(|_| self.stmt(depth)).collect()
    }

    fn stmt(&mut self, depth: u32) -> Stmt {
        self.stmts += 1;
        let ed = 1 + self.r.below(3) as u32;
        let kind = if depth == 0 || self.stmts > self.limit {
            self.r.below(3)
        } else {
            self.r.below(8)
        };
        match kind {
            0 | 1 => {
                let i = self.r.below(self.vars.len() as u64) as usize;
                let (name, ty) = (self.vars[i].name.clone(), self.vars[i].ty);
                let e = self.expr(ty, ed);
                let op = *self.r.pick(&["=", "=", "^=", "|=", "&="]);
                Stmt::Line(format!("{name} {op} {e};"))
            }
            2 => {
                let i = self.r.below(self.arrays.len() as u64) as usize;
                let (name, ty) = (self.arrays[i].name.clone(), self.arrays[i].ty);
                let idx = self.index(1);
                let e = self.expr(ty, ed);
                Stmt::Line(format!("{name}[({idx}) & 7u] = {e};"))
            }
            3 | 4 => {
                let c = self.cond(ed);
                let t = self.block(depth - 1, 3);
                let e = if self.r.chance(50) {
                    self.block(depth - 1, 3)
                } else {
                    Vec::new()
                };
                Stmt::If(c, t, e)
            }
            5 | 6 => {
                let l = format!("i{}", self.next_loop);
                self.next_loop += 1;
                let trips = 1 + self.r.below(6);
                let head = format!("for (uint {l} = 0; {l} < {trips}u; {l}++)");
                self.loops.push(l);
                let mut body = self.block(depth - 1, 3);
                if self.r.chance(25) {
                    let c = self.cond(1);
                    body.push(Stmt::If(c, vec![Stmt::Line("break;".into())], Vec::new()));
                }
                self.loops.pop();
                Stmt::For(head, body)
            }
            _ => {
                let e = self.expr(Ty::UInt, ed);
                let cases = (0..3).map(|_| self.block(depth - 1, 2)).collect();
                Stmt::Switch(format!("({e}) % 4u"), cases)
            }
        }
    }
}

impl Program {
    /// The kernel with seed `seed` (up to a hundred-odd lines).
    pub fn generate(seed: u64) -> Program {
        Program::generate_sized(seed, 40)
    }

    /// A smaller kernel (a few statements, no nested compound ones: a quicker Verilator
    /// build), for CI.
    pub fn generate_small(seed: u64) -> Program {
        Program::generate_sized(seed, 6)
    }

    fn generate_sized(seed: u64, limit: u32) -> Program {
        let mut g = Gen {
            r: Rng::new(seed),
            vars: Vec::new(),
            arrays: Vec::new(),
            loops: Vec::new(),
            next_loop: 0,
            stmts: 0,
            limit,
        };
        let mut head = String::new();
        let _ = writeln!(
            head,
            "// A random well-defined kernel (seed {seed}) from the project's fuzzer \
             (hls/tests/fuzz): each work-item folds its values into a hash in out[].\n"
        );
        head.push_str("#pragma OPENCL FP_CONTRACT OFF\n\n");
        head.push_str(PRELUDE);
        head.push_str(
            "\n__kernel void rk(__global uint *out, __global const int *in0, uint sa)\n{\n    \
             __local uint lm[4];\n    uint gid = get_global_id(0);\n",
        );
        let nv = 3 + g.r.below(5);
        for i in 0..nv {
            let ty = *g.r.pick(&TYS);
            let init = match i % 3 {
                0 => format!("(({})in0[(gid * {}u) & 255u])", ty.name(), 1 + i),
                1 => format!("(({})(sa + gid))", ty.name()),
                _ => ty.literal(&mut g.r),
            };
            let _ = writeln!(head, "    {} v{i} = {init};", ty.name());
            g.vars.push(Var {
                name: format!("v{i}"),
                ty,
            });
        }
        let na = 1 + g.r.below(2);
        for i in 0..na {
            let ty = *g.r.pick(&TYS);
            let init: Vec<String> = (0..8).map(|_| g.leaf(ty)).collect();
            let _ = writeln!(head, "    {} a{i}[8] = {{{}}};", ty.name(), init.join(", "));
            g.arrays.push(Var {
                name: format!("a{i}"),
                ty,
            });
        }
        let local = *g.r.pick(&[1u64, 2, 4]);
        let mut body = g.block(if limit < 20 { 1 } else { 3 }, (limit / 3) as u64);
        let floats = g.r.chance(50);
        if floats {
            // Float arithmetic (rounded once per operation: FP_CONTRACT is off); NaNs are
            // canonicalized before they reach the hash.
            head.push_str("    float f0 = (float)gid * 0.75f;\n");
            for _ in 0..1 + g.r.below(3) {
                let (a, b) = (g.expr(Ty::Int, 1), g.expr(Ty::Short, 1));
                let op = *g.r.pick(&["+", "-", "*"]);
                // A multiply-add of f0, or a sum into it: in a loop, what the float build
                // options let the compiler fuse or reorder (`fuzz --math`).
                let line = if g.r.chance(30) {
                    format!("f0 += (float){a};")
                } else {
                    format!("f0 = (f0 {op} (float){a}) * 0.5f + (float){b};")
                };
                let loops: Vec<usize> = (0..body.len())
                    .filter(|&i| matches!(body[i], Stmt::For(..)))
                    .collect();
                match (g.r.chance(50), loops.is_empty()) {
                    (true, false) => {
                        let l = loops[g.r.below(loops.len() as u64) as usize];
                        if let Stmt::For(_, inner) = &mut body[l] {
                            let at = g.r.below(inner.len() as u64 + 1) as usize;
                            inner.insert(at, Stmt::Line(line));
                        }
                    }
                    _ => {
                        let at = g.r.below(body.len() as u64 + 1) as usize;
                        body.insert(at, Stmt::Line(line));
                    }
                }
            }
        }
        if g.r.chance(50) {
            // Work-items trade values through local memory between barriers: in uniform
            // control flow (top level), and one statement so reduction keeps it whole.
            let (v, w) = (g.r.below(nv), g.r.below(nv));
            let line = format!(
                "lm[get_local_id(0)] = (uint)v{v}; barrier(CLK_LOCAL_MEM_FENCE); \
                 v{w} ^= ({})lm[(get_local_id(0) + 1u) % {local}u]; \
                 barrier(CLK_LOCAL_MEM_FENCE);",
                g.vars[w as usize].ty.name()
            );
            let at = g.r.below(body.len() as u64 + 1) as usize;
            body.insert(at, Stmt::Line(line));
        }
        let mut tail = String::from("    uint h = 2166136261u;\n");
        if floats {
            tail.push_str("    h = mix(h, isnan(f0) ? 0x7fc00000u : as_uint(f0));\n");
        }
        for v in &g.vars {
            let _ = writeln!(tail, "    h = mix(h, (ulong){});", v.name);
        }
        for a in &g.arrays {
            let _ = writeln!(
                tail,
                "    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong){}[k]);",
                a.name
            );
        }
        tail.push_str("    out[gid] = h;\n}\n");
        let global = local * (1 + g.r.below(4));
        let spec = format!(
            "kernel: rk\nglobal: [{global}]\nlocal: [{local}]\nargs:\n  - name: out\n    \
             buffer: {{type: uint, count: {global}, init: zero}}\n  - name: in0\n    \
             buffer: {{type: int, count: 256, init: {{random: {{seed: {}, min: -2147483648, \
             max: 2147483647}}}}}}\n    check: false\n  - name: sa\n    scalar: {{type: uint, \
             value: {}}}\n",
            g.r.below(1000),
            g.r.next() as u32
        );
        Program {
            seed,
            head,
            body,
            tail,
            spec,
        }
    }

    /// Statements in preorder (the numbering `render` skips by).
    pub fn count(&self) -> usize {
        fn n(v: &[Stmt]) -> usize {
            v.iter()
                .map(|s| {
                    1 + match s {
                        Stmt::Line(_) => 0,
                        Stmt::If(_, a, b) => n(a) + n(b),
                        Stmt::For(_, b) => n(b),
                        Stmt::Switch(_, cs) => cs.iter().map(|c| n(c)).sum(),
                    }
                })
                .sum()
        }
        n(&self.body)
    }

    /// The kernel's source without the statements whose preorder numbers `drop` holds.
    pub fn render(&self, drop: &std::collections::BTreeSet<usize>) -> String {
        let mut s = self.head.clone();
        let mut id = 0;
        block(&self.body, drop, &mut id, 1, &mut s);
        s.push_str(&self.tail);
        s
    }
}

fn block(
    v: &[Stmt],
    drop: &std::collections::BTreeSet<usize>,
    id: &mut usize,
    ind: usize,
    s: &mut String,
) {
    let pad = "    ".repeat(ind);
    for st in v {
        let me = *id;
        *id += 1;
        let keep = !drop.contains(&me);
        // Nested statements are numbered even when their parent is dropped.
        let mut sink = String::new();
        let out = if keep { &mut *s } else { &mut sink };
        match st {
            Stmt::Line(l) => {
                let _ = writeln!(out, "{pad}{l}");
            }
            Stmt::If(c, t, e) => {
                let _ = writeln!(out, "{pad}if {c} {{");
                block(t, drop, id, ind + 1, out);
                if e.is_empty() {
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    let _ = writeln!(out, "{pad}}} else {{");
                    block(e, drop, id, ind + 1, out);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            Stmt::For(h, b) => {
                let _ = writeln!(out, "{pad}{h} {{");
                block(b, drop, id, ind + 1, out);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Switch(e, cs) => {
                let _ = writeln!(out, "{pad}switch ({e}) {{");
                for (i, c) in cs.iter().enumerate() {
                    let label = if i + 1 == cs.len() {
                        "default:".to_string()
                    } else {
                        format!("case {i}u:")
                    };
                    let _ = writeln!(out, "{pad}{label} {{");
                    block(c, drop, id, ind + 1, out);
                    let _ = writeln!(out, "{pad}}} break;");
                }
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}

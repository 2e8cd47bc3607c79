//! The generated C of one kernel: `NAME.h` (register offsets, the core's description for
//! the runtime and a typed `NAME_run`) and `NAME_main.c` (the example host program), both
//! from the register map the core was built with.

use std::fmt::Write as _;

use super::HostKernel;
use crate::ir::{ParamKind, Ty};
use crate::rtl::regmap::{RegArg, RegArgKind};

/// How one argument appears in C.
struct CArg {
    /// The C parameter name (the OpenCL name, renamed when it clashes with ours).
    ident: String,
    /// The parameter's declaration in `NAME_run`.
    decl: String,
    /// `ohls_arg` initialiser.
    value: String,
    /// `ohls_arg_desc` fields after kind/offset/words: bytes, max_bytes, constant, elem,
    /// elem_bytes, lanes.
    elem: char,
    elem_bytes: u32,
    lanes: u32,
    /// The example's local variable declaration (scalars and __local sizes).
    local_decl: Option<String>,
}

/// Names `NAME_run` uses for its own parameters.
const RESERVED: &[&str] = &["dev", "global", "local", "args", "ohls_args"];

fn ident(name: &str) -> String {
    if RESERVED.contains(&name) {
        format!("{name}_arg")
    } else {
        name.to_string()
    }
}

/// C element type, kind letter, bytes of a scalar lane.
fn lane_type(t: &Ty) -> Option<(&'static str, char, u32)> {
    Some(match t {
        Ty::I(n) if *n <= 8 => ("int8_t", 'i', 1),
        Ty::I(n) if *n <= 16 => ("int16_t", 'i', 2),
        Ty::I(n) if *n <= 32 => ("int32_t", 'i', 4),
        Ty::I(_) => ("int64_t", 'i', 8),
        Ty::F16 => ("uint16_t", 'h', 2),
        Ty::F32 => ("float", 'f', 4),
        Ty::F64 => ("double", 'f', 8),
        _ => return None,
    })
}

fn c_arg(k: &HostKernel, a: &RegArg) -> Result<CArg, String> {
    let p = k
        .kernel
        .params
        .iter()
        .find(|p| p.name == a.name)
        .ok_or_else(|| format!("kernel {}: no parameter {}", k.kernel.name, a.name))?;
    let id = ident(&a.name);
    let plain = |decl: String, value: String| CArg {
        ident: id.clone(),
        decl,
        value,
        elem: 'i',
        elem_bytes: 0,
        lanes: 0,
        local_decl: None,
    };
    Ok(match (&a.kind, &p.kind) {
        (RegArgKind::Buffer { .. }, _) => {
            plain(format!("ohls_buf *{id}"), format!("{{{id}, NULL, 0}}"))
        }
        (RegArgKind::Local { .. }, _) => CArg {
            local_decl: Some(format!("size_t {id} = 0;")),
            ..plain(
                format!("size_t {id}_bytes"),
                format!("{{NULL, NULL, {id}_bytes}}"),
            )
        },
        (RegArgKind::Struct { bytes }, _)
        | (RegArgKind::Scalar { bytes }, ParamKind::Struct { .. }) => CArg {
            elem: 's',
            elem_bytes: 1,
            lanes: *bytes,
            local_decl: Some(format!("unsigned char {id}[{bytes}];")),
            ..plain(
                format!("const void *{id}"),
                format!("{{NULL, {id}, {bytes}}}"),
            )
        },
        (RegArgKind::Scalar { bytes }, _) => {
            let (lane, lanes) = match &p.ty {
                Ty::Vec(e, n) => (e.as_ref(), if *n == 3 { 4 } else { *n as u32 }),
                t => (t, 1),
            };
            let (cty, elem, eb) = lane_type(lane).ok_or_else(|| {
                format!(
                    "kernel {}: parameter {} has a type the host header cannot spell",
                    k.kernel.name, a.name
                )
            })?;
            if eb * lanes != *bytes {
                return Err(format!(
                    "kernel {}: parameter {} is {bytes} bytes in the register map but {} as {cty}[{lanes}]",
                    k.kernel.name,
                    a.name,
                    eb * lanes
                ));
            }
            if lanes == 1 {
                CArg {
                    elem,
                    elem_bytes: eb,
                    lanes,
                    local_decl: Some(format!("{cty} {id} = 0;")),
                    ..plain(
                        format!("{cty} {id}"),
                        format!("{{NULL, &{id}, sizeof {id}}}"),
                    )
                }
            } else {
                CArg {
                    elem,
                    elem_bytes: eb,
                    lanes,
                    local_decl: Some(format!("{cty} {id}[{lanes}];")),
                    ..plain(
                        format!("const {cty} {id}[{lanes}]"),
                        format!("{{NULL, {id}, {bytes}}}"),
                    )
                }
            }
        }
    })
}

fn kind_name(a: &RegArg) -> &'static str {
    match a.kind {
        RegArgKind::Buffer { .. } => "OHLS_ARG_BUFFER",
        RegArgKind::Local { .. } => "OHLS_ARG_LOCAL",
        _ => "OHLS_ARG_SCALAR",
    }
}

/// `NAME.h`.
pub fn header(k: &HostKernel) -> Result<String, String> {
    let name = &k.kernel.name;
    let up = name.to_uppercase();
    let map = k.regmap;
    let args: Vec<CArg> = map
        .args
        .iter()
        .map(|a| c_arg(k, a))
        .collect::<Result<_, _>>()?;
    let mut s = String::new();
    let guard = format!("OHLS_KERNEL_{up}_H");
    let place = match k.bridge_base {
        Some(_) => format!("on the {} board the window is at {up}_CSR_ADDRESS", k.board),
        None => format!("the {} board runs one core per model, at offset 0", k.board),
    };
    let _ = writeln!(
        s,
        "/* {name}.h: kernel {name} (core {}), written by ocl-hls from its register map.\n \
         * Registers are byte offsets inside the core's window; {place}.\n \
         * This file brings in ohls_runtime.h, the runtime's API. */",
        k.top
    );
    let _ = writeln!(s, "#ifndef {guard}\n#define {guard}\n");
    s.push_str("#include \"ohls_runtime.h\"\n\n#include <stddef.h>\n#include <stdint.h>\n\n");
    let _ = writeln!(s, "#define {up}_CSR_OFFSET {:#x}u", k.csr_offset);
    if let Some(b) = k.bridge_base {
        let _ = writeln!(
            s,
            "#define {up}_CSR_ADDRESS {:#x}u /* HPS physical */",
            b + k.csr_offset
        );
    }
    let _ = writeln!(s, "#define {up}_NARGS {}u", map.csr_nargs());
    for a in &map.args {
        let _ = writeln!(s, "#define {up}_ARG_{}_OFFSET {:#x}u", a.name, a.offset);
        let _ = writeln!(s, "#define {up}_ARG_{}_WORDS {}u", a.name, a.words);
    }
    let _ = writeln!(s, "\nstatic const ohls_arg_desc {name}_args[] = {{");
    for (a, c) in map.args.iter().zip(&args) {
        let (bytes, max, constant) = match &a.kind {
            RegArgKind::Buffer { constant, .. } => (8, 0, *constant as u32),
            RegArgKind::Scalar { bytes } | RegArgKind::Struct { bytes } => (*bytes, 0, 0),
            RegArgKind::Local { max_bytes } => (4, *max_bytes, 0),
        };
        let _ = writeln!(
            s,
            "    {{\"{}\", {}, {:#x}u, {}u, {bytes}u, {max}u, {constant}, '{}', {}u, {}u}},",
            a.name,
            kind_name(a),
            a.offset,
            a.words,
            c.elem,
            c.elem_bytes,
            c.lanes
        );
    }
    if map.args.is_empty() {
        s.push_str("    {\"\", OHLS_ARG_SCALAR, 0u, 0u, 0u, 0u, 0, 'i', 0u, 0u},\n");
    }
    s.push_str("};\n\n");
    let (max_local, max_items) = crate::workitems::limits(&k.kernel.attrs);
    let reqd = k.kernel.attrs.reqd_work_group_size.is_some();
    let _ = writeln!(
        s,
        "static const ohls_kernel {name}_kernel = {{\"{name}\", \"{}\", {:#x}u, {}u, {}u, {name}_args, \
         {{{}u, {}u, {}u}}, {max_items}u, {}, {}u}};\n",
        k.top,
        k.csr_offset,
        map.csr_nargs(),
        map.args.len(),
        max_local[0],
        max_local[1],
        max_local[2],
        reqd as u32,
        k.addr_bits
    );
    let params: Vec<&str> = args.iter().map(|a| a.decl.as_str()).collect();
    let _ = writeln!(
        s,
        "/* Runs {name} once over global x local (three dimensions, 1 in unused ones) and waits\n \
         * for DONE within the device's timeout. 0 or -1 (ohls_last_error(dev) says why). */"
    );
    let _ = writeln!(
        s,
        "static inline int {name}_run(ohls_dev *dev,{}\n    const uint32_t global[3], const uint32_t local[3]) {{",
        params
            .iter()
            .map(|p| format!("\n    {p},"))
            .collect::<String>()
    );
    if args.is_empty() {
        s.push_str("    const ohls_arg *ohls_args = NULL;\n");
    } else {
        let vals: Vec<&str> = args.iter().map(|a| a.value.as_str()).collect();
        let _ = writeln!(
            s,
            "    const ohls_arg ohls_args[] = {{{}}};",
            vals.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "    return ohls_run(dev, &{name}_kernel, ohls_args, global, local);\n}}\n\n#endif"
    );
    Ok(s)
}

/// `NAME_main.c`: every argument from the command line, one launch, every buffer saved.
pub fn example(k: &HostKernel) -> Result<String, String> {
    let name = &k.kernel.name;
    let map = k.regmap;
    let args: Vec<CArg> = map
        .args
        .iter()
        .map(|a| c_arg(k, a))
        .collect::<Result<_, _>>()?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/* {name}_main.c: example host program of kernel {name}, written by ocl-hls.\n \
         * `{name}_host --help` lists the arguments; README.md shows a run. */"
    );
    let _ = writeln!(
        s,
        "#include \"{name}.h\"\n#include \"ohls_example.h\"\n\n#include <stddef.h>\n\n\
         int main(int argc, char **argv) {{\n    ohls_cli cli;\n    \
         if (ohls_cli_parse(&cli, argc, argv, &{name}_kernel) != 0) return 2;\n    \
         ohls_dev *dev = NULL;\n    int rc = 1;"
    );
    for (a, c) in map.args.iter().zip(&args) {
        match &a.kind {
            RegArgKind::Buffer { .. } => {
                let _ = writeln!(s, "    ohls_buf *{} = NULL;", c.ident);
            }
            _ => {
                if let Some(d) = &c.local_decl {
                    let _ = writeln!(s, "    {d}");
                }
            }
        }
    }
    let _ = writeln!(
        s,
        "    if (ohls_open(&dev, cli.device) != 0) goto done;\n    \
         ohls_set_timeout(dev, cli.timeout_ms);"
    );
    for (i, (a, c)) in map.args.iter().zip(&args).enumerate() {
        let id = &c.ident;
        let call = match &a.kind {
            RegArgKind::Buffer { .. } => {
                format!("ohls_cli_buffer(&cli, dev, &{name}_kernel, {i}, &{id})")
            }
            RegArgKind::Local { .. } => format!("ohls_cli_local(&cli, &{name}_kernel, {i}, &{id})"),
            _ if c.lanes > 1 || c.elem == 's' => {
                format!("ohls_cli_scalar(&cli, &{name}_kernel, {i}, {id})")
            }
            _ => format!("ohls_cli_scalar(&cli, &{name}_kernel, {i}, &{id})"),
        };
        let _ = writeln!(s, "    if ({call} != 0) goto done;");
    }
    let idents: Vec<&str> = args.iter().map(|a| a.ident.as_str()).collect();
    let _ = writeln!(
        s,
        "    if ({name}_run(dev{}{}, cli.global, cli.local) != 0) goto done;",
        if idents.is_empty() { "" } else { ", " },
        idents.join(", ")
    );
    for (i, (a, c)) in map.args.iter().zip(&args).enumerate() {
        if let RegArgKind::Buffer { .. } = a.kind {
            let _ = writeln!(
                s,
                "    if (ohls_cli_save(&cli, dev, &{name}_kernel, {i}, {}) != 0) goto done;",
                c.ident
            );
        }
    }
    s.push_str(
        "    rc = 0;\ndone:\n    if (rc != 0) ohls_cli_report(&cli, dev);\n    \
         ohls_close(dev);\n    return rc;\n}\n",
    );
    Ok(s)
}

//! `report.html` through the real binary: written beside report.json, well-formed (checked
//! as XML, the SVG graphs on their own too), self-contained, holding each kernel's
//! register offsets and loops' source lines, byte-identical on rebuild, with paths escaped;
//! and the per-memory section (issue 14) in report.json, the page and the printed summary.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

fn shared(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance/kernels")
        .join(name)
}

/// Builds `cl` for `board` into `out` without the (slow) Yosys estimates; the page.
fn build(cl: &Path, board: &str, out: &Path) -> String {
    build_printing(cl, board, out).0
}

/// [`build`], with the summary the build printed.
fn build_printing(cl: &Path, board: &str, out: &Path) -> (String, String) {
    let r = Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args([
            "build".as_ref(),
            cl.as_os_str(),
            "--board".as_ref(),
            OsStr::new(board),
            "-o".as_ref(),
            out.as_os_str(),
            "--no-estimate".as_ref(),
        ])
        .output()
        .expect("run ocl-hls");
    assert!(
        r.status.success(),
        "ocl-hls build failed:\n{}\n{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    (
        std::fs::read_to_string(out.join("report.html")).expect("report.html written"),
        String::from_utf8_lossy(&r.stdout).into_owned(),
    )
}

fn report_json(out: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("report.json")).expect("report.json");
    serde_json::from_str(&text).expect("report.json parses")
}

mod common;
use common::Tmp;

/// Checks that `text` is well-formed XML (a leading doctype allowed): every tag closed
/// in order, attributes quoted and not repeated, `&` only in the five named entities or
/// numeric references, no `<` in text or attribute values. Returns the element names.
fn well_formed(text: &str) -> Result<Vec<String>, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = text.trim_start();
    if let Some(r) = rest.strip_prefix("<!DOCTYPE html>") {
        rest = r;
    }
    let at = |r: &str| text.len() - r.len();
    while !rest.is_empty() {
        let lt = rest.find('<').unwrap_or(rest.len());
        check_text(&rest[..lt]).map_err(|e| format!("{e} at byte {}", at(rest)))?;
        rest = &rest[lt..];
        if rest.is_empty() {
            break;
        }
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").ok_or("unclosed comment")?;
            rest = &r[end + 3..];
            continue;
        }
        let gt = rest
            .find('>')
            .ok_or_else(|| format!("unclosed tag at byte {}", at(rest)))?;
        let tag = &rest[1..gt];
        let pos = at(rest);
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?} at byte {pos}")),
            }
            continue;
        }
        let (body, empty) = match tag.strip_suffix('/') {
            Some(b) => (b, true),
            None => (tag, false),
        };
        let name_end = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
        let name = &body[..name_end];
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(format!("bad tag name `{name}` at byte {pos}"));
        }
        check_attrs(&body[name_end..]).map_err(|e| format!("<{name}>: {e} at byte {pos}"))?;
        seen.push(name.to_string());
        if !empty {
            stack.push(name.to_string());
        }
    }
    match stack.last() {
        None => Ok(seen),
        Some(open) => Err(format!("<{open}> never closed")),
    }
}

fn check_text(t: &str) -> Result<(), String> {
    let mut rest = t;
    while let Some(amp) = rest.find('&') {
        let r = &rest[amp + 1..];
        let semi = r.find(';').ok_or("bare &")?;
        let ent = &r[..semi];
        let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos")
            || ent
                .strip_prefix('#')
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if !ok {
            return Err(format!("unknown entity &{ent};"));
        }
        rest = &r[semi + 1..];
    }
    Ok(())
}

fn check_attrs(mut s: &str) -> Result<(), String> {
    let mut names = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(());
        }
        let eq = s
            .find('=')
            .ok_or_else(|| format!("attribute without value: `{s}`"))?;
        let name = s[..eq].trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
        {
            return Err(format!("bad attribute name `{name}`"));
        }
        if names.contains(&name) {
            return Err(format!("attribute {name} repeated"));
        }
        names.push(name);
        let r = s[eq + 1..].trim_start();
        let r = r
            .strip_prefix('"')
            .ok_or_else(|| format!("{name} not quoted"))?;
        let end = r
            .find('"')
            .ok_or_else(|| format!("{name} quote not closed"))?;
        let value = &r[..end];
        if value.contains('<') {
            return Err(format!("< in attribute {name}"));
        }
        check_text(value)?;
        s = &r[end + 1..];
    }
}

/// Every `<svg ...>...</svg>` element of the page.
fn svgs(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let Some(len) = rest[start..].find("</svg>") else {
            break;
        };
        out.push(&rest[start..start + len + 6]);
        rest = &rest[start + len + 6..];
    }
    out
}

/// What the page must not reference: anything off the machine.
fn external_refs(html: &str) -> Vec<String> {
    let allowed = "http://www.w3.org/2000/svg";
    let mut found = Vec::new();
    for scheme in [
        "http://", "https://", "//fonts", "src=", "@import", "url(http",
    ] {
        let mut rest = html;
        while let Some(i) = rest.find(scheme) {
            if !rest[i..].starts_with(allowed) {
                found.push(rest[i..].chars().take(60).collect());
            }
            rest = &rest[i + scheme.len()..];
        }
    }
    found
}

/// `escape` as the page must apply it.
fn escaped(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn checker_rejects_what_a_parser_would() {
    assert!(well_formed("<a><b/></a>").is_ok());
    assert!(well_formed("<a><b></a>").is_err());
    assert!(well_formed("<a x=1></a>").is_err());
    assert!(well_formed("<a x=\"1\" x=\"2\"></a>").is_err());
    assert!(well_formed("<a>R&D</a>").is_err());
    assert!(well_formed("<a>a < b</a>").is_err());
    assert!(well_formed("<a>&amp;&#39;</a>").is_ok());
    assert!(external_refs("<svg xmlns=\"http://www.w3.org/2000/svg\"/>").is_empty());
    assert_eq!(external_refs("<img src=\"https://x\"/>").len(), 2);
}

#[test]
fn vadd_page_has_the_kernel_and_its_register_map() {
    let t = Tmp::new("vadd");
    let out = t.0.join("out");
    let html = build(&shared("vadd.cl"), "de10", &out);
    let tags = well_formed(&html).unwrap_or_else(|e| panic!("report.html: {e}"));
    assert!(tags.contains(&"table".to_string()));
    assert_eq!(external_refs(&html), Vec::<String>::new());
    assert!(html.contains("<h2>Kernel <code>vadd</code></h2>"), "{html}");
    assert!(html.contains("5CSEBA6U23I7"), "the board's device is named");
    let json = report_json(&out);
    let args = json["kernels"][0]["register_map"]["args"]
        .as_array()
        .expect("register map args");
    assert!(!args.is_empty());
    for a in args {
        let name = a["name"].as_str().unwrap();
        let off = a["offset"].as_u64().unwrap();
        let row = format!("<code>0x{off:02X}");
        let at = html
            .find(&format!("<code>arg {name}</code>"))
            .unwrap_or_else(|| panic!("argument {name} missing"));
        let line_start = html[..at].rfind("<tr>").unwrap();
        assert!(
            html[line_start..at].contains(&row),
            "argument {name} not at offset {off:#x}"
        );
    }
    for fixed in ["0x00", "0x04", "0x10", "0x38", "0x3C"] {
        assert!(html.contains(&format!("<code>{fixed}</code>")), "{fixed}");
    }
    // The opt stage's section: its prices as report.json has them, and vadd's index
    // added 32 bits wide at its source line.
    let opt = &json["kernels"][0]["opt"];
    assert!(html.contains("<h3>Datapath rewrites</h3>"), "{html}");
    assert!(
        html.contains(&format!(
            "logic {} → {}",
            opt["before"]["logic"], opt["after"]["logic"]
        )),
        "{opt}"
    );
    assert!(html.contains("priced as 16 logic units"), "{html}");
    assert!(
        html.contains("<tr><td><code>vadd.cl:") && html.contains("(trunc32 "),
        "{html}"
    );
    let graphs = svgs(&html);
    assert_eq!(graphs.len(), 1);
    well_formed(graphs[0]).unwrap_or_else(|e| panic!("svg: {e}"));
    assert!(graphs[0].contains("load global a"), "ops are labelled");
    assert!(
        graphs[0].contains("vadd.cl:"),
        "op tooltips name the source line"
    );
}

#[test]
fn loop_kernel_lists_each_loop_with_its_source_line() {
    let t = Tmp::new("fir");
    let out = t.0.join("out");
    let cl = shared("fir_constant.cl");
    let html = build(&cl, "de10", &out);
    well_formed(&html).unwrap_or_else(|e| panic!("report.html: {e}"));
    let source = std::fs::read_to_string(&cl).unwrap();
    let json = report_json(&out);
    let loops = json["kernels"][0]["loops"].as_array().expect("loops");
    assert!(loops.len() >= 2, "fir_constant has several loops");
    for l in loops {
        let line = l["line"].as_u64().unwrap() as usize;
        let text = source.lines().nth(line - 1).unwrap().trim();
        assert!(
            html.contains(&escaped(text)),
            "loop at line {line}: `{text}` not shown"
        );
        let at = format!("fir_constant.cl:{line}:");
        assert!(html.contains(&at), "{at} not shown");
    }
    assert!(html.contains("<th>Unroll</th>"), "unroll factors are shown");
    assert!(
        html.contains("<td>full</td>"),
        "fir_constant's full unroll hints"
    );
    assert!(html.contains("<th>Min II</th>"), "the II analysis is shown");
    // The tap loops are unrolled and the window is in registers.
    assert!(
        html.contains("<h3>Unrolling</h3>") && html.contains("fir_constant.cl:26:9"),
        "the unrolled loops are listed"
    );
    assert!(
        html.contains("<code>window</code>") && html.contains("is in registers: 16 of f32"),
        "the window is in registers"
    );
    let graphs = svgs(&html);
    assert_eq!(graphs.len(), 1);
    well_formed(graphs[0]).unwrap_or_else(|e| panic!("svg: {e}"));
    assert!(graphs[0].contains("loop L0"), "loops are drawn as frames");
    // The tap loop's frame carries its hint; it has no II of its own once unrolled,
    // the sample loop that holds its copies has.
    assert!(
        graphs[0].contains("line 26 · unroll") && graphs[0].contains("line 18 · min II"),
        "loop frames carry their hints and II"
    );
}

#[test]
fn rebuilding_gives_the_same_bytes() {
    let t = Tmp::new("twice");
    let out = t.0.join("out");
    let first = build(&shared("matmul_tiled.cl"), "de10", &out);
    let second = build(&shared("matmul_tiled.cl"), "de10", &out);
    assert!(first == second, "report.html differs between equal builds");
}

#[test]
fn paths_are_escaped() {
    let t = Tmp::new("esc");
    let dir = t.0.join("R&D <\"k's\">");
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("vadd.cl");
    std::fs::copy(shared("vadd.cl"), &cl).unwrap();
    let html = build(&cl, "sim", &t.0.join("out"));
    well_formed(&html).unwrap_or_else(|e| panic!("report.html: {e}"));
    assert!(!html.contains("R&D"), "raw & from the path");
    assert!(!html.contains("<\"k"), "raw < from the path");
    assert!(
        html.contains("R&amp;D &lt;&quot;k&#39;s&quot;&gt;"),
        "escaped path missing"
    );
}

#[test]
fn big_kernels_collapse_to_blocks() {
    let t = Tmp::new("big");
    let mut src = String::from("__kernel void big(__global int *a) {\n  int x = a[0];\n");
    for i in 0..120 {
        src.push_str(&format!("  x = x * {} + a[{}];\n", i + 3, i % 7));
    }
    src.push_str("  a[1] = x;\n}\n");
    let cl = t.0.join("big.cl");
    std::fs::write(&cl, src).unwrap();
    let html = build(&cl, "sim", &t.0.join("out"));
    well_formed(&html).unwrap_or_else(|e| panic!("report.html: {e}"));
    let graphs = svgs(&html);
    assert_eq!(graphs.len(), 1);
    assert!(html.contains("each block is one box"), "collapse is said");
    assert!(
        !graphs[0].contains("class=\"op "),
        "no op boxes when collapsed"
    );
    assert!(graphs[0].contains(" ops"), "blocks carry op counts");
}

#[test]
fn every_kernel_of_a_file_gets_a_section() {
    let t = Tmp::new("multi");
    let cl = t.0.join("two.cl");
    std::fs::write(
        &cl,
        "__kernel void first(__global int *a) { a[get_global_id(0)] += 1; }\n\
         __kernel void second(__global int *b, int n) {\n\
           for (int i = 0; i < n; i++) b[i] = i;\n\
         }\n",
    )
    .unwrap();
    let html = build(&cl, "sim", &t.0.join("out"));
    well_formed(&html).unwrap_or_else(|e| panic!("report.html: {e}"));
    let ids: BTreeMap<&str, bool> = ["k-first", "k-second"]
        .into_iter()
        .map(|id| (id, html.contains(&format!("id=\"{id}\""))))
        .collect();
    assert!(ids.values().all(|x| *x), "{ids:?}");
    assert_eq!(svgs(&html).len(), 2);
    // Marker ids must be unique across the page's graphs.
    assert!(html.contains("id=\"ah0\"") && html.contains("id=\"ah1\""));
    assert!(html.contains("Resource estimates") || html.contains("simulation only"));
}

fn project_kernel(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/kernels")
        .join(name)
}

/// The `memories` entry named `name` of the only kernel of a report.
fn memory<'a>(r: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    r["kernels"][0]["memories"]
        .as_array()
        .expect("a memories array")
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no memory {name} in {}", r["kernels"][0]["memories"]))
}

/// The summary line of memory `name`.
fn memory_line<'a>(stdout: &'a str, name: &str) -> &'a str {
    stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("memory {name} (")))
        .unwrap_or_else(|| panic!("no summary line for {name}:\n{stdout}"))
}

#[test]
fn memories_show_their_replicas_ports_and_no_conflict_where_banking_serves() {
    let tmp = Tmp::new("mem-ok");
    // matmul_tiled: the unrolled inner product reads As and Bs eight times per
    // work-item, so each gets eight copies, and its loops keep II 1.
    let out = tmp.0.join("matmul");
    let (html, stdout) = build_printing(&shared("matmul_tiled.cl"), "de10", &out);
    let r = report_json(&out);
    for name in ["As", "Bs"] {
        let m = memory(&r, name);
        assert_eq!(m["space"], "__local");
        assert_eq!(m["line"], if name == "As" { 9 } else { 10 });
        assert_eq!(
            (m["word_bytes"].as_u64(), m["depth"].as_u64()),
            (Some(4), Some(64))
        );
        assert_eq!(m["replicas"], 8);
        assert_eq!(
            (m["read_ports"].as_u64(), m["write_ports"].as_u64()),
            (Some(8), Some(1))
        );
        assert_eq!(m["bits"], 2048);
        assert_eq!(m["m10k"]["total"], 8, "one 256 x 40 block per copy");
        assert_eq!(m["conflicts"].as_array().map(Vec::len), Some(0));
        let line = memory_line(&stdout, name);
        assert!(
            line.contains("8 replicas (8 read + 1 write port)"),
            "{line}"
        );
        assert!(line.ends_with("no port conflict"), "{line}");
    }
    assert!(html.contains("<th>M10K</th>") && html.contains("<td><code>As</code></td>"));
    // stencil2d_local: five reads of `tile` per work-item, five copies, no conflict.
    let out = tmp.0.join("stencil");
    let (_, stdout) = build_printing(&shared("stencil2d_local.cl"), "de10", &out);
    let r = report_json(&out);
    let t = memory(&r, "tile");
    assert_eq!(
        (t["depth"].as_u64(), t["replicas"].as_u64()),
        (Some(324), Some(5))
    );
    assert_eq!(t["conflicts"].as_array().map(Vec::len), Some(0));
    assert!(memory_line(&stdout, "tile").ends_with("no port conflict"));
}

#[test]
fn stores_to_neighbouring_words_are_served_by_cyclic_banks_at_ii_1() {
    let tmp = Tmp::new("mem-banks");
    let out = tmp.0.join("local_banks");
    let (html, stdout) = build_printing(&project_kernel("local_banks.cl"), "de10", &out);
    let r = report_json(&out);
    let t = memory(&r, "t");
    assert_eq!(
        (t["banks"].as_u64(), t["replicas"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(
        (t["read_ports"].as_u64(), t["write_ports"].as_u64()),
        (Some(4), Some(4))
    );
    assert_eq!(t["m10k"]["total"], 4, "one 256 x 40 block per bank");
    assert_eq!(t["conflicts"].as_array().map(Vec::len), Some(0));
    // Every work-item loop (four stores, four loads, one load at any bank) starts a
    // work-item per cycle.
    let loops = r["kernels"][0]["loop_analysis"].as_array().expect("loops");
    assert_eq!(loops.len(), 3);
    for l in loops {
        assert_eq!(l["scheduled_ii"], 1, "{l}");
    }
    let line = memory_line(&stdout, "t");
    assert!(
        line.contains("4 cyclic banks (4 read + 4 write ports)")
            && line.ends_with("no port conflict"),
        "{line}"
    );
    assert!(html.contains("<td class=\"n\">4 cyclic banks</td>"));
}

#[test]
fn banks_and_replica_caps_the_source_asks_for_are_built() {
    let tmp = Tmp::new("mem-attrs");
    let out = tmp.0.join("memory_attrs");
    let (_, stdout) = build_printing(&project_kernel("memory_attrs.cl"), "de10", &out);
    let r = report_json(&out);
    let shape = |name: &str| {
        let m = memory(&r, name);
        (m["banks"].as_u64(), m["replicas"].as_u64())
    };
    assert_eq!(shape("a"), (Some(2), Some(1)), "numbanks(2)");
    assert_eq!(
        shape("b"),
        (Some(4), Some(1)),
        "xcl_array_partition(cyclic, 4, 2)"
    );
    assert_eq!(shape("c"), (Some(1), Some(1)), "max_replicates(1)");
    assert_eq!(
        shape("d"),
        (Some(4), Some(1)),
        "xcl_array_partition(block, 4, 1)"
    );
    assert_eq!(memory(&r, "d")["mapping"], "block");
    assert_eq!(memory(&r, "a")["mapping"], "cyclic");
    assert!(memory_line(&stdout, "a").contains("2 cyclic banks"));
    assert!(memory_line(&stdout, "d").contains("4 block banks"));
    // `c`'s three reads per work-item on its one copy cost the loop its II.
    let c = memory(&r, "c");
    assert!(c["conflicts"]
        .as_array()
        .expect("conflicts")
        .iter()
        .any(|x| x["port"] == "read" && x["ii"] == 3));
}

#[test]
fn a_bankwidth_the_plan_cannot_build_is_noted_on_the_memory_line() {
    // bankwidth(4) is an int's size, but the byte loads through a cast make byte words.
    let tmp = Tmp::new("bankwidth");
    let cl = tmp.0.join("bw.cl");
    std::fs::write(
        &cl,
        "__kernel __attribute__((reqd_work_group_size(16, 1, 1)))\n\
         void bw(__global uchar *o) {\n\
         __local uint t[16] __attribute__((bankwidth(4)));\n\
         __local uint u[16] __attribute__((bankwidth(4)));\n\
         t[get_local_id(0)] = get_local_id(0);\n\
         u[get_local_id(0)] = get_local_id(0);\n\
         barrier(CLK_LOCAL_MEM_FENCE);\n\
         o[get_global_id(0)] = ((__local uchar *)t)[get_local_id(0)] + u[15 - get_local_id(0)];\n\
         }\n",
    )
    .expect("write the kernel");
    let (_, stdout) = build_printing(&cl, "sim", &tmp.0.join("out"));
    let r = report_json(&tmp.0.join("out"));
    assert_eq!(memory(&r, "t")["bankwidth_not_built"], 4);
    assert!(memory(&r, "u")["bankwidth_not_built"].is_null());
    assert!(
        memory_line(&stdout, "t").contains("1-byte words (bankwidth(4) asked"),
        "{stdout}"
    );
}

#[test]
fn a_streaming_kernel_gets_lanes_and_says_why() {
    let tmp = Tmp::new("lanes-fit");
    // vadd moves 12 bytes per work-item through the one 32-byte port: 4 lanes fill it.
    let out = tmp.0.join("vadd");
    let (_, stdout) = build_printing(&shared("vadd.cl"), "sim", &out);
    let r = report_json(&out);
    let lanes = &r["kernels"][0]["lanes"];
    assert_eq!(
        (lanes["n"].as_u64(), lanes["from"].as_str()),
        (Some(4), Some("tool"))
    );
    assert!(
        stdout.contains("lanes: 4 work-items per cycle, chosen by ocl-hls: every access streams"),
        "{stdout}"
    );
    assert_eq!(r["kernels"][0]["loop_analysis"][0]["unroll_applied"], 4);
    assert!(!stdout.contains("bandwidth to spare"), "{stdout}");
    // One lane asked for: the report still says how many would fit each buffer's unit.
    let src = tmp.0.join("vadd_one.cl");
    let text = std::fs::read_to_string(shared("vadd.cl")).unwrap().replace(
        "__attribute__((reqd_work_group_size(64, 1, 1)))",
        "__attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_simd_work_items(1)))",
    );
    std::fs::write(&src, text).unwrap();
    let out = tmp.0.join("vadd_one");
    let (_, stdout) = build_printing(&src, "sim", &out);
    let r = report_json(&out);
    assert_eq!(r["kernels"][0]["lanes"]["n"], 1);
    assert_eq!(
        r["kernels"][0]["loop_analysis"][0]["lanes_fit"],
        "8 work-items per cycle would fit the memory ports (4 of 32 bytes per cycle on the \
         busiest buffer's unit): num_simd_work_items(8)"
    );
    assert!(
        stdout.contains("; bandwidth to spare: 8 work-items per cycle"),
        "{stdout}"
    );
    // With the lanes asked for, nothing more to suggest.
    let out = tmp.0.join("vadd_simd");
    let (_, stdout) = build_printing(&project_kernel("vadd_simd.cl"), "sim", &out);
    assert!(!stdout.contains("bandwidth to spare"), "{stdout}");
}

#[test]
fn a_conflict_no_banking_serves_is_reported_with_its_lines_and_ii() {
    let tmp = Tmp::new("mem-conflict");
    let out = tmp.0.join("bank_conflict");
    let (html, stdout) = build_printing(&project_kernel("bank_conflict.cl"), "de10", &out);
    let r = report_json(&out);
    let t = memory(&r, "t");
    let c = t["conflicts"].as_array().expect("conflicts");
    assert_eq!(c.len(), 1, "{c:?}");
    let c = &c[0];
    assert_eq!(c["port"], "write");
    assert_eq!(
        (c["count"].as_u64(), c["ports"].as_u64()),
        (Some(5), Some(1))
    );
    let lines: Vec<&str> = c["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(
        lines,
        (16..=20)
            .map(|l| format!("bank_conflict.cl:{l}:5"))
            .collect::<Vec<_>>()
    );
    assert_eq!(c["line"], 16);
    assert_eq!((c["bound"].as_u64(), c["ii"].as_u64()), (Some(5), Some(5)));
    assert_eq!(
        (c["ii_without"].as_u64(), c["costs"].as_u64()),
        (Some(1), Some(4))
    );
    // The loop it slows is the one whose II the loop analysis reports as 5.
    let l = r["kernels"][0]["loop_analysis"]
        .as_array()
        .expect("loops")
        .iter()
        .find(|l| l["id"] == c["loop_id"])
        .expect("the conflict's loop");
    assert_eq!(l["scheduled_ii"], 5);
    let line = memory_line(&stdout, "t");
    assert!(
        line.contains("5 stores at bank_conflict.cl:16:5")
            && line.contains("on 1 write port: II 5 (1 without)"),
        "{line}"
    );
    assert!(html.contains("on 1 write port: II 5 (1 without, 4 cycles per iteration)"));
}

#[test]
fn local_arguments_of_launch_sizes_are_reported_and_never_versioned() {
    let tmp = Tmp::new("mem-local-args");
    let out = tmp.0.join("local_ptr_sizes");
    // Stores to a `__local` argument beside an unrelated global load once made the
    // pipeline compare the two's address ranges, and `__local` arguments have none.
    let (_, stdout) = build_printing(&project_kernel("local_ptr_sizes.cl"), "de10", &out);
    let r = report_json(&out);
    for l in r["kernels"][0]["loop_analysis"].as_array().expect("loops") {
        assert_eq!(l["overlap_checks"].as_array().map(Vec::len), Some(0), "{l}");
    }
    // Each sized by what its accesses reach, exactly: 64 floats and 16 ints.
    let (a, b) = (memory(&r, "a"), memory(&r, "b"));
    assert_eq!(
        (a["space"].as_str(), b["space"].as_str()),
        (Some("__local argument"), Some("__local argument"))
    );
    assert_eq!(
        (a["depth"].as_u64(), b["depth"].as_u64()),
        (Some(64), Some(16))
    );
    assert!(memory_line(&stdout, "b").contains("at local_ptr_sizes.cl:10:"));
}

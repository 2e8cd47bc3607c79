//! Board files: the built-in boards load and resolve by alias with the DE10-Nano's
//! facts; broken files give errors with file:line:column naming the field and print
//! nothing else; `ocl-hls boards` lists every board.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ocl_hls::board::types::LogicUnit;
use ocl_hls::board::{BoardError, BoardSet, OpClass};

fn boards_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../boards")
}

fn builtin() -> BoardSet {
    match BoardSet::builtin() {
        Ok(s) => s,
        Err(e) => panic!("built-in boards: {}", render(&e)),
    }
}

fn render(errs: &[BoardError]) -> String {
    errs.iter().map(|e| format!("{e}\n")).collect()
}

fn ocl_hls(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run ocl-hls: {e}"))
}

/// A folder holding the DE10-Nano file edited by `edit`; returns the folder and the file.
fn edited_de10(tag: &str, edit: impl Fn(&str) -> String) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("ocl-hls-boards-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let text = std::fs::read_to_string(boards_dir().join("de10-nano.yaml"))
        .unwrap_or_else(|e| panic!("de10-nano.yaml: {e}"));
    let file = dir.join("de10-nano.yaml");
    std::fs::write(&file, edit(&text)).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    (dir, file)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("`{needle}` not in the file"))
}

#[test]
fn every_board_file_loads_and_matches_the_builtin_copy() {
    let set = match BoardSet::load_dir(&boards_dir()) {
        Ok(s) => s,
        Err(e) => panic!("{}", render(&e)),
    };
    let names: Vec<&str> = set.boards.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "de1-soc",
            "de10-nano",
            "de10-standard",
            "icebreaker",
            "sim",
            "ulx3s"
        ]
    );
    let builtin = builtin();
    assert_eq!(builtin.boards.len(), set.boards.len());
    for (a, b) in builtin.boards.iter().zip(&set.boards) {
        assert_eq!(
            serde_json::to_string(a).ok(),
            serde_json::to_string(b).ok(),
            "the built-in {} differs from {}",
            a.name,
            b.path.display()
        );
    }
}

#[test]
fn de10_is_the_de10_nano_with_its_facts() {
    let set = builtin();
    let b = set.resolve("de10").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b.name, "de10-nano");
    let d = b.device.as_ref().unwrap_or_else(|| panic!("no device"));
    assert_eq!(
        (d.family.as_str(), d.part.as_str()),
        ("Cyclone V", "5CSEBA6U23I7")
    );
    let r = b
        .resources
        .as_ref()
        .unwrap_or_else(|| panic!("no resources"));
    assert_eq!((r.logic.unit, r.logic.count), (LogicUnit::Alm, 41_910));
    assert_eq!(r.dsps.count, 112);
    assert_eq!(
        (r.block_ram.name.as_str(), r.block_ram.count),
        ("M10K", 553)
    );
    let clk = &b.clocks[0];
    assert_eq!(
        (
            clk.name.as_str(),
            clk.pin.as_str(),
            clk.mhz,
            clk.io_standard.as_str()
        ),
        ("FPGA_CLK1_50", "PIN_V11", 50.0, "3.3-V LVTTL")
    );
    let leds = b.pins.leds.as_ref().unwrap_or_else(|| panic!("no LEDs"));
    assert_eq!(leds.pins.len(), 8);
    assert_eq!(leds.pins[0], "PIN_W15");
    let hps = b.hps.as_ref().unwrap_or_else(|| panic!("no HPS"));
    assert_eq!(hps.control_bridge.base, 0xFF20_0000);
    assert_eq!(hps.sdram.size_bytes, 1 << 30);
    assert_eq!(
        (hps.data_port.width_bits, hps.data_port.burst_beats),
        (256, 16)
    );
    assert_eq!((b.memory.data_width, b.memory.burst_beats), (256, 16));
}

#[test]
fn libraries_follow_the_templates_and_every_class_covers_every_width() {
    let set = builtin();
    let lib = set
        .resolve("de10")
        .unwrap_or_else(|e| panic!("{e}"))
        .library();
    let lat = |c, w| lib.cost(c, w).latency;
    // The float units' default LATENCY (module headers), the divider's WIDTH + 2.
    for (c, l) in [
        (OpClass::FpAdd, 6),
        (OpClass::FpMul, 4),
        (OpClass::FpFma, 5),
        (OpClass::FpDiv, 16),
        (OpClass::FpSqrt, 14),
        (OpClass::FpCmp, 1),
        (OpClass::FpMinMax, 1),
        (OpClass::FpToInt, 2),
        (OpClass::IntToFp, 2),
        (OpClass::FpToHalf, 1),
        (OpClass::HalfToFp, 1),
    ] {
        assert_eq!(lat(c, 32), l, "{c}");
    }
    assert_eq!(lat(OpClass::IntDiv, 32), 34);
    assert_eq!(lat(OpClass::IntDiv, 16), 18);
    assert_eq!(lib.cost(OpClass::FpAdd, 32).area.logic, 335);
    assert_eq!(lib.cost(OpClass::FpMul, 32).area.dsps, 1);
    assert_eq!(lat(OpClass::IntAdd, 32), 0, "adders chain");
    for b in &set.boards {
        let lib = b.library();
        for c in OpClass::LIBRARY {
            for w in [1, 8, 16, 32, 64] {
                let cost = lib.cost(c, w);
                assert!(
                    cost.ii >= 1 && cost.delay_ns <= lib.period_ns,
                    "{} {c} {w}",
                    b.name
                );
            }
        }
    }
}

#[test]
fn an_unknown_field_is_an_error_at_its_line_naming_the_field() {
    let (dir, file) = edited_de10("unknown", |t| {
        t.replace("  plls: 6\n", "  plls: 6\n  ferrite: 3\n")
    });
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let line = line_of(&text, "ferrite");
    let errs = BoardSet::load_dir(&dir)
        .err()
        .unwrap_or_else(|| panic!("accepted"));
    assert_eq!(errs.len(), 1, "{}", render(&errs));
    let msg = errs[0].to_string();
    assert!(
        msg.starts_with(&format!("{}:{line}:3: error: ", file.display())),
        "{msg}"
    );
    assert!(msg.contains("unknown field `ferrite`"), "{msg}");
    // The command prints the error and nothing on stdout.
    let out = ocl_hls(&["boards", "--dir", &dir.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("de10-nano.yaml:{line}:3")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_resource_is_an_error_naming_it() {
    let (dir, file) = edited_de10("missing", |t| {
        t.lines()
            .filter(|l| !l.starts_with("  dsps:"))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let errs = BoardSet::load_dir(&dir)
        .err()
        .unwrap_or_else(|| panic!("accepted"));
    assert_eq!(errs.len(), 1, "{}", render(&errs));
    let e = &errs[0];
    assert_eq!(e.file, file);
    assert!(e.message.contains("missing field `dsps`"), "{e}");
    // serde points at the start of the `resources` mapping.
    assert_eq!(
        e.line_col.map(|l| l.0),
        Some(line_of(&text, "resources:") + 1),
        "{e}"
    );
    let out = ocl_hls(&["boards", "--dir", &dir.display().to_string(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn semantic_problems_are_errors_at_the_operator() {
    let (dir, file) = edited_de10("semantic", |t| {
        t.replace("latency: 244, ii: 1", "latency: 24, ii: 1")
            .replace(
                "    - {latency: 66, delay_ns: 1.5",
                "    - {max_width: 64, latency: 66, delay_ns: 1.5",
            )
    });
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    let errs = BoardSet::load_dir(&dir)
        .err()
        .unwrap_or_else(|| panic!("accepted"));
    let all = render(&errs);
    assert_eq!(errs.len(), 2, "{all}");
    assert!(
        all.contains("`global_load`: latency 24 is below the memory's latency_cycles 240"),
        "{all}"
    );
    assert!(
        all.contains("`int_div`: the last tier must have no `max_width`"),
        "{all}"
    );
    let div_line = line_of(&text, "  int_div:");
    assert!(
        all.contains(&format!("de10-nano.yaml:{div_line}:3: error")),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_boards_are_errors_listing_the_known_ones() {
    let e = builtin().resolve("de11").err().unwrap_or_default();
    assert!(
        e.contains("unknown board `de11`") && e.contains("de10-nano"),
        "{e}"
    );
    let out = ocl_hls(&["boards", "de11"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_boards_command_lists_every_board() {
    let out = ocl_hls(&["boards"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for b in &builtin().boards {
        assert!(
            text.lines().any(|l| l.starts_with(&b.name)),
            "{} missing:\n{text}",
            b.name
        );
    }
    let de10 = text
        .lines()
        .find(|l| l.starts_with("de10-nano"))
        .unwrap_or_default();
    for want in [
        "de10",
        "5CSEBA6U23I7",
        "41,910 ALMs",
        "112",
        "553 M10K",
        "100 MHz",
        "quartus",
    ] {
        assert!(de10.contains(want), "`{want}` not in `{de10}`");
    }
    let ulx3s = text
        .lines()
        .find(|l| l.starts_with("ulx3s"))
        .unwrap_or_default();
    assert!(
        ulx3s.contains("yosys+nextpnr-ecp5") && ulx3s.contains("LFE5U-85F"),
        "{ulx3s}"
    );

    let out = ocl_hls(&["boards", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("JSON: {e}"));
    let boards = v["boards"].as_array().cloned().unwrap_or_default();
    assert_eq!(boards.len(), 6);
    let nano = boards
        .iter()
        .find(|b| b["name"] == "de10-nano")
        .cloned()
        .unwrap_or_default();
    assert_eq!(nano["resources"]["logic"]["count"], 41910);
    assert_eq!(nano["operators"]["fp_add"][0]["latency"], 6);

    let out = ocl_hls(&["boards", "de10"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("PIN_V11") && text.contains("fp_div"),
        "{text}"
    );

    let out = ocl_hls(&["boards", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Examples:"));
}

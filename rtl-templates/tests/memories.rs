//! Memory templates (1r1w RAM with and without byte enables, true dual-port RAM, ROM from
//! a hex file, banked RAM with cyclic and block mapping) simulated in Verilator against
//! an array model.

use rtl_templates::template;
use rtl_templates::verilator::{cache_dir, run, Build};
use std::fmt::Write as _;
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// 256 pseudo-random 32-bit words (xorshift, fixed seed) as a `$readmemh` file.
fn write_rom_hex() -> Result<PathBuf, String> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut text = String::new();
    for _ in 0..256 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let _ = writeln!(text, "{:08x}", x as u32);
    }
    std::fs::create_dir_all(cache_dir()).map_err(|e| e.to_string())?;
    let path = cache_dir().join("memories_rom.hex");
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    Ok(path)
}

#[test]
fn memories_match_array_model() {
    let hex = write_rom_hex().unwrap_or_else(|e| panic!("{e}"));
    let hex_str = hex.to_string_lossy().into_owned();
    let mut b = Build::new("tb_memories")
        .source(tb("tb_memories.v"))
        .param("ROM_FILE", format!("\"{hex_str}\""));
    for m in [
        "ohls_ram_1r1w.v",
        "ohls_ram_tdp.v",
        "ohls_rom.v",
        "ohls_banked_ram.v",
    ] {
        b = b.source(template(m));
    }
    let exe = b
        .testbench(tb("memories_tb.cpp"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run(&exe, &["5", "200000", &hex_str]).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("PASS"), "{out}");
}

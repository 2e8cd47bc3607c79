//! The Quartus flow of a generated project as a list of steps (program, arguments, what
//! it makes), so the README, the `build.sh` script and the driver that runs Quartus when
//! it is installed all name exactly the same commands.

/// One command, run in `OUT/quartus/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Short stage name for progress lines.
    pub stage: &'static str,
    pub program: &'static str,
    pub args: Vec<String>,
}

impl Step {
    /// The command as a shell line (arguments quoted when they need it).
    pub fn shell(&self) -> String {
        let mut s = self.program.to_string();
        for a in &self.args {
            s.push(' ');
            if a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=./,:".contains(c))
            {
                s.push_str(a);
            } else {
                s.push('\'');
                s.push_str(&a.replace('\'', "'\\''"));
                s.push('\'');
            }
        }
        s
    }
}

/// Where Platform Designer looks for the kernel components: `ip/` below the project,
/// then its own library (`$`).
pub const SEARCH_PATH: &str = "ip/**/*,$";

/// The script `qsys-generate` writes that assigns the HPS DDR3 pins' I/O standards and
/// terminations; it reads the synthesised netlist, so it runs between synthesis and the
/// full compile.
pub fn ddr_pin_script(system: &str) -> String {
    format!("{system}/synthesis/submodules/hps_sdram_p0_pin_assignments.tcl")
}

/// The `.sof` Quartus writes and the `.rbf` made from it, relative to `OUT/quartus/`.
pub fn sof(project: &str) -> String {
    format!("output_files/{project}.sof")
}
pub fn rbf(project: &str) -> String {
    format!("output_files/{project}.rbf")
}

/// Every step from the system script to the `.rbf`, for `project` with system `system`.
pub fn steps(project: &str, system: &str) -> Vec<Step> {
    let s = |stage, program, args: &[&str]| Step {
        stage,
        program,
        args: args.iter().map(|a| a.to_string()).collect(),
    };
    vec![
        s(
            "platform designer: system",
            "qsys-script",
            &[
                &format!("--search-path={SEARCH_PATH}"),
                &format!("--script={system}.tcl"),
            ],
        ),
        s(
            "platform designer: generate",
            "qsys-generate",
            &[
                &format!("{system}.qsys"),
                "--synthesis=VERILOG",
                &format!("--search-path={SEARCH_PATH}"),
                &format!("--output-directory={system}"),
            ],
        ),
        s("analysis and synthesis", "quartus_map", &[project]),
        s(
            "HPS DDR3 pin assignments",
            "quartus_sta",
            &["-t", &ddr_pin_script(system), project],
        ),
        s(
            "compile (synthesis, fit, assembler, timing)",
            "quartus_sh",
            &["--flow", "compile", project],
        ),
        s(
            "raw binary (.rbf)",
            "quartus_cpf",
            &[
                "-c",
                "-o",
                "bitstream_compression=on",
                &sof(project),
                &rbf(project),
            ],
        ),
    ]
}

/// A `build.sh` running the steps, stopping at the first failure.
pub fn script(project: &str, system: &str) -> String {
    let mut s = String::from(
        "#!/bin/sh\n# Builds the FPGA image with Quartus (written by ocl-hls). Run from this folder.\nset -e\ncd \"$(dirname \"$0\")\"\n",
    );
    for st in steps(project, system) {
        s.push_str(&format!("echo '== {}'\n{}\n", st.stage, st.shell()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_run_in_the_flow_order() {
        let st = steps("vadd", "vadd_system");
        let progs: Vec<&str> = st.iter().map(|s| s.program).collect();
        assert_eq!(
            progs,
            [
                "qsys-script",
                "qsys-generate",
                "quartus_map",
                "quartus_sta",
                "quartus_sh",
                "quartus_cpf"
            ]
        );
        assert_eq!(
            st[3].shell(),
            "quartus_sta -t vadd_system/synthesis/submodules/hps_sdram_p0_pin_assignments.tcl vadd"
        );
        assert_eq!(
            st[0].shell(),
            "qsys-script '--search-path=ip/**/*,$' --script=vadd_system.tcl"
        );
        assert!(script("vadd", "vadd_system").contains("quartus_sh --flow compile vadd\n"));
    }
}

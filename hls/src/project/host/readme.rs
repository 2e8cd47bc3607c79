//! `OUT/host/README.md`: the files, the API in a few lines, the simulation run, and on
//! Quartus boards the DE10-Nano steps from bitstream to a run, with what the tests could
//! not check without a board.

use std::fmt::Write as _;

use super::HostKernel;
use crate::board::Board;
use crate::rtl::regmap::RegArgKind;

pub fn readme(board: &Board, project: &str, kernels: &[HostKernel], quartus: bool) -> String {
    let first = kernels
        .first()
        .map(|k| k.kernel.name.as_str())
        .unwrap_or("NAME");
    let eg = kernels.first().map(example_args).unwrap_or_default();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Host programs for {} (board {})\n",
        kernels_list(kernels),
        board.name
    );
    s.push_str(
        "Written by ocl-hls. The same C runs on the board and against the Verilator model of \
         the cores: only the backend linked in differs.\n\n## Files\n\n\
         - `ohls_runtime.h`, `ohls_runtime.c`: the runtime: open the device, allocate buffers the \
         cores reach, copy in and out, launch (arguments, sizes, start, wait for DONE with a \
         timeout), errors as messages (`ohls_last_error`).\n\
         - `ohls_de10.c`: the DE10-Nano backend (HPS Linux, `/dev/mem`); `ohls_sim.c`: the \
         simulation backend (runs the Verilator model built by ocl-hls's harness).\n\
         - `NAME.h` per kernel: register offsets (`NAME_ARG_x_OFFSET`), the core's description \
         (`NAME_kernel`) and the typed launch `NAME_run(dev, args..., global, local)`.\n\
         - `NAME_main.c` per kernel: an example program: inputs from files, one launch, every \
         buffer written to `OUT/NAME.bin`; `ohls_example.[ch]` its command line.\n\
         - `sim/`: the Verilator harness and each core's port binding, for `make model`.\n\
         - `Makefile`: `make` cross-compiles `NAME_host` for the board's ARM, `make sim` builds \
         `NAME_host_sim` for this machine, `make model` the Verilator models.\n\n",
    );
    let _ = writeln!(
        s,
        "## The API\n\n```c\n#include \"{first}.h\"\n\nohls_dev *dev;\nif (ohls_open(&dev, NULL) != 0) \
         {{ fprintf(stderr, \"%s\\n\", ohls_last_error(dev)); ... }}\nohls_buf *a;\n\
         ohls_buf_alloc(dev, bytes, &a);\nohls_buf_write(dev, a, 0, data, bytes);\n\
         ohls_set_timeout(dev, 2000);            /* ms; a hung launch fails, never blocks */\n\
         uint32_t global[3] = {{1024, 1, 1}}, local[3] = {{64, 1, 1}};\n\
         if ({first}_run(dev, /* the kernel's arguments */ ..., global, local) != 0) ...\n\
         ohls_buf_read(dev, a, 0, data, bytes);\nohls_close(dev);\n```\n\n\
         Before starting a core the runtime checks the launch against it: the local size must \
         divide the global size, stay within the core's work-group limits (and equal \
         `reqd_work_group_size` when the kernel has one), scalars must have their size and \
         `__local` sizes must fit the core's local memory. A failure names the argument or \
         dimension. The core's STATUS error code (a memory error response) becomes a message \
         too, and a launch that does not finish within the timeout is reported as such.\n"
    );
    let _ = writeln!(
        s,
        "## Running against the Verilator model\n\n```sh\nmake sim model\n./{first}_host_sim --device ./{first}_model \
         --global G0[,G1,G2] --local L0[,L1,L2] {eg} --out results\n```\n\n\
         `make model` builds `NAME_model` with Verilator from `../rtl/` and the harness under \
         `sim/` (ocl-hls's `sim/cpp`, with the core's generated port binding `sim/bind_NAME.cpp`): \
         the model `ocl-hls run --engine sim` runs, with the memory model's default timing. \
         `OHLS_SIM_MODEL` may name it instead of `--device`. Each launch runs it once in a \
         temporary directory (`OHLS_SIM_KEEP=1` keeps it); the timeout becomes its cycle \
         limit at 100 MHz (`OHLS_SIM_CYCLES_PER_MS`). The model also faults, with the \
         address, on an access outside every buffer: the runtime leaves an unmapped gap as \
         large as each buffer after it, so a buffer too small for the launch is an error \
         there, not silent corruption. The board's memory width is simulated as built \
         ({} bits).\n",
        kernels.first().map(|k| k.data_bits).unwrap_or(32)
    );
    if quartus {
        de10(&mut s, board, project, kernels, first);
    }
    s
}

/// `NAME=...` for each argument of `k`, as the example programs take them.
fn example_args(k: &HostKernel) -> String {
    let v: Vec<String> = k
        .regmap
        .args
        .iter()
        .map(|a| match a.kind {
            RegArgKind::Buffer { .. } => format!("{0}=@{0}.bin", a.name),
            RegArgKind::Local { .. } => format!("{}=BYTES", a.name),
            _ => format!("{}=VALUE", a.name),
        })
        .collect();
    v.join(" ")
}

fn kernels_list(kernels: &[HostKernel]) -> String {
    let v: Vec<&str> = kernels.iter().map(|k| k.kernel.name.as_str()).collect();
    v.join(", ")
}

fn de10(s: &mut String, board: &Board, project: &str, kernels: &[HostKernel], first: &str) {
    let eg = kernels.first().map(example_args).unwrap_or_default();
    let bridge = board
        .hps
        .as_ref()
        .map(|h| h.control_bridge.base)
        .unwrap_or(0xFF20_0000);
    let sdram = board
        .hps
        .as_ref()
        .map(|h| h.data_port.width_bits)
        .unwrap_or(board.memory.data_width);
    let _ = writeln!(s, "## On the DE10-Nano, step by step\n");
    s.push_str(
        "Address map of this build (the control registers through the lightweight \
         HPS-to-FPGA bridge):\n\n| kernel | core | registers (HPS physical) | interrupt |\n\
         |---|---|---|---|\n",
    );
    for k in kernels {
        let irq = k
            .irq
            .map(|i| format!("f2h_irq0 {i} (GIC SPI {})", 40 + i))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "| {} | {} | {:#010X} | {irq} |",
            k.kernel.name,
            k.top,
            bridge + k.csr_offset
        );
    }
    let _ = writeln!(
        s,
        "\n1. **Bitstream.** `ocl-hls build` runs Quartus when `quartus_sh` is on PATH (else \
         `sh ../quartus/build.sh`); the FPGA image for the HPS is \
         `../quartus/output_files/{project}.rbf`.\n\
         2. **SD card.** Start from a DE10-Nano Linux image with U-Boot (Terasic's or one \
         built from the Cyclone V SoC GHRD). Copy the `.rbf` to the card's FAT partition as \
         `ohls.rbf`. The image is compressed: leave the MSEL switches (SW10) at the factory \
         setting ON-OFF-ON-OFF-ON, which takes compressed images. The preloader (SPL) sets up \
         the SDRAM controller's FPGA-to-SDRAM ports (widths, FIFO mapping) from the handoff \
         files of the design it was built for; if the image's preloader comes from a design \
         whose port differs from this build's ({sdram} bits, port 0), rebuild it from the \
         handoff files Quartus writes to `../quartus/hps_isw_handoff/` (SoC EDS \
         `bsp-create-settings --type spl`, or mainline U-Boot's `cv_bsp_generator.py`).\n\
         3. **Configure the FPGA from U-Boot**, before Linux: the FPGA-to-SDRAM port can only \
         leave reset while the SDRAM is idle, which is the case in U-Boot. At the U-Boot \
         prompt (or in `bootcmd`):\n\n   ```\n   fatload mmc 0:1 ${{loadaddr}} ohls.rbf\n   \
         fpga load 0 ${{loadaddr}} ${{filesize}}\n   bridge enable\n   ```\n\n   \
         `bridge enable` releases the HPS-to-FPGA bridges and the FPGA-to-SDRAM ports \
         (the SDRAM controller's `fpgaportrst`); on older Terasic images the same is \
         `run bridge_enable_handoff`. If the ports stay in reset, `mw.l 0xFFC25080 0x3FFF` \
         (the SDRAM controller's `fpgaportrst`) releases them all.\n\
         4. **Keep memory for the buffers away from Linux.** The cores read and write SDRAM \
         through the FPGA-to-SDRAM port at physical addresses, so buffers must be \
         physically contiguous and untouched by Linux. The default is the top 64 MiB of the \
         1 GiB (0x3C000000-0x3FFFFFFF): add `mem=960M` to the kernel command line (in U-Boot: \
         `setenv bootargs ${{bootargs}} mem=960M`, or edit `mmcboot`). Or reserve it in the \
         device tree:\n\n   ```dts\n   reserved-memory {{\n       #address-cells = <1>;\n       \
         #size-cells = <1>;\n       ranges;\n       ohls_buffers: buffer@3c000000 {{\n           \
         reg = <0x3c000000 0x04000000>;\n           no-map;\n       }};\n   }};\n   ```\n\n   \
         Another region: set `OHLS_DMA_BASE` and `OHLS_DMA_SIZE` (bytes) in the environment. \
         With the u-dma-buf driver (`insmod u-dma-buf.ko udmabuf0=67108864`) pass \
         `--device udmabuf0` instead: the runtime reads its physical address from sysfs.\n\
         5. **Cross-compile** on the PC: `apt-get install gcc-arm-linux-gnueabihf`, then `make` \
         here; copy `{first}_host` to the board (`scp {first}_host root@de10:`).\n\
         6. **Run as root** on the board (the runtime maps `/dev/mem`):\n\n   ```sh\n   \
         ./{first}_host --global G0[,G1,G2] --local L0[,L1,L2] {eg} --out results\n   ```\n\n   \
         `--help` lists the arguments of each program. The runtime first checks that the core \
         answers at its address (the `MAGIC` register reads \"OHLS\" and `NARGS` matches): a \
         wrong or missing bitstream or a disabled bridge is reported, not run.\n\n\
         **Cache coherence.** The FPGA-to-SDRAM port does not snoop the ARM's caches. The \
         runtime maps the buffer memory with `O_SYNC`, which makes the mapping uncached: every \
         copy in reaches SDRAM before START (a barrier follows it), and every copy out reads \
         SDRAM after DONE. Copies use aligned 32-bit accesses, as uncached memory takes no \
         unaligned ones. A program that wants cached buffers (faster CPU access) must clean \
         the cache before START and invalidate it after DONE itself, for example with \
         u-dma-buf's `sync_for_device`/`sync_for_cpu` files.\n\n\
         **Waiting.** The runtime polls STATUS (bit 0 DONE) every 20 us until the timeout \
         (10 s by default, `--timeout-ms`). The cores also raise an interrupt (the table's \
         f2h_irq line); waiting on it needs a UIO device-tree node, which this runtime does \
         not use. After a timeout the core may still be running: reload the bitstream.\n\n\
         ### Not checked without a board\n\n\
         The tests build the board programs with `arm-linux-gnueabihf-gcc -Wall -Wextra` \
         (no warnings) and run the same runtime, headers and example programs against the \
         Verilator model of each core. Not checked on hardware: the U-Boot commands and the \
         bridge release, whether the image's preloader configures the FPGA-to-SDRAM port as \
         this build needs, `mem=960M` or the device-tree reservation keeping Linux off the \
         region, `/dev/mem` mapping it uncached on the image's kernel (`CONFIG_STRICT_DEVMEM` \
         allows it because the region is not System RAM then), the cores answering at the \
         addresses above, and the FPGA-to-SDRAM port's view of the physical addresses. On the \
         board an out-of-bounds access by the core is not detected (the simulation faults on \
         it)."
    );
}

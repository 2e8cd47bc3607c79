// tb_memories: test wrapper with several memory configurations in one Verilator model:
// a byte-enabled 1r1w RAM, a word 1r1w RAM of non-power-of-two depth, a true dual-port
// RAM, a ROM loaded from ROM_FILE, and banked RAMs (cyclic and block, 4 banks; cyclic
// with 3 banks).
module tb_memories #(
    parameter ROM_FILE = ""
) (
    input  wire         clk,
    // r0: ohls_ram_1r1w WIDTH 32 DEPTH 64 BYTE_EN 1
    input  wire         r0_we,
    input  wire [5:0]   r0_waddr,
    input  wire [31:0]  r0_wdata,
    input  wire [3:0]   r0_wbe,
    input  wire         r0_re,
    input  wire [5:0]   r0_raddr,
    output wire [31:0]  r0_rdata,
    // r1: ohls_ram_1r1w WIDTH 16 DEPTH 100
    input  wire         r1_we,
    input  wire [6:0]   r1_waddr,
    input  wire [15:0]  r1_wdata,
    input  wire         r1_re,
    input  wire [6:0]   r1_raddr,
    output wire [15:0]  r1_rdata,
    // t: ohls_ram_tdp WIDTH 32 DEPTH 64
    input  wire         ta_en,
    input  wire         ta_we,
    input  wire [5:0]   ta_addr,
    input  wire [31:0]  ta_wdata,
    output wire [31:0]  ta_rdata,
    input  wire         tb_en,
    input  wire         tb_we,
    input  wire [5:0]   tb_addr,
    input  wire [31:0]  tb_wdata,
    output wire [31:0]  tb_rdata,
    // rom: ohls_rom WIDTH 32 DEPTH 256
    input  wire         rom_en,
    input  wire [7:0]   rom_addr,
    output wire [31:0]  rom_data,
    // bc / bb: ohls_banked_ram WIDTH 32 DEPTH 64 NBANKS 4, cyclic / block
    // b3: ohls_banked_ram WIDTH 32 DEPTH 48 NBANKS 3 cyclic (6-bit addresses)
    input  wire [3:0]   bc_wr_en, bb_wr_en,
    input  wire [23:0]  bc_wr_addr, bb_wr_addr,
    input  wire [127:0] bc_wr_data, bb_wr_data,
    input  wire [3:0]   bc_rd_en, bb_rd_en,
    input  wire [23:0]  bc_rd_addr, bb_rd_addr,
    output wire [127:0] bc_rd_data, bb_rd_data,
    output wire [3:0]   bc_rd_conflict, bb_rd_conflict, bc_wr_conflict, bb_wr_conflict,
    input  wire [2:0]   b3_wr_en,
    input  wire [17:0]  b3_wr_addr,
    input  wire [95:0]  b3_wr_data,
    input  wire [2:0]   b3_rd_en,
    input  wire [17:0]  b3_rd_addr,
    output wire [95:0]  b3_rd_data,
    output wire [2:0]   b3_rd_conflict, b3_wr_conflict
);
    ohls_ram_1r1w #(.WIDTH(32), .DEPTH(64), .BYTE_EN(1)) r0 (
        .clk(clk), .we(r0_we), .waddr(r0_waddr), .wdata(r0_wdata), .wbe(r0_wbe),
        .re(r0_re), .raddr(r0_raddr), .rdata(r0_rdata));
    ohls_ram_1r1w #(.WIDTH(16), .DEPTH(100), .BYTE_EN(0)) r1 (
        .clk(clk), .we(r1_we), .waddr(r1_waddr), .wdata(r1_wdata), .wbe(1'b1),
        .re(r1_re), .raddr(r1_raddr), .rdata(r1_rdata));
    ohls_ram_tdp #(.WIDTH(32), .DEPTH(64)) t (
        .clk(clk), .a_en(ta_en), .a_we(ta_we), .a_addr(ta_addr), .a_wdata(ta_wdata),
        .a_rdata(ta_rdata), .b_en(tb_en), .b_we(tb_we), .b_addr(tb_addr), .b_wdata(tb_wdata),
        .b_rdata(tb_rdata));
    ohls_rom #(.WIDTH(32), .DEPTH(256), .INIT_FILE(ROM_FILE)) rom (
        .clk(clk), .en(rom_en), .addr(rom_addr), .data(rom_data));
    ohls_banked_ram #(.WIDTH(32), .DEPTH(64), .NBANKS(4), .MAPPING(0)) bc (
        .clk(clk), .wr_en(bc_wr_en), .wr_addr(bc_wr_addr), .wr_data(bc_wr_data),
        .rd_en(bc_rd_en), .rd_addr(bc_rd_addr), .rd_data(bc_rd_data),
        .rd_conflict(bc_rd_conflict), .wr_conflict(bc_wr_conflict));
    ohls_banked_ram #(.WIDTH(32), .DEPTH(64), .NBANKS(4), .MAPPING(1)) bb (
        .clk(clk), .wr_en(bb_wr_en), .wr_addr(bb_wr_addr), .wr_data(bb_wr_data),
        .rd_en(bb_rd_en), .rd_addr(bb_rd_addr), .rd_data(bb_rd_data),
        .rd_conflict(bb_rd_conflict), .wr_conflict(bb_wr_conflict));
    ohls_banked_ram #(.WIDTH(32), .DEPTH(48), .NBANKS(3), .MAPPING(0)) b3 (
        .clk(clk), .wr_en(b3_wr_en), .wr_addr(b3_wr_addr), .wr_data(b3_wr_data),
        .rd_en(b3_rd_en), .rd_addr(b3_rd_addr), .rd_data(b3_rd_data),
        .rd_conflict(b3_rd_conflict), .wr_conflict(b3_wr_conflict));
endmodule

// ohls_banked_ram: NBANKS banks of simple dual-port RAM (ohls_ram_1r1w) behind NBANKS
// read lanes and NBANKS write lanes, so a kernel can make up to NBANKS reads and NBANKS
// writes per cycle into one logical array.
//
// Mapping of a word address to (bank, offset), chosen by MAPPING:
//   0 cyclic: bank = addr % NBANKS,          offset = addr / NBANKS
//   1 block:  bank = addr / (DEPTH/NBANKS),  offset = addr % (DEPTH/NBANKS)
// (NBANKS and DEPTH/NBANKS powers of two make these bit slices; other values work but
// cost a constant divider.) Each lane carries a full word address; a crossbar routes it
// to its bank. Accesses in one cycle are conflict-free when the lanes' addresses map to
// different banks, which the compiler's banking analysis guarantees. If two enabled
// lanes of the same kind hit one bank, the lowest-numbered lane wins and the others are
// dropped and flagged on rd_conflict / wr_conflict (for assertions in simulation).
// Read latency 1 cycle (rd_data registered in the bank, lane routing registered);
// read-during-write of the same address returns the old word, as ohls_ram_1r1w.
//
// Port layout (lane i = 0..NBANKS-1; AW = $clog2(DEPTH)):
//   wr_en[i]                      lane i writes this cycle
//   wr_addr[i*AW +: AW]           lane i's word address
//   wr_data[i*WIDTH +: WIDTH]     lane i's data
//   rd_en[i]                      lane i reads this cycle
//   rd_addr[i*AW +: AW]           lane i's word address
//   rd_data[i*WIDTH +: WIDTH]     lane i's read data, one cycle after rd_en[i]
//   rd_conflict[i], wr_conflict[i]  lane i lost to a lower lane on the same bank (same
//                                   cycle as the request)
//
// Parameters
//   WIDTH    bits per word
//   DEPTH    total words; a multiple of NBANKS, DEPTH / NBANKS >= 2
//   NBANKS   number of banks and of lanes of each kind (>= 1)
//   MAPPING  0 cyclic, 1 block
module ohls_banked_ram #(
    parameter WIDTH = 32,
    parameter DEPTH = 1024,
    parameter NBANKS = 4,
    parameter MAPPING = 0
) (
    input  wire                              clk,
    input  wire [NBANKS-1:0]                 wr_en,
    input  wire [NBANKS*$clog2(DEPTH)-1:0]   wr_addr,
    input  wire [NBANKS*WIDTH-1:0]           wr_data,
    input  wire [NBANKS-1:0]                 rd_en,
    input  wire [NBANKS*$clog2(DEPTH)-1:0]   rd_addr,
    output wire [NBANKS*WIDTH-1:0]           rd_data,
    output reg  [NBANKS-1:0]                 rd_conflict,
    output reg  [NBANKS-1:0]                 wr_conflict
);
    localparam AW = $clog2(DEPTH);
    localparam BDEPTH = DEPTH / NBANKS;
    localparam OW = $clog2(BDEPTH);
    localparam BW = (NBANKS > 1) ? $clog2(NBANKS) : 1;

    // The arithmetic is done on 32-bit integers so one form serves any NBANKS; only the
    // low bits of each result are the bank or offset, hence the narrow lint waivers.
    function [BW-1:0] bank_of;
        input [AW-1:0] addr;
        integer a;
        /* verilator lint_off UNUSEDSIGNAL */
        integer b;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            a = {{(32 - AW) {1'b0}}, addr};
            if (MAPPING == 0) b = a % NBANKS;
            else b = a / BDEPTH;
            bank_of = b[BW-1:0];
        end
    endfunction

    function [OW-1:0] offset_of;
        input [AW-1:0] addr;
        integer a;
        /* verilator lint_off UNUSEDSIGNAL */
        integer o;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            a = {{(32 - AW) {1'b0}}, addr};
            if (MAPPING == 0) o = a / NBANKS;
            else o = a % BDEPTH;
            offset_of = o[OW-1:0];
        end
    endfunction

    // Per-bank port signals chosen by the crossbar.
    reg [NBANKS-1:0] b_we;
    reg [NBANKS*OW-1:0] b_waddr;
    reg [NBANKS*WIDTH-1:0] b_wdata;
    reg [NBANKS-1:0] b_re;
    reg [NBANKS*OW-1:0] b_raddr;
    wire [NBANKS*WIDTH-1:0] b_rdata;
    reg [NBANKS*BW-1:0] lane_bank_q;  // bank each lane read last cycle

    integer lane;
    integer bank;
    always @(*) begin
        b_we = {NBANKS{1'b0}};
        b_re = {NBANKS{1'b0}};
        b_waddr = {NBANKS * OW{1'b0}};
        b_raddr = {NBANKS * OW{1'b0}};
        b_wdata = {NBANKS * WIDTH{1'b0}};
        wr_conflict = {NBANKS{1'b0}};
        rd_conflict = {NBANKS{1'b0}};
        // Highest lane first, so the lowest lane's claim is the one left standing.
        for (lane = NBANKS - 1; lane >= 0; lane = lane - 1) begin
            if (wr_en[lane]) begin
                bank = {{(32 - BW) {1'b0}}, bank_of(wr_addr[lane*AW+:AW])};
                b_we[bank] = 1'b1;
                b_waddr[bank*OW+:OW] = offset_of(wr_addr[lane*AW+:AW]);
                b_wdata[bank*WIDTH+:WIDTH] = wr_data[lane*WIDTH+:WIDTH];
            end
            if (rd_en[lane]) begin
                bank = {{(32 - BW) {1'b0}}, bank_of(rd_addr[lane*AW+:AW])};
                b_re[bank] = 1'b1;
                b_raddr[bank*OW+:OW] = offset_of(rd_addr[lane*AW+:AW]);
            end
        end
        // A lane conflicts when a lower lane claimed the same bank.
        for (lane = 1; lane < NBANKS; lane = lane + 1) begin
            for (bank = 0; bank < lane; bank = bank + 1) begin
                if (wr_en[lane] && wr_en[bank] &&
                    bank_of(wr_addr[lane*AW+:AW]) == bank_of(wr_addr[bank*AW+:AW]))
                    wr_conflict[lane] = 1'b1;
                if (rd_en[lane] && rd_en[bank] &&
                    bank_of(rd_addr[lane*AW+:AW]) == bank_of(rd_addr[bank*AW+:AW]))
                    rd_conflict[lane] = 1'b1;
            end
        end
    end

    always @(posedge clk) begin
        for (lane = 0; lane < NBANKS; lane = lane + 1) begin
            if (rd_en[lane]) lane_bank_q[lane*BW+:BW] <= bank_of(rd_addr[lane*AW+:AW]);
        end
    end

    genvar g;
    generate
        for (g = 0; g < NBANKS; g = g + 1) begin : g_bank
            ohls_ram_1r1w #(
                .WIDTH(WIDTH),
                .DEPTH(BDEPTH),
                .BYTE_EN(0)
            ) u_ram (
                .clk(clk),
                .we(b_we[g]),
                .waddr(b_waddr[g*OW+:OW]),
                .wdata(b_wdata[g*WIDTH+:WIDTH]),
                .wbe(1'b1),
                .re(b_re[g]),
                .raddr(b_raddr[g*OW+:OW]),
                .rdata(b_rdata[g*WIDTH+:WIDTH])
            );
            assign rd_data[g*WIDTH+:WIDTH] = b_rdata[lane_bank_q[g*BW+:BW]*WIDTH+:WIDTH];
        end
    endgenerate
endmodule

// ohls_banked_ram: NBANKS banks of simple dual-port RAM (ohls_ram_1r1w) behind NBANKS
// read lanes and NBANKS write lanes, so a kernel can make up to NBANKS reads and NBANKS
// writes per cycle into one logical array.
//
// Mapping of a word address to (bank, offset), chosen by MAPPING:
//   0 cyclic: bank = addr % NBANKS,          offset = addr / NBANKS
//   1 block:  bank = addr / (DEPTH/NBANKS),  offset = addr % (DEPTH/NBANKS)
// (NBANKS and DEPTH/NBANKS powers of two make these bit slices; other values work but
// cost a constant divider per lane: Yosys maps 4 banks x 256 x 32 to 4 DP16KD and about
// 2.6k LUT4 of crossbar, 3 banks x 256 to about 8.5k LUT4.) Each lane carries a full word address; a crossbar routes it
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

    // Bank and offset of an address. Powers of two take bit slices; other sizes divide
    // by a constant on AW+1 bits. Only the low bits of each result are the bank or
    // offset, hence the narrow lint waivers.
    localparam POW2 = ((NBANKS & (NBANKS - 1)) == 0) && ((BDEPTH & (BDEPTH - 1)) == 0);
    localparam integer NB_I = NBANKS;
    localparam integer BD_I = BDEPTH;
    localparam [AW:0] NB = NB_I[AW:0];
    localparam [AW:0] BD = BD_I[AW:0];

    function [BW-1:0] bank_of;
        input [AW-1:0] addr;
        reg [AW:0] a;
        /* verilator lint_off UNUSEDSIGNAL */
        reg [AW:0] b;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            a = {1'b0, addr};
            if (MAPPING == 0) b = POW2 ? (a & (NB - 1'b1)) : (a % NB);
            else b = POW2 ? (a >> OW) : (a / BD);
            bank_of = b[BW-1:0];
        end
    endfunction

    function [OW-1:0] offset_of;
        input [AW-1:0] addr;
        reg [AW:0] a;
        /* verilator lint_off UNUSEDSIGNAL */
        reg [AW:0] o;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            a = {1'b0, addr};
            if (MAPPING == 0) o = POW2 ? (a >> (NBANKS > 1 ? BW : 0)) : (a / NB);
            else o = POW2 ? (a & (BD - 1'b1)) : (a % BD);
            offset_of = o[OW-1:0];
        end
    endfunction

    localparam LW = (NBANKS > 1) ? $clog2(NBANKS) : 1;  // lane index bits

    wire [NBANKS*BW-1:0] wr_bank;
    wire [NBANKS*BW-1:0] rd_bank;
    reg [NBANKS*BW-1:0] lane_bank_q;  // bank each lane read last cycle
    wire [NBANKS*WIDTH-1:0] b_rdata;

    genvar g;
    generate
        for (g = 0; g < NBANKS; g = g + 1) begin : g_lane
            assign wr_bank[g*BW+:BW] = bank_of(wr_addr[g*AW+:AW]);
            assign rd_bank[g*BW+:BW] = bank_of(rd_addr[g*AW+:AW]);
            always @(posedge clk) begin
                if (rd_en[g]) lane_bank_q[g*BW+:BW] <= rd_bank[g*BW+:BW];
            end
            assign rd_data[g*WIDTH+:WIDTH] = b_rdata[lane_bank_q[g*BW+:BW]*WIDTH+:WIDTH];
        end

        for (g = 0; g < NBANKS; g = g + 1) begin : g_bank
            // The lowest enabled lane addressing this bank drives its ports.
            reg w_hit;
            reg r_hit;
            reg [LW-1:0] w_lane;
            reg [LW-1:0] r_lane;
            integer l;
            always @(*) begin
                w_hit = 1'b0;
                r_hit = 1'b0;
                w_lane = {LW{1'b0}};
                r_lane = {LW{1'b0}};
                for (l = NBANKS - 1; l >= 0; l = l - 1) begin
                    if (wr_en[l] && wr_bank[l*BW+:BW] == g) begin
                        w_hit = 1'b1;
                        w_lane = l[LW-1:0];
                    end
                    if (rd_en[l] && rd_bank[l*BW+:BW] == g) begin
                        r_hit = 1'b1;
                        r_lane = l[LW-1:0];
                    end
                end
            end
            ohls_ram_1r1w #(
                .WIDTH(WIDTH),
                .DEPTH(BDEPTH),
                .BYTE_EN(0)
            ) u_ram (
                .clk(clk),
                .we(w_hit),
                .waddr(offset_of(wr_addr[w_lane*AW+:AW])),
                .wdata(wr_data[w_lane*WIDTH+:WIDTH]),
                .wbe(1'b1),
                .re(r_hit),
                .raddr(offset_of(rd_addr[r_lane*AW+:AW])),
                .rdata(b_rdata[g*WIDTH+:WIDTH])
            );
        end
    endgenerate

    // A lane conflicts when a lower lane claimed the same bank.
    integer i;
    integer j;
    always @(*) begin
        wr_conflict = {NBANKS{1'b0}};
        rd_conflict = {NBANKS{1'b0}};
        for (i = 1; i < NBANKS; i = i + 1) begin
            for (j = 0; j < i; j = j + 1) begin
                if (wr_en[i] && wr_en[j] && wr_bank[i*BW+:BW] == wr_bank[j*BW+:BW])
                    wr_conflict[i] = 1'b1;
                if (rd_en[i] && rd_en[j] && rd_bank[i*BW+:BW] == rd_bank[j*BW+:BW])
                    rd_conflict[i] = 1'b1;
            end
        end
    end
endmodule

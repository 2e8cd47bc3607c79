// ohls_ram_1r1w: simple dual-port RAM, one write port and one read port on one clock,
// written the way Quartus (M10K / MLAB) and Yosys (BRAM / LUTRAM) infer block RAM.
//
// Read latency 1 cycle: rdata is registered and holds its value while re is low.
// Throughput: one write and one read every cycle. Read-during-write to the same address
// returns the OLD word (the value before this cycle's write), which M10K supports for
// single-clock simple dual port and Yosys models exactly. Contents are undefined after
// configuration (no reset: block RAM cannot be reset).
//
// Parameters
//   WIDTH    bits per word (a multiple of 8 when BYTE_EN = 1)
//   DEPTH    number of words (>= 2)
//   BYTE_EN  1: wbe has one enable per byte lane; 0: wbe is 1 bit and ignored
// Ports
//   clk             clock
//   we, waddr,      write enable, word address, data; with BYTE_EN only the bytes whose
//   wdata, wbe      wbe bit is set are written
//   re, raddr       read enable and word address
//   rdata           the word at raddr, one cycle after re
module ohls_ram_1r1w #(
    parameter WIDTH = 32,
    parameter DEPTH = 1024,
    parameter BYTE_EN = 0
) (
    input  wire                                clk,
    input  wire                                we,
    input  wire [$clog2(DEPTH)-1:0]            waddr,
    input  wire [WIDTH-1:0]                    wdata,
    input  wire [((BYTE_EN != 0) ? WIDTH / 8 : 1)-1:0] wbe,
    input  wire                                re,
    input  wire [$clog2(DEPTH)-1:0]            raddr,
    output reg  [WIDTH-1:0]                    rdata
);
    localparam NBE = (BYTE_EN != 0) ? WIDTH / 8 : 1;

    reg [WIDTH-1:0] mem[0:DEPTH-1];

    generate
        if (BYTE_EN != 0) begin : g_byte_en
            integer i;
            always @(posedge clk) begin
                for (i = 0; i < NBE; i = i + 1) begin
                    if (we && wbe[i]) mem[waddr][i*8+:8] <= wdata[i*8+:8];
                end
            end
        end else begin : g_word
            always @(posedge clk) begin
                if (we) mem[waddr] <= wdata;
            end
            wire unused_wbe = &{1'b0, wbe};
        end
    endgenerate

    always @(posedge clk) begin
        if (re) rdata <= mem[raddr];
    end
endmodule

// ohls_ram_tdp: true dual-port RAM, two independent read/write ports on one clock, in the
// single-clock template Quartus (M10K) and Yosys (ECP5 DP16KD) infer.
//
// Each port: read latency 1 cycle, rdata registered and held while en is low; one
// access per port per cycle. Read-during-write: on the same port rdata shows the NEW
// word being written (write-first); a read on the other port of the address being
// written returns the OLD word. Both ports writing the same address in the same cycle
// leaves that word undefined (the caller must not do it). No reset of the contents.
// Inference: this is Intel's single-clock true-dual-port template (M10K in Quartus) and
// Yosys maps it to RAMB36E1 for Xilinx; Yosys 0.23's ECP5 flow does not map it to DP16KD
// and falls back to logic, so ECP5 designs should prefer ohls_ram_1r1w or banking.
//
// Parameters
//   WIDTH  bits per word
//   DEPTH  number of words (>= 2)
// Ports (x = a or b)
//   clk                 clock
//   x_en                access this cycle (read, or write when x_we)
//   x_we                write x_wdata at x_addr
//   x_addr, x_wdata     word address, write data
//   x_rdata             read data (or the written data), one cycle after x_en
module ohls_ram_tdp #(
    parameter WIDTH = 32,
    parameter DEPTH = 1024
) (
    input  wire                     clk,
    input  wire                     a_en,
    input  wire                     a_we,
    input  wire [$clog2(DEPTH)-1:0] a_addr,
    input  wire [WIDTH-1:0]         a_wdata,
    output reg  [WIDTH-1:0]         a_rdata,
    input  wire                     b_en,
    input  wire                     b_we,
    input  wire [$clog2(DEPTH)-1:0] b_addr,
    input  wire [WIDTH-1:0]         b_wdata,
    output reg  [WIDTH-1:0]         b_rdata
);
    reg [WIDTH-1:0] mem[0:DEPTH-1];

    always @(posedge clk) begin
        if (a_en) begin
            if (a_we) begin
                mem[a_addr] <= a_wdata;
                a_rdata <= a_wdata;
            end else begin
                a_rdata <= mem[a_addr];
            end
        end
    end

    always @(posedge clk) begin
        if (b_en) begin
            if (b_we) begin
                mem[b_addr] <= b_wdata;
                b_rdata <= b_wdata;
            end else begin
                b_rdata <= mem[b_addr];
            end
        end
    end
endmodule

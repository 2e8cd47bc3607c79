// ohls_delay_ram: a delay line of DEPTH enabled clock edges in block RAM, the drop-in
// replacement for a chain of DEPTH registers that share one enable and whose inner taps
// nobody reads (a value a pipelined loop carries across a long memory latency).
//
// Equivalence: out equals in as sampled DEPTH enabled edges ago, and holds while en is
// low, exactly like the register chain. Before DEPTH enabled edges have passed since
// reset, out is the RAM's undefined content, as a never-reset register chain's output
// would be.
//
// A circular buffer of DEPTH words: each enabled edge writes in at wr_ptr and reads the
// word at rd_ptr = wr_ptr + 1 (mod DEPTH), the oldest one, into the output register. The
// two addresses always differ, so read-during-write behaviour never matters and Yosys
// and Quartus infer a simple dual-port RAM (M10K or MLAB) with a registered read whose
// read enable holds the output during stalls.
//
// Parameters
//   WIDTH  bits per value (>= 1)
//   DEPTH  delay in enabled clock edges (>= 2, need not be a power of two)
// Ports
//   clk, rst  clock; synchronous active-high reset (only the pointers; the data is
//             undefined until DEPTH enabled edges have passed)
//   en        advance the line by one value (the register chain's common enable)
//   in, out   the value entering the line, the value leaving it
module ohls_delay_ram #(
    parameter WIDTH = 32,
    parameter DEPTH = 64
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    input  wire [WIDTH-1:0] in,
    output wire [WIDTH-1:0] out
);
    localparam PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam integer LAST_I = DEPTH - 1;
    localparam [PW-1:0] LAST = LAST_I[PW-1:0];
    localparam [PW-1:0] ONE = {{(PW - 1){1'b0}}, 1'b1};

    reg [WIDTH-1:0] mem[0:DEPTH-1];
    reg [WIDTH-1:0] q;
    reg [PW-1:0] wr_ptr;
    reg [PW-1:0] rd_ptr;

    assign out = q;

    always @(posedge clk) begin
        if (en) begin
            mem[wr_ptr] <= in;
            q <= mem[rd_ptr];
        end
    end

    // rd_ptr runs one word ahead of wr_ptr, so it names the word written DEPTH - 1
    // enabled edges before the current one; with the output register that is DEPTH.
    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= {PW{1'b0}};
            rd_ptr <= ONE;
        end else if (en) begin
            wr_ptr <= (wr_ptr == LAST) ? {PW{1'b0}} : wr_ptr + 1'b1;
            rd_ptr <= (rd_ptr == LAST) ? {PW{1'b0}} : rd_ptr + 1'b1;
        end
    end
endmodule

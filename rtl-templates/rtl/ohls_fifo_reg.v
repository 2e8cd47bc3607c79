// ohls_fifo_reg: register-based first-word-fall-through FIFO for small depths.
//
// Storage is DEPTH registers of WIDTH bits with a read-pointer mux on the output, so the
// head item is visible on out_data in the cycle after it was pushed (latency 1).
// Throughput: one push and one pop per cycle, both in the same cycle (DEPTH >= 2; with
// DEPTH = 1 a push and a pop alternate because in_ready does not look at out_ready).
// Handshake: valid/ready with AXI-stream rules. in_ready = !full (it never depends on
// out_ready, so no combinational path crosses the FIFO); out_valid = !empty and out_data
// stays stable while out_valid && !out_ready.
//
// Parameters
//   WIDTH  bits per item (>= 1)
//   DEPTH  number of items it holds (>= 1, need not be a power of two)
// Ports
//   clk, rst              clock; synchronous active-high reset (empties the FIFO)
//   in_valid, in_ready    push side handshake; in_data is the item pushed
//   out_valid, out_ready  pop side handshake; out_data is the head item
//   count                 items held now ($clog2(DEPTH+1) bits)
//   full, empty           count == DEPTH, count == 0
module ohls_fifo_reg #(
    parameter WIDTH = 32,
    parameter DEPTH = 4
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       in_valid,
    output wire                       in_ready,
    input  wire [WIDTH-1:0]           in_data,
    output wire                       out_valid,
    input  wire                       out_ready,
    output wire [WIDTH-1:0]           out_data,
    output wire [$clog2(DEPTH+1)-1:0] count,
    output wire                       full,
    output wire                       empty
);
    localparam PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
    localparam CW = $clog2(DEPTH + 1);
    localparam integer LAST_I = DEPTH - 1;
    localparam integer DEPTH_I = DEPTH;
    localparam [PW-1:0] LAST = LAST_I[PW-1:0];
    localparam [CW-1:0] FULL_COUNT = DEPTH_I[CW-1:0];

    reg [WIDTH-1:0] mem[0:DEPTH-1];
    reg [PW-1:0] wr_ptr;
    reg [PW-1:0] rd_ptr;
    reg [CW-1:0] cnt;

    wire push = in_valid && in_ready;
    wire pop = out_valid && out_ready;

    assign in_ready = (cnt != FULL_COUNT);
    assign out_valid = (cnt != {CW{1'b0}});
    assign out_data = mem[rd_ptr];
    assign count = cnt;
    assign full = !in_ready;
    assign empty = !out_valid;

    always @(posedge clk) begin
        if (push) mem[wr_ptr] <= in_data;
    end

    always @(posedge clk) begin
        if (rst) begin
            wr_ptr <= {PW{1'b0}};
            rd_ptr <= {PW{1'b0}};
            cnt <= {CW{1'b0}};
        end else begin
            if (push) wr_ptr <= (wr_ptr == LAST) ? {PW{1'b0}} : wr_ptr + 1'b1;
            if (pop) rd_ptr <= (rd_ptr == LAST) ? {PW{1'b0}} : rd_ptr + 1'b1;
            if (push && !pop) cnt <= cnt + 1'b1;
            else if (pop && !push) cnt <= cnt - 1'b1;
        end
    end
endmodule

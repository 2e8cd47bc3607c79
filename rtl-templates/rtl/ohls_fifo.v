// ohls_fifo: first-word-fall-through FIFO that picks its storage by size.
//
// Small FIFOs (DEPTH <= RAM_MIN_DEPTH) are registers (ohls_fifo_reg, latency 1), larger
// ones a block RAM with a prefetch buffer (ohls_fifo_ram, latency 3). Both sustain one
// push and one pop per cycle and have the same ports and valid/ready (AXI-stream)
// handshake; in_ready = !full and never depends on out_ready.
//
// Parameters
//   WIDTH          bits per item (>= 1)
//   DEPTH          number of items it holds (>= 1)
//   RAM_MIN_DEPTH  depths above this use block RAM (default 16)
// Ports
//   clk, rst              clock; synchronous active-high reset (empties the FIFO)
//   in_valid, in_ready    push side handshake; in_data is the item pushed
//   out_valid, out_ready  pop side handshake; out_data is the head item
//   count                 items held now ($clog2(DEPTH+1) bits)
//   full, empty           count == DEPTH, count == 0
module ohls_fifo #(
    parameter WIDTH = 32,
    parameter DEPTH = 16,
    parameter RAM_MIN_DEPTH = 16
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
    generate
        if (DEPTH > RAM_MIN_DEPTH) begin : g_ram
            ohls_fifo_ram #(
                .WIDTH(WIDTH),
                .DEPTH(DEPTH)
            ) u_fifo (
                .clk(clk),
                .rst(rst),
                .in_valid(in_valid),
                .in_ready(in_ready),
                .in_data(in_data),
                .out_valid(out_valid),
                .out_ready(out_ready),
                .out_data(out_data),
                .count(count),
                .full(full),
                .empty(empty)
            );
        end else begin : g_reg
            ohls_fifo_reg #(
                .WIDTH(WIDTH),
                .DEPTH(DEPTH)
            ) u_fifo (
                .clk(clk),
                .rst(rst),
                .in_valid(in_valid),
                .in_ready(in_ready),
                .in_data(in_data),
                .out_valid(out_valid),
                .out_ready(out_ready),
                .out_data(out_data),
                .count(count),
                .full(full),
                .empty(empty)
            );
        end
    endgenerate
endmodule

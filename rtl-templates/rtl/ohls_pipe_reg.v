// ohls_pipe_reg: valid/ready pipeline register (forward-registered slice).
//
// Registers valid and data; ready passes through combinationally
// (in_ready = !out_valid || out_ready), which keeps it to one register of WIDTH bits.
// Use ohls_skid_buffer where the ready path must be broken too. Latency 1 cycle;
// throughput 1 item per cycle. Handshake: valid/ready with AXI-stream rules
// (out_data is stable while out_valid && !out_ready).
//
// Parameters
//   WIDTH  bits per item (>= 1)
// Ports
//   clk, rst              clock; synchronous active-high reset (drops the held item)
//   in_valid, in_ready    upstream handshake; in_data is the item
//   out_valid, out_ready  downstream handshake; out_data is the item
module ohls_pipe_reg #(
    parameter WIDTH = 32
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data
);
    reg out_v;
    reg [WIDTH-1:0] out_d;

    assign in_ready = !out_v || out_ready;
    assign out_valid = out_v;
    assign out_data = out_d;

    always @(posedge clk) begin
        if (rst) out_v <= 1'b0;
        else if (in_ready) out_v <= in_valid;
    end

    always @(posedge clk) begin
        if (in_ready && in_valid) out_d <= in_data;
    end
endmodule

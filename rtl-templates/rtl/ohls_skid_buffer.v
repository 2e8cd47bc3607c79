// ohls_skid_buffer: full-throughput valid/ready register slice that registers both the
// forward path (valid, data) and the backward path (ready).
//
// An output register plus a one-item skid register: in_ready is a flop (!skid_valid), so
// out_ready never reaches the upstream combinationally, and the skid register catches
// the item accepted in the cycle the downstream stalls. Latency 1 cycle; throughput
// 1 item per cycle. Handshake: valid/ready with AXI-stream rules on both sides
// (out_data is stable while out_valid && !out_ready).
//
// Parameters
//   WIDTH  bits per item (>= 1)
// Ports
//   clk, rst              clock; synchronous active-high reset (drops held items)
//   in_valid, in_ready    upstream handshake; in_data is the item
//   out_valid, out_ready  downstream handshake; out_data is the item
module ohls_skid_buffer #(
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
    reg skid_v;
    reg [WIDTH-1:0] out_d;
    reg [WIDTH-1:0] skid_d;

    assign in_ready = !skid_v;
    assign out_valid = out_v;
    assign out_data = out_d;

    wire load_out = out_ready || !out_v;

    always @(posedge clk) begin
        if (rst) begin
            out_v <= 1'b0;
            skid_v <= 1'b0;
        end else if (load_out) begin
            out_v <= skid_v || in_valid;
            skid_v <= 1'b0;
        end else if (in_valid && !skid_v) begin
            skid_v <= 1'b1;
        end
    end

    always @(posedge clk) begin
        if (load_out) out_d <= skid_v ? skid_d : in_data;
        if (!load_out && in_valid && !skid_v) skid_d <= in_data;
    end
endmodule

// ohls_mul_hi: pipelined high half of a full-width product (OpenCL mul_hi), signed or
// unsigned.
//
// Registered operands, a registered 2*WIDTH-bit product, and a registered high half:
// the DSP-friendly shape (input, pipeline and output registers) that Quartus and Yosys
// map to DSP blocks. Latency 3 enabled cycles; throughput one product per enabled cycle.
// No handshake: the pipeline advances when en is high, out_valid marks results.
//
// Parameters
//   WIDTH   operand and result bits (8..64)
//   SIGNED  1: two's complement operands; 0: unsigned
// Ports
//   clk, rst   clock; synchronous active-high reset (clears the valid bits)
//   en         advance the pipeline this cycle
//   in_valid   a, b are a valid operation
//   a, b       operands
//   out_valid  hi belongs to a valid operation
//   hi         bits [2*WIDTH-1:WIDTH] of a * b, 3 enabled cycles after the operands
module ohls_mul_hi #(
    parameter WIDTH = 32,
    parameter SIGNED = 1
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    input  wire             in_valid,
    input  wire [WIDTH-1:0] a,
    input  wire [WIDTH-1:0] b,
    output wire             out_valid,
    output reg  [WIDTH-1:0] hi
);
    localparam W = WIDTH;

    reg [W-1:0] a_q;
    reg [W-1:0] b_q;
    reg [2*W-1:0] prod_q;
    reg [2:0] valid_q;

    // Extending both operands to 2*WIDTH bits makes the low 2*WIDTH bits of the product
    // right for either signedness.
    wire a_ext = (SIGNED != 0) && a_q[W-1];
    wire b_ext = (SIGNED != 0) && b_q[W-1];
    wire [2*W-1:0] a_wide = {{W{a_ext}}, a_q};
    wire [2*W-1:0] b_wide = {{W{b_ext}}, b_q};
    wire [2*W-1:0] prod = a_wide * b_wide;

    always @(posedge clk) begin
        if (en) begin
            a_q <= a;
            b_q <= b;
            prod_q <= prod;
            hi <= prod_q[2*W-1:W];
        end
    end

    always @(posedge clk) begin
        if (rst) valid_q <= 3'b000;
        else if (en) valid_q <= {valid_q[1:0], in_valid};
    end
    assign out_valid = valid_q[2];

    wire unused_lo = &{1'b0, prod_q[W-1:0]};
endmodule

// ohls_addsub_sat: saturating add or subtract (OpenCL add_sat / sub_sat),
// combinational.
//
// Latency 0 (one WIDTH+1-bit adder and a clamp). Results that do not fit clamp to the
// type's range: [0, 2^WIDTH-1] unsigned, [-2^(WIDTH-1), 2^(WIDTH-1)-1] signed.
//
// Parameters
//   WIDTH   operand and result bits (>= 2)
//   SIGNED  1: two's complement; 0: unsigned
// Ports
//   a, b   operands
//   sub    0: y = sat(a + b); 1: y = sat(a - b)
//   y      result
module ohls_addsub_sat #(
    parameter WIDTH = 32,
    parameter SIGNED = 1
) (
    input  wire [WIDTH-1:0] a,
    input  wire [WIDTH-1:0] b,
    input  wire             sub,
    output wire [WIDTH-1:0] y
);
    localparam W = WIDTH;

    wire a_ext = (SIGNED != 0) && a[W-1];
    wire b_ext = (SIGNED != 0) && b[W-1];
    wire [W:0] a_wide = {a_ext, a};
    wire [W:0] b_wide = {b_ext, b};
    wire [W:0] sum = sub ? (a_wide - b_wide) : (a_wide + b_wide);

    // Signed: the W+1-bit result overflows W bits when its top two bits differ; the top
    // bit is the true sign. Unsigned: bit W is the carry (add) or borrow (sub).
    wire s_over = sum[W] != sum[W-1];
    wire [W-1:0] s_clamp = sum[W] ? {1'b1, {(W - 1) {1'b0}}} : {1'b0, {(W - 1) {1'b1}}};
    wire [W-1:0] u_clamp = sub ? {W{1'b0}} : {W{1'b1}};

    assign y = (SIGNED != 0) ? (s_over ? s_clamp : sum[W-1:0])
                             : (sum[W] ? u_clamp : sum[W-1:0]);
endmodule

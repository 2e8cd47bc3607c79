// ohls_fp_minmax: OpenCL fmin / fmax of binary32 values, pipelined.
//
// If exactly one operand is NaN (quiet or signalling) the result is the other operand;
// if both are NaN the result is the canonical quiet NaN 0x7FC00000. Otherwise the smaller
// (fmin) or larger (fmax) operand, with -0 ordered below +0, so fmin(-0, +0) = -0 and
// fmax(-0, +0) = +0 whatever the operand order (OpenCL allows either zero; x86-64
// glibc 2.36 fminf/fmaxf return the first operand when the two compare equal, so
// fminf(+0, -0) = +0 and fmaxf(-0, +0) = -0 there: they differ from this unit only in
// the sign of a zero result).
// Latency: LATENCY cycles, 0..1 (default 1, an output register).
// Throughput: one operation per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0 or 1
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bit)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b, is_max
//   a, b      - operands (binary32 bit patterns)
//   is_max    - 0: fmin, 1: fmax
//   out_valid - result holds a finished operation
//   result    - fmin(a, b) or fmax(a, b)
module ohls_fp_minmax #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [31:0] b,
    input  wire        is_max,
    output wire        out_valid,
    output wire [31:0] result
);
  wire a_nan = (&a[30:23]) & (|a[22:0]);
  wire b_nan = (&b[30:23]) & (|b[22:0]);
  // Sign-magnitude to an order-preserving unsigned key: a total order with -0 < +0.
  wire [31:0] ka = a[31] ? ~a : {1'b1, a[30:0]};
  wire [31:0] kb = b[31] ? ~b : {1'b1, b[30:0]};
  wire a_below = ka < kb;
  wire take_a = is_max ? ~a_below : a_below;
  wire [31:0] res = (a_nan & b_nan) ? 32'h7FC00000 : a_nan ? b : b_nan ? a : take_a ? a : b;

  ohls_fp_stage #(
      .W  (32),
      .REG(LATENCY > 0)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data(res),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule

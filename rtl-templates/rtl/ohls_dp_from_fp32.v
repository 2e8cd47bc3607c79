// ohls_dp_from_fp32: binary32 to binary64 conversion (widening, always exact), pipelined.
//
// Subnormal binary32 inputs become normal binary64 numbers; +-0 and +-inf keep their
// sign. A NaN keeps its sign and payload (shifted to the top of the binary64 fraction)
// and is made quiet, as x86 cvtss2sd does.
// Latency: LATENCY cycles, 0..1 (default 1, an output register).
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..1
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bit)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a
//   a         - the binary32 bit pattern
//   out_valid - result holds a finished conversion
//   result    - the binary64 bit pattern
module ohls_dp_from_fp32 #(
    parameter LATENCY = 1
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    output wire        out_valid,
    output wire [63:0] result
);
  wire [7:0] e = a[30:23];
  wire       e_zero = e == 8'd0;
  wire       e_max = &e;
  wire       frac_nz = |a[22:0];
  // A subnormal f * 2^-149 with its top one at bit 22 - lz: exponent 896 - lz, and the
  // bits below the top one become the fraction.
  wire [4:0] lz;
  ohls_fp_lzc #(
      .W (23),
      .CW(5)
  ) u_lzc (
      .x    (a[22:0]),
      .count(lz)
  );
  wire [22:0] sub_frac = a[22:0] << (lz + 5'd1);
  wire [10:0] sub_exp = 11'd896 - {6'd0, lz};
  wire [63:0] res = e_max ? {a[31], 11'h7FF, frac_nz, a[21:0], 29'd0} :
      ~e_zero ? {a[31], {3'b000, e} + 11'd896, a[22:0], 29'd0} :
      frac_nz ? {a[31], sub_exp, sub_frac, 29'd0} : {a[31], 63'd0};

  ohls_fp_stage #(
      .W  (64),
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

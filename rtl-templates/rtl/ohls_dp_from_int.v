// ohls_dp_from_int: int64 / uint64 to binary64 conversion, four rounding modes, pipelined.
//
// Integers above 2^53 in magnitude are rounded by `rm` (once: no double rounding); zero
// gives +0. Narrower integers are sign- or zero-extended to 64 bits by the caller, and
// then convert exactly.
// Latency: LATENCY cycles, 0..3 (default 2); registers go to the output, after the
// leading-zero count, then the input.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..3
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on x, is_signed, rm
//   x         - the integer
//   is_signed - 1: x is int64 (two's complement), 0: x is uint64
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   out_valid - result holds a finished conversion
//   result    - the float (binary64)
module ohls_dp_from_int #(
    parameter LATENCY = 2
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] x,
    input  wire        is_signed,
    input  wire [ 1:0] rm,
    output wire        out_valid,
    output wire [63:0] result
);
  localparam RANK_IN = 2, RANK_LZC = 1, RANK_OUT = 0;

  wire [63:0] x0;
  wire        sgn0, v0;
  wire [ 1:0] rm0;
  ohls_fp_stage #(
      .W  (67),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({x, is_signed, rm}),
      .out_valid(v0),
      .out_data({x0, sgn0, rm0})
  );

  // ---- magnitude and its leading zeros
  wire neg0 = sgn0 & x0[63];
  wire [63:0] mag0 = neg0 ? (64'd0 - x0) : x0;
  wire [6:0] lz0;
  ohls_fp_lzc #(
      .W (64),
      .CW(7)
  ) u_lzc (
      .x    (mag0),
      .count(lz0)
  );

  wire [63:0] mag1;
  wire [ 6:0] lz1;
  wire [ 1:0] rm1;
  wire neg1, v1;
  ohls_fp_stage #(
      .W  (74),
      .REG(LATENCY > RANK_LZC)
  ) s_lzc (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({mag0, lz0, rm0, neg0}),
      .out_valid(v1),
      .out_data({mag1, lz1, rm1, neg1})
  );

  // ---- normalise and round (bit 63 of the shifted magnitude has exponent 1086 - lz;
  // a zero magnitude shifts to zero and packs as +0)
  wire [63:0] n1 = mag1 << lz1[5:0];
  wire [63:0] res1;
  ohls_fp_round #(
      .EW(11),
      .MW(52),
      .XW(11)
  ) u_round (
      .sign  (neg1),
      .exp   (11'd1086 - {4'b0000, lz1}),
      .mant  (n1[63:11]),
      .guard (n1[10]),
      .sticky(|n1[9:0]),
      .rm    (rm1),
      .result(res1)
  );

  ohls_fp_stage #(
      .W  (64),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v1),
      .in_data(res1),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule

// ohls_int_to_fp: int32 / uint32 to binary32 conversion, four rounding modes, pipelined.
//
// Integers above 2^24 in magnitude are rounded by `rm`; zero gives +0.
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
//   is_signed - 1: x is int32 (two's complement), 0: x is uint32
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   out_valid - result holds a finished conversion
//   result    - the float (binary32)
module ohls_int_to_fp #(
    parameter LATENCY = 2
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] x,
    input  wire        is_signed,
    input  wire [ 1:0] rm,
    output wire        out_valid,
    output wire [31:0] result
);
  localparam RANK_IN = 2, RANK_LZC = 1, RANK_OUT = 0;

  wire [31:0] x0;
  wire        sgn0, v0;
  wire [ 1:0] rm0;
  ohls_fp_stage #(
      .W  (35),
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
  wire neg0 = sgn0 & x0[31];
  wire [31:0] mag0 = neg0 ? (32'd0 - x0) : x0;
  wire [5:0] lz0;
  ohls_fp_lzc #(
      .W (32),
      .CW(6)
  ) u_lzc (
      .x    (mag0),
      .count(lz0)
  );

  wire [31:0] mag1;
  wire [ 5:0] lz1;
  wire [ 1:0] rm1;
  wire neg1, v1;
  ohls_fp_stage #(
      .W  (41),
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

  // ---- normalise and round (bit 31 of the shifted magnitude has exponent 158 - lz)
  wire [31:0] n1 = mag1 << lz1[4:0];
  wire [31:0] res1;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(8)
  ) u_round (
      .sign  (neg1),
      .exp   (8'd158 - {2'b00, lz1}),
      .mant  (n1[31:8]),
      .guard (n1[7]),
      .sticky(|n1[6:0]),
      .rm    (rm1),
      .result(res1)
  );

  ohls_fp_stage #(
      .W  (32),
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

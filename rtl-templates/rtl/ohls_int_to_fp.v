// ohls_int_to_fp: int32 / uint32 (or, with WIDTH = 64, int64 / uint64) to binary32
// conversion, four rounding modes, pipelined.
//
// Integers above 2^24 in magnitude are rounded by `rm`; zero gives +0.
// Latency: LATENCY cycles, 0..3 (default 2); registers go to the output, after the
// leading-zero count, then the input.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..3
//   WIDTH   - 32 (default) or 64: the integer width
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on x, is_signed, rm
//   x         - the integer
//   is_signed - 1: x is signed (two's complement), 0: x is unsigned
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   out_valid - result holds a finished conversion
//   result    - the float (binary32)
module ohls_int_to_fp #(
    parameter LATENCY = 2,
    parameter WIDTH   = 32
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [WIDTH-1:0] x,
    input  wire        is_signed,
    input  wire [ 1:0] rm,
    output wire        out_valid,
    output wire [31:0] result
);
  localparam RANK_IN = 2, RANK_LZC = 1, RANK_OUT = 0;
  // The count holds 0..WIDTH; bit 31 (63) of the shifted magnitude has biased exponent
  // E_TOP - lz.
  localparam CW = WIDTH > 32 ? 7 : 6;
  localparam integer E_TOP_I = WIDTH + 126;
  localparam [7:0] E_TOP = E_TOP_I[7:0];

  wire [WIDTH-1:0] x0;
  wire        sgn0, v0;
  wire [ 1:0] rm0;
  ohls_fp_stage #(
      .W  (WIDTH + 3),
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
  wire neg0 = sgn0 & x0[WIDTH-1];
  wire [WIDTH-1:0] mag0 = neg0 ? ({WIDTH{1'b0}} - x0) : x0;
  wire [CW-1:0] lz0;
  ohls_fp_lzc #(
      .W (WIDTH),
      .CW(CW)
  ) u_lzc (
      .x    (mag0),
      .count(lz0)
  );

  wire [WIDTH-1:0] mag1;
  wire [CW-1:0] lz1;
  wire [1:0] rm1;
  wire neg1, v1;
  ohls_fp_stage #(
      .W  (WIDTH + CW + 3),
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

  // ---- normalise and round (a zero magnitude counts WIDTH zeros: shifted by 0, still 0)
  wire [WIDTH-1:0] n1 = mag1 << lz1[CW-2:0];
  wire [31:0] res1;
  ohls_fp_round #(
      .EW(8),
      .MW(23),
      .XW(8)
  ) u_round (
      .sign  (neg1),
      .exp   (E_TOP - {{(8 - CW) {1'b0}}, lz1}),
      .mant  (n1[WIDTH-1:WIDTH-24]),
      .guard (n1[WIDTH-25]),
      .sticky(|n1[WIDTH-26:0]),
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

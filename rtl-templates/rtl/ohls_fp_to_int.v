// ohls_fp_to_int: binary32 to int32 / uint32 (or, with WIDTH = 64, int64 / uint64)
// conversion, four rounding modes, optional saturation (OpenCL convert_int_sat_* /
// convert_uint_sat_*), pipelined.
//
// The value is rounded to an integer by `rm`, then range-checked for the chosen type.
// In range: the exact rounded integer (-0.3 toward zero is 0 in both types).
// Out of range, with sat = 1: NaN -> 0, too large -> INT_MAX / UINT_MAX, too small ->
// INT_MIN / 0 (OpenCL saturating conversions).
// Out of range (including NaN and +-inf), with sat = 0: 0x80000000 for both int32 and
// uint32 (0x8000000000000000 at WIDTH = 64), the x86 SSE "integer indefinite" value
// (OpenCL leaves this case undefined).
// Latency: LATENCY cycles, 0..3 (default 2); registers go to the output, after the
// alignment shift, then the input.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..3
//   WIDTH   - 32 (default) or 64: the integer width
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, rm, is_signed, sat
//   a         - the float (binary32 bit pattern)
//   rm        - rounding: 0 to nearest even (_rte), 1 toward zero (_rtz), 2 toward +inf
//               (_rtp), 3 toward -inf (_rtn)
//   is_signed - 1: signed result (int32), 0: unsigned result (uint32)
//   sat       - 1: saturate out-of-range values
//   out_valid - result holds a finished conversion
//   result    - the integer (two's complement for int32)
module ohls_fp_to_int #(
    parameter LATENCY = 2,
    parameter WIDTH   = 32
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [31:0] a,
    input  wire [ 1:0] rm,
    input  wire        is_signed,
    input  wire        sat,
    output wire        out_valid,
    output wire [WIDTH-1:0] result
);
  localparam RANK_IN = 2, RANK_SHIFT = 1, RANK_OUT = 0;
  // The aligned value is WIDTH.32 fixed point; its top bit weighs 2^(WIDTH-1), which a
  // float's hidden bit does at biased exponent WIDTH + 126.
  localparam FW = WIDTH + 32;
  localparam integer E_TOP_I = WIDTH + 126;
  localparam [7:0] E_TOP = E_TOP_I[7:0];
  localparam [WIDTH:0] S_MIN_MAG = {2'b01, {(WIDTH - 1) {1'b0}}};
  localparam [WIDTH-1:0] S_MIN = {1'b1, {(WIDTH - 1) {1'b0}}};

  wire [31:0] a0;
  wire [ 1:0] rm0;
  wire sgn0, sat0, v0;
  ohls_fp_stage #(
      .W  (36),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, rm, is_signed, sat}),
      .out_valid(v0),
      .out_data({a0, rm0, sgn0, sat0})
  );

  // ---- align the mantissa as WIDTH.32 fixed point (for 32: m * 2^(e-150) =
  // ({m, 40'b0} >> (158-e)) / 2^32)
  wire [7:0] e0 = a0[30:23];
  wire nan0 = (&e0) & (|a0[22:0]);
  // |a| >= 2^WIDTH (or inf / NaN) does not fit either type.
  wire big0 = e0 > E_TOP;
  wire [7:0] sh0 = big0 ? 8'd0 : (E_TOP - e0);
  wire [FW-1:0] fx0;
  ohls_fp_shr_sticky #(
      .W (FW),
      .SW(8)
  ) u_shr (
      .x ({e0 != 8'd0, a0[22:0], {(WIDTH + 8) {1'b0}}}),
      .sh(sh0),
      .y (fx0)
  );

  wire [WIDTH-1:0] int1;
  wire [1:0] rm1;
  wire g1, st1, sign1, nan1, big1, sgn1, sat1, v1;
  ohls_fp_stage #(
      .W  (WIDTH + 9),
      .REG(LATENCY > RANK_SHIFT)
  ) s_shift (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({fx0[FW-1:32], fx0[31], |fx0[30:0], a0[31], nan0, big0, rm0, sgn0, sat0}),
      .out_valid(v1),
      .out_data({int1, g1, st1, sign1, nan1, big1, rm1, sgn1, sat1})
  );

  // ---- round, range-check, negate
  reg inc1;
  always @* begin
    case (rm1)
      2'd0: inc1 = g1 & (st1 | int1[0]);
      2'd2: inc1 = ~sign1 & (g1 | st1);
      2'd3: inc1 = sign1 & (g1 | st1);
      default: inc1 = 1'b0;
    endcase
  end
  // Rounding cannot carry into bit WIDTH: the floats just below 2^32 and 2^64 are
  // integers already.
  wire [WIDTH:0] mag1 = {1'b0, int1} + {{WIDTH{1'b0}}, inc1};
  wire fits_s = sign1 ? (mag1 <= S_MIN_MAG) : (mag1 < S_MIN_MAG);
  wire fits_u = ~sign1 | (mag1 == {(WIDTH + 1) {1'b0}});
  wire ok1 = ~big1 & (sgn1 ? fits_s : fits_u);
  wire [WIDTH-1:0] val1 = sign1 ? ({WIDTH{1'b0}} - mag1[WIDTH-1:0]) : mag1[WIDTH-1:0];
  wire [WIDTH-1:0] lo1 = sgn1 ? S_MIN : {WIDTH{1'b0}};
  wire [WIDTH-1:0] hi1 = sgn1 ? ~S_MIN : {WIDTH{1'b1}};
  wire [WIDTH-1:0] clamp1 = nan1 ? {WIDTH{1'b0}} : sign1 ? lo1 : hi1;
  wire [WIDTH-1:0] res1 = ok1 ? val1 : sat1 ? clamp1 : S_MIN;

  ohls_fp_stage #(
      .W  (WIDTH),
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

// ohls_dp_to_int: binary64 to 8/16/32/64-bit signed or unsigned integer conversion, four
// rounding modes, optional saturation (OpenCL convert_<type>[_sat][_<mode>]), pipelined.
//
// The value is rounded to an integer by `rm`, then range-checked for the chosen type.
// In range: the exact rounded integer (-0.3 toward zero is 0 in every type).
// Out of range, sat = 1: NaN -> 0, too large -> the type's maximum, too small -> its
// minimum (OpenCL saturating conversions).
// Out of range (including NaN and +-inf), sat = 0, which OpenCL leaves undefined: what
// x86-64 code gives (cvttsd2si), so hardware matches a CPU run:
//   long: 0x8000000000000000; uint, ulong: all ones (also for any negative result);
//   int, and char/short of either sign (converted through int): 0x80000000 when the
//   value does not fit int, then truncated to the type (so char/short get 0).
// The result is 64 bits; narrower types are its low bits.
// Latency: LATENCY cycles, 0..3 (default 2); registers go to the output, after the
// alignment shift, then the input.
// Throughput: one conversion per cycle. Handshake: `en` low freezes the pipeline;
// `in_valid` travels with the operation to `out_valid`.
//
// Parameters:
//   LATENCY - 0..3
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, rm, is_signed, sat, size
//   a         - the float (binary64 bit pattern)
//   rm        - rounding: 0 to nearest even, 1 toward zero, 2 toward +inf, 3 toward -inf
//   is_signed - 1: signed result type
//   sat       - 1: saturate out-of-range values
//   size      - result type width: 0: 8, 1: 16, 2: 32, 3: 64 bits
//   out_valid - result holds a finished conversion
//   result    - the integer (two's complement), in the low bits for narrow types
module ohls_dp_to_int #(
    parameter LATENCY = 2
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [ 1:0] rm,
    input  wire        is_signed,
    input  wire        sat,
    input  wire [ 1:0] size,
    output wire        out_valid,
    output wire [63:0] result
);
  localparam RANK_IN = 2, RANK_SHIFT = 1, RANK_OUT = 0;

  wire [63:0] a0;
  wire [ 1:0] rm0, size0;
  wire sgn0, sat0, v0;
  ohls_fp_stage #(
      .W  (70),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, rm, is_signed, sat, size}),
      .out_valid(v0),
      .out_data({a0, rm0, sgn0, sat0, size0})
  );

  // ---- align the mantissa as 64.64 fixed point:
  // m * 2^(e-1075) * 2^64 = {m, 75'b0} >> (1086 - e)
  wire [10:0] e0 = a0[62:52];
  wire nan0 = (&e0) & (|a0[51:0]);
  // |a| >= 2^64 (or inf / NaN) fits no type.
  wire big0 = e0 >= 11'd1087;
  wire [10:0] sh0 = big0 ? 11'd0 : (11'd1086 - e0);
  wire [127:0] fx0;
  ohls_fp_shr_sticky #(
      .W (128),
      .SW(11)
  ) u_shr (
      .x ({e0 != 11'd0, a0[51:0], 75'd0}),
      .sh(sh0),
      .y (fx0)
  );

  wire [63:0] int1;
  wire [ 1:0] rm1, size1;
  wire g1, st1, sign1, nan1, big1, sgn1, sat1, v1;
  ohls_fp_stage #(
      .W  (75),
      .REG(LATENCY > RANK_SHIFT)
  ) s_shift (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({fx0[127:64], fx0[63], |fx0[62:0], a0[63], nan0, big0, rm0, sgn0, sat0, size0}),
      .out_valid(v1),
      .out_data({int1, g1, st1, sign1, nan1, big1, rm1, sgn1, sat1, size1})
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
  wire [64:0] mag1 = {1'b0, int1} + {64'd0, inc1};
  wire zero1 = mag1 == 65'd0;
  // 2^(w-1) for the chosen width w: the magnitude limit of a negative signed value.
  reg [64:0] half1;
  always @* begin
    case (size1)
      2'd0: half1 = 65'd1 << 7;
      2'd1: half1 = 65'd1 << 15;
      2'd2: half1 = 65'd1 << 31;
      default: half1 = 65'd1 << 63;
    endcase
  end
  wire fits_s = ~big1 & (sign1 ? (mag1 <= half1) : (mag1 < half1));
  wire fits_u = ~big1 & (sign1 ? zero1 : (mag1 < {half1[63:0], 1'b0}));
  // int32 range, the x86 route of the narrow types and int.
  wire fits_i32 = ~big1 & (sign1 ? (mag1 <= (65'd1 << 31)) : (mag1 < (65'd1 << 31)));
  wire [63:0] val1 = sign1 ? (64'd0 - mag1[63:0]) : mag1[63:0];
  wire [63:0] hi_s = half1[63:0] - 64'd1;
  wire [63:0] lo_s = 64'd0 - half1[63:0];
  wire [63:0] hi_u = {hi_s[62:0], 1'b1};
  wire [63:0] clamp1 = nan1 ? 64'd0 : sgn1 ? (sign1 ? lo_s : hi_s) : (sign1 ? 64'd0 : hi_u);
  wire wide1 = size1 == 2'd3;
  wire [63:0] undef1 = (sgn1 & wide1) ? (fits_s ? val1 : 64'h8000000000000000) :
      (~sgn1 & size1[1]) ? (fits_u ? val1 : 64'hFFFFFFFFFFFFFFFF) :
      (fits_i32 ? val1 : 64'h0000000080000000);
  wire ok1 = sgn1 ? fits_s : fits_u;
  wire [63:0] res1 = sat1 ? (ok1 ? val1 : clamp1) : undef1;

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

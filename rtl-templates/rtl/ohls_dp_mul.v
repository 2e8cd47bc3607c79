// ohls_dp_mul: IEEE-754 binary64 multiplier, round to nearest even, pipelined.
//
// result = a * b, correctly rounded, subnormal inputs and outputs exact (no flush to
// zero), +-inf per IEEE 754. NaN results follow x86 SSE (mulsd): the first NaN operand
// (a before b) with its quiet bit set, else the default NaN 0xFFF8000000000000 for inf * 0.
//
// Datapath: 53x53-bit mantissa product with the `*` operator (DSP blocks), leading-zero
// normalisation (for subnormal operands), a sticky right shift for subnormal results,
// round and pack. A NaN result is computed as NaN-mantissa x 1.0 at a safe exponent, so
// its payload comes out of the normal path without extra pipeline registers.
// Latency: LATENCY cycles, 0..5 (default 4); the registers go to the cuts in the order
// output, after the product, after normalise, after denormalise, input.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..5
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b
//   a, b      - operands (binary64 bit patterns)
//   out_valid - result holds a finished operation
//   result    - the product (binary64)
module ohls_dp_mul #(
    parameter LATENCY = 4
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [63:0] b,
    output wire        out_valid,
    output wire [63:0] result
);
  localparam RANK_IN = 4, RANK_MUL = 1, RANK_NORM = 2, RANK_DEN = 3, RANK_OUT = 0;

  wire [63:0] a0, b0;
  wire        v0;
  ohls_fp_stage #(
      .W  (128),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, b}),
      .out_valid(v0),
      .out_data({a0, b0})
  );

  // ---- classify, exponent, mantissa product
  wire a_exp0 = a0[62:52] == 11'd0, b_exp0 = b0[62:52] == 11'd0;
  wire a_max = &a0[62:52], b_max = &b0[62:52];
  wire a_zero = a_exp0 & ~(|a0[51:0]), b_zero = b_exp0 & ~(|b0[51:0]);
  wire a_inf = a_max & ~(|a0[51:0]), b_inf = b_max & ~(|b0[51:0]);
  wire a_nan = a_max & (|a0[51:0]), b_nan = b_max & (|b0[51:0]);
  wire nan1 = a_nan | b_nan | (a_inf & b_zero) | (b_inf & a_zero);
  wire inf1 = a_inf | b_inf;
  wire sign1 = a_nan ? a0[63] : b_nan ? b0[63] : nan1 ? 1'b1 : (a0[63] ^ b0[63]);
  wire [12:0] ea1 = {2'b00, a_exp0 ? 11'd1 : a0[62:52]};
  wire [12:0] eb1 = {2'b00, b_exp0 ? 11'd1 : b0[62:52]};
  // Biased exponent of product bit 105 (the product of two hidden bits lands on 104 or
  // 105); a NaN gets 1024, which neither the normaliser nor the denormaliser moves.
  wire [12:0] e1 = nan1 ? 13'd1024 : ea1 + eb1 - 13'd1022;
  // The NaN's fraction (zero for the default NaN) with the hidden bit, times 1.0.
  wire [51:0] nan_frac = a_nan ? a0[51:0] : b_nan ? b0[51:0] : 52'd0;
  wire [52:0] ma1 = nan1 ? {1'b1, nan_frac} : {~a_exp0, a0[51:0]};
  wire [52:0] mb1 = nan1 ? {1'b1, 52'd0} : {~b_exp0, b0[51:0]};
  wire [105:0] p1 = ma1 * mb1;

  wire nan2, inf2, sign2, v2;
  wire [12:0] e2;
  wire [105:0] p2;
  ohls_fp_stage #(
      .W  (122),
      .REG(LATENCY > RANK_MUL)
  ) s_mul (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({nan1, inf1, sign1, e1, p1}),
      .out_valid(v2),
      .out_data({nan2, inf2, sign2, e2, p2})
  );

  // ---- normalise left, but not below exponent 1 (the rest is the denormaliser's job).
  // Only a subnormal operand times a normal one needs this, and then the product is at
  // least 2^52: the leading one is in the top 54 bits, so the count looks only there.
  // (Two subnormals give exponent <= 0: no left shift at all.)
  wire [5:0] lz2;
  ohls_fp_lzc #(
      .W (54),
      .CW(6)
  ) u_lzc (
      .x    (p2[105:52]),
      .count(lz2)
  );
  wire e2_pos = ~e2[12] & (e2 != 13'd0);
  wire [12:0] room2 = e2 - 13'd1;
  wire [5:0] sh2 = ~e2_pos ? 6'd0 : (room2 < {7'd0, lz2}) ? room2[5:0] : lz2;
  wire [105:0] n2 = p2 << sh2;
  wire [12:0] en2 = e2 - {7'd0, sh2};

  wire nan3, inf3, sign3, v3;
  wire [12:0] e3;
  wire [55:0] n3;
  ohls_fp_stage #(
      .W  (72),
      .REG(LATENCY > RANK_NORM)
  ) s_norm (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v2),
      .in_data({nan2, inf2, sign2, en2, n2[105:51], |n2[50:0]}),
      .out_valid(v3),
      .out_data({nan3, inf3, sign3, e3, n3})
  );

  // ---- subnormal results: shift right to exponent 1 (53 bits, guard, round, sticky)
  wire [12:0] ed3;
  wire [55:0] d3;
  ohls_fp_denorm #(
      .W (56),
      .XW(13)
  ) u_den (
      .exp   (e3),
      .mant  (n3),
      .exp_o (ed3),
      .mant_o(d3)
  );

  wire nan4, inf4, sign4, v4;
  wire [12:0] e4;
  wire [54:0] d4;
  ohls_fp_stage #(
      .W  (71),
      .REG(LATENCY > RANK_DEN)
  ) s_den (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v3),
      .in_data({nan3, inf3, sign3, ed3, d3[55:2], |d3[1:0]}),
      .out_valid(v4),
      .out_data({nan4, inf4, sign4, e4, d4})
  );

  // ---- round and pack
  wire [63:0] rounded4;
  ohls_fp_round #(
      .EW(11),
      .MW(52),
      .XW(13)
  ) u_round (
      .sign  (sign4),
      .exp   (e4),
      .mant  (d4[54:2]),
      .guard (d4[1]),
      .sticky(d4[0]),
      .rm    (2'd0),
      .result(rounded4)
  );
  wire [63:0] res4 = nan4 ? {sign4, 12'hFFF, d4[52:2]} :
      inf4 ? {sign4, 11'h7FF, 52'd0} : rounded4;

  ohls_fp_stage #(
      .W  (64),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v4),
      .in_data(res4),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule

// ohls_dp_add: IEEE-754 binary64 adder/subtractor, round to nearest even, pipelined.
//
// result = a + b (sub = 0) or a - b (sub = 1), correctly rounded, with subnormal inputs
// and outputs handled exactly (no flush to zero), +-inf per IEEE 754. NaN results follow
// x86 SSE (addsd/subsd), so hardware and a CPU give the same bits: the first NaN operand
// (a before b, b with its own sign even for sub) with its quiet bit set, else the default
// NaN 0xFFF8000000000000 for inf - inf. An exact zero sum is +0 unless both addends are -0.
//
// Datapath: swap so |x| >= |y| (a NaN `a` stays x), align y with a sticky shift, add or
// subtract, count leading zeros, normalise (never below the subnormal exponent), round and
// pack. A NaN result travels as x + 0, so its payload comes out as the rounded mantissa
// without extra pipeline registers.
// Latency: LATENCY cycles, 0..7 (default 6); the registers go to the cuts in the order
// output, after add, after swap, after normalise, after align, after count, input.
// Throughput: one operation per cycle (II = 1).
// Handshake: `en` low freezes the whole pipeline; `in_valid` travels with the operation
// and comes out as `out_valid` LATENCY enabled cycles later. No back-pressure otherwise.
//
// Parameters:
//   LATENCY - pipeline depth in cycles, 0..7
// Ports:
//   clk, rst  - clock and synchronous active-high reset (clears the valid bits)
//   en        - pipeline enable
//   in_valid  - an operation is presented on a, b, sub
//   a, b      - operands (binary64 bit patterns)
//   sub       - 1 to compute a - b
//   out_valid - result holds a finished operation
//   result    - the sum (binary64)
module ohls_dp_add #(
    parameter LATENCY = 6
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        en,
    input  wire        in_valid,
    input  wire [63:0] a,
    input  wire [63:0] b,
    input  wire        sub,
    output wire        out_valid,
    output wire [63:0] result
);
  // Cut k gets a register when LATENCY > RANK_k.
  localparam RANK_IN = 6, RANK_SWAP = 2, RANK_ALIGN = 4, RANK_ADD = 1;
  localparam RANK_LZC = 5, RANK_NORM = 3, RANK_OUT = 0;

  // ---- input cut
  wire [63:0] a0, b0;
  wire        sub0, v0;
  ohls_fp_stage #(
      .W  (129),
      .REG(LATENCY > RANK_IN)
  ) s_in (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(in_valid),
      .in_data({a, b, sub}),
      .out_valid(v0),
      .out_data({a0, b0, sub0})
  );

  // ---- classify and swap so that |x| >= |y|
  wire        sb = b0[63] ^ sub0;
  wire        a_nan = (&a0[62:52]) & (|a0[51:0]);
  wire        b_nan = (&b0[62:52]) & (|b0[51:0]);
  wire        a_inf = (&a0[62:52]) & ~(|a0[51:0]);
  wire        b_inf = (&b0[62:52]) & ~(|b0[51:0]);
  wire        eff_sub0 = a0[63] ^ sb;
  wire        invalid = ~a_nan & ~b_nan & a_inf & b_inf & eff_sub0;
  wire        nan1 = a_nan | b_nan | invalid;
  // The NaN's sign: a's, else b's as given (subsd does not flip it), else the default's.
  wire        nan_sign = a_nan ? a0[63] : b_nan ? b0[63] : 1'b1;
  // A NaN magnitude exceeds every number, so only a NaN `a` needs holding in place.
  wire        swap = (b0[62:0] > a0[62:0]) & ~a_nan;
  wire [62:0] xm = swap ? b0[62:0] : a0[62:0];
  wire [62:0] ym = swap ? a0[62:0] : b0[62:0];
  wire        xs1 = nan1 ? nan_sign : swap ? sb : a0[63];
  // A NaN result adds zero to x: the payload comes through normalisation unchanged.
  wire        eff_sub1 = eff_sub0 & ~nan1;
  // |x| >= |y|, so an infinite operand is always x.
  wire        inf1 = a_inf | b_inf;
  wire [10:0] ex1 = (xm[62:52] == 11'd0) ? 11'd1 : xm[62:52];
  wire [10:0] ey1 = (ym[62:52] == 11'd0) ? 11'd1 : ym[62:52];
  wire [52:0] mx1 = {xm[62:52] != 11'd0, xm[51:0]};
  wire [52:0] my1 = nan1 ? 53'd0 : {ym[62:52] != 11'd0, ym[51:0]};
  wire [10:0] d1 = ex1 - ey1;

  wire xs2, eff_sub2, nan2, inf2, v2;
  wire [10:0] ex2, d2;
  wire [52:0] mx2, my2;
  ohls_fp_stage #(
      .W  (132),
      .REG(LATENCY > RANK_SWAP)
  ) s_swap (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v0),
      .in_data({xs1, eff_sub1, nan1, inf1, ex1, d1, mx1, my1}),
      .out_valid(v2),
      .out_data({xs2, eff_sub2, nan2, inf2, ex2, d2, mx2, my2})
  );

  // ---- align y to x: 3 extra bits (guard, round, sticky)
  wire [55:0] y_al2;
  ohls_fp_shr_sticky #(
      .W (56),
      .SW(11)
  ) u_align (
      .x ({my2, 3'b000}),
      .sh(d2),
      .y (y_al2)
  );

  wire xs3, eff_sub3, nan3, inf3, v3;
  wire [10:0] ex3;
  wire [52:0] mx3;
  wire [55:0] y_al3;
  ohls_fp_stage #(
      .W  (124),
      .REG(LATENCY > RANK_ALIGN)
  ) s_align (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v2),
      .in_data({xs2, eff_sub2, nan2, inf2, ex2, mx2, y_al2}),
      .out_valid(v3),
      .out_data({xs3, eff_sub3, nan3, inf3, ex3, mx3, y_al3})
  );

  // ---- add or subtract magnitudes (x >= y, so the difference is never negative)
  wire [56:0] xw3 = {1'b0, mx3, 3'b000};
  wire [56:0] yw3 = {1'b0, y_al3};
  // One adder for both: x + ~y + 1 subtracts; the +1 enters as a carry through an extra
  // low bit ({x,1} + {~y,1} carries exactly eff_sub into bit 1).
  wire [56:0] yx3 = yw3 ^ {57{eff_sub3}};
  wire [57:0] sumc3 = {xw3, 1'b1} + {yx3, eff_sub3};
  wire [56:0] sum3 = sumc3[57:1];
  wire        unused_carry_in = sumc3[0];

  wire xs4, eff_sub4, nan4, inf4, v4;
  wire [10:0] ex4;
  wire [56:0] sum4;
  ohls_fp_stage #(
      .W  (72),
      .REG(LATENCY > RANK_ADD)
  ) s_add (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v3),
      .in_data({xs3, eff_sub3, nan3, inf3, ex3, sum3}),
      .out_valid(v4),
      .out_data({xs4, eff_sub4, nan4, inf4, ex4, sum4})
  );

  // ---- leading zeros, limited so the exponent does not go below 1 (subnormal result)
  wire [5:0] lz4;
  ohls_fp_lzc #(
      .W (56),
      .CW(6)
  ) u_lzc (
      .x    (sum4[55:0]),
      .count(lz4)
  );
  wire [10:0] room4 = ex4 - 11'd1;
  wire [ 5:0] sh4 = (room4 < {5'b00000, lz4}) ? room4[5:0] : lz4;
  wire        zero4 = ~(|sum4);

  wire xs5, eff_sub5, nan5, inf5, zero5, v5;
  wire [10:0] ex5;
  wire [56:0] sum5;
  wire [ 5:0] sh5;
  ohls_fp_stage #(
      .W  (79),
      .REG(LATENCY > RANK_LZC)
  ) s_lzc (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v4),
      .in_data({xs4, eff_sub4, nan4, inf4, zero4, ex4, sum4, sh4}),
      .out_valid(v5),
      .out_data({xs5, eff_sub5, nan5, inf5, zero5, ex5, sum5, sh5})
  );

  // ---- normalise: one step right on carry out, else left by sh
  wire [55:0] shl5 = sum5[55:0] << sh5;
  wire [52:0] m5 = sum5[56] ? sum5[56:4] : shl5[55:3];
  wire        g5 = sum5[56] ? sum5[3] : shl5[2];
  wire        st5 = sum5[56] ? (|sum5[2:0]) : (|shl5[1:0]);
  wire [11:0] e5 = sum5[56] ? ({1'b0, ex5} + 12'd1) : ({1'b0, ex5} - {6'd0, sh5});
  // Exact cancellation gives +0 in round-to-nearest; -0 only from (-0) + (-0).
  wire        sign5 = zero5 ? (xs5 & ~eff_sub5) : xs5;

  wire sign6, nan6, inf6, g6, st6, v6;
  wire [11:0] e6;
  wire [52:0] m6;
  ohls_fp_stage #(
      .W  (70),
      .REG(LATENCY > RANK_NORM)
  ) s_norm (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v5),
      .in_data({sign5, nan5, inf5, g5, st5, e5, m5}),
      .out_valid(v6),
      .out_data({sign6, nan6, inf6, g6, st6, e6, m6})
  );

  // ---- round and pack
  wire [63:0] rounded6;
  ohls_fp_round #(
      .EW(11),
      .MW(52),
      .XW(12)
  ) u_round (
      .sign  (sign6),
      .exp   (e6),
      .mant  (m6),
      .guard (g6),
      .sticky(st6),
      .rm    (2'd0),
      .result(rounded6)
  );
  wire [63:0] res6 = nan6 ? {sign6, 12'hFFF, m6[50:0]} :
      inf6 ? {sign6, 11'h7FF, 52'd0} : rounded6;

  ohls_fp_stage #(
      .W  (64),
      .REG(LATENCY > RANK_OUT)
  ) s_out (
      .clk(clk),
      .rst(rst),
      .en(en),
      .in_valid(v6),
      .in_data(res6),
      .out_valid(out_valid),
      .out_data(result)
  );
endmodule
